// GET /api/v1/ads: confirmed occurrences within the account's scope, one page at a time.

import { apiKey } from "../lib/apikey.ts";
import {
  NOTICE_ADS,
  partialDays,
  periodMeta,
  periodMetaSchema,
  periodQuery,
  resolveScope,
  type Scope,
  scopedOccurrences,
  scopeId,
  wholeDays,
} from "../lib/ads_scope.ts";
import { frag, join } from "../lib/db.ts";
import type { FigureIndex } from "../lib/figure_index.ts";
import { DAY_MS, isoUtc } from "../lib/period.ts";
import { defineRoute, json } from "../lib/router.ts";
import { array, boolean, enumOf, int, number, object, optional, string } from "../lib/schema.ts";

const occurrenceSchema = object({
  id: string({ description: "UUID" }),
  station_id: string(),
  station_name: string(),
  ad_started_at: string({ description: "UTC, ISO 8601 with Z" }),
  ad_ended_at: string({ description: "UTC, ISO 8601 with Z" }),
  duration_seconds: number(),
  duration_precision: enumOf(["estimated", "detected", "human_confirmed"]),
  review_state: enumOf(["confirmed"]),
  brands: array(object({ id: string(), name: string() })),
});

const pageSchema = object({
  data: array(occurrenceSchema),
  meta: object({
    limit: int(),
    offset: int(),
    total: int(),
    has_more: boolean(),
    ...periodMetaSchema,
  }),
});

interface PageRow {
  data_version: string;
  partial_total: number;
  /** How many rows the window held, up to offset + limit; null on the one row of an empty page. */
  reached: number | null;
  id: string | null;
  station_id: string;
  ad_started_at: Date;
  ad_ended_at: Date;
  duration_ms: number;
  duration_precision: string;
  brand_ids: string[];
}

/**
 * One statement: the data version it read, the visible occurrences of the partial days (counted
 * from raw rows), and the page: the visible rows starting in [from, to) in (ad_started_at, id)
 * order, after `offset` of them. The window is chosen to hold the page (see pageWindow), so the
 * rows it reads and sorts are about as many as the page needs; `reached` tells the caller when
 * it held too few. One row at least, so that an empty page still carries the version and count.
 */
function pageSql(scope: Scope, from: Date, to: Date, limit: number, offset: number) {
  const partial = partialDays(scope).map((edge) =>
    frag`(select count(*) from (${scopedOccurrences(scope, edge.since, edge.until)}) e)`
  );
  return frag`
    select x.data_version, x.partial_total, p.*
      from (select (select version::text from ads_data_version) as data_version,
                   (${partial.length ? join(partial, frag` + `) : frag`0`})::int8 as partial_total
           ) x
      left join (select w.*, count(*) over () as reached
                   from (select v.id, v.station_id, v.ad_started_at, v.ad_ended_at, v.duration_ms,
                                v.duration_precision, v.brand_ids
                           from (${scopedOccurrences(scope, from, to)}) v
                          order by v.ad_started_at, v.id
                          limit ${offset + limit}) w
                  order by w.ad_started_at, w.id
                 offset ${offset}) p on true
     order by p.ad_started_at, p.id`;
}

/**
 * Where the page's rows are: `from` (the start of the day the page starts on, whole days before
 * it skipped by their counts), the offset left within it, and a first guess at an end holding
 * `offset + limit` rows: the end of the day where the counts reach that many, or within that day
 * in proportion (with a margin; rows are not spread evenly over a day).
 */
function pageWindow(scope: Scope, perDay: Float64Array, offset: number, limit: number) {
  const { since, until } = scope.period!;
  const days = wholeDays(scope);
  // The counts cover whole days: from a partial first day on, nothing can be skipped or guessed.
  if (!days || since.getTime() !== days.first * DAY_MS) {
    return { from: since, offset, to: new Date(Math.min(until.getTime(), since.getTime() + HOUR)) };
  }
  let day = 0;
  let skipped = 0;
  while (day < perDay.length && skipped + perDay[day] <= offset) skipped += perDay[day++];
  const from = new Date((days.first + day) * DAY_MS);
  let needed = offset - skipped + limit;
  let end = day;
  while (end < perDay.length && perDay[end] < needed) needed -= perDay[end++];
  const guess = end < perDay.length
    ? (days.first + end) * DAY_MS + Math.min(DAY_MS, PAD + 1.25 * DAY_MS * needed / perDay[end])
    : until.getTime();
  return { from, offset: offset - skipped, to: new Date(Math.min(until.getTime(), guess)) };
}

const HOUR = 3_600_000;
/** Added to a guessed window, so that a page near its start is not guessed too short. */
const PAD = 300_000;

export const routes = [
  defineRoute({
    method: "GET",
    path: "/api/v1/ads",
    api: "ads",
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
      ...periodQuery,
      station_id: scopeId("station"),
      brand_id: scopeId("brand"),
      limit: optional(int({ min: 1, max: 100, description: "Page size." }), 50),
      offset: optional(int({ min: 0, max: 100_000 }), 0),
    },
    responses: { 200: { description: "One page.", schema: pageSchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      const meta = {
        limit: query.limit,
        offset: query.offset,
        total: 0,
        has_more: false,
        ...periodMeta(scope),
        snapshot_exported_at: null as string | null,
        notice: NOTICE_ADS,
      };
      if (scope.empty) {
        const index = await app.figureIndex.at(principal.dataVersion);
        meta.snapshot_exported_at = await app.grants.newestSnapshot(app.db.sql, principal, index);
        return json({ data: [], meta });
      }
      let version = principal.dataVersion;
      let index: FigureIndex;
      let perDay: Float64Array;
      let rows: PageRow[];
      for (let attempt = 1;; attempt++) {
        index = await app.figureIndex.at(version);
        perDay = await app.grants.occurrencesPerDay(app.db.sql, principal, scope, index);
        const window = pageWindow(scope, perDay, query.offset, query.limit);
        const { from, offset } = window;
        for (let to = window.to;;) {
          rows = await app.db.sql<PageRow>`${pageSql(scope, from, to, query.limit, offset)}`;
          const reached = rows[0].reached ?? 0;
          if (reached >= offset + query.limit || to >= scope.period!.until) break;
          // Too few rows in the window: a wider one, up to the period's end.
          const span = Math.max(to.getTime() - from.getTime(), HOUR);
          to = new Date(Math.min(scope.period!.until.getTime(), from.getTime() + 4 * span));
        }
        // An approval committed since the index was read: read both again at the new version.
        if (rows[0].data_version === index.version || attempt === 3) break;
        version = rows[0].data_version;
      }
      const data = rows!.filter((row) => row.id !== null);
      meta.total = perDay!.reduce((sum, n) => sum + n, 0) + rows![0].partial_total;
      meta.has_more = data.length > 0 && query.offset + data.length < meta.total;
      meta.snapshot_exported_at = await app.grants.newestSnapshot(app.db.sql, principal, index!);
      const brandName = (id: string) => index!.brandNames[index!.brandCodes.get(id)!] ?? id;
      return json({
        data: data.map((row) => ({
          id: row.id,
          station_id: row.station_id,
          station_name: index!.stationNames.get(row.station_id) ?? row.station_id,
          ad_started_at: isoUtc(row.ad_started_at),
          ad_ended_at: isoUtc(row.ad_ended_at),
          duration_seconds: row.duration_ms / 1000,
          duration_precision: row.duration_precision,
          review_state: "confirmed",
          // Only the granted brands, as the scope selects them.
          brands: row.brand_ids.map((id) => ({ id, name: brandName(id) })),
        })),
        meta,
      });
    },
  }),
];
