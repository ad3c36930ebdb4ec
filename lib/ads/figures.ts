// The figures of a request's scope from the blocks (lib/ads/blocks.ts): whole days from a month's
// figures per grant, added up once from its cell blocks and kept, one difference per brand; the
// partial first and last day from the occurrence records.

import type { Sql } from "../db/db.ts";
import type { AdsCache } from "./cache.ts";
import {
  type CellBlock,
  cellCount,
  cellDay,
  cellFigure,
  cellSet,
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

/** Days per month at most, and the running totals' length per brand (one more). */
const MONTH_DAYS = 31;
const CUM_DAYS = MONTH_DAYS + 1;

/** Brand ids in UTF-16 code unit order, as Array.prototype.sort orders strings. */
const byId = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

/**
 * One UTC month of a request's stations as its grant and filters see it, added up once from the
 * cell blocks: the figures per station and day, and per shown brand running totals by day, so
 * that any days of the month are one difference per brand. Kept in the ads cache per grant
 * version, filters and month, for one data version.
 */
interface MonthFigures {
  version: string;
  /** Occurrences, duration_ms, human_ms of station s (scope position), day d at 3 (31 s + d). */
  stationDays: Float64Array;
  /** The brands shown, sorted by id; brand b's figures of days [0, d) at 3 (32 b + d) + f. */
  brands: string[];
  brandCum: Float64Array;
}

const monthKey = (r: ReadAt, month: number) =>
  `month|${r.scope.accountId}|${r.scope.grantVersion}|${r.scope.stationId ?? ""}|` +
  `${r.scope.brandId ?? ""}|${month}`;

function addUp(r: ReadAt, blocks: CellBlock[], firstDay: number): MonthFigures {
  const stationDays = new Float64Array(3 * MONTH_DAYS * blocks.length);
  // The brands shown first, in id order (a summary merges months instead of looking brands up and
  // sorting them): each cell's figures then go straight to their brands' places, in one array of
  // the size kept, with nothing grown or copied on the way.
  const shown = new Set<string>();
  for (const block of blocks) {
    for (const set of block.sets) for (const id of r.sets.shown(set) ?? []) shown.add(id);
  }
  const brands = [...shown].sort(byId);
  const brandAt = new Map(brands.map((id, b) => [id, 3 * CUM_DAYS * b]));
  const brandCum = new Float64Array(3 * CUM_DAYS * brands.length);
  blocks.forEach((block, station) => {
    let set = NaN;
    let at: number[] | null = null;
    for (let i = 0, n = cellCount(block); i < n; i++) {
      if (cellSet(block, i) !== set) {
        set = cellSet(block, i);
        at = r.sets.shown(set)?.map((id) => brandAt.get(id)!) ?? null;
      }
      if (!at) continue;
      const d = cellDay(block, i) - firstDay;
      for (let f = 0; f < 3; f++) {
        const value = cellFigure(block, i, f);
        stationDays[3 * (MONTH_DAYS * station + d) + f] += value;
        // Brand b's day d, held at d + 1 until the running totals are taken below.
        for (const base of at) brandCum[base + 3 * (d + 1) + f] += value;
      }
    }
  });
  // In place: what is held at d + 1 becomes the figures of days [0, d + 1).
  for (let b = 0; b < brands.length; b++) {
    for (let d = 1; d < CUM_DAYS; d++) {
      for (let f = 0; f < 3; f++) {
        brandCum[3 * (CUM_DAYS * b + d) + f] += brandCum[3 * (CUM_DAYS * b + d - 1) + f];
      }
    }
  }
  return { version: r.version, stationDays, brands, brandCum };
}

/** The month's figures of the request's stations: from the cache, else added up from the blocks. */
async function monthFigures(r: ReadAt, month: number): Promise<MonthFigures> {
  const key = monthKey(r, month);
  const kept = r.cache.get<MonthFigures>(key);
  if (kept?.version === r.version) return kept;
  const blocks = await readBlocks(
    r.sql,
    r.cache,
    "cells",
    r.version,
    r.scope.stations.map((station) => ({ station, unit: month })),
  );
  await r.sets.resolve(blocks.map((block) => block.sets));
  const figures = addUp(r, blocks, monthStartMs(month) / DAY_MS);
  const bytes = 200 + figures.stationDays.byteLength + figures.brandCum.byteLength +
    figures.brands.reduce((n, id) => n + 2 * id.length + 40, 0);
  r.cache.set(key, figures, bytes);
  return figures;
}

/** The months the days [first, end) touch, each with its days [from, to) as day numbers. */
function monthsOf(first: number, end: number) {
  const months: { month: number; monthFirst: number; from: number; to: number }[] = [];
  for (let month = monthOf(first * DAY_MS); month <= monthOf((end - 1) * DAY_MS); month++) {
    const monthFirst = monthStartMs(month) / DAY_MS;
    const from = Math.max(first, monthFirst);
    const to = Math.min(end, monthStartMs(month + 1) / DAY_MS);
    months.push({ month, monthFirst, from, to });
  }
  return months;
}

/** Visible occurrences per whole day of the scope (from day wholeDays().first). */
export async function occurrencesPerDay(r: ReadAt): Promise<Float64Array> {
  const days = wholeDays(r.scope);
  if (!days || r.scope.empty) return new Float64Array(0);
  const counts = new Float64Array(days.end - days.first);
  for (const { month, monthFirst, from, to } of monthsOf(days.first, days.end)) {
    const { stationDays } = await monthFigures(r, month);
    for (let station = 0; station < r.scope.stations.length; station++) {
      for (let d = from; d < to; d++) {
        counts[d - days.first] += stationDays[3 * (MONTH_DAYS * station + d - monthFirst)];
      }
    }
  }
  return counts;
}

/**
 * The record blocks of the scope's stations for the days [since, until) touch (epoch ms), each
 * with its station's position, their brand sets resolved.
 */
export async function recordBlocks(r: ReadAt, since: number, until: number) {
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
  await r.sets.resolve(blocks.map((block) => block.sets));
  return blocks.map((block, b) => ({ station: keys[b].station, block }));
}

/** The visible occurrences starting in [since, until), by station position, from records. */
export async function visitRecords(
  r: ReadAt,
  since: number,
  until: number,
  visit: (station: number, block: RecordBlock, i: number, shown: string[]) => void,
): Promise<void> {
  const [fromUs, untilUs] = [since * 1000, until * 1000];
  for (const { station, block } of await recordBlocks(r, since, until)) {
    for (let i = 0; i < block.starts.length; i++) {
      if (block.starts[i] < fromUs || block.starts[i] >= untilUs) continue;
      const shown = r.sets.shown(block.sets[i]);
      if (shown) visit(station, block, i, shown);
    }
  }
}

/** Figures per brand: brand i's occurrences, duration_ms, human_ms at 3 i, 3 i + 1, 3 i + 2. */
export interface BrandSums {
  /** Sorted by id. */
  ids: string[];
  figures: Float64Array;
}

/** The sum of two sorted brand lists, sorted. */
function mergeBrands(a: BrandSums, b: BrandSums): BrandSums {
  if (!a.ids.length) return b;
  if (!b.ids.length) return a;
  const ids: string[] = [];
  const figures = new Float64Array(3 * (a.ids.length + b.ids.length));
  let [i, j] = [0, 0];
  while (i < a.ids.length || j < b.ids.length) {
    const order = i === a.ids.length ? 1 : j === b.ids.length ? -1 : byId(a.ids[i], b.ids[j]);
    const at = 3 * ids.length;
    ids.push(order <= 0 ? a.ids[i] : b.ids[j]);
    for (let f = 0; f < 3; f++) {
      figures[at + f] = (order <= 0 ? a.figures[3 * i + f] : 0) +
        (order >= 0 ? b.figures[3 * j + f] : 0);
    }
    if (order <= 0) i++;
    if (order >= 0) j++;
  }
  return { ids, figures: figures.subarray(0, 3 * ids.length) };
}

/** Totals, per station (scope position), per brand and per UTC date (from firstDate). */
export interface Sums {
  totals: Float64Array;
  stations: Float64Array;
  brands: BrandSums;
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
    brands: { ids: [], figures: new Float64Array(0) },
    firstDate,
    dates: new Float64Array(3 * (Math.ceil(period.until.getTime() / DAY_MS) - firstDate)),
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
  for (const { month, monthFirst, from, to } of days ? monthsOf(days.first, days.end) : []) {
    const { stationDays, brands, brandCum } = await monthFigures(r, month);
    for (let station = 0; station < scope.stations.length; station++) {
      for (let d = from; d < to; d++) {
        const at = 3 * (MONTH_DAYS * station + d - monthFirst);
        if (stationDays[at] > 0) {
          add(station, d - firstDate, stationDays[at], stationDays[at + 1], stationDays[at + 2]);
        }
      }
    }
    const [lo, hi] = [from - monthFirst, to - monthFirst];
    const figures = new Float64Array(3 * brands.length);
    brands.forEach((_, b) => {
      const base = 3 * CUM_DAYS * b;
      for (let f = 0; f < 3; f++) {
        figures[3 * b + f] = brandCum[base + 3 * hi + f] - brandCum[base + 3 * lo + f];
      }
    });
    sums.brands = mergeBrands(sums.brands, { ids: brands, figures });
  }
  // The partial first and last day, from the records.
  const edgeBrands = new Map<string, Float64Array>();
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
          let figures = edgeBrands.get(id);
          if (!figures) edgeBrands.set(id, figures = new Float64Array(3));
          figures[0] += 1;
          figures[1] += ms;
          figures[2] += human;
        }
      },
    );
  }
  const edgeIds = [...edgeBrands.keys()].sort(byId);
  const edgeFigures = new Float64Array(3 * edgeIds.length);
  edgeIds.forEach((id, b) => edgeFigures.set(edgeBrands.get(id)!, 3 * b));
  sums.brands = mergeBrands(sums.brands, { ids: edgeIds, figures: edgeFigures });
  return sums;
}
