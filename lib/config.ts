// Configuration: read once from the environment at start, validated, then passed down.

/** The configuration, as loadConfig returns it. */
export type Config = ReturnType<typeof loadConfig>;

const RETRY_DELAYS = "5,300,1800,7200,18000,36000,50400,72000,86400";

/** Every variable the service reads, its default and its meaning; the README table mirrors this. */
export const CONFIG_VARIABLES = [
  ["PORT", "8080", "TCP port to listen on"],
  ["HOST", "0.0.0.0", "address to bind"],
  ["DATABASE_URL", "(unset)", "PostgreSQL URL; unset = embedded PGlite in DATA_DIR"],
  ["DATABASE_READ_URL", "(unset)", "a streaming replica of DATABASE_URL; the ads API reads there"],
  ["DATA_DIR", "./data", "directory of the embedded database"],
  ["PUBLIC_BASE_URL", "http://localhost:PORT", "public origin (https enables Secure cookies)"],
  [
    "SECRET_KEY",
    "(generated)",
    "cursor and sealing key; generated once, kept in the database",
  ],
  // Two pools: the second for the ads key lookup and page (generic plans kept).
  ["DB_POOL_MAX", "10", "PostgreSQL connections per pool, each opened only as needed"],
  [
    "ADS_CACHE_MB",
    "128",
    "memory for the ads data an instance keeps (at most 256; decimals allowed)",
  ],
  ["ADS_DATABASE_TIMEOUT_MS", "5000", "an ads request waiting this long answers 503 UNAVAILABLE"],
  // A write the request had not committed is rolled back.
  ["DATABASE_TIMEOUT_MS", "10000", "any other /api/ request waiting this long answers 500"],
  ["REQUEST_BODY_TIMEOUT_MS", "10000", "a request body not received in this time answers 408"],
  ["SHUTDOWN_TIMEOUT_MS", "10000", "how long in-flight requests may finish on SIGTERM"],
  ["TRUST_PROXY", "0", "1 = client address from the last X-Forwarded-For entry (your proxy's)"],
  ["RATE_LIMIT_KEY_PER_MINUTE", "60", "ads API requests per key per rolling minute"],
  ["RATE_LIMIT_PUBLIC_PER_MINUTE", "120", "public forms requests per client address per minute"],
  ["RATE_LIMIT_USER_PER_MINUTE", "600", "authenticated forms requests per user per minute"],
  ["RATE_LIMIT_SCOPE", "deployment", "deployment = counted in PostgreSQL; instance = in memory"],
  ["PLAN_FREE_ANSWERS_PER_MONTH", "1000", "answer limit of the free plan"],
  ["PLAN_PRO_ANSWERS_PER_MONTH", "100000", "answer limit of the pro plan"],
  ["DEFAULT_PLAN", "free", "plan of new workspaces (free, pro, business)"],
  ["COVERAGE_GAP_SECONDS", "300", "capture gaps longer than this are listed by /coverage"],
  ["WEBHOOK_ALLOW_PRIVATE_TARGETS", "0", "1 = allow http and private/loopback webhook targets"],
  ["WEBHOOK_RETRY_DELAYS", RETRY_DELAYS, "webhook retry schedule, seconds"],
  ["WEBHOOK_WORKER", "1", "0 = no webhook delivery, event numbering or pruning here"],
  ["EVENT_RETENTION_DAYS", "30", "days events, webhook deliveries and attempts are kept"],
  ["METRICS_TOKEN", "(unset)", "GET /metrics for Authorization: Bearer <token> (32+ chars)"],
  ["METRICS_ADDR", "(unset)", "host:port of a second listener serving only GET /metrics"],
] as const;

/** Thrown for a bad variable; main.ts prints the message alone and exits 1. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** A decimal number in (0, max]. */
function sizeVar(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0 || Number(raw) > max) {
    throw new ConfigError(`${name} must be a number above 0 and at most ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "1" || raw === "true") return true;
  if (raw === "0" || raw === "false") return false;
  throw new ConfigError(`${name} must be 0 or 1, got "${raw}"`);
}

function urlVar(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Never echo the value: a database URL may carry a password.
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol) || url.hostname === "") {
    throw new ConfigError(`${name} must be a ${protocols.join(" or ")}// URL with a host`);
  }
  return raw;
}

/** One of `values`; the first when unset. */
function oneOfVar<const T extends string>(env: Env, name: string, values: readonly T[]): T {
  const raw = env[name] || values[0];
  if (!values.includes(raw as T)) {
    const choices = `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
    throw new ConfigError(`${name} must be ${choices}, got "${raw}"`);
  }
  return raw as T;
}

/** host:port ([v6]:port for IPv6), for a listener. */
function addrVar(env: Env, name: string): { hostname: string; port: number } | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:\[\]]+)):(\d{1,5})$/.exec(raw);
  if (!match || Number(match[3]) > 65535) {
    throw new ConfigError(`${name} must be host:port (e.g. 127.0.0.1:9464), got "${raw}"`);
  }
  return { hostname: match[1] ?? match[2], port: Number(match[3]) };
}

export function loadConfig(env: Env) {
  const port = intVar(env, "PORT", 8080, 0, 65535);
  const publicBaseUrl = urlVar(env, "PUBLIC_BASE_URL", ["http:", "https:"]) ??
    `http://localhost:${port}`;
  const delaysRaw = env.WEBHOOK_RETRY_DELAYS || RETRY_DELAYS;
  if (!/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/.test(delaysRaw)) {
    throw new ConfigError(
      `WEBHOOK_RETRY_DELAYS must be comma-separated seconds, got "${delaysRaw}"`,
    );
  }
  const metricsToken = env.METRICS_TOKEN || null;
  if (metricsToken !== null && (metricsToken.length < 32 || /\s/.test(metricsToken))) {
    throw new ConfigError("METRICS_TOKEN must be at least 32 characters without spaces");
  }
  const databaseUrl = urlVar(env, "DATABASE_URL", ["postgres:", "postgresql:"]);
  const databaseReadUrl = urlVar(env, "DATABASE_READ_URL", ["postgres:", "postgresql:"]);
  if (databaseReadUrl !== null && databaseUrl === null) {
    throw new ConfigError("DATABASE_READ_URL needs DATABASE_URL (the replica's primary)");
  }
  const secretKey = env.SECRET_KEY || null;
  if (secretKey !== null && secretKey.length < 32) {
    throw new ConfigError("SECRET_KEY must be at least 32 characters");
  }
  return {
    port,
    host: env.HOST || "0.0.0.0",
    databaseUrl,
    /** A streaming replica of DATABASE_URL: the ads API reads there (lib/db/replica.ts). */
    databaseReadUrl,
    dataDir: env.DATA_DIR || "./data",
    publicBaseUrl: publicBaseUrl.replace(/\/+$/, ""),
    /** Signs cursors and other server-issued tokens; unset: generated, kept in the database. */
    secretKey,
    dbPoolMax: intVar(env, "DB_POOL_MAX", 10, 1, 1000),
    /** How long an ads API request waits for the database before answering 503 UNAVAILABLE. */
    adsCacheMb: sizeVar(env, "ADS_CACHE_MB", 128, 256),
    adsDatabaseTimeoutMs: intVar(env, "ADS_DATABASE_TIMEOUT_MS", 5000, 100, 600_000),
    /**
     * How long any other request under /api/ (forms, webhooks, the document) waits for the
     * database before it answers 500 INTERNAL; what it had not committed is rolled back.
     */
    databaseTimeoutMs: intVar(env, "DATABASE_TIMEOUT_MS", 10_000, 100, 600_000),
    /** How long a request body may take to arrive; its wait never counts as the database's. */
    requestBodyTimeoutMs: intVar(env, "REQUEST_BODY_TIMEOUT_MS", 10_000, 100, 600_000),
    shutdownTimeoutMs: intVar(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
    /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
    trustProxy: boolVar(env, "TRUST_PROXY", false),
    rateLimitKeyPerMinute: intVar(env, "RATE_LIMIT_KEY_PER_MINUTE", 60, 1, 100_000_000),
    rateLimitPublicPerMinute: intVar(env, "RATE_LIMIT_PUBLIC_PER_MINUTE", 120, 1, 100_000_000),
    rateLimitUserPerMinute: intVar(env, "RATE_LIMIT_USER_PER_MINUTE", 600, 1, 100_000_000),
    /** deployment: the limits are counted in PostgreSQL for every instance; instance: in memory. */
    rateLimitScope: oneOfVar(env, "RATE_LIMIT_SCOPE", ["deployment", "instance"]),
    planFreeAnswersPerMonth: intVar(env, "PLAN_FREE_ANSWERS_PER_MONTH", 1000, 0, 2 ** 31 - 1),
    planProAnswersPerMonth: intVar(env, "PLAN_PRO_ANSWERS_PER_MONTH", 100_000, 0, 2 ** 31 - 1),
    defaultPlan: oneOfVar(env, "DEFAULT_PLAN", ["free", "pro", "business"]),
    coverageGapSeconds: intVar(env, "COVERAGE_GAP_SECONDS", 300, 1, 86_400 * 31),
    webhookAllowPrivateTargets: boolVar(env, "WEBHOOK_ALLOW_PRIVATE_TARGETS", false),
    webhookRetryDelays: delaysRaw.split(",").map(Number),
    webhookWorker: boolVar(env, "WEBHOOK_WORKER", true),
    /** Days events, deliveries and attempts are kept (the events feed and the delivery log). */
    eventRetentionDays: intVar(env, "EVENT_RETENTION_DAYS", 30, 1, 3650),
    /** Bearer token a scrape of /metrics must send; null = none (then only METRICS_ADDR serves). */
    metricsToken,
    /** A second listener for /metrics alone; null = /metrics on the main port if a token is set. */
    metricsAddr: addrVar(env, "METRICS_ADDR"),
  };
}

/** Reads exactly the variables the service knows, so `--allow-env=<list>` is enough. */
export function readEnv(): Env {
  const env: Env = {};
  for (const [name] of CONFIG_VARIABLES) env[name] = Deno.env.get(name);
  return env;
}

/** For entry points (main, admin, demo): the config, or one line naming the bad variable and exit 1. */
export function configOrExit(): Config {
  try {
    return loadConfig(readEnv());
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`configuration error: ${err.message}`);
    Deno.exit(1);
  }
}
