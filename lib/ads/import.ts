// `admin import`: streams an NDJSON snapshot into the ads tables in one transaction, with COPY,
// in memory bounded by the number of stations and brands (never by the number of lines).

import { SCOPE_ID } from "./params.ts";
import { tupleWriter } from "../db/copy_binary.ts";
import { type CopyIn, type Db, frag, type Sql } from "../db/db.ts";
import { type Instant, microsBetween, parseInstant } from "./iso_instant.ts";

/**
 * The advisory lock (transaction-scoped) under which the admin commands write what the service
 * derives its ads data from: an approval, a grant and an import that names stations or brands
 * take turns. Also taken, as the number 122519921164290, by the trigger that renews the data
 * version (sql/002_ads.sql), and by any later migration that reworks the ads tables. Requests
 * never take it.
 */
export const ADS_DATA_LOCK = 0x6f6e6461_0002;

export async function lockAdsData(tx: Sql): Promise<void> {
  await tx`select pg_advisory_xact_lock(${ADS_DATA_LOCK})`;
}

/** A refused import: the message names the line and field; nothing of the import was kept. */
export class ImportError extends Error {}

export interface ImportOptions {
  approve: boolean;
  /** Where the spill files go: inside DATA_DIR, the one place the admin task may write. */
  spillDir: string;
  /** Progress lines (rows, rows/s), about once a second. */
  progress(line: string): void;
  /** Reads the input again from the start: used only to name the line of a repeated id. */
  reread?: () => Promise<ReadableStream<Uint8Array>>;
}

export interface ImportResult {
  snapshotId: string;
  occurrences: number;
  captures: number;
  stations: number;
  brands: number;
  seconds: number;
  approved: boolean;
}

const PRECISIONS = new Set(["estimated", "detected", "human_confirmed"]);
const STATES = new Set(["pending", "confirmed", "rejected"]);
/** An occurrence longer than this is a data error, not an advertisement. */
const MAX_OCCURRENCE_MS = 86_400_000;
const COPY_CHUNK = 256 * 1024;

const FIELDS: Record<string, string[]> = {
  snapshot: ["type", "id", "exported_at"],
  station: ["type", "id", "name"],
  brand: ["type", "id", "name"],
  occurrence: [
    "type",
    "id",
    "station_id",
    "ad_started_at",
    "ad_ended_at",
    "duration_precision",
    "review_state",
    "brand_ids",
  ],
  capture: ["type", "id", "station_id", "started_at", "ended_at"],
};

/** Lines of a UTF-8 stream, numbered from 1, without their line terminators. */
async function* readLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<{ n: number; text: string }> {
  let rest = "";
  let n = 0;
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    for (const part of parts) {
      yield { n: ++n, text: part.endsWith("\r") ? part.slice(0, -1) : part };
    }
  }
  if (rest !== "") yield { n: ++n, text: rest };
}

/** Escapes a value for COPY's text format. */
function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value)
    ? value.replaceAll("\\", "\\\\").replaceAll("\t", "\\t").replaceAll("\n", "\\n")
      .replaceAll("\r", "\\r")
    : value;
}

/** COPY lines kept on disk until their table's turn, so memory stays bounded. */
async function spill(dir: string) {
  await Deno.mkdir(dir, { recursive: true });
  const path = await Deno.makeTempFile({ dir, prefix: "onda_import_" });
  const file = await Deno.open(path, { write: true, truncate: true });
  const encoder = new TextEncoder();
  let buffer: string[] = [];
  let size = 0;
  let count = 0;
  const flush = async () => {
    const bytes = encoder.encode(buffer.join(""));
    for (let written = 0; written < bytes.length;) {
      written += await file.write(bytes.subarray(written));
    }
    buffer = [];
    size = 0;
  };
  return {
    get count() {
      return count;
    },
    async add(line: string) {
      buffer.push(line);
      size += line.length;
      count++;
      if (size >= COPY_CHUNK) await flush();
    },
    async *chunks(): AsyncGenerator<string> {
      await flush();
      file.close();
      const reader = await Deno.open(path, { read: true });
      for await (const chunk of reader.readable.pipeThrough(new TextDecoderStream())) {
        yield chunk;
      }
    },
    async remove() {
      try {
        file.close();
      } catch { /* already closed */ }
      await Deno.remove(path).catch(() => {});
    },
  };
}

function fail(n: number, field: string | null, message: string): never {
  throw new ImportError(`line ${n}${field ? `, field ${field}` : ""}: ${message}`);
}

function parseLine(n: number, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(n, null, "not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(n, null, "must be a JSON object");
  }
  const record = value as Record<string, unknown>;
  const known = FIELDS[record.type as string];
  if (!known) {
    fail(n, "type", "must be one of snapshot, station, brand, occurrence, capture");
  }
  for (const key in record) if (!known.includes(key)) fail(n, key, "is not a known field");
  return record;
}

function idField(n: number, record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== "string" || !SCOPE_ID.test(value)) {
    fail(n, field, "must be 1 to 64 letters, digits, dots, underscores or hyphens");
  }
  return value;
}

function timeField(n: number, record: Record<string, unknown>, field: string): Instant {
  const value = record[field];
  const instant = typeof value === "string" ? parseInstant(value) : null;
  if (!instant) fail(n, field, "must be an ISO 8601 date-time with a time zone");
  return instant;
}

function nameField(n: number, record: Record<string, unknown>): string {
  const name = record.name;
  if (typeof name !== "string" || name.length === 0 || name.length > 200) {
    fail(n, "name", "must be a string of 1 to 200 characters");
  }
  return name;
}

/**
 * Imports one snapshot. The first line must be the snapshot; stations and brands must be
 * defined (in this file or an earlier import) before a line refers to them. Any bad line
 * aborts the transaction, so nothing of the import is kept.
 */
export async function importSnapshot(
  db: Db,
  input: ReadableStream<Uint8Array>,
  options: ImportOptions,
): Promise<ImportResult> {
  const started = performance.now();
  const lines = readLines(input);
  let first = await lines.next();
  while (!first.done && first.value.text.trim() === "") first = await lines.next();
  if (first.done) throw new ImportError("the file is empty; its first line must be a snapshot");
  const head = parseLine(first.value.n, first.value.text);
  if (head.type !== "snapshot") fail(first.value.n, "type", "the first line must be a snapshot");
  if (head.id !== undefined) idField(first.value.n, head, "id");
  const exportedAt = timeField(first.value.n, head, "exported_at").ms;
  const snapshotId = (head.id as string | undefined) ?? crypto.randomUUID();

  const stationSpill = await spill(options.spillDir);
  const brandSpill = await spill(options.spillDir);
  const captureSpill = await spill(options.spillDir);
  let failure: ImportError | null = null;
  try {
    return await db.beginBulk(async (tx, copyIn) => {
      const [existing] = await tx<{ imported_at: Date }>`
        select imported_at from ads_snapshots where id = ${snapshotId}`;
      if (existing) {
        throw new ImportError(
          `snapshot ${snapshotId} was already imported at ${existing.imported_at.toISOString()}; ` +
            "nothing was changed (an import is never applied twice)",
        );
      }
      const [{ seq }] = await tx<{ seq: number }>`
        insert into ads_snapshots (id, exported_at) values (${snapshotId}, ${new Date(exportedAt)})
        returning seq`;
      const stations = new Set(
        (await tx<{ id: string }>`select id from ads_stations`).map((r) => r.id),
      );
      const brands = new Set(
        (await tx<{ id: string }>`select id from ads_brands`).map((r) => r.id),
      );

      let rows = 0;
      let occurrences = 0;
      let lastReport = performance.now();
      const report = () => {
        const seconds = (performance.now() - started) / 1000;
        options.progress(
          `import: ${rows.toLocaleString("en")} rows, ` +
            `${Math.round(rows / Math.max(seconds, 0.001)).toLocaleString("en")} rows/s`,
        );
      };

      async function* occurrenceChunks(): AsyncGenerator<Uint8Array<ArrayBuffer>> {
        const tuples = tupleWriter(COPY_CHUNK + 4096);
        try {
          for await (const { n, text } of lines) {
            if (text.trim() === "") continue;
            const record = parseLine(n, text);
            rows++;
            if ((rows & 8191) === 0 && performance.now() - lastReport >= 1000) {
              lastReport = performance.now();
              report();
            }
            switch (record.type) {
              case "occurrence": {
                writeOccurrence(tuples, n, record, seq, stations, brands);
                occurrences++;
                if (tuples.size >= COPY_CHUNK) yield tuples.take();
                break;
              }
              case "station": {
                const id = idField(n, record, "id");
                stations.add(id);
                await stationSpill.add(`${n}\t${id}\t${copyText(nameField(n, record))}\n`);
                break;
              }
              case "brand": {
                const id = idField(n, record, "id");
                brands.add(id);
                await brandSpill.add(`${n}\t${id}\t${copyText(nameField(n, record))}\n`);
                break;
              }
              case "capture": {
                const id = idField(n, record, "id");
                const station = idField(n, record, "station_id");
                if (!stations.has(station)) {
                  fail(n, "station_id", `station ${station} is not defined before this line`);
                }
                const from = timeField(n, record, "started_at");
                const to = timeField(n, record, "ended_at");
                if (microsBetween(from, to) <= 0) fail(n, "ended_at", "must be after started_at");
                await captureSpill.add(
                  `${id}\t${seq}\t${station}\t${record.started_at}\t${record.ended_at}\n`,
                );
                break;
              }
              default:
                fail(n, "type", "a snapshot line may only be the first line");
            }
          }
          if (tuples.size) yield tuples.take();
        } catch (err) {
          if (err instanceof ImportError) failure = err;
          throw err;
        }
      }

      try {
        await copyIn("ads_occurrences", OCCURRENCE_COLUMNS, occurrenceChunks(), "binary");
      } catch (err) {
        throw failure ?? await duplicateError(err, "occurrence", options.reread);
      }
      if (failure) throw failure;
      // Before the names: a new or renamed station or brand renews the data version, whose
      // trigger takes this lock; taken first here, as an approval takes it, so the two queue
      // instead of deadlocking. An import without station or brand lines leaves them free.
      if (stationSpill.count || brandSpill.count) await lockAdsData(tx);
      await upsertNamed(tx, copyIn, "ads_stations", stationSpill.chunks());
      await upsertNamed(tx, copyIn, "ads_brands", brandSpill.chunks());
      try {
        await copyIn(
          "ads_captures",
          ["id", "snapshot_seq", "station_id", "started_at", "ended_at"],
          captureSpill.chunks(),
        );
      } catch (err) {
        throw await duplicateError(err, "capture", options.reread);
      }
      await tx`
        update ads_snapshots
           set occurrences = ${occurrences}, captures = ${captureSpill.count}
         where seq = ${seq}`;
      if (options.approve) await approveSeq(tx, seq);
      report();
      return {
        snapshotId,
        occurrences,
        captures: captureSpill.count,
        stations: stationSpill.count,
        brands: brandSpill.count,
        seconds: (performance.now() - started) / 1000,
        approved: options.approve,
      };
    });
  } finally {
    await Promise.all([stationSpill.remove(), brandSpill.remove(), captureSpill.remove()]);
  }
}

const OCCURRENCE_COLUMNS = [
  "id",
  "snapshot_seq",
  "station_id",
  "ad_started_at",
  "ad_ended_at",
  "duration_ms",
  "duration_precision",
  "review_state",
  "brand_ids",
];

/** Checks an occurrence line and writes it as a binary COPY tuple (OCCURRENCE_COLUMNS). */
function writeOccurrence(
  out: ReturnType<typeof tupleWriter>,
  n: number,
  record: Record<string, unknown>,
  seq: number,
  stations: Set<string>,
  brands: Set<string>,
): void {
  // The id is checked as it is written: a failure abandons the whole COPY, tuple and all.
  out.tuple(OCCURRENCE_COLUMNS.length);
  const id = record.id;
  if (typeof id !== "string" || !out.uuid(id)) fail(n, "id", "must be a UUID");
  const station = idField(n, record, "station_id");
  if (!stations.has(station)) {
    fail(n, "station_id", `station ${station} is not defined before this line`);
  }
  const from = timeField(n, record, "ad_started_at");
  const to = timeField(n, record, "ad_ended_at");
  if (microsBetween(from, to) < 0) fail(n, "ad_ended_at", "must not be before ad_started_at");
  if (microsBetween(from, to) > MAX_OCCURRENCE_MS * 1000) {
    fail(n, "ad_ended_at", "an occurrence lasts at most 24 hours");
  }
  const precision = record.duration_precision;
  if (typeof precision !== "string" || !PRECISIONS.has(precision)) {
    fail(n, "duration_precision", "must be estimated, detected or human_confirmed");
  }
  const state = record.review_state;
  if (typeof state !== "string" || !STATES.has(state)) {
    fail(n, "review_state", "must be pending, confirmed or rejected");
  }
  const list = record.brand_ids;
  if (!Array.isArray(list) || list.length === 0 || list.length > 20) {
    fail(n, "brand_ids", "must be a list of 1 to 20 brand ids");
  }
  for (const brand of list) {
    if (typeof brand !== "string" || !brands.has(brand)) {
      fail(n, "brand_ids", `brand ${String(brand)} is not defined before this line`);
    }
  }
  // Sorted and without repeats, so that equal brand sets are one set of ads_brand_sets.
  const sorted = list.length === 1 ? list as string[] : [...new Set(list as string[])].sort();
  out.int4(seq);
  out.text(station);
  out.timestamptz(from.ms, from.micros);
  out.timestamptz(to.ms, to.micros);
  out.int4(to.ms - from.ms);
  out.text(precision);
  out.text(state);
  out.textArray(sorted);
}

/** Stations and brands: the last name given in the file wins over an earlier or stored one. */
async function upsertNamed(
  tx: Sql,
  copyIn: CopyIn,
  table: "ads_stations" | "ads_brands",
  chunks: AsyncIterable<string>,
) {
  await tx`create temp table ads_import_named (line int, id text, name text) on commit drop`;
  await copyIn("ads_import_named", ["line", "id", "name"], chunks);
  const target = table === "ads_stations" ? frag`ads_stations` : frag`ads_brands`;
  const named =
    frag`(select distinct on (id) id, name from ads_import_named order by id, line desc)`;
  await tx`insert into ${target} (id, name) select id, name from ${named} n
           on conflict (id) do update set name = excluded.name`;
  await tx`drop table ads_import_named`;
}

/**
 * A repeated id surfaces from COPY as a unique violation naming the id but not the line, so
 * the input is read once more to find it: the second line with the id when the file repeats
 * it, else the first (the id came from an earlier import).
 */
async function duplicateError(
  err: unknown,
  what: "occurrence" | "capture",
  reread?: () => Promise<ReadableStream<Uint8Array>>,
): Promise<Error> {
  const code = (err as { code?: string })?.code;
  const detail = String((err as { detail?: string })?.detail ?? "");
  if (code !== "23505") return err instanceof Error ? err : new Error(String(err));
  const id = /\(id\)=\(([^)]*)\)/.exec(detail)?.[1] ?? "?";
  const lines: number[] = [];
  if (reread && id !== "?") {
    for await (const { n, text } of readLines(await reread())) {
      if (!text.includes(id)) continue;
      try {
        const record = JSON.parse(text);
        if (record.type === what && String(record.id).toLowerCase() === id) lines.push(n);
      } catch { /* not this line */ }
      if (lines.length === 2) break;
    }
  }
  const where = lines.length ? `line ${lines[lines.length - 1]}, field id: ` : "";
  return new ImportError(
    `${where}${what} id ${id} is repeated in this file or was imported before; nothing was kept`,
  );
}

/**
 * Approves a snapshot: its rows become visible, and its figures per station, day and brand set
 * are packed for the services to load (sql/002_ads.sql, lib/ads/figure_index.ts). Reads
 * only this snapshot's rows and writes nothing per account, so its cost follows the snapshot's
 * size alone.
 */
export async function approveSeq(tx: Sql, seq: number) {
  await lockAdsData(tx);
  // The grouping of a large snapshot sorts millions of rows; give it memory for this
  // transaction only.
  await tx`select set_config('work_mem', '256MB', true)`;
  // The services' indexes follow by themselves: this renews the data version (sql/002_ads.sql).
  await tx`update ads_snapshots set approved_at = now() where seq = ${seq}`;
  // The snapshot's rows are found through the block range index, which a scan reads whole for
  // every range not summarized yet: the ranges imported since autovacuum last ran, the whole
  // table after a bulk load. Summarizing them first keeps the read to the snapshot's own ranges.
  await tx`select brin_summarize_new_values('ads_occurrences_snapshot')`;
  await tx`select ads_pack_day_cells(${seq})`;
}

/** `snapshot approve <id>`: refuses an unknown or already approved snapshot. */
export async function approveSnapshot(db: Db, id: string): Promise<void> {
  await db.begin(async (tx) => {
    const [row] = await tx<{ seq: number; approved_at: Date | null }>`
      select seq, approved_at from ads_snapshots where id = ${id} for update`;
    if (!row) throw new ImportError(`no snapshot ${id}`);
    if (row.approved_at) {
      throw new ImportError(
        `snapshot ${id} was already approved at ${row.approved_at.toISOString()}`,
      );
    }
    await approveSeq(tx, row.seq);
  });
}
