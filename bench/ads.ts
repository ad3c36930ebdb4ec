// `deno task bench ads [--rows N] [--days D] [--stations S] [--database NAME] [--accounts A]
// [--seconds S] [--concurrency C[,C...]] [--pool P] [--reuse] [--warmup W]
// [--only ads|summary|coverage]`: generates a realistic data set (default 10,000,000
// occurrences, S = 200 stations, 2,000 brands, D = 730 days,
// 5 % with two brands, captures with gaps), imports it through the real `admin import` into a
// fresh database (NAME, default onda_bench_ads_blocks, on DATABASE_URL's server, default the
// local test server), grants A accounts (default 1) 50 stations and 1,000 brands each for the
// whole period (the first is the bench account, the others other stations and brands of the same
// number), then
// approves one more day of about 14,000 occurrences (a snapshot of its own), and prints the
// database's size, the grants' and the approval's times. Then it drives the running service over
// loopback with C concurrent clients for S seconds per endpoint (each C given in turn), and at the
// last C replays the very SQL each request ran through postgres.js. Prints import rows/s and peak
// RSS, then req/s, p50, p99 and the ratio.
// --reuse skips generation and import when the database already holds the data. --pool sets
// the PostgreSQL connections of the service (DB_POOL_MAX) and of the raw SQL client alike.
// Each endpoint is first driven for W seconds (default 10) unmeasured, through the service and
// through postgres.js alike, so that the figures are of a warm process (compiled code, plans,
// caches) rather than of its first seconds. --only drives one endpoint (a quicker loop while
// working on it). --instances N drives /ads (or --only's endpoint) through nginx instead, at the
// highest C, each client with a key of its own, R rounds (--rounds, default 2) of: one
// instance, N instances, N instances with RATE_LIMIT_SCOPE=instance (bench/instances.ts).

import postgres from "postgres";
import { createHandler } from "../lib/http/app.ts";
import { loadConfig } from "../lib/config.ts";
import { aroundQueries, type Db, openDb, type Sql } from "../lib/db/db.ts";
import { compile } from "../lib/db/template.ts";
import { createAdsState } from "../lib/ads/wing.ts";
import { createFormsState } from "../lib/forms/wing.ts";
import { createRateLimiter } from "../lib/http/ratelimit.ts";
import { createMetrics } from "../lib/http/metrics.ts";
import { migrate } from "../lib/db/migrate.ts";
import { allRoutes } from "../routes/index.ts";
import { migrations } from "../sql/migrations.ts";
import { brandId, stationId, writeDataset } from "./ads_data.ts";
import { connectHttp1 } from "./http1.ts";
import { machineLine } from "./machine.ts";
import { deploymentPlan, type Measured, planTable, startDeployment } from "./instances.ts";
import { generateKey } from "../lib/ads/apikey.ts";

const DAY = 86_400_000;
// Not the name earlier builds used: their schema differs, and --reuse must not take theirs.
const DATABASE = "onda_bench_ads_blocks";

interface Options {
  rows: number;
  days: number;
  stations: number;
  database: string;
  accounts: number;
  seconds: number;
  concurrency: number[];
  reuse: boolean;
  pool: number;
  only: string | null;
  warmup: number;
  instances: number;
  rounds: number;
}

function parseArgs(args: string[]): Options {
  const options: Options = {
    rows: 10_000_000,
    days: 730,
    stations: 200,
    database: DATABASE,
    accounts: 1,
    seconds: 20,
    concurrency: [32],
    reuse: false,
    pool: loadConfig({}).dbPoolMax,
    only: null,
    warmup: 10,
    instances: 0,
    rounds: 2,
  };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--reuse") {
      options.reuse = true;
      continue;
    }
    if (args[i] === "--only") {
      options.only = args[++i];
      if (!["ads", "summary", "coverage"].includes(options.only)) {
        throw new Error("--only takes ads, summary or coverage");
      }
      continue;
    }
    if (args[i] === "--database") {
      options.database = args[++i] ?? "";
      if (!/^[a-z_][a-z0-9_]*$/.test(options.database)) {
        throw new Error("--database takes a lower-case SQL name");
      }
      continue;
    }
    if (args[i] === "--concurrency") {
      options.concurrency = (args[++i] ?? "").split(",").map(Number);
      if (!options.concurrency.every((c) => Number.isInteger(c) && c > 0)) {
        throw new Error("--concurrency takes whole numbers, comma-separated");
      }
      continue;
    }
    const value = Number(args[++i]);
    if (args[i - 1] === "--warmup" && Number.isFinite(value) && value >= 0) {
      options.warmup = value;
      continue;
    }
    if (!Number.isFinite(value) || value <= 0) throw new Error(`bad value for ${args[i - 1]}`);
    if (args[i - 1] === "--rows") options.rows = value;
    else if (args[i - 1] === "--seconds") options.seconds = value;
    else if (args[i - 1] === "--accounts") options.accounts = value;
    else if (args[i - 1] === "--days") options.days = value;
    else if (args[i - 1] === "--stations" && Number.isInteger(value)) options.stations = value;
    else if (args[i - 1] === "--pool") options.pool = value;
    else if (args[i - 1] === "--instances") options.instances = value;
    else if (args[i - 1] === "--rounds") options.rounds = value;
    else {throw new Error(
        `unknown option ${
          args[i - 1]
        } (--rows, --days, --stations, --database, --accounts, --seconds, --concurrency, --pool, --reuse, --warmup, ` +
          "--only, --instances, --rounds)",
      );}
  }
  return options;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = "/" + name;
  return u.toString();
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;
}

/** Runs a deno subprocess on admin.ts, sampling its peak resident memory from /proc. */
async function adminProcess(url: string, args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "admin.ts",
      ...args,
    ],
    env: { DATABASE_URL: url },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let peakKb = 0;
  const timer = setInterval(async () => {
    try {
      const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
      const hwm = /VmHWM:\s+(\d+)/.exec(status);
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch { /* exited */ }
  }, 100);
  const output = await child.output();
  clearInterval(timer);
  const stdout = new TextDecoder().decode(output.stdout);
  if (!output.success) throw new Error(`admin ${args.join(" ")} failed:\n${stdout}`);
  return { stdout, peakMb: peakKb / 1024 };
}

/** CPU time (ns) a process has spent on a core so far (Linux schedstat); 0 when unreadable. */
function cpuNs(pid: number | "self"): number {
  try {
    return Number(Deno.readTextFileSync(`/proc/${pid}/schedstat`).split(" ")[0]);
  } catch {
    return 0;
  }
}

/** CPU of the database's backends so far, summed (they run beside the service, same machine). */
async function backendsCpuNs(sql: postgres.Sql, database: string): Promise<number> {
  const rows = await sql<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid()`;
  return rows.reduce((sum, r) => sum + cpuNs(r.pid), 0);
}

interface Load {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
}

/** C workers loop over `one` for `seconds`; latencies in ms. */
async function drive(
  concurrency: number,
  seconds: number,
  one: (i: number, worker: number) => Promise<boolean>,
): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async (_, worker) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const ok = await one(n++, worker);
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds: elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
  };
}

/** Wraps a Db so every query's compiled text and parameters are recorded, in order. */
function recording(db: Db, log: { text: string; params: unknown[] }[]): Db {
  const record = (sql: Sql) =>
    aroundQueries(sql, (query, strings, values) => {
      log.push(compile(strings, values));
      return query(sql);
    });
  return { ...db, sql: record(db.sql), keptPlans: record(db.keptPlans) };
}

const BRANDS = 2000;

/** Median of a list of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Accounts bench50, bench50-2, ... up to `count`, each granted 50 stations and 1,000 brands for
 * the whole period: the bench account's grant, shifted by the account's number for the others,
 * so that grants overlap without being the same. Creates only the missing ones; prints the
 * median grant time of those it created.
 */
async function grantAccounts(url: string, options: Options, end: number) {
  const { accounts: count, days, stations: stationCount } = options;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const existing = new Set(
    (await sql<{ id: string }[]>`select id from ads_accounts where id like 'bench50%'`)
      .map((row) => row.id),
  );
  await sql.end();
  const times: number[] = [];
  for (let k = 0; k < count; k++) {
    const account = k === 0 ? "bench50" : `bench50-${k + 1}`;
    if (existing.has(account)) continue;
    const stations = Array.from({ length: 50 }, (_, i) => stationId((i * 4 + k) % stationCount));
    const brands = Array.from({ length: 1000 }, (_, i) => brandId((i * 2 + k) % BRANDS));
    await adminProcess(url, ["account", "create", account, "--name", `Bench ${k + 1}`]);
    const started = performance.now();
    await adminProcess(url, [
      "grant",
      account,
      `--stations=${stations.join(",")}`,
      `--brands=${brands.join(",")}`,
      "--from",
      new Date(end - days * DAY).toISOString(),
      "--until",
      new Date(end + 400 * DAY).toISOString(),
    ]);
    times.push((performance.now() - started) / 1000);
  }
  if (times.length) {
    console.log(
      `grant: ${times.length} accounts granted, median ${median(times).toFixed(2)} s ` +
        `(max ${Math.max(...times).toFixed(2)} s, admin process start included)`,
    );
  }
}

/**
 * Three more days of about 14,000 occurrences after the data, each its own snapshot (later than
 * any approved before, so that runs can follow each other), imported and then approved: prints
 * the approvals' times, which must not depend on the number of accounts.
 */
async function approveDays(url: string, stations: number, end: number) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [{ n }] = await sql<{ n: number }[]>`
    select coalesce(max(substring(id from '^bench-day-([0-9]+)$')::int), 0) as n
      from ads_snapshots`;
  const [{ accounts }] = await sql<{ accounts: number }[]>`
    select count(*)::int as accounts from ads_grants`;
  await sql.end();
  const times: number[] = [];
  for (let tag = n + 1; tag <= n + 3; tag++) {
    const path = await Deno.makeTempFile({ prefix: "onda_bench_day_", suffix: ".ndjson" });
    try {
      await writeDataset(path, {
        rows: 14_000,
        stations,
        brands: BRANDS,
        days: 1,
        end: end + tag * DAY,
        tag,
      });
      await adminProcess(url, ["import", path]);
      const started = performance.now();
      await adminProcess(url, ["snapshot", "approve", `bench-day-${tag}`]);
      times.push((performance.now() - started) / 1000);
    } finally {
      await Deno.remove(path).catch(() => {});
    }
  }
  console.log(
    `approve one day (14,000 occurrences) with ${accounts} accounts: median ` +
      `${median(times).toFixed(2)} s of ${times.map((t) => t.toFixed(2)).join(", ")} ` +
      `(admin process start included)`,
  );
}

/** The database's size, and the ads data's beside the occurrences' table and indexes. */
async function printSizes(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const [row] = await sql<{ database: number; ads: number; occurrences: number }[]>`
    select pg_database_size(current_database())::float8 as database,
           (select sum(pg_total_relation_size(c.oid)) from pg_class c
             where c.relkind = 'r' and c.relname like 'ads\_%')::float8 as ads,
           pg_total_relation_size('ads_occurrences')::float8 as occurrences`;
  await sql.end();
  const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
  console.log(
    `database ${mb(row.database)} MB; ads tables with their indexes ${mb(row.ads)} MB, ` +
      `${(row.ads / row.occurrences).toFixed(2)} x ads_occurrences' ${mb(row.occurrences)} MB`,
  );
}

export async function run(args: string[]) {
  const options = parseArgs(args);
  const base = Deno.env.get("DATABASE_URL") || "postgres://postgres@127.0.0.1:5432/test";
  const url = withDatabase(base, options.database);
  const end = Math.floor(Date.now() / DAY) * DAY;
  const days = options.days;
  const admin = postgres(withDatabase(base, "postgres"), { max: 1, onnotice: () => {} });
  const exists =
    (await admin`select 1 from pg_database where datname = ${options.database}`).length > 0;
  const reuse = options.reuse && exists;
  if (!reuse) {
    await admin.unsafe(`drop database if exists ${options.database} with (force)`);
    await admin.unsafe(`create database ${options.database}`);
  }
  console.log(
    `# ads benchmark: ${options.rows.toLocaleString("en")} occurrences, ` +
      `${options.accounts} accounts, ${options.concurrency.join(", ")} clients, ` +
      `${options.seconds} s per endpoint, ` +
      `${options.pool} PostgreSQL connections, ${options.warmup} s unmeasured warm-up per run`,
  );
  console.log(await machineLine(admin));
  // The import's speed depends on these as much as on the build (README: "PostgreSQL instead of
  // the embedded database"), so a run names them.
  const [settings] = await admin<{ max_wal_size: string; shared_buffers: string }[]>`
    select current_setting('max_wal_size') as max_wal_size,
           current_setting('shared_buffers') as shared_buffers`;
  console.log(
    `PostgreSQL: max_wal_size ${settings.max_wal_size}, shared_buffers ${settings.shared_buffers}`,
  );
  await admin.end();
  if (!reuse) {
    const path = await Deno.makeTempFile({ prefix: "onda_bench_ads_", suffix: ".ndjson" });
    try {
      let t0 = performance.now();
      const lines = await writeDataset(path, {
        rows: options.rows,
        stations: options.stations,
        brands: BRANDS,
        days,
        end,
      });
      const size = (await Deno.stat(path)).size / 1e6;
      console.log(
        `generated ${lines.toLocaleString("en")} lines (${size.toFixed(0)} MB) in ` +
          `${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      t0 = performance.now();
      const imported = await adminProcess(url, ["import", path]);
      const importSeconds = (performance.now() - t0) / 1000;
      console.log(imported.stdout.trim());
      console.log(
        `import: ${Math.round(options.rows / importSeconds).toLocaleString("en")} ` +
          `occurrences/s wall clock incl. process start (target >= 150,000), ` +
          `peak RSS ${imported.peakMb.toFixed(0)} MB (target <= 300 MB)`,
      );
      t0 = performance.now();
      await adminProcess(url, ["snapshot", "approve", `bench-${options.rows}`]);
      console.log(
        `approve (the snapshot's figures): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    } finally {
      await Deno.remove(path).catch(() => {});
    }
  }
  await grantAccounts(url, options, end);
  await approveDays(url, options.stations, end);
  await printSizes(url);
  const created = await adminProcess(url, [
    "key",
    "create",
    "bench50",
    "--permissions",
    "ads:read,reports:read,coverage:read",
  ]);
  const key = created.stdout.trim().split("\n").at(-1)!;
  const db = await openDb({ databaseUrl: url, dataDir: "memory://", poolMax: 10 });
  // Data kept by --reuse may be of an older build: the recording below runs before the service
  // would migrate it.
  await migrate(db, migrations);
  // Every table, as after any bulk load: visibility maps set, statistics fresh, and no
  // autovacuum of the new tables competing with the measurement for the two cores.
  await db.sql`vacuum analyze`;
  // And the gigabytes the import and the approval wrote already on disk, so that the checkpoint
  // they trigger does not write them out during the first measurement. Needs a superuser or
  // pg_checkpoint; without either, the measurement runs as it is.
  await db.sql`checkpoint`.catch(() => console.log("(no checkpoint: not permitted)"));
  // Again: a shared machine's speed changes within a run (seen: 1.6x from one minute to the next).
  console.log(await machineLine(db.raw.postgres!));

  // The request pool: 31-day windows (whole UTC days, as reports ask for) at random places
  // in the two years, a few pages deep for /ads.
  const random = (() => {
    let a = 7;
    return () => {
      a = (a * 1103515245 + 12345) % 2147483648;
      return a / 2147483648;
    };
  })();
  const windows = Array.from({ length: 256 }, () => {
    const since = end - (31 + Math.floor(random() * (days - 31))) * DAY;
    return `since=${new Date(since).toISOString()}&until=${
      new Date(since + 31 * DAY).toISOString()
    }`;
  });
  const endpoints = [
    {
      only: "ads",
      name: "/ads",
      paths: windows.map((w, i) => `/api/v1/ads?${w}&limit=50&offset=${(i % 4) * 50}`),
    },
    {
      only: "summary",
      name: "/reports/summary",
      paths: windows.map((w) => `/api/v1/reports/summary?${w}`),
    },
    { only: "coverage", name: "/coverage", paths: windows.map((w) => `/api/v1/coverage?${w}`) },
  ].filter((endpoint) => options.only === null || endpoint.only === options.only);
  if (options.instances) {
    try {
      await runInstances(url, options, endpoints[0], end);
    } finally {
      await db.close();
    }
    return;
  }

  // Record the SQL each request runs, through the real handler in this process.
  const recorded = new Map<string, { text: string; params: unknown[] }[]>();
  {
    const log: { text: string; params: unknown[] }[] = [];
    const config = loadConfig({
      DATABASE_URL: url,
      RATE_LIMIT_KEY_PER_MINUTE: "100000000",
      // The service's cache as the environment sets it (default otherwise).
      ADS_CACHE_MB: Deno.env.get("ADS_CACHE_MB"),
    });
    const handler = createHandler({
      config,
      db: recording(db, log),
      clock: () => new Date(),
      log: () => {},
      limiter: createRateLimiter(() => new Date()),
      secretKey: "x".repeat(32),
      fetch,
      routes: allRoutes,
      maintenanceCacheMs: 3_600_000,
      ads: createAdsState(config.adsCacheMb),
      forms: createFormsState(db.sql, "x".repeat(32)),
      metrics: createMetrics(),
    });
    const info = {
      remoteAddr: { transport: "tcp", hostname: "127.0.0.1", port: 1 } as Deno.NetAddr,
    };
    const call = (path: string) =>
      handler(
        new Request(`http://bench${path}`, { headers: { authorization: `Bearer ${key}` } }),
        info,
      );
    await (await call("/api/v1/whoami")).body?.cancel();
    for (const endpoint of endpoints) {
      for (const path of endpoint.paths) {
        log.length = 0;
        const res = await call(path);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        await res.body?.cancel();
        recorded.set(path, [...log]);
      }
    }
  }

  const port = (() => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const p = (listener.addr as Deno.NetAddr).port;
    listener.close();
    return p;
  })();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts"],
    env: {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: "127.0.0.1",
      RATE_LIMIT_KEY_PER_MINUTE: "100000000",
      WEBHOOK_WORKER: "0",
      DB_POOL_MAX: String(options.pool),
    },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const origin = `http://127.0.0.1:${port}`;
  try {
    // Listening, and then its ads data loaded (ads requests answer 503 until then).
    for (let i = 0; i < 1200; i++) {
      try {
        const res = await fetch(`${origin}/api/v1/ads?limit=1`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await res.body?.cancel();
        if (res.ok) break;
      } catch { /* not yet listening */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    const raw = postgres(url, {
      max: options.pool,
      onnotice: () => {},
      types: {
        int8: { to: 20, from: [20], serialize: String, parse: Number },
      } as unknown as Record<string, postgres.PostgresType>,
    });
    const cpuLines: string[] = [];
    console.log("");
    console.log(
      "| endpoint | clients | service req/s | p50 ms | p99 ms | raw SQL req/s | p50 ms | p99 ms " +
        "| ratio |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const endpoint of endpoints) {
      for (const [c, concurrency] of options.concurrency.entries()) {
        const headers = { authorization: `Bearer ${key}` };
        // One keep-alive connection per client, as in the forms bench: fetch would cost the load
        // generator several times the CPU on the cores the service and PostgreSQL share.
        const connections = await Promise.all(
          Array.from({ length: concurrency }, () => connectHttp1("127.0.0.1", port)),
        );
        const request = async (i: number, worker: number) => {
          const res = await connections[worker].get(
            endpoint.paths[i % endpoint.paths.length],
            headers,
          );
          return res.status === 200;
        };
        if (options.warmup) await drive(concurrency, options.warmup, request);
        // Where the CPU goes, per request: all three share the machine's two cores.
        const before = {
          client: cpuNs("self"),
          service: cpuNs(server.pid),
          database: await backendsCpuNs(raw, options.database),
        };
        const service = await drive(concurrency, options.seconds, request);
        for (const connection of connections) connection.close();
        const perRequest = (ns: number) => ns / service.requests / 1e6;
        const client = perRequest(cpuNs("self") - before.client);
        const inService = perRequest(cpuNs(server.pid) - before.service);
        const inDatabase = perRequest(await backendsCpuNs(raw, options.database) - before.database);
        const total = client + inService + inDatabase;
        cpuLines.push(
          `| ${endpoint.name} | ${concurrency} | ${client.toFixed(2)} | ${
            inService.toFixed(2)
          } | ` +
            `${inDatabase.toFixed(2)} | ${total.toFixed(2)} | ${Math.round(2000 / total)} |`,
        );
        const rate = (l: Load) => l.requests / l.seconds;
        const measured = `| ${endpoint.name} | ${concurrency} | ${rate(service).toFixed(0)} | ` +
          `${service.p50.toFixed(1)} | ${service.p99.toFixed(1)} |`;
        const errors = service.errors ? ` (${service.errors} errors)` : "";
        if (c < options.concurrency.length - 1) {
          console.log(`${measured} | | | |${errors}`);
          continue;
        }
        // The handler's pattern: the key lookup first, then its queries side by side.
        const replay = async (i: number) => {
          const [first, ...rest] = recorded.get(endpoint.paths[i % endpoint.paths.length])!;
          const exec = (q: { text: string; params: unknown[] }) =>
            raw.unsafe(q.text, q.params as postgres.ParameterOrJSON<never>[], { prepare: true });
          await exec(first);
          await Promise.all(rest.map(exec));
          return true;
        };
        if (options.warmup) await drive(concurrency, options.warmup, replay);
        const sql = await drive(concurrency, options.seconds, replay);
        console.log(
          `${measured} ${rate(sql).toFixed(0)} | ${sql.p50.toFixed(1)} | ${sql.p99.toFixed(1)} | ` +
            `${(rate(service) / rate(sql) * 100).toFixed(0)} % |${errors}`,
        );
      }
    }
    console.log("");
    console.log(
      "CPU ms per request through the service (load generator, service, PostgreSQL backends), " +
        "and the rate two fully busy cores would allow:",
    );
    console.log(
      "| endpoint | clients | load generator | service | PostgreSQL | total | 2 cores / total |",
    );
    console.log("|---|---|---|---|---|---|---|");
    for (const line of cpuLines) console.log(line);
    await raw.end();
    console.log("");
    console.log(
      "targets (bench/README.md): /ads and /coverage at 32 clients at least 2/3 of the build " +
        "before the shared figures (measured alternately); summary p99 <= 50 ms at 1 client and " +
        "<= 150 ms at 8. Coverage's raw SQL is only its key lookup (it is computed in the " +
        "service, lib/ads/coverage.ts), and a summary of whole days has none: their ratios mean " +
        "nothing.",
    );
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await db.close();
  }
}

/**
 * --instances: one endpoint through nginx at the highest concurrency, each client with a key of
 * its own (integrations each with their key; a limit nothing reaches, so that every request is
 * counted and none refused), for every configuration of bench/instances.ts in turn.
 */
async function runInstances(
  url: string,
  options: Options,
  endpoint: { name: string; paths: string[] },
  end: number,
) {
  const concurrency = Math.max(...options.concurrency);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const keys: string[] = [];
  for (let i = 0; i < concurrency; i++) {
    const key = generateKey();
    await sql`insert into ads_api_keys (account_id, digest, prefix, label, permissions)
              values ('bench50', ${key.digest}, ${key.prefix}, 'bench',
                      '{ads:read,reports:read,coverage:read}')`;
    keys.push(key.key);
  }
  console.log("");
  console.log(
    `${endpoint.name} through nginx, ${concurrency} clients with a key each, ` +
      `${options.seconds} s per run after ${options.warmup} s unmeasured, ${options.rounds} rounds ` +
      `(data until ${new Date(end).toISOString().slice(0, 10)})`,
  );
  const results: Measured[] = [];
  for (let round = 0; round < options.rounds; round++) {
    for (const plan of deploymentPlan(options.instances)) {
      const deployment = await startDeployment(
        plan.instances,
        {
          DATABASE_URL: url,
          RATE_LIMIT_KEY_PER_MINUTE: "100000000",
          RATE_LIMIT_SCOPE: plan.scope,
          WEBHOOK_WORKER: "0",
          DB_POOL_MAX: String(options.pool),
        },
        { path: "/api/v1/ads?limit=1", headers: { authorization: `Bearer ${keys[0]}` } },
      );
      try {
        const connections = await Promise.all(
          keys.map(() => connectHttp1("127.0.0.1", deployment.port)),
        );
        const request = async (i: number, worker: number) => {
          const res = await connections[worker].get(endpoint.paths[i % endpoint.paths.length], {
            authorization: `Bearer ${keys[worker]}`,
          });
          return res.status === 200;
        };
        if (options.warmup) await drive(concurrency, options.warmup, request);
        const cpu = async () =>
          [
            cpuNs("self"),
            deployment.pids.reduce((sum, pid) => sum + cpuNs(pid), 0),
            await backendsCpuNs(sql, options.database),
          ] as const;
        const before = await cpu();
        const load = await drive(concurrency, options.seconds, request);
        const after = await cpu();
        for (const connection of connections) connection.close();
        const rate = load.requests / load.seconds;
        const ms = after.map((ns, i) => (ns - before[i]) / load.requests / 1e6);
        console.log(
          `${plan.label}: ${rate.toFixed(0)} req/s, p50 ${load.p50.toFixed(1)} ms, ` +
            `p99 ${load.p99.toFixed(1)} ms${load.errors ? ` (${load.errors} errors)` : ""}; ` +
            `CPU ms per request: load generator ${ms[0].toFixed(2)}, services ${
              ms[1].toFixed(2)
            }, PostgreSQL ${ms[2].toFixed(2)}`,
        );
        results.push({ label: plan.label, rate, p50: load.p50, p99: load.p99 });
      } finally {
        await deployment.stop();
      }
    }
  }
  console.log("");
  console.log(planTable("req/s (each round)", results));
  console.log(await machineLine(sql));
  await sql.end();
}
