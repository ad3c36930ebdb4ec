// Answer exports: CSV (RFC 4180, formula-injection safe) and NDJSON, streamed from the
// database to the response in keyset batches, so memory stays bounded for any size.
//
// Each batch is one query that answers the batch's finished text (rows built in SQL, CSV
// fields by onda_csv_field in sql/003_forms.sql): the service handles one string
// per batch instead of an object, dates and a map per session, which keeps both the
// throughput high and the garbage (and so the process's memory) low.

import { type Db, frag, type Sql } from "../db/db.ts";
import { EXPIRED, within } from "../db/deadline.ts";
import { DatabaseUnavailable } from "../errors.ts";

export const EXPORT_FORMATS = ["csv", "ndjson"] as const;
export type ExportFormat = typeof EXPORT_FORMATS[number];

/**
 * Sessions per query. Each batch's text is garbage once sent, and V8 frees large strings only
 * in a full collection, so small batches keep the process flat on PostgreSQL at the same speed
 * (bench/README.md, export). Embedded PGlite pays
 * more per query and its own memory dwarfs the batch, so it reads more at a time.
 */
export function exportBatchSize(db: Db): number {
  return db.kind === "pglite" ? 1000 : 250;
}

export interface Batch {
  /** Sessions in this batch; fewer than asked means it was the last. */
  count: number;
  /** The last session id of the batch: the next batch starts after it. */
  lastId: number | null;
  text: string;
}

/** Reads the batch after a session id (null = from the start), at most `limit` sessions. */
export type BatchReader = (after: number | null, limit: number) => Promise<Batch>;

/**
 * A byte stream that runs one batch query each time the consumer wants more, so a slow client
 * slows the reads instead of filling memory, and a client that goes away stops them. A batch
 * the database has not answered within `deadlineMs` fails the stream: its status and headers
 * are sent, so the download ends broken, never as if it were complete, rather than wait as long
 * as the database is silent.
 */
export function exportStream(
  head: string,
  read: BatchReader,
  batch: number,
  deadlineMs: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: number | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // The head on the first pull (not in start): no batch is read before the consumer asks.
      if (head) {
        controller.enqueue(encoder.encode(head));
        head = "";
        return;
      }
      const next = await within(read(after, batch), deadlineMs);
      if (next === EXPIRED) {
        controller.error(new DatabaseUnavailable(new Error(`no batch within ${deadlineMs} ms`)));
        return;
      }
      after = next.lastId;
      if (next.count > 0) controller.enqueue(encoder.encode(next.text));
      if (next.count < batch) controller.close();
    },
  }, { highWaterMark: 1 });
}

/**
 * PGlite runs no autovacuum, so after a questionnaire grows its planner statistics are stale
 * and each batch may become a bitmap scan of every later session plus a sort: quadratic in
 * the export's size. When the questionnaire holds many more sessions than the statistics
 * know of, refresh them (ANALYZE reads a fixed-size sample, well under a second). PostgreSQL
 * keeps its own statistics current.
 */
export async function refreshStatistics(db: Db, questionnaireId: string): Promise<void> {
  if (db.kind !== "pglite") return;
  const [row] = await db.sql<{ stale: boolean }>`
    select (select count(*) from sessions where questionnaire_id = ${questionnaireId})
      > 2 * greatest((select reltuples from pg_class where oid = 'sessions'::regclass), 0)
        + 1000 as stale`;
  if (row.stale) await db.sql`analyze sessions, answers, questions`;
}

/**
 * What comes before the rows: for CSV a UTF-8 byte order mark (so spreadsheet programs read
 * UTF-8 as UTF-8) and the header row, question titles in question order; nothing for NDJSON.
 */
export async function exportHead(
  sql: Sql,
  format: ExportFormat,
  questionnaireId: string,
): Promise<string> {
  if (format === "ndjson") return "";
  const [row] = await sql<{ header: string }>`
    select concat_ws(',', 'session_id,name,email,started_at,completed_at',
      (select string_agg(onda_csv_field(title), ',' order by position) from questions
       where questionnaire_id = ${questionnaireId})) as header`;
  return "\uFEFF" + row.header + "\r\n";
}

/**
 * The batch reader of one questionnaire's sessions as of a moment: sessions started and
 * answers given later are left out. CSV: one row per session, one field per question (empty
 * when unanswered), CRLF line ends. NDJSON: one object per session, answers by question id.
 */
export function batchReader(
  sql: Sql,
  format: ExportFormat,
  questionnaireId: string,
  asOf: Date,
): BatchReader {
  const utc = frag`'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;
  const line = format === "csv"
    ? frag`concat_ws(',',
        s.id::text,
        onda_csv_field(s.name),
        onda_csv_field(s.email),
        to_char(s.started_at at time zone 'UTC', ${utc}),
        case when s.completed_at <= ${asOf}
          then to_char(s.completed_at at time zone 'UTC', ${utc}) else '' end,
        (select string_agg(onda_csv_field(coalesce(a.answer, '')), ',' order by q.position)
         from questions q
         left join answers a on a.session_id = s.id and a.question_id = q.id
           and a.created_at <= ${asOf}
         where q.questionnaire_id = s.questionnaire_id)
      ) || E'\r\n'`
    : frag`json_build_object(
        'session_id', s.id,
        'name', s.name,
        'email', s.email,
        'started_at', to_char(s.started_at at time zone 'UTC', ${utc}),
        'completed_at', case when s.completed_at <= ${asOf}
          then to_char(s.completed_at at time zone 'UTC', ${utc}) end,
        'answers', coalesce(
          (select json_object_agg(a.question_id::text, a.answer order by a.question_id)
           from answers a where a.session_id = s.id and a.created_at <= ${asOf}),
          '{}'::json)
      )::text || E'\n'`;
  return async (after, limit) => {
    const [found] = await sql<Batch>`
      with batch as (
        select s.id, ${line} as line
        from sessions s
        where s.questionnaire_id = ${questionnaireId} and s.started_at <= ${asOf}
          and s.id > ${after ?? 0}
        order by s.id
        limit ${limit}
      )
      select count(*)::int as count, max(id) as "lastId",
        coalesce(string_agg(line, '' order by id), '') as text
      from batch`;
    return found;
  };
}
