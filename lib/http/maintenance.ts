// The maintenance window, stored in the database so that every instance sees it.

import type { Sql } from "../db/db.ts";
import { ApiError, DatabaseUnavailable } from "../errors.ts";
import type { Step } from "./pipeline.ts";

export interface MaintenanceWindow {
  startedAt: Date;
  /** null = until switched off. */
  until: Date | null;
}

export async function readMaintenance(sql: Sql, now: Date): Promise<MaintenanceWindow | null> {
  const [row] = await sql<{ started_at: Date; until: Date | null }>`
    select started_at, until from maintenance_window
    where until is null or until > ${now}`;
  return row ? { startedAt: row.started_at, until: row.until } : null;
}

export async function startMaintenance(sql: Sql, until: Date | null): Promise<void> {
  await sql`insert into maintenance_window (singleton, started_at, until)
            values (true, now(), ${until})
            on conflict (singleton) do update set started_at = now(), until = excluded.until`;
}

export async function endMaintenance(sql: Sql): Promise<void> {
  await sql`delete from maintenance_window`;
}

/** Reads the window at most once per `ttlMs`, so the hot path does not query for it. */
export function cachedMaintenance(sql: Sql, clock: () => Date, ttlMs: number) {
  let cached: { at: number; value: MaintenanceWindow | null } | null = null;
  return async (): Promise<MaintenanceWindow | null> => {
    const now = clock();
    if (!cached || now.getTime() - cached.at >= ttlMs) {
      cached = { at: now.getTime(), value: await readMaintenance(sql, now) };
    }
    const value = cached.value;
    return value && (value.until === null || value.until > now) ? value : null;
  };
}

/** Retry-After during a window: the seconds until it ends, or 300 for one without an end. */
export function retryAfter(window: MaintenanceWindow, now: Date): string {
  if (!window.until) return "300";
  return String(Math.max(1, Math.ceil((window.until.getTime() - now.getTime()) / 1000)));
}

/** During a window, every request under /api/ answers 503 DEGRADED with Retry-After. */
export function maintenance(readWindow: () => Promise<MaintenanceWindow | null>): Step {
  return async (x, next) => {
    if (x.path.startsWith("/api/")) {
      // An unreachable database must not turn every request into a 500 here: the route's
      // own query then answers as its API prescribes (503 UNAVAILABLE on the ads API).
      const window = await readWindow().catch((err) => {
        if (err instanceof DatabaseUnavailable) return null;
        throw err;
      });
      if (window) {
        throw new ApiError(503, "DEGRADED", {
          message: "The service is in a maintenance window; retry after Retry-After seconds.",
          headers: { "Retry-After": retryAfter(window, x.app.clock()) },
        });
      }
    }
    return await next();
  };
}
