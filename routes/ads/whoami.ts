// GET /api/v1/whoami: the caller's account, key, permissions, scope and limits.

import { grantedBrandsSql } from "../../lib/ads/scope.ts";
import { apiKey, PERMISSIONS } from "../../lib/ads/apikey.ts";
import { DEFAULT_PERIOD_DAYS, isoUtc, MAX_PERIOD_DAYS, periodJson } from "../../lib/ads/period.ts";
import { json } from "../../lib/http/router.ts";
import { defineAdsRoute } from "../../lib/ads/wing.ts";
import { brandSchema, periodSchema, stationSchema } from "../../lib/ads/params.ts";
import * as s from "../../lib/http/schema.ts";

const bounds = (min: number, max: number, fallback: number) =>
  s.object({
    min: s.int({ example: min }),
    max: s.int({ example: max }),
    default: s.int({ example: fallback }),
  });

const whoamiSchema = s.named(
  "Whoami",
  s.object({
    data: s.object({
      account: s.object({
        id: s.string({ example: "acme-media" }),
        name: s.string({ example: "Acme Media" }),
      }),
      key: s.object({
        id: s.uuid(),
        prefix: s.string({ example: "onda_ads_Q3vx" }),
        label: s.nullable(s.string({ example: "reporting script" })),
        created_at: s.dateTime(),
      }),
      permissions: s.array(s.enumOf(PERMISSIONS)),
      scope: s.object({
        stations: s.array(stationSchema),
        brands: s.array(brandSchema),
        period: s.nullable(periodSchema),
      }),
      limits: s.object({
        requests_per_minute: s.int({ min: 1, example: 60 }),
        default_period_days: s.int({ example: DEFAULT_PERIOD_DAYS }),
        max_period_days: s.int({ example: MAX_PERIOD_DAYS }),
        limit: bounds(1, 100, 50),
        offset: bounds(0, 100_000, 0),
      }),
    }),
  }),
);

export const routes = [
  defineAdsRoute({
    method: "GET",
    path: "/api/v1/whoami",
    tag: "ads",
    summary: "The account and its effective permissions",
    description: "Needs only a valid key (no permission). Lists the key's permissions, the " +
      "granted stations and brands that exist (in id order by character code: 'Z' before " +
      "'a'), the granted period (null when the account has no grant) and every limit of the " +
      "API. Counts against the rate limit.",
    auth: apiKey(null),
    responses: { 200: { description: "The caller.", schema: whoamiSchema } },
    errors: [401, 422, 429, 503],
    handler: async ({ app, principal }) => {
      const [names] = await principal.reads.sql<{ stations: unknown; brands: unknown }>`
        select
          coalesce((select json_agg(json_build_object('id', s.id, 'name', s.name)
                                    order by s.id collate "C")
                      from ads_stations s where s.id = any(${principal.stations}::text[])),
                   '[]'::json) as stations,
          coalesce((select json_agg(json_build_object('id', b.id, 'name', b.name)
                                    order by b.id collate "C")
                      from ads_brands b
                     where b.id in (select unnest(${
        grantedBrandsSql({ accountId: principal.account.id, grantVersion: principal.grantVersion })
      }))),
                   '[]'::json) as brands`;
      return json({
        data: {
          account: principal.account,
          key: { ...principal.key, created_at: isoUtc(principal.key.created_at) },
          permissions: principal.permissions,
          scope: {
            stations: names.stations,
            brands: names.brands,
            period: periodJson(principal.period),
          },
          limits: {
            requests_per_minute: app.config.rateLimitKeyPerMinute,
            default_period_days: DEFAULT_PERIOD_DAYS,
            max_period_days: MAX_PERIOD_DAYS,
            limit: { min: 1, max: 100, default: 50 },
            offset: { min: 0, max: 100_000, default: 0 },
          },
        },
      });
    },
  }),
];
