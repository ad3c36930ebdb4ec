// Starts the service: database, migrations, secrets, HTTP server and background workers;
// stops it gracefully. main.ts and the tests both use it, so tests run the real thing.

import { createHandler } from "./http/app.ts";
import type { Config } from "./config.ts";
import { type Db, openDb } from "./db/db.ts";
import { openReadReplica } from "./db/replica.ts";
import { within } from "./db/deadline.ts";
import { type LogSink, stdoutLog } from "./log.ts";
import { migrate } from "./db/migrate.ts";
import { type AdsApp, createAdsState } from "./ads/wing.ts";
import { createFormsState, type FormsApp } from "./forms/wing.ts";
import { createRateLimiter } from "./http/ratelimit.ts";
import type { Route } from "./http/router.ts";
import { loadSecretKey } from "./db/secrets.ts";
import { migrations } from "../sql/migrations.ts";
import { allRoutes } from "../routes/index.ts";
import { workers } from "./workers.ts";

export interface ServiceOptions {
  config: Config;
  clock?: () => Date;
  log?: LogSink;
  fetch?: typeof fetch;
  maintenanceCacheMs?: number;
  /** An already open database (tests); otherwise opened from the config. */
  db?: Db;
  /** The route table; tests add pipeline probes to the real one. Default: every route. */
  routes?: Route[];
  /** Start background workers (webhook delivery). Default: config.webhookWorker. */
  startWorkers?: boolean;
}

/** The app with every wing's state: what the route tables and the workers are given. */
export type ServiceApp = AdsApp & FormsApp;

export interface Service {
  app: ServiceApp;
  /** http://host:port of the listening server. */
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the timeout), stops workers, closes the database. */
  shutdown(): Promise<void>;
}

export async function openDatabase(config: Config): Promise<Db> {
  const db = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.dbPoolMax,
  });
  await migrate(db, migrations);
  return db;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config } = options;
  const db = options.db ?? await openDatabase(config);
  if (options.db) await migrate(db, migrations);
  // A statement before any request: seen under load at start, the first statement of the
  // kept-plans pool was described before postgres.js had read the array types, and that
  // connection then answered every text[] of the key lookup as a string (500s) for good.
  await db.keptPlans`select 1`;
  const clock = options.clock ?? (() => new Date());
  const replica = config.databaseReadUrl
    ? await openReadReplica(db, config.databaseReadUrl, config.dbPoolMax)
    : null;
  const app: ServiceApp = {
    config,
    db,
    replica,
    clock,
    log: options.log ?? stdoutLog,
    limiter: createRateLimiter(clock),
    secretKey: await loadSecretKey(db.sql, config.secretKey),
    fetch: options.fetch ?? fetch,
    routes: options.routes ?? allRoutes,
    maintenanceCacheMs: options.maintenanceCacheMs ?? 1000,
    ads: createAdsState(replica?.db ?? db),
    forms: createFormsState(db.sql),
  };
  const handler = createHandler(app);
  const server = Deno.serve(
    { port: config.port, hostname: config.host, onListen: () => {} },
    (req, info) => handler(req, info as { remoteAddr: Deno.NetAddr }),
  );
  const stopWorkers = new AbortController();
  const running = (options.startWorkers ?? config.webhookWorker)
    ? workers.map((worker) => worker(app, stopWorkers.signal))
    : [];
  // The ads data kept in memory, loaded now rather than by the first requests, which would wait
  // for it (seconds, for millions of occurrences). A failure is left to the first request, which
  // loads it again and answers with what went wrong; closing the database ends a load under way.
  (async () => {
    const [{ version }] = await db.sql<{ version: string }>`
      select version::text from ads_data_version`;
    await Promise.all([app.ads.figureIndex.at(version), app.ads.captureIndex.at(version)]);
  })().catch(() => {});
  const port = server.addr.port;
  const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host;
  return {
    app,
    port,
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    async shutdown() {
      await within(server.shutdown(), config.shutdownTimeoutMs);
      stopWorkers.abort();
      await Promise.allSettled(running);
      await replica?.close();
      await db.close();
    },
  };
}
