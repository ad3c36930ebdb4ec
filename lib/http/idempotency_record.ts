// The Idempotency-Key record of one request (lib/http/idempotency.ts): a row of idempotency_keys
// with a unique (principal, route, key), so every instance of the service agrees. Every statement
// here takes over or reads a record by one rule of when it lapses: onda_idempotency_lapsed
// (sql/013_idempotency_lapse.sql), expired after 24 h or, still unfinished, abandoned after a
// minute.

import { empty, frag, type Sql } from "../db/db.ts";
import { ApiError } from "../errors.ts";
import type { RecordSealer } from "./sealed.ts";

/** A stored answer: status, headers and body text. */
export type Answer = [status: number, headers: [string, string][], text: string | null];

/** The key of one request, while its handler runs. */
export interface Scope {
  who: string;
  route: string;
  id: string;
  hash: string;
  /** The request's time: its record's created_at, and the moment lapses are judged at. */
  now: Date;
  /** The route stores its finished record with its writes, without a claim beforehand. */
  transactional: boolean;
  /** The handler stored the record in its own transaction or statement. */
  stored: boolean;
  /** Present on sealed routes: encrypts the answer's credentials in the record. */
  sealer: RecordSealer | null;
}

interface KeyRow {
  request_hash: string;
  status: number | null;
  headers: [string, string][] | null;
  body: string | null;
  lapsed: boolean;
}

/** Commits a statement without waiting for the WAL flush (set_config local to its transaction). */
const ASYNC_COMMIT = frag`with fast as (select set_config('synchronous_commit', 'off', true))`;

export function keyError(status: 409 | 422, message: string): ApiError {
  return new ApiError(status, status === 409 ? "CONFLICT" : "UNPROCESSABLE", {
    message,
    field: "Idempotency-Key",
  });
}

/**
 * The record of `s` as JSON for onda_insert_idempotency (and onda_keep_idempotency, which the
 * public routes' statements call): the finished `answer`, or without one a claim (status null).
 */
export function recordJson(s: Scope, answer?: Answer): string {
  const [status, headers, body] = answer ?? [];
  return JSON.stringify({
    principal: s.who,
    route: s.route,
    key: s.id,
    request_hash: s.hash,
    created_at: s.now.toISOString(),
    status,
    headers,
    body,
  });
}

/** The record holding the key of `s`, and whether it has lapsed as of the request's time. */
export async function lookup(sql: Sql, s: Scope): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow>`
    select request_hash, status, headers, body,
           onda_idempotency_lapsed(created_at, status, ${s.now}) as lapsed
    from idempotency_keys
    where principal = ${s.who} and route = ${s.route} and key = ${s.id}`;
  return row;
}

/**
 * Claims the key for `s` (a record with status null, committed asynchronously: that is safe
 * because the handler's synchronous commit flushes the WAL in order), taking over a lapsed
 * record; false when a valid record of another request holds it.
 */
export async function claim(sql: Sql, s: Scope): Promise<boolean> {
  const [row] = await sql<{ stored: boolean }>`
    ${ASYNC_COMMIT}
    select onda_insert_idempotency(${recordJson(s)}::jsonb) as stored from fast`;
  return row.stored;
}

/**
 * Inserts the finished record of `s`, taking over a lapsed one; false when a valid record of
 * another request holds the key. Never sealed: only routes without a claim come here, and the
 * router allows `sealed` on claimed (`idempotent: true`) routes alone (lib/http/router.ts).
 */
export async function insertFinished(sql: Sql, s: Scope, answer: Answer): Promise<boolean> {
  const [row] = await sql<{ stored: boolean }>`
    select onda_insert_idempotency(${recordJson(s, answer)}::jsonb) as stored`;
  return row.stored;
}

/**
 * Stores an answer in this request's own unfinished claim (sealed on a sealed route); false when
 * the claim is no longer its own: a run so late that a retry took its claim over stores nothing
 * over the retry's record. `asyncCommit` outside a transaction only (see store).
 */
export async function finishClaim(
  sql: Sql,
  s: Scope,
  [status, headers, text]: Answer,
  asyncCommit: boolean,
): Promise<boolean> {
  if (s.sealer) ({ headers, text } = await s.sealer.seal({ headers, text }));
  const rows = await sql`
    ${asyncCommit ? ASYNC_COMMIT : empty}
    update idempotency_keys
    set status = ${status}, headers = ${JSON.stringify(headers)}::jsonb, body = ${text}
    ${asyncCommit ? frag`from fast` : empty}
    where principal = ${s.who} and route = ${s.route} and key = ${s.id} and status is null
      and created_at = ${s.now}
    returning 1 as stored`;
  return rows.length > 0;
}

/**
 * A 5xx frees the key so that a retry runs again: only an unfinished claim is released (an
 * answer stored in the handler's transaction stays); a transactional route stored nothing.
 */
export function release(sql: Sql, s: Scope): Promise<unknown> {
  if (s.transactional) return Promise.resolve();
  return sql`delete from idempotency_keys
    where principal = ${s.who} and route = ${s.route} and key = ${s.id} and status is null
      and created_at = ${s.now}`;
}

/** Deletes a batch of expired records, so the table stays small. */
export async function prune(sql: Sql, now: Date): Promise<void> {
  await sql`
    delete from idempotency_keys where (principal, route, key) in (
      select principal, route, key from idempotency_keys
      where onda_idempotency_expired(created_at, ${now}) limit 1000
    )`.catch(() => {}); // best effort: an expired key is also replaced when it is reused
}

function replay(row: KeyRow): Response {
  const headers = new Headers(row.headers ?? []);
  headers.set("Idempotent-Replayed", "true");
  // The stored error body names the original request's trace id; the header must agree.
  try {
    const traceId = row.body?.startsWith('{"error"') ? JSON.parse(row.body).error?.trace_id : null;
    if (typeof traceId === "string") headers.set("X-Trace-Id", traceId);
  } catch {
    // A body that only looks like the envelope: the header keeps this request's trace id.
  }
  return new Response(row.status === 204 ? null : row.body, { status: row.status!, headers });
}

/** The answer a request gets from an existing record that has not lapsed. */
export async function answerFrom(row: KeyRow, s: Scope): Promise<Response> {
  if (row.request_hash !== s.hash) {
    throw keyError(422, "This Idempotency-Key was used with another request body; use a new key.");
  }
  if (row.status === null) {
    throw keyError(409, "A request with this Idempotency-Key is still running; retry shortly.");
  }
  if (!s.sealer) return replay(row);
  const opened = await s.sealer.open({ headers: row.headers ?? [], text: row.body }).catch(() => {
    // Sealed under another SECRET_KEY, or altered: the credential cannot be given back, and
    // running the request again could create a second account or token.
    throw keyError(
      422,
      "The answer stored for this Idempotency-Key can no longer be read; use a new key.",
    );
  });
  return replay({ ...row, headers: opened.headers, body: opened.text });
}
