// `admin import`: streams an NDJSON snapshot into the ads tables in one transaction, with COPY,
// in memory bounded by the number of stations and brands (never by the number of lines). Each
// line's checks and tuple: lib/ads/import_lines.ts; approval and the admin commands' lock
// (ADS_DATA_LOCK, which sql/002_ads.sql places here): lib/ads/approval.ts.

import { tupleWriter } from "../db/copy_binary.ts";
import { type Db, frag, type Sql } from "../db/db.ts";
import { approveSeq } from "./approval.ts";
import {
  CAPTURE_COLUMNS,
  copyText,
  fail,
  idField,
  ImportError,
  nameField,
  OCCURRENCE_COLUMNS,
  parseLine,
  readLines,
  timeField,
  writeCapture,
  writeOccurrence,
} from "./import_lines.ts";

export interface ImportOptions {
  approve: boolean;
  /** Bytes of COPY data per statement (BATCH_BYTES); tests make it small. */
  batchBytes?: number;
  /** Progress lines (rows, rows/s), about once a second. */
  progress(line: string): void;
  /** Reads the input again from the start: used only to name the line of a repeated id. */
  reread?: () => Promise<ReadableStream<Uint8Array>>;
}

/** The tuples handed to a streaming COPY at a time. */
const COPY_CHUNK = 256 * 1024;
/** Captures and names wait in memory in batches of about this many bytes, each one COPY. */
export const BATCH_BYTES = 4 * 1024 * 1024;
/** The columns of the station and brand lines' COPY into ads_import_named. */
const NAMED_COLUMNS = ["kind", "line", "id", "name"];

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
