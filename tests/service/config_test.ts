// Configuration is read once and validated: a bad value exits 1 with one line naming it.

import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../lib/config.ts";
import { test } from "../_server.ts";

test("config: defaults apply when nothing is set", () => {
  const config = loadConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.databaseUrl, null);
  assert.equal(config.dataDir, "./data");
  assert.equal(config.publicBaseUrl, "http://localhost:8080");
  assert.equal(config.rateLimitKeyPerMinute, 60);
  assert.equal(config.adsDatabaseTimeoutMs, 5000);
  assert.equal(config.databaseTimeoutMs, 10_000);
  assert.equal(config.rateLimitPublicPerMinute, 120);
  assert.equal(config.rateLimitUserPerMinute, 600);
  assert.equal(config.rateLimitScope, "deployment");
  assert.equal(config.databaseReadUrl, null);
  assert.equal(config.planFreeAnswersPerMonth, 1000);
  assert.equal(config.planProAnswersPerMonth, 100_000);
  assert.equal(config.defaultPlan, "free");
  assert.equal(config.webhookAllowPrivateTargets, false);
  assert.equal(config.eventRetentionDays, 30);
  assert.deepEqual(config.webhookRetryDelays, [
    5,
    300,
    1800,
    7200,
    18000,
    36000,
    50400,
    72000,
    86400,
  ]);
});

test("config: a bad value is refused naming the variable", () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "not a url" }, "DATABASE_URL"],
    [{ DATABASE_URL: "mysql://x@y/z" }, "DATABASE_URL"],
    [{ PUBLIC_BASE_URL: "ftp://x" }, "PUBLIC_BASE_URL"],
    [{ RATE_LIMIT_KEY_PER_MINUTE: "0" }, "RATE_LIMIT_KEY_PER_MINUTE"],
    [{ ADS_DATABASE_TIMEOUT_MS: "99" }, "ADS_DATABASE_TIMEOUT_MS"],
    [{ ADS_DATABASE_TIMEOUT_MS: "600001" }, "ADS_DATABASE_TIMEOUT_MS"],
    [{ DATABASE_TIMEOUT_MS: "99" }, "DATABASE_TIMEOUT_MS"],
    [{ DATABASE_TIMEOUT_MS: "10s" }, "DATABASE_TIMEOUT_MS"],
    [{ DEFAULT_PLAN: "gold" }, "DEFAULT_PLAN"],
    [{ WEBHOOK_RETRY_DELAYS: "5,x" }, "WEBHOOK_RETRY_DELAYS"],
    [{ TRUST_PROXY: "yes" }, "TRUST_PROXY"],
    [{ EVENT_RETENTION_DAYS: "0" }, "EVENT_RETENTION_DAYS"],
    [{ EVENT_RETENTION_DAYS: "1.5" }, "EVENT_RETENTION_DAYS"],
    [{ SECRET_KEY: "short" }, "SECRET_KEY"],
    [{ RATE_LIMIT_SCOPE: "global" }, "RATE_LIMIT_SCOPE"],
    [{ DATABASE_READ_URL: "postgres://replica/onda" }, "DATABASE_READ_URL"],
    [
      { DATABASE_URL: "postgres://p/onda", DATABASE_READ_URL: "mysql://r/onda" },
      "DATABASE_READ_URL",
    ],
  ];
  for (const [env, name] of cases) {
    assert.throws(() => loadConfig(env), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, new RegExp(`^${name} `));
      return true;
    }, JSON.stringify(env));
  }
});

test("config: DATABASE_READ_URL and RATE_LIMIT_SCOPE=instance are read", () => {
  const config = loadConfig({
    DATABASE_URL: "postgres://primary/onda",
    DATABASE_READ_URL: "postgres://replica/onda",
    RATE_LIMIT_SCOPE: "instance",
  });
  assert.equal(config.databaseReadUrl, "postgres://replica/onda");
  assert.equal(config.rateLimitScope, "instance");
});

test("config: a malformed DATABASE_URL is never echoed (it may hold a password)", () => {
  assert.throws(() => loadConfig({ DATABASE_URL: "postgres//user:hunter2@host" }), (err) => {
    assert.doesNotMatch((err as Error).message, /hunter2/);
    return true;
  });
});

async function runMain(env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts"],
    env: { ...env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr).trim() };
}

test("config: main exits 1 with one clear line for PORT=abc", async () => {
  const { code, stderr } = await runMain({ PORT: "abc" });
  assert.equal(code, 1);
  assert.equal(stderr.split("\n").length, 1, stderr);
  assert.match(stderr, /PORT/);
});

test("config: main exits 1 with one clear line for a malformed DATABASE_URL", async () => {
  const { code, stderr } = await runMain({ DATABASE_URL: "postgres://:secretpw@" });
  assert.equal(code, 1);
  assert.equal(stderr.split("\n").length, 1, stderr);
  assert.match(stderr, /DATABASE_URL/);
  assert.doesNotMatch(stderr, /secretpw/);
});
