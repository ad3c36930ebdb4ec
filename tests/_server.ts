// Test harness: starts the real service on a random loopback port with a fresh database
// (a new PostgreSQL database when DATABASE_URL is set, else an in-memory PGlite), so test
// files run in parallel and never see each other's rows.

import postgres from "postgres";
import { loadConfig } from "../lib/config.ts";
import { type Db, openDb } from "../lib/db/db.ts";
import type { Route } from "../lib/http/router.ts";
import { type Service, startService } from "../lib/server.ts";
import { allRoutes } from "../routes/index.ts";

export const PG_URL = Deno.env.get("DATABASE_URL") || null;
/**
 * TEST_ICU_LOCALE=en-US: every test service's PostgreSQL database collates text by that ICU
 * locale, so that a rule resting on the server's default collation fails.
 */
const ICU_LOCALE = Deno.env.get("TEST_ICU_LOCALE") === "en-US" ? "en-US" : undefined;
/** PostgreSQL for tests that need a real server whatever the mode (proxies, subprocesses). */
export const PG_FALLBACK_URL = PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** How long a test's request may take by default (TestService.fetch). */
const REQUEST_TIMEOUT_MS = 60_000;

/** How long one test may run before it fails: a rule that breaks into a wait fails, never hangs. */
const TEST_TIMEOUT_MS = 180_000;

/**
 * Deno.test without the op/resource sanitizers (the server and pool outlive single tests), and
 * with a deadline: a statement, pool slot or request that never answers fails its test, whatever
 * the test awaited, instead of holding CI to its end.
 */
export function test(name: string, fn: () => Promise<void> | void) {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no end after ${TEST_TIMEOUT_MS / 1000} s: ${name}`)),
          TEST_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([Promise.resolve().then(fn), expired]);
      } finally {
        clearTimeout(timer);
      }
    },
  });
}

/** A clock tests can set and move; it follows real time from the moment it was last set. */
export interface TestClock {
  (): Date;
  set(date: Date | string): void;
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offset = 0;
  const clock = (() => new Date(Date.now() + offset)) as TestClock;
  clock.set = (date) => offset = new Date(date).getTime() - Date.now();
  clock.advance = (ms) => offset += ms;
  return clock;
}

function adminUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = "/" + database;
  return u.toString();
}

/**
 * A fresh, empty database: returns its URL (null for PGlite) and a function that drops it. With
 * `icuLocale`, its default collation is that ICU locale's (text ordered alphabetically, not by
 * character code), as a server initialised with ICU would make it.
 */
export async function freshDatabase(
  baseUrl: string | null = PG_URL,
  icuLocale?: "en-US",
): Promise<{ url: string | null; drop(): Promise<void> }> {
  if (!baseUrl) return { url: null, drop: () => Promise.resolve() };
  const name = "onda_t_" + crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const admin = postgres(adminUrl(baseUrl, "postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(
      `create database ${name}` +
        (icuLocale ? ` template template0 locale_provider icu icu_locale '${icuLocale}'` : ""),
    );
  } finally {
    await admin.end();
  }
  return {
    url: adminUrl(baseUrl, name),
    async drop() {
      const again = postgres(adminUrl(baseUrl, "postgres"), { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

export interface TestService extends Service {
  db: Db;
  clock: TestClock;
  /** Every log line the service wrote. */
  logs: Record<string, unknown>[];
  /** fetch against the service: path relative to its URL. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /** Environment variables as the service would read them (PORT/HOST are set here). */
  env?: Record<string, string>;
  /** Extra routes mounted beside the real ones (pipeline tests only). */
  extraRoutes?: Route[];
  fetch?: typeof fetch;
  startWorkers?: boolean;
  /** Wraps the database handle (e.g. to simulate an unresponsive database). */
  wrapDb?: (db: Db) => Db;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const database = await freshDatabase(PG_URL, ICU_LOCALE);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    ...options.env,
    DATABASE_URL: database.url ?? undefined,
  });
  let db = await openDb({ databaseUrl: database.url, dataDir: "memory://", poolMax: 10 });
  if (options.wrapDb) db = options.wrapDb(db);
  const clock = testClock();
  const logs: Record<string, unknown>[] = [];
  const service = await startService({
    config,
    db,
    clock,
    log: (line) => logs.push(line),
    fetch: options.fetch,
    maintenanceCacheMs: 0,
    startWorkers: options.startWorkers ?? false,
    routes: [...allRoutes, ...(options.extraRoutes ?? [])],
  });
  return {
    ...service,
    db,
    clock,
    logs,
    // Every request gives up in the end unless it carries a signal of its own, so a test whose
    // rule breaks with a request left waiting fails instead of hanging CI.
    fetch: (path, init) =>
      fetch(service.url + path, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...init }),
    async close() {
      await service.shutdown();
      await database.drop();
    },
  };
}

/** Reads a response as JSON (the body is consumed). */
export async function body<T = Record<string, unknown>>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`expected JSON, got ${res.status}: ${text.slice(0, 200)}`);
  }
}

/**
 * Sends a request whose answer is lost to a crash right after its handler committed (the client
 * sees a 500), then sends it again as a client would: returns the retry's answer.
 */
export async function retriedAfterCrash(
  service: TestService,
  send: () => Promise<Response>,
): Promise<Response> {
  service.app.faults = {
    afterIdempotentHandler: () => {
      throw new Error("simulated crash after the handler's commit");
    },
  };
  let lost: Response;
  try {
    lost = await send();
  } finally {
    service.app.faults = undefined;
  }
  if (lost.status !== 500) throw new Error(`the crash left the answer ${lost.status}, not 500`);
  await lost.body?.cancel();
  return send();
}

/**
 * `service` whose requests each give up after `ms` unless they carry a signal of their own: a
 * test whose rule breaks (a request left waiting for a held database) then fails in seconds
 * instead of hanging the suite.
 */
export function withRequestTimeouts(service: TestService, ms: number): TestService {
  return {
    ...service,
    fetch: (path, init) => service.fetch(path, { signal: AbortSignal.timeout(ms), ...init }),
  };
}
