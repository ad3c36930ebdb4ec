// Rolling-window rate limits: counted in PostgreSQL for the whole deployment
// (sql/001_core.sql), or in this instance's memory (RATE_LIMIT_SCOPE=instance, and the
// embedded database, whose deployment is one process); and what a per-address limit counts.

import { type Db, frag, type Fragment } from "../db/db.ts";
import { sha256Hex } from "../encoding.ts";

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

/** True when the app counts its limits in PostgreSQL, shared by every instance. */
export function sharedLimits(app: Counting): boolean {
  return app.config.rateLimitScope === "deployment" && app.db.kind === "postgres";
}

/** The columns onda_rate_hit answers, in the row of a statement that counted a request. */
export interface SharedCount {
  allowed?: boolean | null;
  remaining?: number | null;
  reset_ms?: number | null;
}

/**
 * The call that counts one request of `key` (a SQL text expression; null counts nothing) in the
 * caller's own statement, as `left join lateral ${countSql(...)} h on true`: the count then
 * costs no round trip of its own.
 */
export function countSql(key: Fragment, limit: number, now: Date): Fragment {
  return frag`onda_rate_hit(${key}, ${now.getTime()}::int8, ${limit}::int4, ${WINDOW_MS}::int4)`;
}

/** The outcome of a count made in a statement (countSql). */
export function sharedResult(row: SharedCount, limit: number, now: Date): LimitResult {
  return result(row.allowed === true, limit, row.remaining ?? 0, row.reset_ms!, now.getTime());
}

/** Counts one request of `key`: in PostgreSQL when the limits are shared, else in memory. */
export async function countRequest(app: Counting, key: string, limit: number) {
  if (!sharedLimits(app)) return app.limiter.hit(key, limit);
  const now = app.clock();
  const [row] = await app.db.sql<SharedCount>`
    select h.* from ${countSql(frag`${key}::text`, limit, now)} h`;
  return sharedResult(row, limit, now);
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
