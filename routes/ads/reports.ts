// GET /api/v1/reports/summary: totals and breakdowns of the confirmed occurrences in scope.

import { apiKey } from "../../lib/ads/apikey.ts";
import { NOTICE_ADS, periodMeta, periodMetaSchema, scopeQuery } from "../../lib/ads/params.ts";
import {
  partialDays,
  partialOccurrences,
  resolveScope,
  type Scope,
  scopedFigures,
  type ScopedIndex,
} from "../../lib/ads/scope.ts";
import { DAY_MS, isoUtc } from "../../lib/ads/period.ts";
import { frag } from "../../lib/db/db.ts";
import { jsonText } from "../../lib/http/router.ts";
import { defineAdsRoute } from "../../lib/ads/wing.ts";
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

interface PartialRow {
  data_version: string;
  /** Null on the one row of a scope without partial figures. */
  station_id: string | null;
  day: string;
  brand_ids: string[];
  occurrences: number;
  duration_ms: number;
  human_ms: number;
}

/**
 * The data version the statement read, and the visible occurrences of the partial days counted
 * per station, UTC day and shown brands.
 */
function partialSql(scope: Scope) {
  return frag`
    select x.data_version, p.*
      from (select (select version::text from ads_data_version) as data_version) x
      left join (
        select v.station_id, to_char(v.ad_started_at at time zone 'UTC', 'YYYY-MM-DD') as day,
               v.brand_ids, count(*)::int8 as occurrences, sum(v.duration_ms)::int8 as duration_ms,
               sum(case when v.duration_precision = 'human_confirmed' then v.duration_ms
                        else 0 end)::int8 as human_ms
          from (${partialOccurrences(scope)}) v
         group by 1, 2, 3) p on true`;
}

/** Occurrences, duration_ms and human_ms of item i at 3 i, 3 i + 1 and 3 i + 2. */
function addFigures(
  sums: Float64Array,
  i: number,
  occurrences: number,
  ms: number,
  humanMs: number,
) {
  sums[3 * i] += occurrences;
  sums[3 * i + 1] += ms;
  sums[3 * i + 2] += humanMs;
}

/** Item i's figures as the summary writes them; seconds are exact from milliseconds. */
function figuresJson(sums: Float64Array, i: number): string {
  return `"occurrences":${sums[3 * i]},"duration_seconds":${sums[3 * i + 1] / 1000},` +
    `"human_confirmed_duration_seconds":${sums[3 * i + 2] / 1000}`;
}

/**
 * The summary's JSON: totals, every station in scope, every granted brand that occurs (sorted by
 * id) and every UTC date the period touches, from the whole days of the figure index and the
 * partial days' rows. Written as text: a thousand brands are the bulk of it.
 */
function summaryJson(view: ScopedIndex, partial: PartialRow[]) {
  const { scope, index } = view;
  const totals = new Float64Array(3);
  const stations = new Float64Array(3 * scope.stations.length);
  const brands = new Float64Array(3 * index.brandIds.length);
  const firstDate = scope.period ? Math.floor(scope.period.since.getTime() / DAY_MS) : 0;
  const dateCount = scope.period ? Math.ceil(scope.period.until.getTime() / DAY_MS) - firstDate : 0;
  const days = new Float64Array(3 * dateCount);
  const add = (
    station: number,
    day: number,
    shown: ArrayLike<number>,
    count: number,
    o: number,
    d: number,
    h: number,
  ) => {
    addFigures(totals, 0, o, d, h);
    addFigures(stations, station, o, d, h);
    addFigures(days, day - firstDate, o, d, h);
    for (let k = 0; k < count; k++) addFigures(brands, shown[k], o, d, h);
  };
  scopedFigures(view, (station, day, f, cell, shown, count) => {
    add(station, day, shown, count, f.occurrences[cell], f.durationMs[cell], f.humanMs[cell]);
  });
  const position = new Map(scope.stations.map((id, i) => [id, i]));
  for (const row of partial) {
    if (row.station_id === null) continue;
    const codes = row.brand_ids.map((id) => index.brandCodes.get(id) ?? -1);
    if (codes.includes(-1)) throw new Error("a brand of the partial days is not in the index");
    const station = position.get(row.station_id)!;
    const day = Date.parse(row.day + "T00:00:00Z") / DAY_MS;
    add(station, day, codes, codes.length, row.occurrences, row.duration_ms, row.human_ms);
  }
  const byStation = (scope.empty ? [] : scope.stations).map((id, i) =>
    `{"station_id":${JSON.stringify(id)},"station_name":${
      JSON.stringify(index.stationNames.get(id) ?? id)
    },${figuresJson(stations, i)}}`
  );
  const byBrand = [...index.brandOrder].filter((code) => brands[3 * code] > 0)
    .map((code) => `{${index.brandJson[code]},${figuresJson(brands, code)}}`);
  const byDay = Array.from(
    { length: dateCount },
    (_, i) =>
      `{"date":"${isoUtc((firstDate + i) * DAY_MS).slice(0, 10)}",` +
      `"occurrences":${days[3 * i]},"duration_seconds":${days[3 * i + 1] / 1000}}`,
  );
  return `{"totals":{${figuresJson(totals, 0)}},"by_station":[${byStation.join(",")}],` +
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
      "touches, with zeros; by_brand lists the granted brands that occur. " +
      "human_confirmed_duration_seconds sums the durations whose boundaries a person reviewed. " +
      "Whole days come from daily figures and partial days from raw rows, so figures are " +
      "exact. Period rules and order of checks as /api/v1/ads.",
    auth: apiKey("reports:read"),
    query: scopeQuery,
    responses: { 200: { description: "The summary.", schema: summarySchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      let index = await app.ads.figureIndex.at(principal.dataVersion);
      let data: string;
      for (let attempt = 1;; attempt++) {
        const granted = await app.ads.grants.brandCodes(principal.reads.sql, scope, index);
        const partial = scope.empty || partialDays(scope).length === 0
          ? []
          : await principal.reads.sql<PartialRow>`${partialSql(scope)}`;
        // An approval committed since the index was read: read both again at the new version.
        if (partial.length && partial[0].data_version !== index.version && attempt < 3) {
          index = await app.ads.figureIndex.at(partial[0].data_version);
          continue;
        }
        data = summaryJson({ scope, index, granted }, partial);
        break;
      }
      const newest = await app.ads.grants.newestSnapshot(principal, index);
      const meta = { ...periodMeta(scope), snapshot_exported_at: newest, notice: NOTICE_ADS };
      return jsonText(`{"data":${data},"meta":${JSON.stringify(meta)}}`);
    },
  }),
];
