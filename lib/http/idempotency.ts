// Idempotency-Key for creating POSTs (routes with `idempotent: true`): a repeat within 24 h
// from the same principal on the same route replays the first answer without running the
// handler again. The record is a row with a unique key, so every instance of the service agrees.
//
// Durability: a request's side effects and its idempotency record commit together or not at
// all, so after a crash at any point either both exist (a retry replays) or neither does (a
// retry runs afresh). A creating handler writes the record with its own writes: in its
// transaction with `storeInTransaction(tx, req, status, payload)`, or, when its writes are one
// statement, by passing `pendingRecord(req, status, payload)` to it (`pendingRecordOfStatement`
// when that statement builds the answer itself). Two modes:
//
// - Transactional routes (`idempotent: "transactional"`: the public session and answer
//   POSTs): no claim beforehand. The handler runs and inserts the finished record with its
//   writes; if another request holds the key, that insert aborts them all and the request
//   answers from the record instead (replay, 409 while unfinished, 422 for another body). A
//   handler error also answers from the record when there is one (a retried answer fails as
//   "already answered" before it writes). One commit per request.
// - Other routes: the first request claims the key (a row with status null, committed
//   asynchronously: that is safe because the handler's synchronous commit flushes the WAL in
//   order), runs, and its answer is stored in the handler's transaction when the handler calls
//   the hook, or right after it otherwise (then a crash in between leaves the claim unfinished:
//   409 for a minute, then taken over). An unfinished claim reads as running (409).
//
// Outcomes that are stored and replayed: every 2xx-4xx answer (a 4xx is the answer to that
// request; retrying the same request gives the same answer; it changed nothing, so it is stored
// on its own) but a 429, the rate limit's answer rather than the request's (and any refusal of
// the caller marked `replayable: false`, such as a spent form token). A 5xx or an
// unexpected error stores nothing (or releases the claim), so the client can retry with the
// same key, as after a 429.
//
// Sealed routes (`sealed`, with `idempotent: true`: register, bearer tokens): their answers
// carry a credential, so its parts are stored encrypted and opened only to replay, and the
// request digest is keyed (lib/http/sealed.ts). Their requests also prune expired records, so a
// sealed credential does not outlive its 24 h by long.

import { type Db, empty, frag, type Sql } from "../db/db.ts";
import { ApiError, errorBody } from "../errors.ts";
import { json, JSON_CONTENT_TYPE, type RequestContext, type Route } from "./router.ts";
import { type RecordSealer, recordSealer } from "./sealed.ts";
import { sha256Hex } from "../encoding.ts";

const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
/** A claim still unfinished after this long belongs to a crashed instance and may be taken over. */
const ABANDONED_AFTER_MS = 60 * 1000;

/** About one new key in this many also deletes a batch of expired keys, so the table stays small. */
const PRUNE_CHANCE = 1 / 500;

/** The headers of a stored JSON answer: those `json(payload, status)` sends. */
const JSON_HEADERS: [string, string][] = [["content-type", JSON_CONTENT_TYPE]];

/** Commits a statement without waiting for the WAL flush (set_config local to its transaction). */
const ASYNC_COMMIT = frag`with fast as (select set_config('synchronous_commit', 'off', true))`;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A stored answer: status, headers and body text. */
type Answer = [status: number, headers: [string, string][], text: string | null];

interface KeyRow {
  request_hash: string;
  created_at: Date;
  status: number | null;
  headers: [string, string][] | null;
  body: string | null;
}

/** The key of one request, while its handler runs. */
interface Scope {
  who: string;
  route: string;
  id: string;
  hash: string;
  now: Date;
  transactional: boolean;
  stored: boolean;
  /** Present on sealed routes: encrypts the answer's credentials in the record. */
  sealer: RecordSealer | null;
}

const scopes = new WeakMap<Request, Scope>();

/**
 * True for a request that will claim its key (`idempotent: true`, with an Idempotency-Key): its
 * answer is stored after the handler's own writes unless the handler stores it in its
 * transaction. Given up at the database deadline, it is therefore left to run to its end instead
 * of being stopped between a committed write and its stored answer (lib/db/abandon.ts): a retry
 * with the same key gets 409 while it runs, then the replay, never a second write.
 */
export function finishesWhenGivenUp(route: Route, req: Request): boolean {
  return route.idempotent === true && req.headers.has("idempotency-key");
}

/** Thrown inside a handler's transaction when another request holds its key: rolls it back. */
class KeyTaken extends Error {}

function keyError(status: 409 | 422, message: string): ApiError {
  return new ApiError(status, status === 409 ? "CONFLICT" : "UNPROCESSABLE", {
    message,
    field: "Idempotency-Key",
  });
}

const contended = () => keyError(409, "This Idempotency-Key is contended; retry shortly.");

/** The concrete route (method and v1 path with its parameters), so one key per resource. */
function routeKey(ctx: RequestContext, rawParams: Record<string, string>): string {
  const path = ctx.route.path.replace(/\{([a-zA-Z_]+)\}/g, (_, name) => rawParams[name] ?? "");
  return `${ctx.route.method} ${path}`;
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

function isExpired(row: KeyRow, now: Date): boolean {
  const age = now.getTime() - row.created_at.getTime();
  return age >= IDEMPOTENCY_WINDOW_MS || (row.status === null && age >= ABANDONED_AFTER_MS);
}

/** The answer a request gets from an existing record that is still valid. */
async function answerFrom(row: KeyRow, s: Scope): Promise<Response> {
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

async function lookup(sql: Sql, s: Scope): Promise<KeyRow | undefined> {
  const [row] = await sql<KeyRow>`
    select request_hash, created_at, status, headers, body from idempotency_keys
    where principal = ${s.who} and route = ${s.route} and key = ${s.id}`;
  return row;
}

/**
 * Inserts the finished record of `s`, taking over an expired or abandoned one; false when a
 * valid record of another request holds the key.
 */
function insertFinished(sql: Sql, s: Scope, [status, headers, text]: Answer): Promise<boolean> {
  const expiredBefore = new Date(s.now.getTime() - IDEMPOTENCY_WINDOW_MS);
  const abandonedBefore = new Date(s.now.getTime() - ABANDONED_AFTER_MS);
  return sql`
    insert into idempotency_keys
      (principal, route, key, request_hash, created_at, status, headers, body)
    values (${s.who}, ${s.route}, ${s.id}, ${s.hash}, ${s.now}, ${status},
            ${JSON.stringify(headers)}::jsonb, ${text})
    on conflict (principal, route, key) do update
    set request_hash = excluded.request_hash, created_at = excluded.created_at,
        status = excluded.status, headers = excluded.headers, body = excluded.body
    where idempotency_keys.created_at < ${expiredBefore}
       or (idempotency_keys.status is null and idempotency_keys.created_at < ${abandonedBefore})
    returning 1 as stored`.then((rows) => rows.length > 0);
}

/**
 * Stores an answer in this request's own unfinished claim (sealed on a sealed route); false when
 * the claim is no longer its own: a run so late that a retry took its claim over stores nothing
 * over the retry's record. `asyncCommit` outside a transaction only (see store).
 */
async function finishClaim(
  sql: Sql,
  s: Scope,
  [status, headers, text]: Answer,
  asyncCommit: boolean,
) {
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
 * Stores the JSON answer `json(payload, status, extraHeaders)` of the request `req` inside the
 * handler's transaction `tx`, so the record commits exactly when the handler's writes do (call
 * it in the transaction that commits, and answer that same payload and headers). Without an
 * Idempotency-Key (or on a route that is not idempotent) it does nothing. Its statement is
 * issued at once (on a sealed route, once encrypted), so it pipelines in order with the
 * statements around it.
 */
export function storeInTransaction(
  tx: Sql,
  req: Request,
  status: number,
  payload: unknown,
  extraHeaders?: HeadersInit,
): Promise<void> {
  const s = scopes.get(req);
  if (!s) return Promise.resolve();
  const headers = extraHeaders === undefined
    ? JSON_HEADERS
    : [...json(payload, status, extraHeaders).headers] as [string, string][];
  const text = status === 204 ? null : JSON.stringify(payload);
  const stored = s.transactional
    ? insertFinished(tx, s, [status, headers, text])
    : finishClaim(tx, s, [status, headers, text], false);
  return stored.then((ok) => {
    // Another request holds the key (or took over our claim): roll the transaction back.
    if (!ok) throw new KeyTaken();
    s.stored = true;
  });
}

/**
 * Runs `write` in one transaction and answers what it returns as JSON with `status`; the
 * Idempotency-Key's record of that answer commits in the same transaction (storeInTransaction).
 */
export async function answeredInTransaction<T>(
  db: Db,
  req: Request,
  status: number,
  write: (tx: Sql) => Promise<T>,
): Promise<Response> {
  const payload = await db.begin(async (tx) => {
    const payload = await write(tx);
    await storeInTransaction(tx, req, status, payload);
    return payload;
  });
  return json(payload, status);
}

/**
 * For a handler whose writes are one statement (no explicit transaction): the record of the
 * JSON answer `json(payload, status)` as JSON text for that statement to insert (see
 * onda_keep_idempotency in sql/003_forms.sql), or null without an Idempotency-Key. When the
 * statement committed, call `recordCommitted(req)`; when it reports the key held by another
 * request (SQLSTATE OD001, everything rolled back), throw `keyTaken()`.
 */
export function pendingRecord(req: Request, status: number, payload: unknown): string | null {
  return record(req, status, status === 204 ? null : JSON.stringify(payload));
}

/**
 * As `pendingRecord`, for a statement that builds the JSON answer itself (it depends on what the
 * statement finds): the record carries no body, the statement stores the one it built, and the
 * handler answers that same text with `jsonText(text, status)`.
 */
export function pendingRecordOfStatement(req: Request, status: number): string | null {
  return record(req, status, null);
}

function record(req: Request, status: number, body: string | null): string | null {
  const s = scopes.get(req);
  if (!s) return null;
  if (!s.transactional) throw new Error('pendingRecord needs idempotent: "transactional"');
  const now = s.now.getTime();
  return JSON.stringify({
    principal: s.who,
    route: s.route,
    key: s.id,
    request_hash: s.hash,
    created_at: s.now.toISOString(),
    status,
    headers: JSON_HEADERS,
    body,
    expired_before: new Date(now - IDEMPOTENCY_WINDOW_MS).toISOString(),
    abandoned_before: new Date(now - ABANDONED_AFTER_MS).toISOString(),
  });
}

/** The record given by `pendingRecord` committed with the handler's writes. */
export function recordCommitted(req: Request) {
  const s = scopes.get(req);
  if (s) s.stored = true;
}

/** The error to throw when the key's record could not be inserted (another request holds it). */
export function keyTaken(): Error {
  return new KeyTaken();
}

/** A 4xx but 429 is the request's own answer, stored and replayed like a success. */
function isStoredError(err: unknown): err is ApiError {
  return isRequestError(err) && err.replayable;
}

/** A 4xx but 429: a transactional route's handler failing so may be a repeat of a request. */
function isRequestError(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status < 500 && err.status !== 429;
}

function storedError(err: ApiError, ctx: RequestContext): Answer {
  const headers: [string, string][] = [...JSON_HEADERS, ...Object.entries(err.headers)];
  return [err.status, headers, JSON.stringify(errorBody(err, ctx.traceId))];
}

/**
 * Runs `run` at most once per (principal, route, Idempotency-Key) within 24 h. Without the
 * header it simply runs. The body is compared by a digest of its parsed form.
 */
export async function withIdempotency(
  ctx: RequestContext,
  principal: unknown,
  rawParams: Record<string, string>,
  body: unknown,
  run: () => Promise<Response>,
): Promise<Response> {
  const key = ctx.req.headers.get("idempotency-key");
  if (key === null) return await run();
  if (!UUID_V4.test(key)) {
    throw new ApiError(400, "VALIDATION_FAILED", {
      message: "Idempotency-Key must be a UUID v4.",
      field: "Idempotency-Key",
    });
  }
  // Callers the auth rule does not tell apart share one namespace (AuthRule.idempotencyScope).
  const who = ctx.route.auth.idempotencyScope?.(principal) ?? "public";
  const route = routeKey(ctx, rawParams);
  const id = key.toLowerCase();
  const sealer = ctx.route.sealed
    ? await recordSealer(ctx.app.secretKey, ctx.route.sealed, [who, route, id])
    : null;
  const canonical = JSON.stringify(body ?? null);
  const scope: Scope = {
    who,
    route,
    id,
    hash: sealer ? await sealer.digest(canonical) : sha256Hex(canonical),
    now: ctx.app.clock(),
    transactional: ctx.route.idempotent === "transactional",
    stored: false,
    sealer,
  };
  if (sealer || Math.random() < PRUNE_CHANCE) await prune(ctx.app.db.sql, scope.now);
  if (scope.transactional) return await runScoped(ctx, scope, run);
  return await runClaimed(ctx, scope, run);
}

/** Runs the handler with the key's scope set, then stores its answer unless it did. */
async function runScoped(ctx: RequestContext, s: Scope, run: () => Promise<Response>) {
  scopes.set(ctx.req, s);
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    return await failed(ctx, s, err);
  } finally {
    scopes.delete(ctx.req);
  }
  ctx.app.faults?.afterIdempotentHandler?.();
  if (s.stored) return response;
  if (response.status >= 500) {
    await release(ctx.app.db.sql, s).catch(() => {});
    return response;
  }
  // A path of the handler that wrote nothing, or a route whose handler never stores: store now.
  const text = response.body === null ? null : await response.text();
  const headers = [...response.headers] as [string, string][];
  return await store(ctx.app.db.sql, s, [response.status, headers, text]) ??
    new Response(text, { status: response.status, headers: response.headers });
}

/**
 * Stores an answer the handler did not store itself; returns the answer to send instead (the
 * record's, on a transactional route whose key another request holds), if any.
 */
async function store(sql: Sql, s: Scope, answer: Answer): Promise<Response | undefined> {
  if (!s.transactional) {
    // A lost stored 4xx leaves the claim unfinished; it is taken over after a minute and the
    // retry, which changes nothing either, answers again. Hence asynchronous commit is safe.
    await finishClaim(sql, s, answer, true);
    return undefined;
  }
  if (await insertFinished(sql, s, answer)) return undefined;
  const row = await lookup(sql, s);
  return row ? await answerFrom(row, s) : undefined;
}

/**
 * A 5xx frees the key so that a retry runs again: only an unfinished claim is released (an
 * answer stored in the handler's transaction stays); a transactional route stored nothing.
 */
function release(sql: Sql, s: Scope): Promise<unknown> {
  if (s.transactional) return Promise.resolve();
  return sql`delete from idempotency_keys
    where principal = ${s.who} and route = ${s.route} and key = ${s.id} and status is null
      and created_at = ${s.now}`;
}

/** The handler threw `err`: answers from the record, or throws. */
async function failed(ctx: RequestContext, s: Scope, err: unknown): Promise<Response> {
  const sql = ctx.app.db.sql;
  if (!s.transactional) {
    if (isStoredError(err)) await store(sql, s, storedError(err, ctx));
    else await release(sql, s).catch(() => {});
    throw err;
  }
  if (!(err instanceof KeyTaken) && !isRequestError(err)) throw err; // 5xx or 429
  // A repeat (or a request that lost the race for its key) answers from the record; a
  // retried answer, for instance, fails as "already answered" before reaching its insert, and
  // a retried session start as "form token used".
  const row = await lookup(sql, s);
  if (row && !isExpired(row, s.now)) return await answerFrom(row, s);
  if (err instanceof KeyTaken) throw contended();
  if (!isStoredError(err)) throw err;
  // A 4xx changed nothing: its answer is stored on its own.
  const replay = await store(sql, s, storedError(err as ApiError, ctx));
  if (replay) return replay;
  throw err;
}

/** Other routes: claim the key, run, store the answer (in the handler's transaction if it can). */
async function runClaimed(ctx: RequestContext, s: Scope, run: () => Promise<Response>) {
  const sql = ctx.app.db.sql;
  for (let attempt = 0; attempt < 5; attempt++) {
    const claimed = await sql`
      ${ASYNC_COMMIT}
      insert into idempotency_keys (principal, route, key, request_hash, created_at)
      select ${s.who}, ${s.route}, ${s.id}, ${s.hash}, ${s.now} from fast
      on conflict do nothing
      returning 1 as claimed`;
    if (claimed.length) return await runScoped(ctx, s, run);

    const row = await lookup(sql, s);
    if (!row) continue; // released meanwhile: claim it again
    if (isExpired(row, s.now)) {
      // Expired, or left unfinished by a crashed instance: this request starts afresh.
      await sql`
        delete from idempotency_keys
        where principal = ${s.who} and route = ${s.route} and key = ${s.id}
          and created_at = ${row.created_at}`;
      continue;
    }
    return await answerFrom(row, s);
  }
  throw contended();
}

async function prune(sql: Sql, now: Date) {
  const before = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
  await sql`
    delete from idempotency_keys where (principal, route, key) in (
      select principal, route, key from idempotency_keys where created_at < ${before} limit 1000
    )`.catch(() => {}); // best effort: an expired key is also replaced when it is reused
}
