// Every approved capture, per station, kept in memory by data version (sql/002_ads.sql), so that
// a coverage request reads no capture from the database.
//
// The index holds no account's data: stations, their captures and the approved snapshots. A
// request applies its scope to it (coverageOf): its granted stations, its effective period.
// It never goes stale: each request reads the current version with its key, and the index is
// reloaded when it was loaded at another one.

import type { Sql } from "../db/db.ts";
import { readInt64 } from "../encoding.ts";
import { createVersionedCache } from "./versioned_cache.ts";

/** A station's approved captures and their runs; instants in epoch microseconds. */
interface StationCaptures {
  name: string;
  /** Captures sorted by start, then end; snapshots[j] is the seq of capture j's snapshot. */
  starts: Float64Array;
  ends: Float64Array;
  snapshots: Int32Array;
  /**
   * Runs: the maximal unions of overlapping or touching captures, in order. Disjoint and never
   * touching, so runEnds is strictly increasing. Run i holds captures runFirst[i] to
   * runFirst[i + 1] - 1 (runFirst has one more element than there are runs).
   */
  runStarts: Float64Array;
  runEnds: Float64Array;
  runFirst: Int32Array;
  /** The snapshot seq of every capture of run i, or -1 when they are not all the same. */
  runSnapshot: Int32Array;
}

export interface CaptureIndex {
  version: string;
  /** Every station that exists, with or without captures. */
  stations: Map<string, StationCaptures>;
  /** Approved snapshots by seq. */
  snapshots: Map<number, { id: string; exportedAtUs: number }>;
}

/** PostgreSQL's binary timestamptz counts microseconds from 2000-01-01 UTC. */
const POSTGRES_EPOCH_US = 946_684_800_000_000;
/** A capture as the load sends it: started_at, ended_at (binary timestamptz), snapshot seq. */
const PACKED_CAPTURE_BYTES = 20;

/** The binary timestamptz at byte `at`, in epoch microseconds. */
export function timestamptzMicros(view: DataView, at: number): number {
  return readInt64(view, at) + POSTGRES_EPOCH_US;
}

/** One station's captures, packed and sorted by start then end, with their runs. */
function stationCaptures(name: string, packed: Uint8Array | null): StationCaptures {
  const count = packed ? packed.byteLength / PACKED_CAPTURE_BYTES : 0;
  const view = packed ? new DataView(packed.buffer, packed.byteOffset, packed.byteLength) : null;
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  const snapshots = new Int32Array(count);
  const runStarts: number[] = [];
  const runEnds: number[] = [];
  const runFirst: number[] = [];
  const runSnapshot: number[] = [];
  for (let j = 0; j < count; j++) {
    const at = j * PACKED_CAPTURE_BYTES;
    starts[j] = timestamptzMicros(view!, at);
    ends[j] = timestamptzMicros(view!, at + 8);
    snapshots[j] = view!.getInt32(at + 16);
    const last = runEnds.length - 1;
    // A capture starting after every earlier one has ended begins a new run; one starting at
    // that moment or before joins the current run.
    if (last < 0 || starts[j] > runEnds[last]) {
      runStarts.push(starts[j]);
      runEnds.push(ends[j]);
      runFirst.push(j);
      runSnapshot.push(snapshots[j]);
    } else {
      if (ends[j] > runEnds[last]) runEnds[last] = ends[j];
      if (runSnapshot[last] !== snapshots[j]) runSnapshot[last] = -1;
    }
  }
  runFirst.push(count);
  return {
    name,
    starts,
    ends,
    snapshots,
    runStarts: Float64Array.from(runStarts),
    runEnds: Float64Array.from(runEnds),
    runFirst: Int32Array.from(runFirst),
    runSnapshot: Int32Array.from(runSnapshot),
  };
}

interface IndexRow {
  kind: "version" | "snapshot" | "station";
  id: string;
  name: string | null;
  seq: number | null;
  /** A snapshot's exported_at; a station's approved captures, packed; null for none. */
  data: Uint8Array | null;
}

/**
 * Reads the version, the approved snapshots and every station with its approved captures in one
 * statement, so all of it is of one moment. Instants travel in PostgreSQL's binary form: as text
 * (extract(epoch ...) is numeric), they took several times as long to make and parse.
 */
export async function loadCaptureIndex(sql: Sql): Promise<CaptureIndex> {
  const rows = await sql<IndexRow>`
    select 'version' as kind, version::text as id, null as name, null::int as seq,
           null::bytea as data
      from ads_data_version
    union all
    select 'snapshot', id, null, seq, timestamptz_send(exported_at)
      from ads_snapshots where approved_at is not null
    union all
    -- One aggregate, so the three fields of a capture stay together whatever the sort does.
    select 'station', s.id, s.name, null,
           (select string_agg(timestamptz_send(c.started_at) || timestamptz_send(c.ended_at) ||
                                int4send(c.snapshot_seq), ''
                              order by c.started_at, c.ended_at, c.snapshot_seq)
              from ads_captures c
             where c.station_id = s.id
               and c.snapshot_seq in (select seq from ads_snapshots where approved_at is not null))
      from ads_stations s`;
  const index: CaptureIndex = { version: "", stations: new Map(), snapshots: new Map() };
  for (const row of rows) {
    if (row.kind === "version") index.version = row.id;
    else if (row.kind === "snapshot") {
      const view = new DataView(row.data!.buffer, row.data!.byteOffset, row.data!.byteLength);
      index.snapshots.set(row.seq!, { id: row.id, exportedAtUs: timestamptzMicros(view, 0) });
    } else index.stations.set(row.id, stationCaptures(row.name!, row.data));
  }
  return index;
}

/** The capture index, loaded whole whenever the version changes. */
export function createCaptureIndexCache(sql: Sql) {
  return createVersionedCache(() => loadCaptureIndex(sql));
}

/** One station's figures; instants in epoch microseconds. */
export interface StationCoverage {
  id: string;
  name: string;
  captures: number;
  capturedUs: number;
  /** The first and last captured instants in the period; null when nothing was captured. */
  firstUs: number | null;
  lastUs: number | null;
  /**
   * [from, to] of each stretch without captures longer than the threshold: between runs, and
   * from the period's start to the first capture and from the last capture to its end.
   */
  gaps: [number, number][];
}

/** The first run that ends after `t` (runEnds is strictly increasing). */
function firstRunEndingAfter(station: StationCaptures, t: number): number {
  let lo = 0;
  let hi = station.runEnds.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (station.runEnds[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Coverage of `stations` (granted ones only: the scope's) over [sinceUs, untilUs), the
 * effective period (already clipped to the grant). Nothing outside the period is counted or
 * revealed, not even a run's true start or end: every run is clipped to it. A station that
 * does not exist is left out. `snapshots` collects the seq of every snapshot whose captures
 * were counted.
 */
export function coverageOf(
  index: CaptureIndex,
  stations: string[],
  sinceUs: number,
  untilUs: number,
  gapUs: number,
  snapshots: Set<number>,
): StationCoverage[] {
  const result: StationCoverage[] = [];
  for (const id of stations) {
    const station = index.stations.get(id);
    if (!station) continue;
    const { runStarts, runEnds, runFirst, runSnapshot, starts, ends } = station;
    const figures: StationCoverage = {
      id,
      name: station.name,
      captures: 0,
      capturedUs: 0,
      firstUs: null,
      lastUs: null,
      gaps: [],
    };
    for (let i = firstRunEndingAfter(station, sinceUs); i < runStarts.length; i++) {
      const runStart = runStarts[i];
      if (runStart >= untilUs) break;
      const s = Math.max(runStart, sinceUs);
      const e = Math.min(runEnds[i], untilUs);
      figures.firstUs ??= s;
      figures.lastUs = e;
      figures.capturedUs += e - s;
      // The run before ended inside the period (runs never touch, so before this one began).
      if (i > 0 && runEnds[i - 1] > sinceUs && runStart - runEnds[i - 1] > gapUs) {
        figures.gaps.push([runEnds[i - 1], runStart]);
      }
      const inside = runStart >= sinceUs && runEnds[i] <= untilUs;
      if (inside && runSnapshot[i] >= 0) {
        figures.captures += runFirst[i + 1] - runFirst[i];
        snapshots.add(runSnapshot[i]);
        continue;
      }
      // A run crossing an edge (or mixing snapshots): its captures that reach into the period.
      for (let j = runFirst[i]; j < runFirst[i + 1]; j++) {
        if (starts[j] < untilUs && ends[j] > sinceUs) {
          figures.captures++;
          snapshots.add(station.snapshots[j]);
        }
      }
    }
    if ((figures.firstUs ?? untilUs) - sinceUs > gapUs) {
      figures.gaps.unshift([sinceUs, figures.firstUs ?? untilUs]);
    }
    if (figures.lastUs !== null && untilUs - figures.lastUs > gapUs) {
      figures.gaps.push([figures.lastUs, untilUs]);
    }
    result.push(figures);
  }
  return result;
}
