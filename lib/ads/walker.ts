// Where a page of /api/v1/ads lies: the scope's visible occurrences in start order, merged from
// the stations' record blocks one UTC day at a time, so that the page's query reads only its rows.

import { DAY_MS } from "./period.ts";
import { type ReadAt, recordBlocks, visitRecords } from "./figures.ts";
import type { Scope } from "./scope.ts";

/**
 * Calls `visit` with the start (epoch µs), station position and brand set of each visible
 * occurrence starting in [from, until) (epoch ms), in start order (ties in any order), until it
 * returns false. Each day's blocks are merged (each is in start order already), so a page reads
 * as many records as lie before it, not the whole day.
 */
async function walkStarts(
  r: ReadAt,
  from: number,
  until: number,
  visit: (startUs: number, station: number, set: number) => boolean,
): Promise<void> {
  for (let day = Math.floor(from / DAY_MS); day * DAY_MS < until; day++) {
    const since = Math.max(from, day * DAY_MS);
    const to = Math.min(until, (day + 1) * DAY_MS);
    const blocks = await recordBlocks(r, since, to);
    const [sinceUs, toUs] = [since * 1000, to * 1000];
    // next[b]: block b's next visible record in range; the heap orders blocks by its start.
    const next = new Int32Array(blocks.length);
    const startOf = (b: number) => blocks[b].block.starts[next[b]];
    const heap: number[] = [];
    /** Moves block b's cursor to its next visible record from `at` on; false when none is left. */
    const seek = (b: number, at: number) => {
      const { starts, sets } = blocks[b].block;
      while (at < starts.length && starts[at] < toUs && !r.sets.shown(sets[at])) at++;
      next[b] = at;
      return at < starts.length && starts[at] < toUs;
    };
    const up = (k: number) => {
      while (k > 0) {
        const parent = (k - 1) >> 1;
        if (startOf(heap[parent]) <= startOf(heap[k])) return;
        [heap[parent], heap[k]] = [heap[k], heap[parent]];
        k = parent;
      }
    };
    const down = (k: number) => {
      for (;;) {
        const [left, right] = [2 * k + 1, 2 * k + 2];
        let least = k;
        if (left < heap.length && startOf(heap[left]) < startOf(heap[least])) least = left;
        if (right < heap.length && startOf(heap[right]) < startOf(heap[least])) least = right;
        if (least === k) return;
        [heap[least], heap[k]] = [heap[k], heap[least]];
        k = least;
      }
    };
    blocks.forEach(({ block }, b) => {
      if (seek(b, firstFrom(block.starts, sinceUs))) up(heap.push(b) - 1);
    });
    while (heap.length) {
      const b = heap[0];
      const { station, block } = blocks[b];
      if (!visit(block.starts[next[b]], station, block.sets[next[b]])) return;
      if (seek(b, next[b] + 1)) down(0);
      else {
        heap[0] = heap[heap.length - 1];
        heap.pop();
        down(0);
      }
    }
  }
}

/** The first index of the ascending `starts` at `us` or later. */
function firstFrom(starts: Float64Array, us: number): number {
  let [lo, hi] = [0, starts.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] < us) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many of the scope's visible occurrences start in [from, until) (epoch ms). */
export async function countVisible(r: ReadAt, from: number, until: number): Promise<number> {
  let count = 0;
  await visitRecords(r, from, until, () => count++);
  return count;
}

/**
 * Where the page of up to `limit` visible occurrences after the first `offset` from `from` (epoch
 * ms) on lies: rows of `scope` (narrowed to the stations the page has rows of) starting in
 * [since, until), after `skip` of them in (ad_started_at, id) order. The range holds no more rows
 * than the page's and those sharing its first and last millisecond, whose brand sets are `sets`.
 * Null when there are no more than `offset` rows.
 */
export async function locatePage(r: ReadAt, from: number, offset: number, limit: number) {
  const { scope } = r;
  let position = 0;
  let first = -1;
  let last = -1;
  // Rows before the page that share the millisecond the page starts in: the query reads them too.
  let millisecond = -1;
  let before: [number, number][] = [];
  let skip = 0;
  const stations = new Set<number>();
  const sets = new Set<number>();
  await walkStarts(r, from, scope.period!.until.getTime(), (start, station, set) => {
    const ms = Math.floor(start / 1000);
    if (ms !== millisecond) [millisecond, before] = [ms, []];
    if (position === offset) {
      [first, skip] = [ms, before.length];
      for (const [earlier, earlierSet] of before) {
        stations.add(earlier);
        sets.add(earlierSet);
      }
    }
    // Past the page, rows of its last millisecond: the query reads them too, and orders ties
    // by id, which the records do not know.
    if (position >= offset + limit && ms !== last) return false;
    if (position >= offset) {
      stations.add(station);
      sets.add(set);
    } else before.push([station, set]);
    if (position < offset + limit) last = ms;
    position++;
    return true;
  });
  if (first < 0) return null;
  const involved: Scope = { ...scope, stations: scope.stations.filter((_, i) => stations.has(i)) };
  return {
    scope: involved,
    since: new Date(first),
    until: new Date(last + 1),
    skip,
    sets: [...sets],
  };
}
