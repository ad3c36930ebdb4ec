// Idempotency-Key for creating POSTs (routes with `idempotent`): a repeat within 24 h from the
// same principal on the same route replays the first answer without running the handler again;
// the same key with another body is 422, and 409 while the first request still runs. The
// record and when it lapses: lib/http/idempotency_record.ts.
//
// Durability: a request's side effects and its record commit together or not at all, so after
// a crash at any point either both exist (a retry replays) or neither does (a retry runs
// afresh). A creating handler writes the record with its own writes: in its transaction with
// `storeInTransaction`, or in its one statement with `pendingRecord`. Two modes: transactional
// routes insert the finished record with their writes and nothing before (runScoped); the
// others claim the key first (runClaimed).
//
// Stored and replayed: every 2xx-4xx answer (a 4xx is the answer to that request; retrying the
// same request gives the same answer; it changed nothing, so it is stored on its own) but a 429,
// the rate limit's answer rather than the request's (and any refusal of the caller marked
// `replayable: false`, such as a spent form token). A 5xx or an unexpected error stores nothing
// (or releases the claim), so the client can retry with the same key, as after a 429.
//
// Sealed routes (`sealed`, with `idempotent: true`: register, bearer tokens): their answers
// carry a credential, so its parts are stored encrypted and opened only to replay, and the
// request digest is keyed (lib/http/sealed.ts). Their requests also prune expired records, so a
// sealed credential does not outlive its 24 h by long.

import type { Db, Sql } from "../db/db.ts";
import { ApiError, errorBody } from "../errors.ts";
import { json, JSON_CONTENT_TYPE, type RequestContext, type Route } from "./router.ts";
import { recordSealer } from "./sealed.ts";
import { sha256Hex } from "../encoding.ts";
import {
  type Answer,
  answerFrom,
  claim,
  finishClaim,
  insertFinished,
  keyError,
  lookup,
  prune,
  recordJson,
  release,
  type Scope,
} from "./idempotency_record.ts";

/** About one new key in this many also deletes a batch of expired keys, so the table stays small. */
const PRUNE_CHANCE = 1 / 500;

/** The headers of a stored JSON answer: those `json(payload, status)` sends. */
const JSON_HEADERS: [string, string][] = [["content-type", JSON_CONTENT_TYPE]];

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The key's scope of each request whose handler is running, for the store functions below. */
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

const contended = () => keyError(409, "This Idempotency-Key is contended; retry shortly.");

/** The concrete route (method and v1 path with its parameters), so one key per resource. */
function routeKey(ctx: RequestContext, rawParams: Record<string, string>): string {
  const path = ctx.route.path.replace(/\{([a-zA-Z_]+)\}/g, (_, name) => rawParams[name] ?? "");
  return `${ctx.route.method} ${path}`;
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
 * onda_keep_idempotency in sql/013_idempotency_lapse.sql), or null without an Idempotency-Key.
 * When the statement committed, call `recordCommitted(req)`; when it reports the key held by
 * another request (SQLSTATE OD001, everything rolled back), throw `keyTaken()`.
 */
export function pendingRecord(req: Request, status: number, payload: unknown): string | null {
  return pending(req, status, status === 204 ? null : JSON.stringify(payload));
}

/**
 * As `pendingRecord`, for a statement that builds the JSON answer itself (it depends on what the
 * statement finds): the record carries no body, the statement stores the one it built, and the
 * handler answers that same text with `jsonText(text, status)`.
 */
export function pendingRecordOfStatement(req: Request, status: number): string | null {
  return pending(req, status, null);
}

function pending(req: Request, status: number, body: string | null): string | null {
  const s = scopes.get(req);
  if (!s) return null;
  if (!s.transactional) throw new Error('pendingRecord needs idempotent: "transactional"');
  return recordJson(s, [status, JSON_HEADERS, body]);
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

/**
 * Routes other than transactional ones: the first request claims the key, runs, and its answer
 * is stored in the handler's transaction when the handler calls storeInTransaction, or right
 * after it otherwise (then a crash in between leaves the claim unfinished: 409 for a minute,
 * then taken over). A repeat meanwhile finds the claim: 409.
 */
async function runClaimed(ctx: RequestContext, s: Scope, run: () => Promise<Response>) {
  const sql = ctx.app.db.sql;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await claim(sql, s)) return await runScoped(ctx, s, run);
    const row = await lookup(sql, s);
    // Released meanwhile, or lapsed as of this request's time: claim it again.
    if (!row || row.lapsed) continue;
    return await answerFrom(row, s);
  }
  throw contended();
}

/**
 * Runs the handler with the key's scope set, then stores its answer unless it did. A
 * transactional route (`idempotent: "transactional"`: the public session and answer POSTs)
 * comes here without a claim: its handler inserts the finished record with its writes, one
 * commit per request; if another request holds the key, that insert aborts them all and the
 * request answers from the record instead (failed, below: replay, 409 while unfinished, 422 for
 * another body).
 */
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
  // Where tests simulate a crash between the handler's commit and its answer.
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
  if (row && !row.lapsed) return await answerFrom(row, s);
  if (err instanceof KeyTaken) throw contended();
  if (!isStoredError(err)) throw err;
  // A 4xx changed nothing: its answer is stored on its own.
  const replay = await store(sql, s, storedError(err as ApiError, ctx));
  if (replay) return replay;
  throw err;
}
