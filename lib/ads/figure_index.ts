// The figures of every approved snapshot per station, UTC day and brand set (ads_day_cells),
// kept in memory by data version, with the station and brand names: totals and summaries of whole
// days add up cells here instead of asking the database for them.
//
// It holds nothing of an account; a request applies its scope to it (lib/ads/scope.ts). It never
// goes stale: a request reads the current version with its key and the index catches up when it
// was loaded at another one, reading only the figures of snapshots approved since.

import type { Db, Sql } from "../db/db.ts";
import { readInt64 } from "../encoding.ts";
import { createVersionedCache } from "./versioned_cache.ts";
import { timestamptzMicros } from "./capture_index.ts";

/** One station's cells, grouped by day; days are numbered from 1970-01-01. */
export interface StationFigures {
  /** Cells of day firstDay + i are dayStart[i] to dayStart[i + 1] - 1. */
  firstDay: number;
  dayStart: Int32Array;
  /**
   * A cell's brands: the brand's code when it has one (nearly always), else -1 - the id of its
   * brand set, whose codes FigureIndex.setBrands holds.
   */
  brands: Int32Array;
  occurrences: Int32Array;
  durationMs: Float64Array;
  humanMs: Float64Array;
  /** The seq of the snapshot each cell came from. */
  snapshots: Int32Array;
  /**
   * Every occurrence's ad_started_at (microseconds since 1970), in order, and its brands as in
   * `brands`: where a page's rows are.
   */
  starts: Float64Array;
  startBrands: Int32Array;
  /** The starts of day firstDay + i begin at startOfDay[i] (startOfDay[span] = starts.length). */
  startOfDay: Int32Array;
}

export interface FigureIndex {
  version: string;
  /** Stations with figures; a station without any is absent. */
  stations: Map<string, StationFigures>;
  /** Every station's name. */
  stationNames: Map<string, string>;
  /** Brands by code (their position here), and the code of each id. */
  brandIds: string[];
  brandNames: string[];
  brandCodes: Map<string, number>;
  /** Brand codes in the order of their ids; `"brand_id":…,"brand_name":…` of each code. */
  brandOrder: Int32Array;
  brandJson: string[];
  /**
   * Brand sets: the codes of set i's brands are setBrands[setStart[i]] to
   * setBrands[setStart[i + 1] - 1] (ids not in the table have none).
   */
  setStart: Int32Array;
  setBrands: Int32Array;
  /** The most brands a set has. */
  largestSet: number;
  /** The approved snapshots whose figures are held: seq -> approved_at (ms). */
  approved: Map<number, number>;
  /** Their exported_at (ms), by seq. */
  exportedAt: Map<number, number>;
}

/** How many bytes of packed cells one statement of a load reads at most (one station more). */
const LOAD_BATCH_BYTES = 8 * 1024 * 1024;

/** A cell as the load sends it: day, brand set, occurrences (int4), duration_ms, human_ms (int8). */
const PACKED_CELL_BYTES = 28;

/** A station's cells and starts of one snapshot, packed as the load sends them. */
interface PackedCells {
  seq: number;
  bytes: Uint8Array;
  starts: Uint8Array;
}

/** A start as the load sends it: ad_started_at (binary timestamptz) and brand set (int4). */
const PACKED_START_BYTES = 12;
const DAY_US = 86_400_000_000;

/**
 * The starts held and those of the parts, merged in order. Snapshots usually follow each other
 * in time, and their starts are then put one after the other; otherwise they are sorted.
 */
function mergeStarts(
  held: StationFigures | undefined,
  parts: PackedCells[],
  brandsOf: (set: number) => number,
) {
  const runs: { starts: Float64Array; brands: Int32Array }[] = held
    ? [{ starts: held.starts, brands: held.startBrands }]
    : [];
  for (const part of parts) {
    const view = new DataView(part.starts.buffer, part.starts.byteOffset, part.starts.byteLength);
    const count = part.starts.byteLength / PACKED_START_BYTES;
    const starts = new Float64Array(count);
    const brands = new Int32Array(count);
    for (let j = 0; j < count; j++) {
      starts[j] = timestamptzMicros(view, j * PACKED_START_BYTES);
      brands[j] = brandsOf(view.getInt32(j * PACKED_START_BYTES + 8));
    }
    runs.push({ starts, brands });
  }
  const nonEmpty = runs.filter((run) => run.starts.length > 0)
    .sort((a, b) => a.starts[0] - b.starts[0]);
  const total = nonEmpty.reduce((n, run) => n + run.starts.length, 0);
  const starts = new Float64Array(total);
  const brands = new Int32Array(total);
  let at = 0;
  for (const run of nonEmpty) {
    starts.set(run.starts, at);
    brands.set(run.brands, at);
    at += run.starts.length;
  }
  const ordered = starts.every((start, i) => i === 0 || starts[i - 1] <= start);
  if (ordered) return { starts, brands };
  const order = Array.from({ length: total }, (_, i) => i).sort((a, b) => starts[a] - starts[b]);
  return {
    starts: Float64Array.from(order, (i) => starts[i]),
    brands: Int32Array.from(order, (i) => brands[i]),
  };
}

const CELL_COLUMNS = ["brands", "occurrences", "durationMs", "humanMs", "snapshots"] as const;

/** Adds a station's packed cells of some snapshots to the cells it holds, into new arrays. */
function mergeCells(
  held: StationFigures | undefined,
  parts: PackedCells[],
  brandsOf: (set: number) => number,
): StationFigures {
  const views = parts.map((part) =>
    new DataView(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength)
  );
  const counts = parts.map((part) => part.bytes.byteLength / PACKED_CELL_BYTES);
  const dayOf = (view: DataView, j: number) => view.getInt32(j * PACKED_CELL_BYTES);
  const heldDays = held ? held.dayStart.length - 1 : 0;
  let firstDay = held ? held.firstDay : Infinity;
  let lastDay = held ? held.firstDay + heldDays - 1 : -Infinity;
  views.forEach((view, p) => {
    for (let j = 0; j < counts[p]; j++) {
      firstDay = Math.min(firstDay, dayOf(view, j));
      lastDay = Math.max(lastDay, dayOf(view, j));
    }
  });
  const span = lastDay - firstDay + 1;
  const dayStart = new Int32Array(span + 1);
  for (let i = 0; i < heldDays; i++) {
    dayStart[held!.firstDay - firstDay + i + 1] += held!.dayStart[i + 1] - held!.dayStart[i];
  }
  views.forEach((view, p) => {
    for (let j = 0; j < counts[p]; j++) dayStart[dayOf(view, j) - firstDay + 1]++;
  });
  for (let i = 0; i < span; i++) dayStart[i + 1] += dayStart[i];
  const total = dayStart[span];
  const merged = mergeStarts(held, parts, brandsOf);
  const figures: StationFigures = {
    firstDay,
    dayStart,
    brands: new Int32Array(total),
    occurrences: new Int32Array(total),
    durationMs: new Float64Array(total),
    humanMs: new Float64Array(total),
    snapshots: new Int32Array(total),
    starts: merged.starts,
    startBrands: merged.brands,
    startOfDay: new Int32Array(span + 1),
  };
  for (let i = 0, j = 0; i <= span; i++) {
    const dayUs = (firstDay + i) * DAY_US;
    while (j < merged.starts.length && merged.starts[j] < dayUs) j++;
    figures.startOfDay[i] = j;
  }
  // Within a day, the held cells first, then the added ones.
  const next = dayStart.slice(0, span);
  for (let i = 0; i < heldDays; i++) {
    const from = held!.dayStart[i];
    const to = held!.dayStart[i + 1];
    const at = next[held!.firstDay - firstDay + i];
    for (const column of CELL_COLUMNS) figures[column].set(held![column].subarray(from, to), at);
    next[held!.firstDay - firstDay + i] += to - from;
  }
  views.forEach((view, p) => {
    for (let j = 0; j < counts[p]; j++) {
      const at = next[dayOf(view, j) - firstDay]++;
      const base = j * PACKED_CELL_BYTES;
      figures.brands[at] = brandsOf(view.getInt32(base + 4));
      figures.occurrences[at] = view.getInt32(base + 8);
      figures.durationMs[at] = readInt64(view, base + 12);
      figures.humanMs[at] = readInt64(view, base + 20);
      figures.snapshots[at] = parts[p].seq;
    }
  });
  return figures;
}

/**
 * Reads the version, the names, the approved snapshots and the figures of those not held, in
 * one repeatable-read transaction so that all of it is of one moment. Starts again from nothing
 * when a held snapshot is no longer approved as it was (a database restored from a backup).
 */
export async function loadFigureIndex(
  db: Db,
  held: FigureIndex | null,
  batchBytes = LOAD_BATCH_BYTES,
): Promise<FigureIndex> {
  return await db.begin(async (tx: Sql) => {
    await tx`set transaction isolation level repeatable read, read only`;
    const [{ version }] = await tx<{ version: string }>`
      select version::text from ads_data_version`;
    const snapshots = await tx<{ seq: number; approved_ms: number; exported_ms: number }>`
      select seq, (extract(epoch from approved_at) * 1000)::float8 as approved_ms,
             (extract(epoch from exported_at) * 1000)::float8 as exported_ms
        from ads_snapshots where approved_at is not null`;
    const approved = new Map(snapshots.map((s) => [s.seq, s.approved_ms]));
    const base = held && [...held.approved].every(([seq, ms]) => approved.get(seq) === ms)
      ? held
      : null;
    const names = await tx<{ kind: "station" | "brand"; id: string; name: string }>`
      select 'station' as kind, id, name from ads_stations
      union all
      select 'brand', id, name from ads_brands`;
    const index: FigureIndex = {
      version,
      stations: new Map(base?.stations),
      stationNames: new Map(),
      brandIds: [...(base?.brandIds ?? [])],
      brandNames: [...(base?.brandNames ?? [])],
      brandCodes: new Map(base?.brandCodes),
      brandOrder: new Int32Array(0),
      brandJson: [],
      setStart: base?.setStart ?? new Int32Array(1),
      setBrands: base?.setBrands ?? new Int32Array(0),
      largestSet: base?.largestSet ?? 0,
      approved,
      exportedAt: new Map(snapshots.map((s) => [s.seq, s.exported_ms])),
    };
    for (const row of names) {
      if (row.kind === "station") {
        index.stationNames.set(row.id, row.name);
        continue;
      }
      const code = index.brandCodes.get(row.id);
      if (code !== undefined) index.brandNames[code] = row.name;
      else {
        index.brandCodes.set(row.id, index.brandIds.length);
        index.brandIds.push(row.id);
        index.brandNames.push(row.name);
      }
    }
    index.brandOrder = Int32Array.from(index.brandIds.keys())
      .sort((a, b) => index.brandIds[a] < index.brandIds[b] ? -1 : 1);
    index.brandJson = index.brandIds.map((id, code) =>
      `"brand_id":${JSON.stringify(id)},"brand_name":${JSON.stringify(index.brandNames[code])}`
    );
    // Brand sets are only ever added, with increasing ids: the new ones as "id:a,b;id:c" text.
    const known = index.setStart.length - 1;
    const [{ sets }] = await tx<{ sets: string | null }>`
      select string_agg(id || ':' || array_to_string(brand_ids, ','), ';' order by id) as sets
        from ads_brand_sets where id >= ${known}`;
    if (sets) {
      // Sized first, so the held sets are copied as typed arrays (set()): an incremental load
      // spreading them into JS arrays and back took time and memory for all of them.
      const parsed = sets.split(";").map((set) => {
        const colon = set.indexOf(":");
        return { id: Number(set.slice(0, colon)), brands: set.slice(colon + 1).split(",") };
      });
      const lastId = parsed[parsed.length - 1].id;
      const setStart = new Int32Array(lastId + 2);
      setStart.set(index.setStart);
      let size = index.setBrands.length;
      for (const set of parsed) {
        size += set.brands.length;
        index.largestSet = Math.max(index.largestSet, set.brands.length);
      }
      const setBrands = new Int32Array(size);
      setBrands.set(index.setBrands);
      let at = index.setBrands.length;
      let next = 0;
      for (let id = known; id <= lastId; id++) {
        setStart[id] = at;
        // An id not in the table (a sequence may skip some) is a set without brands.
        if (parsed[next]?.id !== id) continue;
        for (const brand of parsed[next++].brands) {
          setBrands[at++] = index.brandCodes.get(brand) ?? -1;
        }
      }
      setStart[lastId + 1] = at;
      index.setStart = setStart;
      index.setBrands = setBrands;
    }
    const brandsOf = (set: number) =>
      index.setStart[set + 1] - index.setStart[set] === 1
        ? index.setBrands[index.setStart[set]]
        : -1 - set;
    // The new snapshots' cells, a few megabytes at a time, so that loading millions of them
    // needs no more memory than they take once decoded.
    const added = [...approved.keys()].filter((seq) => !base?.approved.has(seq));
    const parts = await tx<{ seq: number; station_id: string; bytes: number }>`
      select snapshot_seq as seq, station_id, octet_length(cells) + octet_length(starts) as bytes
        from ads_day_cells where snapshot_seq = any(${added}::int[])
       order by station_id, snapshot_seq`;
    // A station's parts come together (they are sorted by station) and are merged once.
    let pending: PackedCells[] = [];
    const merge = (stationId: string) => {
      index.stations.set(stationId, mergeCells(index.stations.get(stationId), pending, brandsOf));
      pending = [];
    };
    for (let first = 0; first < parts.length;) {
      let last = first;
      for (let bytes = 0; last < parts.length && bytes < batchBytes; last++) {
        bytes += parts[last].bytes;
      }
      const batch = parts.slice(first, last);
      // Base64 text: as bytea the values would travel as hex, half again as long to send and
      // to decode.
      const rows = await tx<{ seq: number; station_id: string; cells: string; starts: string }>`
        select snapshot_seq as seq, station_id, encode(cells, 'base64') as cells,
               encode(starts, 'base64') as starts
          from ads_day_cells
         where (snapshot_seq, station_id) in (
                 select * from unnest(${batch.map((p) => p.seq)}::int[],
                                      ${batch.map((p) => p.station_id)}::text[]))
         order by station_id, snapshot_seq`;
      for (const [i, row] of rows.entries()) {
        pending.push({
          seq: row.seq,
          bytes: Uint8Array.fromBase64(row.cells),
          starts: Uint8Array.fromBase64(row.starts),
        });
        const nextPart = parts[first + i + 1];
        if (nextPart?.station_id !== row.station_id) merge(row.station_id);
      }
      first = last;
    }
    return index;
  });
}

export function createFigureIndexCache(db: Db) {
  return createVersionedCache<FigureIndex>((held) => loadFigureIndex(db, held));
}
