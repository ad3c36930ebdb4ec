// A scope's coverage from the capture index: per granted station, its approved captures that
// overlap the effective period, clipped to it, and the snapshots they came from.

import type { CaptureIndex, StationCaptures } from "./capture_index.ts";

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
