// Where a page of /api/v1/ads lies: the scope's visible occurrences in start order, merged from
// the stations' record blocks one UTC day at a time, so that the page's query reads only its rows.

import { DAY_MS } from "./period.ts";
import { type ReadAt, visitRecords } from "./figures.ts";
import type { Scope } from "./scope.ts";

/**
 * Calls `visit` with the start (epoch µs) and station position of each visible occurrence
 * starting in [from, until) (epoch ms), in start order (ties in any order), until it returns
 * false.
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
    const starts: number[] = [];
    const stations: number[] = [];
    const sets: number[] = [];
    await visitRecords(r, since, to, (station, block, i) => {
      starts.push(block.starts[i]);
      stations.push(station);
      sets.push(block.sets[i]);
    });
    // One day of the scope's stations: sorted here rather than merged, it is a few thousand.
    const order = Array.from(starts.keys()).sort((a, b) => starts[a] - starts[b]);
    for (const i of order) if (!visit(starts[i], stations[i], sets[i])) return;
  }
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
