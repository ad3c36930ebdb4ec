// The packed parts of the ads data (sql/006_ads_blocks.sql), read when a request needs them and
// kept in the ads cache: a station's cells of a month, its occurrence records of a day and its
// captures of a month, each merged from the parts of every approved snapshot.

import { frag, type Fragment, type Sql } from "../db/db.ts";
import { readInt64 } from "../encoding.ts";
import type { AdsCache } from "./cache.ts";

/** PostgreSQL's binary timestamptz counts microseconds from 2000-01-01 UTC. */
const POSTGRES_EPOCH_US = 946_684_800_000_000;
const CELL_BYTES = 28;
const RECORD_BYTES = 16;
const CAPTURE_BYTES = 20;
/** Parts read by one statement at most. */
const PARTS_PER_STATEMENT = 16;

/** The binary timestamptz at byte `at`, in epoch microseconds. */
function timestamptzMicros(view: DataView, at: number): number {
  return readInt64(view, at) + POSTGRES_EPOCH_US;
}

/**
 * A station's cells of one month as packed: each a brand set, a day number, and its figures
 * (occurrences, duration_ms, human_ms). Parts of several snapshots may repeat a set and day, whose
 * figures then add up: cells are read in any order. `sets` holds every set of the cells, some
 * more than once.
 */
export interface CellBlock {
  sets: Int32Array;
  cells: DataView;
}

/** The number of cells of a block. */
export const cellCount = (block: CellBlock) => block.cells.byteLength / CELL_BYTES;
/** Cell i's brand set and day. */
export const cellSet = (block: CellBlock, i: number) => block.cells.getInt32(i * CELL_BYTES);
export const cellDay = (block: CellBlock, i: number) => block.cells.getInt32(i * CELL_BYTES + 4);
/** Cell i's occurrences (f 0), duration_ms (1) or human_ms (2). */
export function cellFigure(block: CellBlock, i: number, f: number): number {
  const at = i * CELL_BYTES + 8;
  return f === 0 ? block.cells.getInt32(at) : readInt64(block.cells, at + 8 * f - 4);
}

/** A station's occurrences of one day in start order: start (epoch µs), brand set, ms * 2 + human. */
export interface RecordBlock {
  starts: Float64Array;
  sets: Int32Array;
  durations: Int32Array;
}

/** A station's captures overlapping one month, by start then end; instants in epoch µs. */
export interface CaptureBlock {
  starts: Float64Array;
  ends: Float64Array;
  seqs: Int32Array;
}

export type BlockKind = "cells" | "records" | "captures";

/** The data version the request reads at changed under it: read again at `version`. */
export class DataMoved extends Error {
  constructor(readonly version: string) {
    super("the ads data changed during the request");
  }
}

const viewOf = (bytes: Uint8Array) =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Indices 0..n-1 sorted by `before`, or null when already in order. */
function orderOf(n: number, before: (a: number, b: number) => number): Int32Array | null {
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = before(i - 1, i) <= 0;
  return sorted ? null : Int32Array.from({ length: n }, (_, i) => i).sort(before);
}

function decodeCells(bytes: Uint8Array): CellBlock {
  const cells = viewOf(bytes);
  const n = bytes.byteLength / CELL_BYTES;
  // Each part is in set order: a set is listed once per part it is in.
  const sets = new Int32Array(n);
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    const set = cells.getInt32(i * CELL_BYTES);
    if (distinct === 0 || sets[distinct - 1] !== set) sets[distinct++] = set;
  }
  return { sets: sets.slice(0, distinct), cells };
}

function decodeRecords(bytes: Uint8Array): RecordBlock {
  const view = viewOf(bytes);
  const n = bytes.byteLength / RECORD_BYTES;
  const start = (i: number) => timestamptzMicros(view, i * RECORD_BYTES);
  const order = orderOf(n, (a, b) => start(a) - start(b));
  // One buffer for the block's arrays: a kept block is one allocation of the heap, not three.
  const buffer = new ArrayBuffer(16 * n);
  const block = {
    starts: new Float64Array(buffer, 0, n),
    sets: new Int32Array(buffer, 8 * n, n),
    durations: new Int32Array(buffer, 12 * n, n),
  };
  for (let k = 0; k < n; k++) {
    const i = order ? order[k] : k;
    block.starts[k] = start(i);
    block.sets[k] = view.getInt32(i * RECORD_BYTES + 8);
    block.durations[k] = view.getInt32(i * RECORD_BYTES + 12);
  }
  return block;
}

function decodeCaptures(bytes: Uint8Array): CaptureBlock {
  const view = viewOf(bytes);
  const n = bytes.byteLength / CAPTURE_BYTES;
  const field = (i: number, offset: number) => timestamptzMicros(view, i * CAPTURE_BYTES + offset);
  const seq = (i: number) => view.getInt32(i * CAPTURE_BYTES + 16);
  const order = orderOf(n, (a, b) => field(a, 0) - field(b, 0) || field(a, 8) - field(b, 8));
  const buffer = new ArrayBuffer(20 * n);
  const block = {
    starts: new Float64Array(buffer, 0, n),
    ends: new Float64Array(buffer, 8 * n, n),
    seqs: new Int32Array(buffer, 16 * n, n),
  };
  for (let k = 0; k < n; k++) {
    const i = order ? order[k] : k;
    block.starts[k] = field(i, 0);
    block.ends[k] = field(i, 8);
    block.seqs[k] = seq(i);
  }
  return block;
}

const KINDS = {
  cells: {
    table: frag`ads_cell_parts`,
    data: frag`p.cells`,
    unit: frag`p.month`,
    decode: decodeCells,
    // The largest parts by far: read as their bytes, not as hex digits (Sql.binaryLarge); the
    // bytes may lie in the driver's buffer, which is fine as cells are not kept (below).
    large: true,
    // A month's cells are only ever added up into a grant's month figures (figures.ts), which are
    // kept instead: a fraction of their bytes, so the cache holds many more months.
    kept: false,
  },
  records: {
    table: frag`ads_record_parts`,
    data: frag`p.records`,
    unit: frag`p.day`,
    decode: decodeRecords,
    large: false,
    kept: true,
  },
  captures: {
    table: frag`ads_capture_parts`,
    data: frag`p.captures`,
    unit: frag`p.month`,
    decode: decodeCaptures,
    large: false,
    kept: true,
  },
} satisfies Record<
  BlockKind,
  {
    table: Fragment;
    data: Fragment;
    unit: Fragment;
    decode: unknown;
    large: boolean;
    kept: boolean;
  }
>;

interface BlockTypes {
  cells: CellBlock;
  records: RecordBlock;
  captures: CaptureBlock;
}

/** A block as cached: the approved snapshots it was merged from, the data version last checked. */
interface Kept<T> {
  stamp: string;
  checkedAt: string;
  block: T;
}

/** A block's bytes. */
function bytesOf(block: CellBlock | RecordBlock | CaptureBlock): number {
  return Object.values(block).reduce(
    (n, a: ArrayLike<number> & { byteLength: number }) => n + a.byteLength,
    200,
  );
}

/**
 * The blocks of `keys` (station and month or day) at data version `version`. A block checked at
 * that version comes from the cache; the others are checked, and read when their snapshots
 * changed, in one statement, which throws DataMoved when the data is at another version.
 */
export async function readBlocks<K extends BlockKind>(
  sql: Sql,
  cache: AdsCache,
  kind: K,
  version: string,
  keys: { station: string; unit: number }[],
): Promise<BlockTypes[K][]> {
  const spec = KINDS[kind];
  const cacheKey = (k: { station: string; unit: number }) => `${kind}|${k.station}|${k.unit}`;
  const found: (BlockTypes[K] | undefined)[] = [];
  const stale: number[] = [];
  keys.forEach((k, i) => {
    const kept = spec.kept ? cache.get<Kept<BlockTypes[K]>>(cacheKey(k)) : undefined;
    if (kept?.checkedAt === version) found[i] = kept.block;
    else stale.push(i);
  });
  if (!stale.length) return found as BlockTypes[K][];
  // Taken now: setting the blocks read below may evict them.
  const kept = stale.map((i) =>
    spec.kept ? cache.get<Kept<BlockTypes[K]>>(cacheKey(keys[i])) : undefined
  );
  const empty = spec.decode(new Uint8Array(0)) as BlockTypes[K];
  // A few parts per statement: each one's bytes are decoded and let go before the next are read,
  // so a request never holds all of its parts' bytes at once.
  for (let from = 0; from < stale.length; from += PARTS_PER_STATEMENT) {
    const chunk = stale.slice(from, from + PARTS_PER_STATEMENT);
    const known = kept.slice(from, from + PARTS_PER_STATEMENT).map((k) => k?.stamp ?? "");
    const rows = await (spec.large ? sql.binaryLarge : sql.binary)<
      {
        data_version: string;
        station_id: string | null;
        unit: string;
        stamp: string;
        data: Uint8Array | null;
      }
    >`
      with k as (select * from unnest(${chunk.map((i) => keys[i].station)}::text[],
                                      ${chunk.map((i) => keys[i].unit)}::int[],
                                      ${known}::text[]) as k(station_id, unit, known)),
      p as (select k.station_id, k.unit, k.known,
                   string_agg(p.snapshot_seq::text, ',' order by p.snapshot_seq) as stamp,
                   string_agg(${spec.data}, ''::bytea order by p.snapshot_seq) as data
              from k join ${spec.table} p on p.station_id = k.station_id and ${spec.unit} = k.unit
             where p.snapshot_seq in (select seq from ads_snapshots where approved_at is not null)
             group by 1, 2, 3)
      select v.version::text as data_version, p.station_id, p.unit::text, p.stamp,
             case when p.stamp = p.known then null else p.data end as data
        from ads_data_version v left join p on true`;
    if (rows[0].data_version !== version) throw new DataMoved(rows[0].data_version);
    const read = new Map(
      rows.filter((r) => r.station_id !== null).map((r) => [
        `${kind}|${r.station_id}|${r.unit}`,
        r,
      ]),
    );
    for (const [c, i] of chunk.entries()) {
      const key = cacheKey(keys[i]);
      const row = read.get(key);
      let block: BlockTypes[K];
      if (row && row.data === null) block = kept[from + c]!.block;
      else {
        block = row?.data ? spec.decode(row.data) as BlockTypes[K] : empty;
      }
      if (spec.kept) {
        cache.set(key, { stamp: row?.stamp ?? "", checkedAt: version, block }, bytesOf(block));
      }
      found[i] = block;
    }
  }
  return found as BlockTypes[K][];
}

/** UTC months since 1970-01 of an instant in epoch ms, and the first day number of a month. */
export function monthOf(ms: number): number {
  const d = new Date(ms);
  return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
}
export function monthStartMs(month: number): number {
  return Date.UTC(1970 + Math.floor(month / 12), month % 12, 1);
}
