// Idempotency-Key for creating POSTs (routes with `idempotent: true`): the first request with a
// key claims a row in PostgreSQL, runs, and stores its answer; a repeat within 24 h from the
// same principal on the same route replays that answer without running the handler again.
// Because the claim is a row with a unique key, every instance of the service agrees.
//
// Durability: the claim and the stored answer commit asynchronously (synchronous_commit off
// for those two statements only), which takes two WAL flushes off every request. The claim is
// still durable whenever the handler's own (synchronous) transaction is, because WAL is
// flushed in order. Only a crash within the WAL writer's delay after a request can lose its
// stored answer: its claim then reads as still running (409) for a minute and is then
// released, so a retry runs again (an answer retry then gets its 409 "already answered").
//
// Outcomes that are stored and replayed: every 2xx-4xx answer (a 4xx is the answer to that
// request; retrying the same request gives the same answer). A 5xx or an unexpected error
// releases the key, so the client can retry the same operation with the same key.

import { createHash } from "node:crypto";
import { ApiError, errorBody } from "./errors.ts";
import type { RequestContext } from "./router.ts";

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
/** A claim still unfinished after this long belongs to a crashed instance and may be taken over. */
const ABANDONED_AFTER_MS = 60 * 1000;

/** About one claim in this many also deletes a batch of expired keys, so the table stays small. */
const PRUNE_CHANCE = 1 / 500;

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

interface KeyRow {
  request_hash: string;
  created_at: Date;
  status: number | null;
  headers: [string, string][] | null;
  body: string | null;
}

// node:crypto's synchronous digest: this runs on every keyed request, and it costs a few
// microseconds where crypto.subtle's asynchronous one costs about fifty.
function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Whose keys these are. A signed-in user's keys are scoped to the user and workspace. Public
 * callers share one namespace: a UUID v4 is unguessable, and scoping by address would let a
 * visitor whose address changed (mobile networks) create a second session on retry.
 */
function principalKey(principal: unknown): string {
  const p = principal as { userId?: string; workspaceId?: string } | null;
  if (p && typeof p.userId === "string") return `user:${p.userId}:${p.workspaceId ?? ""}`;
  return "public";
}

/** The concrete route (method and v1 path with its parameters), so one key per resource. */
function routeKey(ctx: RequestContext, rawParams: Record<string, string>): string {
  const path = ctx.route.path.replace(/\{([a-zA-Z_]+)\}/g, (_, name) => rawParams[name] ?? "");
  return `${ctx.route.method} ${path}`;
}

function replay(row: KeyRow): Response {
  const headers = new Headers(row.headers ?? []);
  headers.set("Idempotent-Replayed", "true");
  return new Response(row.status === 204 ? null : row.body, { status: row.status!, headers });
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
    throw new ApiError(
      400,
      "VALIDATION_FAILED",
      "Idempotency-Key must be a UUID v4.",
      "Idempotency-Key",
    );
  }
  const { app } = ctx;
  const who = principalKey(principal);
  const route = routeKey(ctx, rawParams);
  const id = key.toLowerCase();
  const hash = sha256Hex(JSON.stringify(body ?? null));

  for (let attempt = 0; attempt < 5; attempt++) {
    const now = app.clock();
    const claimed = await app.db.sql`
      with fast as (select set_config('synchronous_commit', 'off', true))
      insert into idempotency_keys (principal, route, key, request_hash, created_at)
      select ${who}, ${route}, ${id}, ${hash}, ${now} from fast
      on conflict do nothing
      returning 1 as claimed`;
    if (claimed.length) {
      if (Math.random() < PRUNE_CHANCE) await prune(ctx, now);
      return await runClaimed(ctx, who, route, id, run);
    }

    const [row] = await app.db.sql<KeyRow>`
      select request_hash, created_at, status, headers, body from idempotency_keys
      where principal = ${who} and route = ${route} and key = ${id}`;
    if (!row) continue; // released meanwhile: claim it again
    const age = now.getTime() - row.created_at.getTime();
    if (age >= IDEMPOTENCY_WINDOW_MS || (row.status === null && age >= ABANDONED_AFTER_MS)) {
      // Expired, or left unfinished by a crashed instance: this request starts afresh.
      await app.db.sql`
        delete from idempotency_keys
        where principal = ${who} and route = ${route} and key = ${id}
          and created_at = ${row.created_at}`;
      continue;
    }
    if (row.request_hash !== hash) {
      throw new ApiError(
        422,
        "UNPROCESSABLE",
        "This Idempotency-Key was used with another request body; use a new key.",
        "Idempotency-Key",
      );
    }
    if (row.status === null) {
      throw new ApiError(
        409,
        "CONFLICT",
        "A request with this Idempotency-Key is still running; retry shortly.",
        "Idempotency-Key",
      );
    }
    return replay(row);
  }
  throw new ApiError(
    409,
    "CONFLICT",
    "This Idempotency-Key is contended; retry shortly.",
    "Idempotency-Key",
  );
}

async function prune(ctx: RequestContext, now: Date) {
  const before = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS);
  await ctx.app.db.sql`
    delete from idempotency_keys where (principal, route, key) in (
      select principal, route, key from idempotency_keys where created_at < ${before} limit 1000
    )`.catch(() => {}); // best effort: an expired key is also replaced when it is reused
}

async function runClaimed(
  ctx: RequestContext,
  who: string,
  route: string,
  id: string,
  run: () => Promise<Response>,
): Promise<Response> {
  const sql = ctx.app.db.sql;
  const release = () =>
    sql`delete from idempotency_keys where principal = ${who} and route = ${route} and key = ${id}`;
  const store = (status: number, headers: [string, string][], text: string | null) =>
    sql`with fast as (select set_config('synchronous_commit', 'off', true))
        update idempotency_keys
        set status = ${status}, headers = ${JSON.stringify(headers)}::jsonb, body = ${text}
        from fast
        where principal = ${who} and route = ${route} and key = ${id}`;
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) {
      const text = JSON.stringify(errorBody(err, ctx.traceId));
      const headers: [string, string][] = [
        ["content-type", "application/json; charset=utf-8"],
        ...Object.entries(err.headers),
      ];
      await store(err.status, headers, text);
    } else {
      await release().catch(() => {});
    }
    throw err;
  }
  if (response.status >= 500) {
    await release().catch(() => {});
    return response;
  }
  const text = response.body === null ? null : await response.text();
  const headers = [...response.headers] as [string, string][];
  await store(response.status, headers, text);
  return new Response(text, { status: response.status, headers: response.headers });
}
