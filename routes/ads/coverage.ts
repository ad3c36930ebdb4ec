// GET /api/v1/coverage: per granted station, how much of the period its linked captures cover.

import { apiKey } from "../../lib/ads/apikey.ts";
import { NOTICE_COVERAGE, periodMeta, periodMetaSchema, scopeQuery } from "../../lib/ads/params.ts";
import { grantScope, resolveScope, visibleSets } from "../../lib/ads/scope.ts";
import { coverageOf, type StationCoverage } from "../../lib/ads/coverage.ts";
import { catalogAt, newestSnapshot } from "../../lib/ads/catalog.ts";
import { DEFAULT_PERIOD_DAYS, isoUtc, MAX_PERIOD_DAYS } from "../../lib/ads/period.ts";
import { json } from "../../lib/http/router.ts";
import { atOneDataVersion, defineAdsRoute } from "../../lib/ads/wing.ts";
import * as s from "../../lib/http/schema.ts";

const gapSchema = s.named(
  "CoverageGap",
  s.object({
    since: s.dateTime(),
    until: s.dateTime(),
    seconds: s.number({ min: 0, example: 900 }),
  }, { description: "A stretch without captures longer than the gap threshold." }),
);

const stationCoverage = s.named(
  "StationCoverage",
  s.object({
    station_id: s.string({ example: "radio-nord" }),
    station_name: s.string({ example: "Radio Nord" }),
    captures: s.int({ min: 0, example: 12 }),
    captured_seconds: s.number({ min: 0, example: 594000 }),
    period_seconds: s.number({ min: 0, example: 604800 }),
    coverage_ratio: s.number({ min: 0, max: 1, example: 0.982143 }),
    first_capture_at: s.nullable(s.dateTime()),
    last_capture_at: s.nullable(s.dateTime()),
    gaps: s.array(gapSchema),
  }),
);

const coverageSchema = s.named(
  "Coverage",
  s.object({
    data: s.array(stationCoverage),
    meta: s.object({
      ...periodMetaSchema,
      notice: s.string({ example: NOTICE_COVERAGE }),
      limits: s.object({
        gap_threshold_seconds: s.int({ min: 1, example: 300 }),
        default_period_days: s.int({ example: DEFAULT_PERIOD_DAYS }),
        max_period_days: s.int({ example: MAX_PERIOD_DAYS }),
      }),
      provenance: s.array(
        s.object({ snapshot_id: s.string({ example: "2026-11-19" }), exported_at: s.dateTime() }),
      ),
    }),
  }),
);

export const routes = [
  defineAdsRoute({
    method: "GET",
    path: "/api/v1/coverage",
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
      "snapshots whose captures were used, by exported_at, then id. data is empty when the " +
      "requested and granted periods do not overlap. An approval is reflected from the next " +
      "request on.",
    auth: apiKey("coverage:read"),
    query: { since: scopeQuery.since, until: scopeQuery.until, station_id: scopeQuery.station_id },
    responses: { 200: { description: "Coverage per station.", schema: coverageSchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      const gapSeconds = app.config.coverageGapSeconds;
      const { sql } = principal.reads;
      const { cache } = app.ads;
      const read = await atOneDataVersion(principal, async (version) => {
        const newest = await newestSnapshot(sql, cache, grantScope(principal), version);
        const catalog = await catalogAt(sql, cache, version);
        const used = new Set<number>();
        let stations: StationCoverage[] = [];
        if (!scope.empty) {
          // Captures belong to stations: no brand set is looked at.
          const r = { sql, cache, version, scope, sets: visibleSets(sql, cache, scope) };
          stations = await coverageOf(r, gapSeconds * 1e6, used);
        }
        return { newest, catalog, used, stations };
      });
      const { catalog, stations } = read;
      const meta = {
        ...periodMeta(scope),
        snapshot_exported_at: read.newest,
        notice: NOTICE_COVERAGE,
        limits: {
          gap_threshold_seconds: gapSeconds,
          default_period_days: DEFAULT_PERIOD_DAYS,
          max_period_days: MAX_PERIOD_DAYS,
        },
        provenance: [...read.used].map((seq) => catalog.snapshots.get(seq)!)
          .sort((a, b) => a.exportedMs - b.exportedMs || (a.id < b.id ? -1 : 1))
          .map((snapshot) => ({
            snapshot_id: snapshot.id,
            exported_at: isoUtc(snapshot.exportedMs),
          })),
      };
      if (!scope.period || scope.empty) return json({ data: [], meta });
      const sinceUs = scope.period.since.getTime() * 1000;
      const untilUs = scope.period.until.getTime() * 1000;
      // In milliseconds from here, as the response's instants and seconds are written.
      const periodMs = (untilUs - sinceUs) / 1000;
      const instant = (us: number | null) => us === null ? null : isoUtc(us / 1000);
      return json({
        data: stations.map((row) => {
          const capturedSeconds = row.capturedUs / 1_000_000;
          return {
            station_id: row.id,
            station_name: catalog.stationNames.get(row.id) ?? row.id,
            captures: row.captures,
            captured_seconds: Math.round(capturedSeconds * 1000) / 1000,
            period_seconds: periodMs / 1000,
            coverage_ratio: Math.round((capturedSeconds * 1000 / periodMs) * 1e6) / 1e6,
            first_capture_at: instant(row.firstUs),
            last_capture_at: instant(row.lastUs),
            gaps: row.gaps.map(([from, to]) => ({
              since: instant(from),
              until: instant(to),
              seconds: (to / 1000 - from / 1000) / 1000,
            })),
          };
        }),
        meta,
      });
    },
  }),
];
