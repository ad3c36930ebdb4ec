// GET /api/v1/coverage: per granted station, how much of the period its linked captures cover.

import { apiKey } from "../lib/apikey.ts";
import {
  newestOccurrenceSnapshot,
  NOTICE_COVERAGE,
  periodMeta,
  periodMetaSchema,
  periodQuery,
  resolveScope,
  type Scope,
  scopeId,
} from "../lib/ads_scope.ts";
import { frag } from "../lib/db.ts";
import { DEFAULT_PERIOD_DAYS, isoUtc, MAX_PERIOD_DAYS } from "../lib/period.ts";
import { defineRoute, json } from "../lib/router.ts";
import { array, int, nullable, number, object, string } from "../lib/schema.ts";

const gapSchema = object({ since: string(), until: string(), seconds: number() });

const coverageSchema = object({
  data: array(object({
    station_id: string(),
    station_name: string(),
    captures: int(),
    captured_seconds: number(),
    period_seconds: number(),
    coverage_ratio: number(),
    first_capture_at: nullable(string()),
    last_capture_at: nullable(string()),
    gaps: array(gapSchema),
  })),
  meta: object({
    ...periodMetaSchema,
    limits: object({
      gap_threshold_seconds: int(),
      default_period_days: int(),
      max_period_days: int(),
    }),
    provenance: array(object({ snapshot_id: string(), exported_at: string() })),
  }),
});

interface StationRow {
  id: string;
  name: string;
  captures: number;
  captured_seconds: number;
  first_ms: number | null;
  last_ms: number | null;
  gap_from: number[] | null;
  gap_until: number[] | null;
  /** The snapshots whose captures were used (the same on every row), by exported_at, id. */
  snapshot_ids: string[];
  snapshot_ms: number[];
}

/**
 * Approved captures of the scope's stations clipped to the period, so nothing outside the
 * grant (not even a capture's true start) is revealed. The lower bound on started_at uses the
 * longest approved capture, so the index range starts near the period instead of at the
 * beginning of time.
 */
function clippedCaptures(scope: Scope) {
  const { since, until } = scope.period!;
  return frag`
    select c.station_id, c.snapshot_seq,
           greatest(c.started_at, ${since}::timestamptz) as s,
           least(c.ended_at, ${until}::timestamptz) as e
      from ads_captures c
     where c.station_id = any(${scope.stations}::text[])
       and c.started_at < ${until}::timestamptz and c.ended_at > ${since}::timestamptz
       and c.started_at >= ${since}::timestamptz - make_interval(secs => (
             select coalesce(max(max_capture_seconds), 0) from ads_snapshots
              where approved_at is not null))
       and c.snapshot_seq in (select seq from ads_snapshots where approved_at is not null)`;
}

export const routes = [
  defineRoute({
    method: "GET",
    path: "/api/v1/coverage",
    api: "ads",
    tag: "ads",
    summary: "Coverage of the granted sources, with limits and provenance",
    description: "Accepts since, until and station_id with the period rules of /api/v1/ads " +
      "(brand_id, limit and offset are rejected: captures belong to stations, not brands). For " +
      "each station in scope, sorted by id: captures overlapping the effective period, the " +
      "seconds they cover (overlaps counted once, clipped to the period), the period length, " +
      "their ratio, the first and last captured moments, and the gaps longer than " +
      "COVERAGE_GAP_SECONDS (default 300) between captures and at the period's edges. Only " +
      "captures of approved snapshots for granted stations within the granted period count; " +
      "this does not measure continuous operation of a station. meta.provenance lists the " +
      "snapshots whose captures were used. data is empty when the requested and granted " +
      "periods do not overlap.",
    auth: apiKey("coverage:read"),
    query: { ...periodQuery, station_id: scopeId("station") },
    responses: { 200: { description: "Coverage per station.", schema: coverageSchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      const gapSeconds = app.config.coverageGapSeconds;
      const meta = {
        ...periodMeta(scope),
        snapshot_exported_at: null as string | null,
        notice: NOTICE_COVERAGE,
        limits: {
          gap_threshold_seconds: gapSeconds,
          default_period_days: DEFAULT_PERIOD_DAYS,
          max_period_days: MAX_PERIOD_DAYS,
        },
        provenance: [] as { snapshot_id: string; exported_at: string }[],
      };
      if (!scope.period || scope.stations.length === 0) {
        meta.snapshot_exported_at = newestOccurrenceSnapshot(principal);
        return json({ data: [], meta });
      }
      const { since, until } = scope.period;
      // One query: the captures are read once, for the figures and for the provenance.
      const stations = await app.db.sql<StationRow>`
          with c as (${clippedCaptures(scope)}),
          w as (
            select c.*, max(c.e) over (partition by c.station_id order by c.s, c.e
                                       rows between unbounded preceding and 1 preceding) as prev
              from c
          ),
          agg as (
            select w.station_id, count(*)::int8 as captures,
                   sum(greatest(0, extract(epoch from
                     w.e - greatest(w.s, coalesce(w.prev, w.s)))))::float8 as captured_seconds,
                   (extract(epoch from min(w.s)) * 1000)::float8 as first_ms,
                   (extract(epoch from max(w.e)) * 1000)::float8 as last_ms,
                   array_agg((extract(epoch from w.prev) * 1000)::float8 order by w.s, w.e)
                     filter (where w.s > w.prev + make_interval(secs => ${gapSeconds}))
                     as gap_from,
                   array_agg((extract(epoch from w.s) * 1000)::float8 order by w.s, w.e)
                     filter (where w.s > w.prev + make_interval(secs => ${gapSeconds}))
                     as gap_until
              from w group by w.station_id
          )
          select st.id, st.name, coalesce(agg.captures, 0)::int8 as captures,
                 coalesce(agg.captured_seconds, 0)::float8 as captured_seconds,
                 agg.first_ms, agg.last_ms, agg.gap_from, agg.gap_until,
                 p.snapshot_ids, p.snapshot_ms
            from ads_stations st
            left join agg on agg.station_id = st.id
           cross join (
             select coalesce(array_agg(sn.id order by sn.exported_at, sn.id), '{}')
                      as snapshot_ids,
                    coalesce(array_agg(floor(extract(epoch from sn.exported_at) * 1000)::float8
                                       order by sn.exported_at, sn.id), '{}') as snapshot_ms
               from ads_snapshots sn
              where sn.seq in (select c.snapshot_seq from c)
           ) p
           where st.id = any(${scope.stations}::text[])
           order by st.id`;
      meta.snapshot_exported_at = newestOccurrenceSnapshot(principal);
      const first = stations[0];
      meta.provenance = (first?.snapshot_ids ?? []).map((id, i) => ({
        snapshot_id: id,
        exported_at: isoUtc(new Date(first.snapshot_ms[i])),
      }));
      const periodMs = until.getTime() - since.getTime();
      const gap = (from: number, to: number) => ({
        since: isoUtc(new Date(from)),
        until: isoUtc(new Date(to)),
        seconds: (to - from) / 1000,
      });
      return json({
        data: stations.map((row) => {
          const gaps = [];
          const first = row.first_ms ?? until.getTime();
          if (first - since.getTime() > gapSeconds * 1000) gaps.push(gap(since.getTime(), first));
          (row.gap_from ?? []).forEach((from, i) => gaps.push(gap(from, row.gap_until![i])));
          const last = row.last_ms ?? until.getTime();
          if (row.last_ms !== null && until.getTime() - last > gapSeconds * 1000) {
            gaps.push(gap(last, until.getTime()));
          }
          return {
            station_id: row.id,
            station_name: row.name,
            captures: row.captures,
            captured_seconds: Math.round(row.captured_seconds * 1000) / 1000,
            period_seconds: periodMs / 1000,
            coverage_ratio: Math.round((row.captured_seconds * 1000 / periodMs) * 1e6) / 1e6,
            first_capture_at: row.first_ms === null ? null : isoUtc(new Date(row.first_ms)),
            last_capture_at: row.last_ms === null ? null : isoUtc(new Date(row.last_ms)),
            gaps,
          };
        }),
        meta,
      });
    },
  }),
];
