// GET /api/v1/ads: confirmed occurrences within the account's scope, one page at a time.

import { apiKey } from "../../lib/ads/apikey.ts";
import {
  brandSchema,
  NOTICE_ADS,
  periodMeta,
  periodMetaSchema,
  scopeQuery,
} from "../../lib/ads/params.ts";
import { resolveScope, type Scope, scopedOccurrences, visibleSets } from "../../lib/ads/scope.ts";
import { occurrencesPerDay, partialDays, type ReadAt, wholeDays } from "../../lib/ads/figures.ts";
import { countVisible, locatePage } from "../../lib/ads/walker.ts";
import { catalogAt, newestSnapshot } from "../../lib/ads/catalog.ts";
import { DataMoved } from "../../lib/ads/blocks.ts";
import { grantScope } from "../../lib/ads/scope.ts";
import { frag, type Sql } from "../../lib/db/db.ts";
import { DAY_MS, isoUtc } from "../../lib/ads/period.ts";
import { json } from "../../lib/http/router.ts";
import { atOneDataVersion, defineAdsRoute } from "../../lib/ads/wing.ts";
import * as s from "../../lib/http/schema.ts";

const occurrenceSchema = s.named(
  "Occurrence",
  s.object({
    id: s.uuid(),
    station_id: s.string({ example: "radio-nord" }),
    station_name: s.string({ example: "Radio Nord" }),
    ad_started_at: s.dateTime(),
    ad_ended_at: s.dateTime(),
    duration_seconds: s.number({ min: 0, example: 30 }),
    duration_precision: s.enumOf(["estimated", "detected", "human_confirmed"]),
    review_state: s.enumOf(["confirmed"]),
    brands: s.array(brandSchema, {
      description: "Only the granted brands, in id order by character code ('Z' before 'a').",
    }),
  }, {
    example: {
      id: "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
      station_id: "radio-nord",
      station_name: "Radio Nord",
      ad_started_at: "2026-11-20T08:15:30Z",
      ad_ended_at: "2026-11-20T08:16:00Z",
      duration_seconds: 30,
      duration_precision: "detected",
      review_state: "confirmed",
      brands: [{ id: "brand-7", name: "Fresh Cola" }],
    },
  }),
);

const pageSchema = s.named(
  "OccurrencePage",
  s.object({
    data: s.array(occurrenceSchema),
    meta: s.object({
      limit: s.int({ example: 50 }),
      offset: s.int({ example: 0 }),
      total: s.int({ min: 0, example: 1 }),
      has_more: s.boolean(),
      ...periodMetaSchema,
    }),
  }),
);

interface PageRow {
  data_version: string;
  id: string;
  station_id: string;
  ad_started_at: Date;
  ad_ended_at: Date;
  duration_ms: number;
  duration_precision: string;
  brand_set: number;
}

/**
 * The page's rows (where locatePage found them) in (ad_started_at, id) order, each with the data
 * version the statement read.
 */
function pageSql(
  page: { scope: Scope; since: Date; until: Date; skip: number; sets: number[] },
  limit: number,
) {
  const scoped = scopedOccurrences(page.scope, page.since, page.until, page.sets);
  // The version comes as a row of its own, which an empty page keeps (id null there).
  return frag`
    select d.version::text as data_version, v.id, v.station_id,
           v.ad_started_at, v.ad_ended_at, v.duration_ms, v.duration_precision, v.brand_set
      from ads_data_version d
      left join (select o.* from (${scoped}) o order by o.ad_started_at, o.id
                 offset ${page.skip} limit ${limit}) v on true
     order by v.ad_started_at, v.id`;
}

/**
 * Where to look for the page: from the start of the day it begins on, with what is left of the
 * offset, the partial first day and the whole days before that day skipped by their counts.
 */
function pageStart(scope: Scope, perDay: Float64Array, firstPartial: number, offset: number) {
  const days = wholeDays(scope);
  if (!days || offset < firstPartial) return { from: scope.period!.since.getTime(), offset };
  let left = offset - firstPartial;
  let day = 0;
  while (day < perDay.length && perDay[day] <= left) left -= perDay[day++];
  return { from: (days.first + day) * DAY_MS, offset: left };
}

/**
 * The page and the total at data version `version`; the page's statement runs on `keptPlans`
 * (its generic plan is kept: it is the same for every page).
 */
async function pageAt(r: ReadAt, keptPlans: Sql, offset: number, limit: number) {
  const { scope } = r;
  if (scope.empty) return { rows: [] as (PageRow & { brand_ids: string[] })[], total: 0 };
  const perDay = await occurrencesPerDay(r);
  // The partial first and last day, counted from the records.
  const edges = partialDays(scope);
  const partial = [];
  for (const edge of edges) {
    partial.push(await countVisible(r, edge.since.getTime(), edge.until.getTime()));
  }
  const total = [...perDay, ...partial].reduce((sum, n) => sum + n, 0);
  const firstPartial = edges[0]?.since.getTime() === scope.period!.since.getTime() ? partial[0] : 0;
  const start = pageStart(scope, perDay, firstPartial, offset);
  const page = await locatePage(r, start.from, start.offset, limit);
  const read = page ? await keptPlans<PageRow>`${pageSql(page, limit)}` : [];
  // An approval committed since the figures were read: all of it again at the new version,
  // checked on an empty page too. (No visible row: the grant was replaced since the key lookup.)
  if (read.length && read[0].data_version !== r.version) throw new DataMoved(read[0].data_version);
  // Each row shows what its set shows the request, as the page's sets were chosen by.
  const rows = read.filter((row) => row.id !== null)
    .map((row) => ({ ...row, brand_ids: r.sets.shown(row.brand_set)! }));
  return { rows, total };
}

export const routes = [
  defineAdsRoute({
    method: "GET",
    path: "/api/v1/ads",
    tag: "ads",
    summary: "Confirmed occurrences within the account scope",
    description: "Only confirmed occurrences of approved snapshots whose station is granted, " +
      "whose ad_started_at lies in the granted period and that carry at least one granted " +
      "brand; brands lists only the granted ones. The scope is applied in SQL before counting " +
      "and paging. Ordered by ad_started_at, then id. The effective period is the requested " +
      "one (default: the 7 days before until; until defaults to now and is exclusive; at most " +
      "31 days) intersected with the grant: meta shows both, and period is null when they do " +
      "not overlap (empty result). duration_seconds = ad_ended_at - ad_started_at. A page past " +
      "the end is empty, with the total and has_more false. " +
      "Order of checks: 401, 403, 429, 422, 404.",
    auth: apiKey("ads:read"),
    query: {
      ...scopeQuery,
      limit: s.optional(s.int({ min: 1, max: 100, description: "Page size." }), 50),
      offset: s.optional(s.int({ min: 0, max: 100_000 }), 0),
    },
    responses: { 200: { description: "One page.", schema: pageSchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      const { sql, keptPlans } = principal.reads;
      const { cache } = app.ads;
      const { rows, total, catalog, newest } = await atOneDataVersion(
        principal,
        async (version) => {
          const sets = visibleSets(sql, cache, scope);
          const { rows, total } = await pageAt(
            { sql, cache, version, scope, sets },
            keptPlans,
            query.offset,
            query.limit,
          );
          const catalog = await catalogAt(sql, cache, version);
          const newest = await newestSnapshot(sql, cache, grantScope(principal), version);
          return { rows, total, catalog, newest };
        },
      );
      const brandName = (id: string) => catalog.brandNames.get(id) ?? id;
      return json({
        data: rows.map((row) => ({
          id: row.id,
          station_id: row.station_id,
          station_name: catalog.stationNames.get(row.station_id) ?? row.station_id,
          ad_started_at: isoUtc(row.ad_started_at),
          ad_ended_at: isoUtc(row.ad_ended_at),
          duration_seconds: row.duration_ms / 1000,
          duration_precision: row.duration_precision,
          review_state: "confirmed",
          // Only the granted brands, as the scope selects them.
          brands: row.brand_ids.map((id) => ({ id, name: brandName(id) })),
        })),
        meta: {
          limit: query.limit,
          offset: query.offset,
          total,
          has_more: rows.length > 0 && query.offset + rows.length < total,
          ...periodMeta(scope),
          snapshot_exported_at: newest,
          notice: NOTICE_ADS,
        },
      });
    },
  }),
];
