// GET /api/v1/reports/summary: totals and breakdowns of the confirmed occurrences in scope.

import { apiKey } from "../../lib/ads/apikey.ts";
import { NOTICE_ADS, periodMeta, periodMetaSchema, scopeQuery } from "../../lib/ads/params.ts";
import { grantScope, resolveScope, visibleSets } from "../../lib/ads/scope.ts";
import { summarize, type Sums } from "../../lib/ads/figures.ts";
import { brandHead, type Catalog, catalogAt, newestSnapshot } from "../../lib/ads/catalog.ts";
import { DAY_MS, isoUtc } from "../../lib/ads/period.ts";
import type { Scope } from "../../lib/ads/scope.ts";
import { jsonText } from "../../lib/http/router.ts";
import { atOneDataVersion, defineAdsRoute } from "../../lib/ads/wing.ts";
import * as s from "../../lib/http/schema.ts";

const figures = {
  occurrences: s.int({ min: 0, example: 42 }),
  duration_seconds: s.number({ min: 0, example: 1260 }),
  human_confirmed_duration_seconds: s.number({ min: 0, example: 600 }),
};

const summarySchema = s.named(
  "Summary",
  s.object({
    data: s.object({
      totals: s.object(figures),
      by_station: s.array(
        s.object({
          station_id: s.string({ example: "radio-nord" }),
          station_name: s.string({ example: "Radio Nord" }),
          ...figures,
        }),
      ),
      by_brand: s.array(
        s.object({
          brand_id: s.string({ example: "brand-7" }),
          brand_name: s.string({ example: "Fresh Cola" }),
          ...figures,
        }),
      ),
      by_day: s.array(s.object({
        date: s.date("A UTC date the effective period touches."),
        occurrences: figures.occurrences,
        duration_seconds: figures.duration_seconds,
      })),
    }),
    meta: s.object(periodMetaSchema),
  }),
);

/** Item i's figures as the summary writes them; seconds are exact from milliseconds. */
function figuresJson(sums: Float64Array, i: number): string {
  return `"occurrences":${sums[3 * i]},"duration_seconds":${sums[3 * i + 1] / 1000},` +
    `"human_confirmed_duration_seconds":${sums[3 * i + 2] / 1000}`;
}

/**
 * The summary's JSON: totals, every station in scope, every granted brand that occurs (sorted by
 * id) and every UTC date the period touches. Written as text: a thousand brands are the bulk.
 */
function summaryJson(scope: Scope, sums: Sums | null, catalog: Catalog) {
  const zero = new Float64Array(3);
  const figuresOf = (array: Float64Array | undefined, i: number) =>
    array ? figuresJson(array, i) : figuresJson(zero, 0);
  const byStation = (scope.empty ? [] : scope.stations).map((id, i) =>
    `{"station_id":${JSON.stringify(id)},"station_name":${
      JSON.stringify(catalog.stationNames.get(id) ?? id)
    },${figuresOf(sums?.stations, i)}}`
  );
  const byBrand: string[] = [];
  sums?.brands.ids.forEach((id, b) => {
    if (sums.brands.figures[3 * b] === 0) return;
    const head = catalog.brandHeads.get(id) ?? brandHead(id, id);
    byBrand.push(`${head}${figuresJson(sums.brands.figures, b)}}`);
  });
  const period = scope.period;
  const firstDate = period ? Math.floor(period.since.getTime() / DAY_MS) : 0;
  const dateCount = period ? Math.ceil(period.until.getTime() / DAY_MS) - firstDate : 0;
  const byDay = Array.from(
    { length: dateCount },
    (_, i) =>
      `{"date":"${isoUtc((firstDate + i) * DAY_MS).slice(0, 10)}",` +
      `"occurrences":${sums ? sums.dates[3 * i] : 0},` +
      `"duration_seconds":${sums ? sums.dates[3 * i + 1] / 1000 : 0}}`,
  );
  return `{"totals":{${figuresOf(sums?.totals, 0)}},"by_station":[${byStation.join(",")}],` +
    `"by_brand":[${byBrand.join(",")}],"by_day":[${byDay.join(",")}]}`;
}

export const routes = [
  defineAdsRoute({
    method: "GET",
    path: "/api/v1/reports/summary",
    tag: "ads",
    summary: "Aggregations over the permitted data",
    description: "The occurrences /api/v1/ads would list for the same filters, aggregated (no " +
      "paging: limit and offset are rejected). An occurrence with two granted brands counts " +
      "once in totals, by_station and by_day and once under each granted brand in by_brand. " +
      "by_station lists every station in scope and by_day every UTC date the effective period " +
      "touches, with zeros; by_brand lists the granted brands that occur. by_station and " +
      "by_brand are in id order (by character code: 'Z' before 'a', 'br.10' before 'br.9'), " +
      "by_day in date order. " +
      "human_confirmed_duration_seconds sums the durations whose boundaries a person reviewed. " +
      "Whole days come from daily figures and partial days from raw rows, so figures are " +
      "exact. Period rules and order of checks as /api/v1/ads.",
    auth: apiKey("reports:read"),
    query: scopeQuery,
    responses: { 200: { description: "The summary.", schema: summarySchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      const { sql } = principal.reads;
      const { cache } = app.ads;
      const { data, newest } = await atOneDataVersion(principal, async (version) => {
        const sets = visibleSets(sql, cache, scope);
        const sums = scope.empty ? null : await summarize({ sql, cache, version, scope, sets });
        const catalog = await catalogAt(sql, cache, version);
        const newest = await newestSnapshot(sql, cache, grantScope(principal), version);
        return { data: summaryJson(scope, sums, catalog), newest };
      });
      const meta = { ...periodMeta(scope), snapshot_exported_at: newest, notice: NOTICE_ADS };
      return jsonText(`{"data":${data},"meta":${JSON.stringify(meta)}}`);
    },
  }),
];
