// The figures of a request's scope from the cached blocks (lib/ads/blocks.ts): whole days from
// the running totals of the cell blocks, one difference per station, month and brand set; the
// partial first and last day from the occurrence records.

import type { Sql } from "../db/db.ts";
import type { AdsCache } from "./cache.ts";
import {
  CELL_VIEWS_KEPT,
  type CellBlock,
  monthOf,
  monthStartMs,
  readBlocks,
  type RecordBlock,
} from "./blocks.ts";
import { DAY_MS, type Period } from "./period.ts";
import type { Scope, VisibleSets } from "./scope.ts";

/** What a request reads with: where, at which data version, and what each brand set shows it. */
export interface ReadAt {
  sql: Sql;
  cache: AdsCache;
  version: string;
  scope: Scope;
  /** What each brand set shows the request: resolved for the blocks read before it is asked. */
  sets: VisibleSets;
}

/** The whole UTC days of the effective period, as day numbers [first, end); null when none. */
export function wholeDays(scope: Scope): { first: number; end: number } | null {
  if (!scope.period) return null;
  const first = Math.ceil(scope.period.since.getTime() / DAY_MS);
  const end = Math.floor(scope.period.until.getTime() / DAY_MS);
  return first < end ? { first, end } : null;
}

/** The parts of the effective period outside its whole days (all of it when it holds none). */
export function partialDays(scope: Scope): Period[] {
  const { period } = scope;
  const days = wholeDays(scope);
  if (!period || !days) return period ? [period] : [];
  return [
    { since: period.since, until: new Date(days.first * DAY_MS) },
    { since: new Date(days.end * DAY_MS), until: period.until },
  ].filter((edge) => edge.since < edge.until);
}

/** A cell block as one grant (and brand filter) sees it: its visible runs and totals per day. */
interface Seen {
  /** Visible runs of the block (indices into sets) and the brands each shows. */
  runs: number[];
  shown: string[][];
  /** Occurrences, duration_ms, human_ms of each day of the month (from its first day). */
  days: Float64Array;
}

/** Per block, the last few grants' views of it: kept as long as the block is. */
const seenByBlock = new WeakMap<CellBlock, Map<string, Seen>>();

const viewKey = (r: ReadAt) =>
  `${r.scope.accountId}|${r.scope.grantVersion}|${r.scope.brandId ?? ""}`;

function seenOf(block: CellBlock, firstDay: number, r: ReadAt): Seen {
  const key = viewKey(r);
  let views = seenByBlock.get(block);
  if (!views) seenByBlock.set(block, views = new Map());
  let seen = views.get(key);
  if (seen) return seen;
  seen = { runs: [], shown: [], days: new Float64Array(3 * 31) };
  const { sets, runStart, day, cum } = block;
  for (let i = 0; i < sets.length; i++) {
    const shown = r.sets.shown(sets[i]);
    if (!shown) continue;
    seen.runs.push(i);
    seen.shown.push(shown);
    for (let j = runStart[i]; j < runStart[i + 1]; j++) {
      const at = 3 * (day[j] - firstDay);
      for (let f = 0; f < 3; f++) seen.days[at + f] += cum[3 * (j + 1) + f] - cum[3 * j + f];
    }
  }
  if (views.size >= CELL_VIEWS_KEPT) views.delete(views.keys().next().value!);
  views.set(key, seen);
  return seen;
}

/** The first cell of run [lo, hi) on day `d` or later. */
function firstCellFrom(day: Int32Array, lo: number, hi: number, d: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (day[mid] < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every station of the scope with every month that the days [first, end) touch. */
function stationMonths(scope: Scope, first: number, end: number) {
  const keys: { station: number; month: number; from: number; to: number }[] = [];
  for (let month = monthOf(first * DAY_MS); month <= monthOf((end - 1) * DAY_MS); month++) {
    const monthFirst = monthStartMs(month) / DAY_MS;
    const from = Math.max(first, monthFirst);
    const to = Math.min(end, monthStartMs(month + 1) / DAY_MS);
    scope.stations.forEach((_, station) => keys.push({ station, month, from, to }));
  }
  return keys;
}

async function cellBlocks(r: ReadAt, first: number, end: number) {
  const keys = stationMonths(r.scope, first, end);
  const blocks = await readBlocks(
    r.sql,
    r.cache,
    "cells",
    r.version,
    keys.map((k) => ({ station: r.scope.stations[k.station], unit: k.month })),
  );
  // Every block's sets, even those with a view for this grant already: that view may be evicted
  // by other requests during the await, and seenOf then rebuilds it from this request's sets.
  await r.sets.resolve(blocks.flatMap((block) => [...block.sets]));
  return keys.map((k, i) => ({
    ...k,
    block: blocks[i],
    seen: seenOf(blocks[i], monthStartMs(k.month) / DAY_MS, r),
  }));
}

/** Visible occurrences per whole day of the scope (from day wholeDays().first). */
export async function occurrencesPerDay(r: ReadAt): Promise<Float64Array> {
  const days = wholeDays(r.scope);
  if (!days || r.scope.empty) return new Float64Array(0);
  const counts = new Float64Array(days.end - days.first);
  for (const { month, from, to, seen } of await cellBlocks(r, days.first, days.end)) {
    const monthFirst = monthStartMs(month) / DAY_MS;
    for (let d = from; d < to; d++) counts[d - days.first] += seen.days[3 * (d - monthFirst)];
  }
  return counts;
}

/** The visible occurrences starting in [since, until), by station position, from records. */
export async function visitRecords(
  r: ReadAt,
  since: number,
  until: number,
  visit: (station: number, block: RecordBlock, i: number, shown: string[]) => void,
): Promise<void> {
  const keys: { station: number; unit: number }[] = [];
  for (let day = Math.floor(since / DAY_MS); day * DAY_MS < until; day++) {
    r.scope.stations.forEach((_, station) => keys.push({ station, unit: day }));
  }
  const blocks = await readBlocks(
    r.sql,
    r.cache,
    "records",
    r.version,
    keys.map((k) => ({ station: r.scope.stations[k.station], unit: k.unit })),
  );
  const [fromUs, untilUs] = [since * 1000, until * 1000];
  await r.sets.resolve(blocks.flatMap((block) => [...block.sets]));
  blocks.forEach((block, b) => {
    for (let i = 0; i < block.starts.length; i++) {
      if (block.starts[i] < fromUs || block.starts[i] >= untilUs) continue;
      const shown = r.sets.shown(block.sets[i]);
      if (shown) visit(keys[b].station, block, i, shown);
    }
  });
}

/** Totals, per station (scope position), per brand and per UTC date (from firstDate). */
export interface Sums {
  totals: Float64Array;
  stations: Float64Array;
  brands: Map<string, Float64Array>;
  firstDate: number;
  dates: Float64Array;
}

/** The summary's figures: occurrences, duration_ms, human_ms at 3 i, 3 i + 1 and 3 i + 2. */
export async function summarize(r: ReadAt): Promise<Sums> {
  const { scope } = r;
  const period = scope.period!;
  const firstDate = Math.floor(period.since.getTime() / DAY_MS);
  const sums: Sums = {
    totals: new Float64Array(3),
    stations: new Float64Array(3 * scope.stations.length),
    brands: new Map(),
    firstDate,
    dates: new Float64Array(3 * (Math.ceil(period.until.getTime() / DAY_MS) - firstDate)),
  };
  const brand = (id: string) => {
    let figures = sums.brands.get(id);
    if (!figures) sums.brands.set(id, figures = new Float64Array(3));
    return figures;
  };
  const add = (station: number, date: number, o: number, d: number, h: number) => {
    for (const [array, i] of [[sums.totals, 0], [sums.stations, station], [sums.dates, date]]) {
      const target = array as Float64Array;
      target[3 * (i as number)] += o;
      target[3 * (i as number) + 1] += d;
      target[3 * (i as number) + 2] += h;
    }
  };
  const days = wholeDays(scope);
  if (days) {
    for (
      const { station, month, from, to, block, seen } of await cellBlocks(r, days.first, days.end)
    ) {
      const monthFirst = monthStartMs(month) / DAY_MS;
      for (let d = from; d < to; d++) {
        const at = 3 * (d - monthFirst);
        if (seen.days[at] > 0) {
          add(station, d - firstDate, seen.days[at], seen.days[at + 1], seen.days[at + 2]);
        }
      }
      const { runStart, day, cum } = block;
      seen.runs.forEach((run, k) => {
        const lo = firstCellFrom(day, runStart[run], runStart[run + 1], from);
        const hi = firstCellFrom(day, lo, runStart[run + 1], to);
        if (lo === hi) return;
        for (const id of seen.shown[k]) {
          const figures = brand(id);
          for (let f = 0; f < 3; f++) figures[f] += cum[3 * hi + f] - cum[3 * lo + f];
        }
      });
    }
  }
  for (const edge of partialDays(scope)) {
    await visitRecords(
      r,
      edge.since.getTime(),
      edge.until.getTime(),
      (station, block, i, shown) => {
        const ms = block.durations[i] >>> 1;
        const human = block.durations[i] & 1 ? ms : 0;
        add(station, Math.floor(block.starts[i] / 1000 / DAY_MS) - firstDate, 1, ms, human);
        for (const id of shown) {
          const figures = brand(id);
          figures[0] += 1;
          figures[1] += ms;
          figures[2] += human;
        }
      },
    );
  }
  return sums;
}
