// Rolling-window rate limits kept in this instance's memory ("per key, for this instance").

export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds when the oldest counted request leaves the window (a slot frees). */
  resetAt: number;
  /** Seconds until a slot frees; 0 when allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  /** Counts one request for `key` against `limit` per `windowMs`, unless it is refused. */
  hit(key: string, limit: number, windowMs?: number): LimitResult;
}

/**
 * Exact rolling window: per key, the times of the accepted requests still inside the window,
 * oldest first. A request is accepted while fewer than `limit` are inside, so at most `limit`
 * fall in any window of that length. Memory is bounded by the traffic actually seen.
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
    hit(key, limit, windowMs = 60_000) {
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
      const resetMs = oldest + windowMs;
      return {
        allowed,
        limit,
        remaining: Math.max(0, limit - used),
        resetAt: Math.ceil(resetMs / 1000),
        retryAfter: allowed ? 0 : Math.max(1, Math.ceil((resetMs - now) / 1000)),
      };
    },
  };
}
