// `admin import`: streams an NDJSON snapshot into the ads tables in one transaction, with COPY,
// in memory bounded by the number of stations and brands (never by the number of lines).

import { SCOPE_ID } from "./params.ts";
import { tupleWriter } from "../db/copy_binary.ts";
import { type Db, frag, type Sql } from "../db/db.ts";
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
  /** Bytes of COPY data per statement (BATCH_BYTES); tests make it small. */
  batchBytes?: number;
  /** Progress lines (rows, rows/s), about once a second. */
  progress(line: string): void;
  /** Reads the input again from the start: used only to name the line of a repeated id. */
  reread?: () => Promise<ReadableStream<Uint8Array>>;
}

/** The allowed values of an occurrence's duration_precision and review_state (sql/002_ads.sql). */
export const DURATION_PRECISIONS = ["estimated", "detected", "human_confirmed"];
export const REVIEW_STATES = ["pending", "confirmed", "rejected"];
const PRECISIONS = new Set(DURATION_PRECISIONS);
const STATES = new Set(REVIEW_STATES);
/** An occurrence longer than this is a data error, not an advertisement. */
const MAX_OCCURRENCE_MS = 86_400_000;
/** The tuples handed to a streaming COPY at a time. */
const COPY_CHUNK = 256 * 1024;
/** Captures and names wait in memory in batches of about this many bytes, each one COPY. */
export const BATCH_BYTES = 4 * 1024 * 1024;

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
const CAPTURE_COLUMNS = ["id", "snapshot_seq", "station_id", "started_at", "ended_at"];
const NAMED_COLUMNS = ["kind", "line", "id", "name"];

/** The fields of each line type: its table's columns but those the import fills. */
const FILLED = ["snapshot_seq", "duration_ms"];
const FIELDS: Record<string, string[]> = {
  snapshot: ["type", "id", "exported_at"],
  station: ["type", "id", "name"],
  brand: ["type", "id", "name"],
  occurrence: ["type", ...OCCURRENCE_COLUMNS.filter((c) => !FILLED.includes(c))],
  capture: ["type", ...CAPTURE_COLUMNS.filter((c) => !FILLED.includes(c))],
};

/** A line of the file, parsed; and what it refers to that is defined so far. */
type Line = Record<string, unknown>;
interface Known {
  seq: number;
  stations: Set<string>;
  brands: Set<string>;
}
type Tuples = ReturnType<typeof tupleWriter>;

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

function fail(n: number, field: string | null, message: string): never {
  throw new ImportError(`line ${n}${field ? `, field ${field}` : ""}: ${message}`);
}

function parseLine(n: number, text: string): Line {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(n, null, "not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(n, null, "must be a JSON object");
  }
  const record = value as Line;
  const known = FIELDS[record.type as string];
  if (!known) {
    fail(n, "type", "must be one of snapshot, station, brand, occurrence, capture");
  }
  for (const key in record) if (!known.includes(key)) fail(n, key, "is not a known field");
  return record;
}

function idField(n: number, record: Line, field: string): string {
  const value = record[field];
  if (typeof value !== "string" || !SCOPE_ID.test(value)) {
    fail(n, field, "must be 1 to 64 letters, digits, dots, underscores or hyphens");
  }
  return value;
}

function timeField(n: number, record: Line, field: string): Instant {
  const value = record[field];
  const instant = typeof value === "string" ? parseInstant(value) : null;
  if (!instant) fail(n, field, "must be an ISO 8601 date-time with a time zone");
  return instant;
}

/** A station id defined earlier in this file or by an earlier import. */
function stationField(n: number, record: Line, stations: Set<string>): string {
  const station = idField(n, record, "station_id");
  if (!stations.has(station)) {
    fail(n, "station_id", `station ${station} is not defined before this line`);
  }
  return station;
}

function nameField(n: number, record: Line): string {
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
 *
 * Nothing is written outside the database, so PostgreSQL needs no data directory. Occurrences
 * stream through a COPY while captures and names wait in memory, each kind in a batch of whole
 * rows: when one fills, the occurrence COPY ends, the batch loads with its own COPY, and a new
 * occurrence COPY goes on. PGlite holds a COPY's data whole, so there the occurrences' COPY
 * ends at the batch size too.
 */
export async function importSnapshot(
  db: Db,
  input: ReadableStream<Uint8Array>,
  options: ImportOptions,
) {
  const started = performance.now();
  const batchBytes = options.batchBytes ?? BATCH_BYTES;
  const lines = readLines(input);
  let first = await lines.next();
  while (!first.done && first.value.text.trim() === "") first = await lines.next();
  if (first.done) throw new ImportError("the file is empty; its first line must be a snapshot");
  const head = parseLine(first.value.n, first.value.text);
  if (head.type !== "snapshot") fail(first.value.n, "type", "the first line must be a snapshot");
  if (head.id !== undefined) idField(first.value.n, head, "id");
  const exportedAt = timeField(first.value.n, head, "exported_at").ms;
  const snapshotId = (head.id as string | undefined) ?? crypto.randomUUID();

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
    // Defined by any earlier import, approved or not: only serving waits for an approval. The
    // names of approved snapshots are all served; those of others are read by their snapshot.
    const ids = async (kind: "station" | "brand") =>
      new Set(
        (await tx<{ id: string }>`
          select id from ${kind === "station" ? frag`ads_stations` : frag`ads_brands`}
          union
          select n.id from ads_snapshots s
            join ads_snapshot_names n on n.snapshot_seq = s.seq and n.kind = ${kind}
           where s.approved_at is null`).map((r) => r.id),
      );
    const known = { seq, stations: await ids("station"), brands: await ids("brand") };
    // Station and brand lines wait here until the end, when their names are upserted.
    await tx`create temp table ads_import_named (kind text, line int, id text, name text)
             on commit drop`;

    const occurrenceTuples = tupleWriter(COPY_CHUNK + 4096);
    const captureTuples = tupleWriter(batchBytes + 4096);
    let named = "";
    const counts = { rows: 0, occurrences: 0, captures: 0, stations: 0, brands: 0 };
    let inputDone = false;
    let failure: ImportError | null = null;
    let lastReport = performance.now();
    const report = () => {
      const seconds = (performance.now() - started) / 1000;
      options.progress(
        `import: ${counts.rows.toLocaleString("en")} rows, ` +
          `${Math.round(counts.rows / Math.max(seconds, 0.001)).toLocaleString("en")} rows/s`,
      );
    };

    /** Reads lines into their batches; yields the occurrences' tuples until a batch is full. */
    async function* occurrenceRun(): AsyncGenerator<Uint8Array<ArrayBuffer>> {
      let runBytes = 0;
      const runFull = () => db.kind === "pglite" && runBytes >= batchBytes;
      try {
        while (captureTuples.size < batchBytes && named.length < batchBytes && !runFull()) {
          const next = await lines.next();
          if (next.done) {
            inputDone = true;
            break;
          }
          const { n, text } = next.value;
          if (text.trim() === "") continue;
          const record = parseLine(n, text);
          counts.rows++;
          if ((counts.rows & 8191) === 0 && performance.now() - lastReport >= 1000) {
            lastReport = performance.now();
            report();
          }
          switch (record.type) {
            case "occurrence":
              writeOccurrence(occurrenceTuples, n, record, known);
              counts.occurrences++;
              if (occurrenceTuples.size >= COPY_CHUNK) {
                runBytes += occurrenceTuples.size;
                yield occurrenceTuples.take();
              }
              break;
            case "capture":
              writeCapture(captureTuples, n, record, known);
              counts.captures++;
              break;
            case "station":
            case "brand": {
              const id = idField(n, record, "id");
              (record.type === "station" ? known.stations : known.brands).add(id);
              counts[record.type === "station" ? "stations" : "brands"]++;
              named += `${record.type}\t${n}\t${id}\t${copyText(nameField(n, record))}\n`;
              break;
            }
            default:
              fail(n, "type", "a snapshot line may only be the first line");
          }
        }
        if (occurrenceTuples.size) yield occurrenceTuples.take();
      } catch (err) {
        if (err instanceof ImportError) failure = err;
        throw err;
      }
    }

    while (!inputDone) {
      await copyIn("ads_occurrences", OCCURRENCE_COLUMNS, occurrenceRun(), "binary")
        .catch(async (err) => {
          throw failure ?? await duplicateError(err, "occurrence", options.reread);
        });
      if (failure) throw failure;
      if (captureTuples.size >= batchBytes || (inputDone && captureTuples.size)) {
        const batch = ReadableStream.from([captureTuples.take()]);
        await copyIn("ads_captures", CAPTURE_COLUMNS, batch, "binary").catch(async (err) => {
          throw await duplicateError(err, "capture", options.reread);
        });
      }
      if (named.length >= batchBytes || (inputDone && named)) {
        await copyIn("ads_import_named", NAMED_COLUMNS, ReadableStream.from([named]));
        named = "";
      }
    }
    if (counts.stations || counts.brands) await keepNames(tx, seq);
    await tx`
      update ads_snapshots
         set occurrences = ${counts.occurrences}, captures = ${counts.captures}
       where seq = ${seq}`;
    if (options.approve) await approveSeq(tx, seq);
    report();
    const seconds = (performance.now() - started) / 1000;
    return { snapshotId, ...counts, seconds, approved: options.approve };
  });
}

/** Checks an occurrence line and writes it as a binary COPY tuple (OCCURRENCE_COLUMNS). */
function writeOccurrence(out: Tuples, n: number, record: Line, known: Known): void {
  // The id is checked as it is written: a failure abandons the whole COPY, tuple and all.
  out.tuple(OCCURRENCE_COLUMNS.length);
  const id = record.id;
  if (typeof id !== "string" || !out.uuid(id)) fail(n, "id", "must be a UUID");
  const station = stationField(n, record, known.stations);
  const from = timeField(n, record, "ad_started_at");
  const to = timeField(n, record, "ad_ended_at");
  if (microsBetween(from, to) < 0) fail(n, "ad_ended_at", "must not be before ad_started_at");
  if (microsBetween(from, to) > MAX_OCCURRENCE_MS * 1000) {
    fail(n, "ad_ended_at", "an occurrence lasts at most 24 hours");
  }
  const precision = record.duration_precision;
  if (typeof precision !== "string" || !PRECISIONS.has(precision)) {
    fail(n, "duration_precision", `must be one of ${DURATION_PRECISIONS.join(", ")}`);
  }
  const state = record.review_state;
  if (typeof state !== "string" || !STATES.has(state)) {
    fail(n, "review_state", `must be one of ${REVIEW_STATES.join(", ")}`);
  }
  const list = record.brand_ids;
  if (!Array.isArray(list) || list.length === 0 || list.length > 20) {
    fail(n, "brand_ids", "must be a list of 1 to 20 brand ids");
  }
  for (const brand of list) {
    if (typeof brand !== "string" || !known.brands.has(brand)) {
      fail(n, "brand_ids", `brand ${String(brand)} is not defined before this line`);
    }
  }
  // Sorted and without repeats, so that equal brand sets are one set of ads_brand_sets.
  const sorted = list.length === 1 ? list as string[] : [...new Set(list as string[])].sort();
  out.int4(known.seq);
  out.text(station);
  out.timestamptz(from.ms, from.micros);
  out.timestamptz(to.ms, to.micros);
  out.int4(to.ms - from.ms);
  out.text(precision);
  out.text(state);
  out.textArray(sorted);
}

/** Checks a capture line and writes it as a binary COPY tuple (CAPTURE_COLUMNS). */
function writeCapture(out: Tuples, n: number, record: Line, known: Known): void {
  const id = idField(n, record, "id");
  const station = stationField(n, record, known.stations);
  const from = timeField(n, record, "started_at");
  const to = timeField(n, record, "ended_at");
  if (microsBetween(from, to) <= 0) fail(n, "ended_at", "must be after started_at");
  out.tuple(CAPTURE_COLUMNS.length);
  out.text(id);
  out.int4(known.seq);
  out.text(station);
  out.timestamptz(from.ms, from.micros);
  out.timestamptz(to.ms, to.micros);
}

/**
 * The snapshot's stations and brands, the last name given in the file winning: served once the
 * snapshot is approved (ads_pack_snapshot, sql/006_ads_blocks.sql).
 */
async function keepNames(tx: Sql, seq: number) {
  await tx`insert into ads_snapshot_names (kind, id, snapshot_seq, name)
           select distinct on (kind, id) kind, id, ${seq}, name from ads_import_named
            order by kind, id, line desc`;
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
        // A uuid comes back from the database in lower case; a capture id as it was written.
        const given = what === "occurrence" ? String(record.id).toLowerCase() : String(record.id);
        if (record.type === what && given === id) lines.push(n);
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
 * Approves a snapshot: its rows and the names it gives become visible, and its figures, records
 * and captures are packed for the services to read (sql/006_ads_blocks.sql). Reads only this
 * snapshot's rows and writes nothing per account, so its cost follows the snapshot's size alone.
 */
export async function approveSeq(tx: Sql, seq: number) {
  await lockAdsData(tx);
  // The grouping of a large snapshot sorts millions of rows; give it memory for this
  // transaction only.
  await tx`select set_config('work_mem', '256MB', true)`;
  // What the services read follows by itself: this renews the data version (sql/002_ads.sql).
  await tx`update ads_snapshots set approved_at = now() where seq = ${seq}`;
  // The snapshot's rows are found through the block range indexes, which a scan reads whole for
  // every range not summarized yet: the ranges imported since autovacuum last ran, the whole
  // table after a bulk load. Summarizing them first keeps the read to the snapshot's own ranges.
  await tx`select brin_summarize_new_values('ads_occurrences_snapshot')`;
  await tx`select brin_summarize_new_values('ads_captures_snapshot')`;
  await tx`select ads_pack_snapshot(${seq})`;
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
