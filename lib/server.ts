// Starts the service: database, migrations, secrets, HTTP server and background workers;
// stops it gracefully. main.ts and the tests both use it, so tests run the real thing.

import { createHandler, type Handler } from "./http/app.ts";
import type { Config } from "./config.ts";
import { type Db, isConnectionError, openDb } from "./db/db.ts";
import { EXPIRED, within } from "./db/deadline.ts";
import { openReadReplica, type ReadReplica } from "./db/replica.ts";
import { checkDataDir, describeDataDirError } from "./data_dir.ts";
import { type LogSink, stdoutLog } from "./log.ts";
import { migrate } from "./db/migrate.ts";
import { type AdsApp, createAdsState } from "./ads/wing.ts";
import { createFormsState, type FormsApp } from "./forms/wing.ts";
import { createRateLimiter } from "./http/ratelimit.ts";
import { createMetrics, gaugePools, metricsHandler } from "./http/metrics.ts";
import { webhookQueueDepth } from "./webhooks/worker.ts";
import { routes as metricsRoutes } from "../routes/metrics.ts";
import type { Route } from "./http/router.ts";
import { loadSecretKey } from "./db/secrets.ts";
import { migrations } from "../sql/migrations.ts";
import { allRoutes } from "../routes/index.ts";
import { workers } from "./workers.ts";
import { percentDecoded } from "./encoding.ts";

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
  /** http://host:port of the listening server, reachable from this host (loopback for 0.0.0.0). */
  url: string;
  port: number;
  /** The address and port bound, as HOST names them (0.0.0.0:8080). */
  listening: string;
  /** Stops accepting, lets in-flight requests finish (up to the timeout), stops workers, closes the database. */
  shutdown(): Promise<void>;
}

/** Why the service cannot start: the message is the one line main.ts prints. */
export class StartError extends Error {}

/** How long the first contact with PostgreSQL may take at start before it is given up. */
const DATABASE_CONTACT_MS = 10_000;

/**
 * Opens the configured database and applies the migrations. A database that cannot be reached
 * stops the start naming its host:port and the driver's reason (the URL's password is never
 * shown); a data directory this process may not use, naming DATA_DIR and the path.
 */
export async function openDatabase(
  config: Config,
  contactMs = DATABASE_CONTACT_MS,
): Promise<Db> {
  const { databaseUrl: url, dataDir } = config;
  if (!url) await checkDataDir(dataDir);
  const db = await openDb({ databaseUrl: url, dataDir, poolMax: config.dbPoolMax })
    .catch((err) => Promise.reject(url ? err : describeDataDirError(dataDir, err)));
  try {
    // A host that drops packets would hold the start without a word: a connection is not
    // given up on its own there.
    if (await within(db.sql`select 1`, contactMs) === EXPIRED) {
      throw new StartError(`no answer within ${contactMs / 1000} s`);
    }
    await migrate(db, migrations);
    return db;
  } catch (err) {
    await within(db.close(), 1000);
    throw url ? describeDatabaseError(url, err) : err;
  }
}

/** The database's host:port and the reason, without the password; other errors unchanged. */
export function describeDatabaseError(databaseUrl: string, err: unknown): Error {
  const cause = (err as { cause?: unknown })?.cause ?? err;
  const code = String((cause as { code?: unknown })?.code ?? "");
  const unreachable = err instanceof StartError || isConnectionError(err);
  // 28: invalid authorization; 3D: no such database.
  if (!unreachable && !code.startsWith("28") && !code.startsWith("3D")) {
    return err instanceof Error ? err : new Error(String(err));
  }
  const url = new URL(databaseUrl);
  const where = `${url.hostname}:${url.port || 5432}`;
  let reason = (cause as { message?: unknown })?.message ?? String(cause);
  // Both spellings of the password: as the driver may quote it and as the URL holds it.
  for (const password of [percentDecoded(url.password), url.password]) {
    if (password) reason = String(reason).replaceAll(password, "***");
  }
  return new StartError(
    `${unreachable ? "cannot reach" : "cannot use"} the database at ${where} (DATABASE_URL): ` +
      reason,
  );
}

/** Binds hostname:port, or says in one line why it cannot (`what` names the setting). */
function listen(
  { hostname, port }: { hostname: string; port: number },
  what: string,
  handler: (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>,
): Deno.HttpServer<Deno.NetAddr> {
  const where = `${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  try {
    return Deno.serve({ port, hostname, onListen: () => {} }, handler);
  } catch (err) {
    const reason = err instanceof Deno.errors.AddrInUse
      ? `the address is in use by another process (stop it, or change ${what})`
      : err instanceof Deno.errors.AddrNotAvailable
      ? `not an address of this machine (${what})`
      : err instanceof Deno.errors.PermissionDenied
      ? `the operating system refused (ports below 1024 need privileges; ${what})`
      : err instanceof Deno.errors.NotCapable
      ? "not allowed by this process's Deno permissions (--allow-net)"
      : (err as Error)?.message ?? String(err);
    throw new StartError(`cannot listen on ${where}: ${reason}`);
  }
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const { config } = options;
  // The port first: one in use stops the start before the database is touched. Requests that
  // arrive meanwhile wait for the service to be ready.
  const ready = Promise.withResolvers<Handler>();
  const server = listen(
    { hostname: config.host, port: config.port },
    "PORT or HOST",
    async (req, info) => (await ready.promise)(req, info as { remoteAddr: Deno.NetAddr }),
  );
  const metrics = createMetrics();
  let metricsServer: Deno.HttpServer<Deno.NetAddr> | null = null;
  let app: ServiceApp;
  let db: Db;
  let replica: ReadReplica | null = null;
  try {
    if (config.metricsAddr) {
      metricsServer = listen(
        config.metricsAddr,
        "METRICS_ADDR",
        metricsHandler(config.metricsToken, metrics),
      );
    }
    db = options.db ?? await openDatabase(config);
    if (options.db) await migrate(db, migrations);
    // A statement before any request: seen under load at start, the first statement of the
    // kept-plans pool was described before postgres.js had read the array types, and that
    // connection then answered every text[] of the key lookup as a string (500s) for good.
    await db.keptPlans`select 1`;
    replica = config.databaseReadUrl
      ? await openReadReplica(
        db,
        config.databaseReadUrl,
        config.dbPoolMax,
        // Silence found within half the deadline leaves the primary the other half.
        config.adsDatabaseTimeoutMs / 4,
      )
      : null;
    const clock = options.clock ?? (() => new Date());
    const secretKey = await loadSecretKey(db.sql, config.secretKey);
    app = {
      config,
      db,
      replica,
      clock,
      log: options.log ?? stdoutLog,
      limiter: createRateLimiter(clock),
      secretKey,
      fetch: options.fetch ?? fetch,
      // /metrics on the main port only behind a token, and only when no other address serves it.
      routes: [
        ...(options.routes ?? allRoutes),
        ...(config.metricsToken && !config.metricsAddr ? metricsRoutes : []),
      ],
      maintenanceCacheMs: options.maintenanceCacheMs ?? 1000,
      ads: createAdsState(config.adsCacheMb),
      forms: createFormsState(db.sql, secretKey),
      metrics,
    };
    gaugePools(metrics, db.pools);
    const sql = db.sql;
    metrics.gauge("onda_webhook_queue_depth", async () => {
      const depth = await webhookQueueDepth(sql);
      return [
        { labels: { queue: "events" }, value: depth.events },
        { labels: { queue: "deliveries" }, value: depth.deliveries },
      ];
    });
  } catch (err) {
    ready.resolve(() => Promise.resolve(new Response(null, { status: 503 })));
    await server.shutdown();
    await metricsServer?.shutdown();
    await replica?.close();
    throw err;
  }
  ready.resolve(createHandler(app));
  const stopWorkers = new AbortController();
  const running = (options.startWorkers ?? config.webhookWorker)
    ? workers.map((worker) => worker(app, stopWorkers.signal))
    : [];
  const { hostname, port } = server.addr;
  const bound = hostname.includes(":") ? `[${hostname}]` : hostname;
  const reachable = hostname === "0.0.0.0" ? "127.0.0.1" : hostname === "::" ? "[::1]" : bound;
  return {
    app,
    port,
    listening: `${bound}:${port}`,
    url: `http://${reachable}:${port}`,
    async shutdown() {
      await Promise.all([
        within(server.shutdown(), config.shutdownTimeoutMs),
        metricsServer?.shutdown(),
      ]);
      stopWorkers.abort();
      await Promise.allSettled(running);
      await replica?.close();
      await db.close();
    },
  };
}
