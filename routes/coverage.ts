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
  /** [from, until] of each gap between two runs, unordered; null when there is none. */
  gaps: [number, number][] | null;
  /** The snapshots whose captures were used (the same on every row), by exported_at, id. */
  snapshot_ids: string[];
  snapshot_ms: number[];
}

/**
 * The scope's capture runs (ads_capture_runs) that overlap the period, clipped to it, so
 * nothing outside the grant (not even a run's true start) is revealed: one index range for the
 * runs starting inside the period, and per station one backward probe for the run that began
 * before it, so the scan never starts at the beginning of time, however long a run lasts.
 */
function runsInPeriod(scope: Scope) {
  const { since, until } = scope.period!;
  return frag`
    select r.station_id, r.started_at, r.ended_at, r.captures, r.snapshot_seqs,
           r.capture_starts, r.capture_ends, r.prev_ended_at,
           greatest(r.started_at, ${since}::timestamptz) as s,
           least(r.ended_at, ${until}::timestamptz) as e,
           r.started_at >= ${since}::timestamptz and r.ended_at <= ${until}::timestamptz
             as inside
      from (
        select r.* from ads_capture_runs r
         where r.station_id = any(${scope.stations}::text[])
           and r.started_at >= ${since}::timestamptz and r.started_at < ${until}::timestamptz
        union all
        select b.* from unnest(${scope.stations}::text[]) as st(id)
         cross join lateral (
           select p.* from ads_capture_runs p
            where p.station_id = st.id and p.started_at < ${since}::timestamptz
            order by p.started_at desc limit 1
         ) b
         where b.ended_at > ${since}::timestamptz
      ) r`;
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
      // One query. A run wholly inside the period gives its figures as they are; a run that
      // crosses the period's start or end is clipped, and its captures that reach into the
      // period are counted from its sorted starts and ends (sql/007_capture_run_bounds.sql):
      // those starting before `until`, less those ending by `since`. Its snapshots are its own
      // when it has one; only a run that mixes snapshots reads its raw captures that reach into
      // the period, to name theirs. Every approved capture of a station that starts within one
      // of its runs belongs to that run, and those reaching past `since` start at most the
      // longest approved capture before it: that index range starts near the edge, not at the
      // beginning of a long run.
      const stations = await app.db.sql<StationRow>`
          with r as (${runsInPeriod(scope)}),
          k as (
            select r.station_id, r.s, r.e,
                   case when r.inside then r.captures
                        else width_bucket(${until}::timestamptz - interval '1 microsecond',
                                          r.capture_starts) -
                             width_bucket(${since}::timestamptz, r.capture_ends)
                   end as captures,
                   case when r.inside or cardinality(r.snapshot_seqs) = 1 then r.snapshot_seqs
                        else (
                          select array_agg(distinct c.snapshot_seq)
                            from ads_captures c
                           where c.station_id = r.station_id
                             and c.started_at >= greatest(r.started_at, ${since}::timestamptz -
                                   make_interval(secs => (
                                     select coalesce(max(max_capture_seconds), 0)
                                       from ads_snapshots where approved_at is not null)))
                             and c.started_at < least(r.ended_at, ${until}::timestamptz)
                             and c.ended_at > ${since}::timestamptz
                             and c.snapshot_seq in (select seq from ads_snapshots
                                                     where approved_at is not null))
                   end as snapshot_seqs,
                   -- A gap between two runs: the run before this one reaches into the period
                   -- (for a run that crosses since, the gap before it is the period's edge).
                   r.prev_ended_at > ${since}::timestamptz and
                     r.started_at - r.prev_ended_at > make_interval(secs => ${gapSeconds})
                     as gap_before,
                   r.prev_ended_at
              from r
          ),
          agg as (
            select k.station_id, sum(k.captures)::int8 as captures,
                   sum(extract(epoch from k.e - k.s))::float8 as captured_seconds,
                   (extract(epoch from min(k.s)) * 1000)::float8 as first_ms,
                   (extract(epoch from max(k.e)) * 1000)::float8 as last_ms,
                   -- Pairs [end of the run before, start of this one] in no particular order (an
                   -- ordered aggregate sorts every station's group): the handler orders them.
                   to_json(array_agg(array[extract(epoch from k.prev_ended_at) * 1000,
                                           extract(epoch from k.s) * 1000]::float8[])
                             filter (where k.gap_before))
                     as gaps
              from k group by k.station_id
          )
          select st.id, st.name, coalesce(agg.captures, 0)::int8 as captures,
                 coalesce(agg.captured_seconds, 0)::float8 as captured_seconds,
                 agg.first_ms, agg.last_ms, agg.gaps,
                 p.snapshot_ids, p.snapshot_ms
            from ads_stations st
            left join agg on agg.station_id = st.id
           cross join (
             select coalesce(array_agg(sn.id order by sn.exported_at, sn.id), '{}')
                      as snapshot_ids,
                    coalesce(array_agg(floor(extract(epoch from sn.exported_at) * 1000)::float8
                                       order by sn.exported_at, sn.id), '{}') as snapshot_ms
               from ads_snapshots sn
              where sn.seq in (select unnest(k.snapshot_seqs) from k)
           ) p
           where st.id in (select unnest(${scope.stations}::text[]))
           order by st.id`;
      meta.snapshot_exported_at = newestOccurrenceSnapshot(principal);
      const first = stations[0];
      meta.provenance = (first?.snapshot_ids ?? []).map((id, i) => ({
        snapshot_id: id,
        exported_at: isoUtc(first.snapshot_ms[i]),
      }));
      const periodMs = until.getTime() - since.getTime();
      const gap = (from: number, to: number) => ({
        since: isoUtc(from),
        until: isoUtc(to),
        seconds: (to - from) / 1000,
      });
      return json({
        data: stations.map((row) => {
          const gaps = [];
          const first = row.first_ms ?? until.getTime();
          if (first - since.getTime() > gapSeconds * 1000) gaps.push(gap(since.getTime(), first));
          const between = row.gaps ?? [];
          if (between.some((pair, i) => i > 0 && between[i - 1][0] > pair[0])) {
            between.sort((a, b) => a[0] - b[0]);
          }
          for (const [from, to] of between) gaps.push(gap(from, to));
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
            first_capture_at: row.first_ms === null ? null : isoUtc(row.first_ms),
            last_capture_at: row.last_ms === null ? null : isoUtc(row.last_ms),
            gaps,
          };
        }),
        meta,
      });
    },
  }),
];
