// Coverage of a request's stations over its period, from the capture blocks of the months it
// touches (lib/ads/blocks.ts): captures, captured time, first and last capture and the gaps.

import { type CaptureBlock, monthOf, monthStartMs, readBlocks } from "./blocks.ts";
import type { ReadAt } from "./figures.ts";

/** A station's captures reaching into the period and their runs; instants in epoch microseconds. */
interface StationCaptures {
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

/**
 * One station's captures of the months [first, last] (each capture is in every month it
 * overlaps: a month after the first gives only those starting in it), with their runs.
 */
function stationCaptures(blocks: CaptureBlock[], monthStartsUs: number[]): StationCaptures {
  const starts: number[] = [];
  const ends: number[] = [];
  const snapshots: number[] = [];
  blocks.forEach((block, m) => {
    for (let j = 0; j < block.starts.length; j++) {
      if (m > 0 && block.starts[j] < monthStartsUs[m]) continue;
      starts.push(block.starts[j]);
      ends.push(block.ends[j]);
      snapshots.push(block.seqs[j]);
    }
  });
  const count = starts.length;
  const runStarts: number[] = [];
  const runEnds: number[] = [];
  const runFirst: number[] = [];
  const runSnapshot: number[] = [];
  for (let j = 0; j < count; j++) {
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
    starts: Float64Array.from(starts),
    ends: Float64Array.from(ends),
    snapshots: Int32Array.from(snapshots),
    runStarts: Float64Array.from(runStarts),
    runEnds: Float64Array.from(runEnds),
    runFirst: Int32Array.from(runFirst),
    runSnapshot: Int32Array.from(runSnapshot),
  };
}

/** One station's figures; instants in epoch microseconds. */
export interface StationCoverage {
  id: string;
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
 * Coverage of the scope's stations (granted and served ones) over its effective period (already
 * clipped to the grant). Nothing outside the period is counted or revealed, not even a run's true
 * start or end: every run is clipped to it. `snapshots` collects the seq of every snapshot whose
 * captures were counted. Station names are the caller's to add.
 */
export async function coverageOf(
  r: ReadAt,
  gapUs: number,
  snapshots: Set<number>,
): Promise<StationCoverage[]> {
  const { stations } = r.scope;
  const sinceUs = r.scope.period!.since.getTime() * 1000;
  const untilUs = r.scope.period!.until.getTime() * 1000;
  const months: number[] = [];
  const last = monthOf(Math.ceil(untilUs / 1000) - 1);
  for (let m = monthOf(Math.floor(sinceUs / 1000)); m <= last; m++) months.push(m);
  const monthStartsUs = months.map((m) => monthStartMs(m) * 1000);
  // A station's captures and runs over these months, kept while the data version holds: other
  // windows over the same months use them again. The capture blocks are read only for the others.
  const runsKey = (id: string) => `runs|${id}|${months[0]}|${months.length}`;
  const kept = stations.map((id) =>
    r.cache.get<{ version: string; station: StationCaptures }>(runsKey(id))
  ).map((entry) => entry?.version === r.version ? entry.station : undefined);
  const missing = stations.flatMap((_, position) => kept[position] ? [] : [position]);
  const blocks = await readBlocks(
    r.sql,
    r.cache,
    "captures",
    r.version,
    missing.flatMap((position) => months.map((unit) => ({ station: stations[position], unit }))),
  );
  missing.forEach((position, m) => {
    const station = stationCaptures(
      blocks.slice(m * months.length, (m + 1) * months.length),
      monthStartsUs,
    );
    const bytes = Object.values(station).reduce((n, a) => n + a.byteLength, 200);
    r.cache.set(runsKey(stations[position]), { version: r.version, station }, bytes);
    kept[position] = station;
  });
  const result: StationCoverage[] = [];
  for (const [position, id] of stations.entries()) {
    const station = kept[position]!;
    const { runStarts, runEnds, runFirst, runSnapshot, starts, ends } = station;
    const figures: StationCoverage = {
      id,
      captures: 0,
      capturedUs: 0,
      firstUs: null,
      lastUs: null,
      gaps: [],
    };
    let added = -1;
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
        // Most runs are of one snapshot: the set is touched when the snapshot changes.
        if (runSnapshot[i] !== added) snapshots.add(added = runSnapshot[i]);
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
