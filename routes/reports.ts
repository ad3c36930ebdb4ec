// GET /api/v1/reports/summary: totals and breakdowns of the confirmed occurrences in scope.

import { apiKey } from "../lib/apikey.ts";
import {
  type BrandDaysRow,
  type FigureSql,
  figureSql,
  type HeldFigures,
  leadingCtes,
  newestOccurrenceSnapshot,
  NOTICE_ADS,
  periodMeta,
  periodMetaSchema,
  periodQuery,
  resolveScope,
  runningTotalDays,
  scopeId,
} from "../lib/ads_scope.ts";
import { DAY_MS, dayString, floorDay } from "../lib/period.ts";
import { empty, frag, type Sql } from "../lib/db.ts";
import { readInt64 } from "../lib/encoding.ts";
import { brandOpening, type FigureBrands } from "../lib/figure_brands.ts";
import { defineRoute, jsonText } from "../lib/router.ts";
import { array, int, number, object, string } from "../lib/schema.ts";

const figures = {
  occurrences: int(),
  duration_seconds: number(),
  human_confirmed_duration_seconds: number(),
};

const summarySchema = object({
  data: object({
    totals: object(figures),
    by_station: array(object({ station_id: string(), station_name: string(), ...figures })),
    by_brand: array(object({ brand_id: string(), brand_name: string(), ...figures })),
    by_day: array(object({ date: string(), occurrences: int(), duration_seconds: number() })),
  }),
  meta: object(periodMetaSchema),
});

interface FigureRow extends Partial<BrandDaysRow> {
  kind: "total" | "station" | "day" | "brand";
  key: string | null;
  name: string | null;
  occurrences: number;
  duration_ms: number;
  human_ms: number;
}

function toFigures(row: FigureRow | undefined) {
  return {
    occurrences: row?.occurrences ?? 0,
    duration_seconds: (row?.duration_ms ?? 0) / 1000,
    human_confirmed_duration_seconds: (row?.human_ms ?? 0) / 1000,
  };
}

/**
 * Totals, per station (every station of the scope, with its name), per day (one count per
 * occurrence) and per brand, in one query. The per-brand running totals of whole days
 * (figures.brandDays) ride on the one 'total' row.
 */
function summaryRows(sql: Sql, figures: FigureSql, stations: string[]) {
  return sql<FigureRow>`
    with ${leadingCtes(figures.ctes)}
    f as (${figures.stations}),
    fd as (${figures.days}),
    g as (
      select 'station' as kind, s.id as key, s.name,
             coalesce(sum(f.occurrences), 0)::int8 as occurrences,
             coalesce(sum(f.duration_ms), 0)::int8 as duration_ms,
             coalesce(sum(f.human_ms), 0)::int8 as human_ms
        from ads_stations s left join f on f.station_id = s.id
       where s.id in (select unnest(${stations}::text[]))
       group by s.id, s.name
      union all
      select case grouping(fd.day) when 1 then 'total' else 'day' end, fd.day::text, null,
             sum(fd.occurrences)::int8, sum(fd.duration_ms)::int8, sum(fd.human_ms)::int8
        from fd group by grouping sets ((), (fd.day))
      ${
    figures.brands
      ? frag`union all
      select 'brand', fb.brand_id, br.name, sum(fb.occurrences)::int8, sum(fb.duration_ms)::int8,
             sum(fb.human_ms)::int8
        from (${figures.brands}) fb left join ads_brands br on br.id = fb.brand_id
       group by fb.brand_id, br.name`
      : empty
  }
    )
    select g.*${figures.brandDays ? frag`, v.*` : empty}
      from g
    ${figures.brandDays ? frag`left join (${figures.brandDays}) v on g.kind = 'total'` : empty}`;
}

/** A day's packed running totals (BrandDaysRow), decoded. */
function decodeFigures(base64: string): DataView {
  return new DataView(Uint8Array.fromBase64(base64).buffer);
}

/**
 * Brand i's running total of figure k (0 occurrences, 1 duration_ms, 2 human_ms) in a day's
 * decoded totals; 0 when there is no such day (no data by then).
 */
function packedTotals(view: DataView | null): (i: number, k: number) => number {
  if (!view) return () => 0;
  // Were the totals ever shorter than the pairs, a figure must be 0, never NaN or an exception.
  return (i, k) => i * 24 + k * 8 + 8 <= view.byteLength ? readInt64(view, i * 24 + k * 8) : 0;
}

/**
 * by_brand as JSON text, sorted by id: the whole days' running totals (unfiltered requests),
 * for `brands`, plus the rows per brand the query returned (the partial days, or everything when
 * filtered). Sums stay in milliseconds until the end, so seconds are exact. A thousand brands are
 * the bulk of a summary: each entry is its kept opening (names escaped once, lib/figure_brands.ts)
 * and three numbers. With whole days only and the brands in order (the usual report), entries are
 * written straight from the totals; otherwise they are gathered, merged with the rows and sorted
 * first.
 */
function byBrandJson(
  endFigures: DataView | null,
  startFigures: DataView | null,
  brands: FigureBrands | undefined,
  rows: FigureRow[],
): string {
  const end = packedTotals(endFigures);
  const start = packedTotals(startFigures);
  const entry = (opening: string, occurrences: number, durationMs: number, humanMs: number) =>
    opening + occurrences + ',"duration_seconds":' + durationMs / 1000 +
    ',"human_confirmed_duration_seconds":' + humanMs / 1000 + "}";
  let text = "";
  const add = (json: string) => text += (text ? "," : "") + json;
  if (rows.length === 0 && (brands?.sorted ?? true)) {
    for (let i = 0; i < (brands?.ids.length ?? 0); i++) {
      const count = end(i, 0) - start(i, 0);
      if (count === 0) continue;
      add(entry(brands!.openings[i], count, end(i, 1) - start(i, 1), end(i, 2) - start(i, 2)));
    }
    return "[" + text + "]";
  }
  const ids: string[] = [];
  const openings: string[] = [];
  const occurrences: number[] = [];
  const durationMs: number[] = [];
  const humanMs: number[] = [];
  const figureIds = brands?.ids ?? [];
  for (let i = 0; i < figureIds.length; i++) {
    const count = end(i, 0) - start(i, 0);
    if (count === 0) continue;
    ids.push(figureIds[i]);
    openings.push(brands!.openings[i]);
    occurrences.push(count);
    durationMs.push(end(i, 1) - start(i, 1));
    humanMs.push(end(i, 2) - start(i, 2));
  }
  if (rows.length) {
    const position = new Map(ids.map((id, i) => [id, i]));
    for (const row of rows) {
      const i = position.get(row.key!);
      if (i === undefined) {
        position.set(row.key!, ids.length);
        ids.push(row.key!);
        openings.push(brandOpening(row.key!, row.name));
        occurrences.push(row.occurrences);
        durationMs.push(row.duration_ms);
        humanMs.push(row.human_ms);
      } else {
        occurrences[i] += row.occurrences;
        durationMs[i] += row.duration_ms;
        humanMs[i] += row.human_ms;
      }
    }
  }
  let order = ids.map((_, i) => i);
  if (ids.some((id, i) => i > 0 && ids[i - 1] >= id)) {
    order = order.sort((a, b) => ids[a] < ids[b] ? -1 : 1);
  }
  for (const i of order) add(entry(openings[i], occurrences[i], durationMs[i], humanMs[i]));
  return "[" + text + "]";
}

export const routes = [
  defineRoute({
    method: "GET",
    path: "/api/v1/reports/summary",
    api: "ads",
    tag: "ads",
    summary: "Aggregations over the permitted data",
    description: "The occurrences /api/v1/ads would list for the same filters, aggregated (no " +
      "paging: limit and offset are rejected). An occurrence with two granted brands counts " +
      "once in totals, by_station and by_day and once under each granted brand in by_brand. " +
      "by_station lists every station in scope and by_day every UTC date the effective period " +
      "touches, with zeros; by_brand lists the granted brands that occur. " +
      "human_confirmed_duration_seconds sums the durations whose boundaries a person reviewed. " +
      "Whole days come from daily pre-aggregates and partial days from raw rows, so figures " +
      "are exact. Period rules and order of checks as /api/v1/ads.",
    auth: apiKey("reports:read"),
    query: { ...periodQuery, station_id: scopeId("station"), brand_id: scopeId("brand") },
    responses: { 200: { description: "The summary.", schema: summarySchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      const exportedAt = newestOccurrenceSnapshot(principal);
      // What the service keeps of the account's figures, taken before the query, so that a day
      // the query leaves out is still at hand whatever other requests keep meanwhile.
      const held = app.figureBrands.get(principal.account.id);
      const totalDays = scope.period ? runningTotalDays(scope.period) : null;
      const heldEnd = totalDays ? held?.days.get(totalDays.endDay) : undefined;
      const heldStart = totalDays ? held?.days.get(totalDays.startDay) : undefined;
      const heldFigures: HeldFigures | null = held
        ? { version: held.version, end: heldEnd !== undefined, start: heldStart !== undefined }
        : null;
      const rows = scope.empty
        ? []
        : await summaryRows(app.db.sql, figureSql(scope, heldFigures), scope.stations);
      // One pass: a filtered summary still has a row per brand, a thousand for a large grant.
      let total: FigureRow | undefined;
      const stations = new Map<string | null, FigureRow>();
      const days = new Map<string | null, FigureRow>();
      const brandFigureRows: FigureRow[] = [];
      for (const row of rows) {
        if (row.kind === "brand") brandFigureRows.push(row);
        else if (row.kind === "station") stations.set(row.key, row);
        else if (row.kind === "day") days.set(row.key, row);
        else total = row;
      }
      const dates: string[] = [];
      if (scope.period) {
        for (
          let t = floorDay(scope.period.since).getTime();
          t < scope.period.until.getTime();
          t += DAY_MS
        ) dates.push(dayString(new Date(t)));
      }
      // What is held is of the version the query read.
      const current = held !== undefined && total?.figures_version === held.version;
      // The brands of the whole days' totals: those the query returned (their version was not
      // the one held), else the held ones when they are current.
      const brands = total?.figure_brands
        ? app.figureBrands.put(principal.account.id, total.figures_version!, total.figure_brands)
        : current
        ? held
        : undefined;
      // A day's figures: sent (then kept for the next request), or left out because the ones
      // held are current, or none (no data by that day).
      const figuresOf = (
        day: string | undefined,
        sent: string | null | undefined,
        kept: DataView | undefined,
      ) => {
        // Empty text is a day with no figure brands, not a day left out.
        if (sent === null || sent === undefined) return current ? kept ?? null : null;
        const view = decodeFigures(sent);
        if (brands && day) app.figureBrands.keepDay(principal.account.id, brands, day, view);
        return view;
      };
      const endFigures = figuresOf(totalDays?.endDay, total?.end_figures, heldEnd);
      const startFigures = figuresOf(totalDays?.startDay, total?.start_figures, heldStart);
      const byStation = scope.empty ? [] : scope.stations.map((id) => ({
        station_id: id,
        station_name: stations.get(id)?.name ?? id,
        ...toFigures(stations.get(id)),
      }));
      const byDay = dates.map((date) => ({
        date,
        occurrences: days.get(date)?.occurrences ?? 0,
        duration_seconds: (days.get(date)?.duration_ms ?? 0) / 1000,
      }));
      const meta = { ...periodMeta(scope), snapshot_exported_at: exportedAt, notice: NOTICE_ADS };
      // summarySchema's shape, written out so that by_brand is joined as text (see byBrandJson).
      return jsonText(
        `{"data":{"totals":${JSON.stringify(toFigures(total))},` +
          `"by_station":${JSON.stringify(byStation)},` +
          `"by_brand":${byBrandJson(endFigures, startFigures, brands, brandFigureRows)},` +
          `"by_day":${JSON.stringify(byDay)}},"meta":${JSON.stringify(meta)}}`,
      );
    },
  }),
];
