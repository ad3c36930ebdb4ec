// Rate limits, one path for every limit of the service: a request is counted against its limit
// per rolling minute in PostgreSQL, for the whole deployment, or in this instance's memory, as
// shared() alone decides; the callers never ask which. They count alone (countRequest), in the
// statement that finds the caller (countInStatement) or ahead of the handler's statement
// (countAhead), and answer the same way (limitHeaders, rateLimited). Also: what a per-address
// limit counts. Failed logins are another rule (lib/forms/login_limit.ts).

import { type Db, empty, frag, type Fragment, type Sql } from "../db/db.ts";
import { ApiError } from "../errors.ts";
import { sha256Hex } from "../encoding.ts";
import type { Metrics } from "./metrics.ts";

/** Every limit of the service is per rolling minute. */
const WINDOW_MS = 60_000;

export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the oldest counted request leaves the window (a slot frees). */
  resetAt: number;
  /**
   * Seconds until then, rounded up: at most the window (resetAt less this second can be one
   * more, as both are rounded).
   */
  resetIn: number;
  /** Seconds until a slot frees; 0 when allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  /** Counts one request for `key` against `limit` per `windowMs`, unless it is refused. */
  hit(key: string, limit: number, windowMs?: number): LimitResult;
  /** How many keys it holds. */
  size(): number;
}

/** A count's outcome, from when its oldest counted request leaves the window (ms). */
function result(
  allowed: boolean,
  limit: number,
  remaining: number,
  resetMs: number,
  now: number,
): LimitResult {
  const resetIn = Math.max(0, Math.ceil((resetMs - now) / 1000));
  return {
    allowed,
    limit,
    remaining,
    resetAt: Math.ceil(resetMs / 1000),
    resetIn,
    retryAfter: allowed ? 0 : Math.max(1, resetIn),
  };
}

/**
 * Exact rolling window: per key, the times of the accepted requests still inside the window,
 * oldest first. A request is accepted while fewer than `limit` are inside, so at most `limit`
 * fall in any window of that length. Keys whose requests have all left the window are dropped
 * every 10,000 hits, so memory follows the requests of the last window, whatever their keys.
 */
export function createRateLimiter(clock: () => Date): RateLimiter {
  const logs = new Map<string, { times: number[]; head: number }>();
  let hitsSinceSweep = 0;

  function sweep(now: number, windowMs: number) {
    for (const [key, log] of logs) {
      if (log.times.length === log.head || now - log.times[log.times.length - 1] >= windowMs) {
        logs.delete(key);
      }
    }
  }

  return {
    size: () => logs.size,
    hit(key, limit, windowMs = WINDOW_MS) {
      const now = clock().getTime();
      if (++hitsSinceSweep >= 10_000) {
        hitsSinceSweep = 0;
        sweep(now, windowMs);
      }
      let log = logs.get(key);
      if (!log) logs.set(key, log = { times: [], head: 0 });
      while (log.head < log.times.length && now - log.times[log.head] >= windowMs) log.head++;
      if (log.head > 1024 && log.head * 2 > log.times.length) {
        log.times = log.times.slice(log.head);
        log.head = 0;
      }
      const inside = log.times.length - log.head;
      const allowed = inside < limit;
      if (allowed) log.times.push(now);
      const used = inside + (allowed ? 1 : 0);
      const oldest = log.head < log.times.length ? log.times[log.head] : now;
      return result(allowed, limit, Math.max(0, limit - used), oldest + windowMs, now);
    },
  };
}

/** What counting needs of the app (the router's AppContext has it). */
interface Counting {
  config: { rateLimitScope: "deployment" | "instance" };
  db: Pick<Db, "kind" | "sql">;
  clock: () => Date;
  limiter: RateLimiter;
}

/**
 * Where the app counts, decided here alone: in PostgreSQL, shared by every instance, unless
 * RATE_LIMIT_SCOPE=instance or the database is the embedded one (its deployment is one process).
 */
function shared(app: Counting): boolean {
  return app.config.rateLimitScope === "deployment" && app.db.kind === "postgres";
}

/**
 * The columns a count made in a statement adds to its row: onda_rate_hit's answer when shared,
 * the key to count in memory otherwise (countInStatement).
 */
export interface SharedCount {
  allowed?: boolean | null;
  remaining?: number | null;
  reset_ms?: number | null;
  rate_key?: string | null;
}

/**
 * The call that counts one request of `key` (a SQL text expression; null counts nothing):
 * onda_rate_hit, sql/005_rate_limit_lock.sql (which replaced 001's).
 */
function hitSql(key: Fragment, limit: number, now: Date): Fragment {
  return frag`onda_rate_hit(${key}, ${now.getTime()}::int8, ${limit}::int4, ${WINDOW_MS}::int4)`;
}

/** The outcome of a count made in PostgreSQL, from the columns it answered. */
function sharedResult(row: SharedCount, limit: number, now: Date): LimitResult {
  return result(row.allowed === true, limit, row.remaining ?? 0, row.reset_ms!, now.getTime());
}

/** Counts one request of `key` in PostgreSQL, whatever the scope: the shared count itself. */
export async function sharedCount(sql: Sql, key: string, limit: number, now: Date) {
  const [row] = await sql<SharedCount>`select h.* from ${hitSql(frag`${key}::text`, limit, now)} h`;
  return sharedResult(row, limit, now);
}

/** Counts one request of `key` on its own. */
export function countRequest(app: Counting, key: string, limit: number): Promise<LimitResult> {
  if (!shared(app)) return Promise.resolve(app.limiter.hit(key, limit));
  return sharedCount(app.db.sql, key, limit, app.clock());
}

/** A count made by the statement that finds the caller (countInStatement). */
export interface StatementCount {
  /** For the statement's select list, after its own columns. */
  columns: Fragment;
  /** For the statement's from list, after its own tables. */
  join: Fragment;
  /** The outcome, from the row the statement found. */
  outcome(row: SharedCount): LimitResult;
}

/**
 * Counts one request in the statement that finds the caller, keyed by `key`, a SQL text
 * expression over that statement's rows (the key's id, the user's). Shared, the statement makes
 * the count: no round trip of its own, and only for a row it finds (a 401 does not count). In
 * memory, the statement reads the key and the count is made from its row.
 */
export function countInStatement(app: Counting, key: Fragment, limit: number): StatementCount {
  if (!shared(app)) {
    return {
      columns: frag`, ${key} as rate_key`,
      join: empty,
      outcome: (row) => app.limiter.hit(row.rate_key!, limit),
    };
  }
  const now = app.clock();
  return {
    columns: frag`, h.allowed, h.remaining, h.reset_ms`,
    join: frag`left join lateral ${hitSql(key, limit, now)} h on true`,
    outcome: (row) => sharedResult(row, limit, now),
  };
}

/** A count left to a handler's statement (countAhead): what it counts, and at what time. */
export interface DeferredCount {
  key: string;
  limit: number;
  now: Date;
}

/**
 * A count to leave to the handler's one statement (countAhead), so that it costs no round trip
 * and no commit of its own; null when it is counted in memory, which costs neither: count it now.
 */
export function deferCount(app: Counting, key: string, limit: number): DeferredCount | null {
  return shared(app) ? { key, limit, now: app.clock() } : null;
}

/**
 * The handler's statement `body` (a select) preceded by the count: `body` runs only if the count
 * allows it, and its row comes with the count's columns (null when refused); read them with
 * deferredOutcome.
 */
export function countAhead(count: DeferredCount, body: Fragment): Fragment {
  return frag`
    with h as (select * from ${hitSql(frag`${count.key}::text`, count.limit, count.now)} h),
         r as (select * from (${body}) b where (select allowed from h))
    select h.allowed, h.remaining, h.reset_ms, r.* from h left join r on true`;
}

/** The outcome of a countAhead, from its statement's row. */
export function deferredOutcome(count: DeferredCount, row: SharedCount): LimitResult {
  return sharedResult(row, count.limit, count.now);
}

/**
 * The limit's headers, on whatever a counted request is answered (errors too). `policy`: also
 * RateLimit-Policy and RateLimit (IETF draft) under that name, as the ads API sends them.
 */
export function limitHeaders(headers: Headers, limited: LimitResult, policy?: string) {
  headers.set("X-RateLimit-Limit", String(limited.limit));
  headers.set("X-RateLimit-Remaining", String(limited.remaining));
  headers.set("X-RateLimit-Reset", String(limited.resetAt));
  if (policy) {
    headers.set("RateLimit-Policy", `"${policy}";q=${limited.limit};w=${WINDOW_MS / 1000}`);
    headers.set("RateLimit", `"${policy}";r=${limited.remaining};t=${limited.resetIn}`);
  }
}

/**
 * The answer to a request a limit refused: 429 with Retry-After (the seconds until the same
 * request would pass), counted in the metrics under the limit's name.
 */
export function rateLimited(
  metrics: Metrics,
  limit: string,
  message: string,
  retryAfter: number,
): ApiError {
  metrics.count("onda_rate_limit_refusals_total", { limit });
  return new ApiError(429, "RATE_LIMITED", {
    message,
    headers: { "Retry-After": String(retryAfter) },
  });
}

/**
 * What a per-address limit counts for a client address: an IPv4 address whole, an IPv6 one by
 * its /64, since one host commonly holds a whole /64 and would otherwise get as many budgets as
 * it likes (an IPv4-mapped IPv6 address is its IPv4 address). Anything else (a forged
 * X-Forwarded-For) is counted by its digest, so that a key stays short whatever is sent.
 */
export function addressKey(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1];
  const v6 = ipv6Prefix(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  return v6 ?? `other:${sha256Hex(address).slice(0, 32)}`;
}

/** The first 64 bits of an IPv6 address as `a:b:c:d::/64`; null when it is not one. */
function ipv6Prefix(text: string): string | null {
  if (!/^[0-9a-f:.]{2,45}$/i.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  let head = groups(halves[0]);
  let tail = halves.length === 2 ? groups(halves[1]) : [];
  // A trailing dotted IPv4 part stands for the last two groups.
  const last = (halves.length === 2 ? tail : head).at(-1);
  if (last?.includes(".")) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(last)) return null;
    const replace = (list: string[]) => [...list.slice(0, -1), "0", "0"];
    if (halves.length === 2) tail = replace(tail);
    else head = replace(head);
  }
  const all = [...head, ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  if (halves.length === 1 ? all.length !== 8 : all.length > 7) return null;
  const full = [...head, ...Array(8 - all.length).fill("0"), ...tail];
  return full.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":") + "::/64";
}
