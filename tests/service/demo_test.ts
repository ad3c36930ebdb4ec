// `deno task demo`: run twice, as the task itself, into a fresh embedded database in a DATA_DIR
// other than ./data; then `deno task start` on it answers the README's "try it" requests with the
// printed key and login, and nothing was loaded twice.

import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config.ts";
import { aroundQueries, type Db, openDb } from "../../lib/db/db.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { DEMO_ACCOUNT, DEMO_EMAIL, DEMO_PASSWORD, DEMO_SLUG, loadDemo } from "../../lib/demo.ts";
import { migrations } from "../../sql/migrations.ts";
import { freshDatabase, test } from "../_server.ts";
import { freePort } from "../_pg_cluster.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** The environment of a task run: DATA_DIR and the rest as given, and what `deno task` needs. */
function taskEnv(env: Record<string, string>): Record<string, string> {
  const keep = ["HOME", "PATH", "DENO_DIR"].filter((name) => Deno.env.get(name) !== undefined);
  return { ...Object.fromEntries(keep.map((name) => [name, Deno.env.get(name)!])), ...env };
}

async function runDemo(dataDir: string, port: number, databaseUrl: string | null) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "demo"],
    cwd: ROOT,
    env: taskEnv({
      DATA_DIR: dataDir,
      PORT: String(port),
      NO_COLOR: "1",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  return { stdout, stderr, key: stdout.trim().split("\n").pop()! };
}

test("demo: the demo and compile tasks may read the same variables as the start task", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`)).tasks;
  const envOf = (task: string) =>
    new Set((/--allow-env=(\S+)/.exec(tasks[task])?.[1] ?? "").split(","));
  const start = envOf("start");
  assert.ok(start.size > 10);
  assert.deepEqual(envOf("demo"), start);
  assert.deepEqual(envOf("compile"), start);
  assert.match(tasks.compile, /^deno compile .*--output onda main\.ts$/);
  assert.doesNotMatch(tasks.demo + tasks.compile, /--allow-all|-A /);
});

test("demo: loads once, is safe to re-run, and the printed key and login work", async () => {
  // The configured database: a fresh PostgreSQL one when DATABASE_URL is set, else embedded.
  const database = await freshDatabase();
  const dataDir = await Deno.makeTempDir({ prefix: "onda_demo_" });
  const port = freePort();
  const base = `http://localhost:${port}`;
  try {
    const first = await runDemo(dataDir, port, database.url);
    assert.match(first.stdout, /Demo data loaded into/);
    assert.match(first.stdout, database.url ? /PostgreSQL/ : /embedded database/);
    assert.match(first.key, /^onda_ads_[A-Za-z0-9_-]{40,}$/);
    assert.ok(first.stdout.includes(`${base}/try/${DEMO_SLUG}`), "prints the sample page URL");
    assert.ok(first.stdout.includes(`${DEMO_EMAIL} / ${DEMO_PASSWORD}`), "prints the login");
    assert.doesNotMatch(first.stderr, new RegExp(first.key), "the key is printed once");

    const second = await runDemo(dataDir, port, database.url);
    assert.match(second.stdout, /already present/);
    assert.match(second.key, /^onda_ads_/);
    assert.notEqual(second.key, first.key, "a fresh key on every run");

    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "start"],
      cwd: ROOT,
      env: taskEnv({
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        WEBHOOK_WORKER: "0",
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      }),
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const local = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 300; i++) {
        try {
          const res = await fetch(`${local}/status`);
          await res.body?.cancel();
          if (res.ok) break;
        } catch { /* starting */ }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (const key of [first.key, second.key]) {
        const whoami = await fetch(`${local}/api/v1/whoami`, {
          headers: { authorization: `Bearer ${key}` },
        });
        assert.equal(whoami.status, 200);
        const who = await whoami.json();
        assert.equal(who.data.account.id, "demo");
        assert.equal(who.data.scope.stations.length, 4);
      }
      const ads = await fetch(`${local}/api/v1/ads?limit=5`, {
        headers: { authorization: `Bearer ${second.key}` },
      });
      assert.equal(ads.status, 200);
      const page = await ads.json();
      assert.equal(page.data.length, 5);
      assert.ok(page.meta.total > 300, `a week of ads, got ${page.meta.total}`);
      assert.ok(page.meta.snapshot_exported_at, "the snapshot is approved");
      // Loaded once: one snapshot's worth of ads, not two.
      const summary = await fetch(`${local}/api/v1/reports/summary`, {
        headers: { authorization: `Bearer ${second.key}` },
      });
      const totals = (await summary.json()).data.totals;
      assert.equal(totals.occurrences, page.meta.total);

      const login = await fetch(`${local}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
      });
      assert.equal(login.status, 200);
      const cookie = /service_token=[^;]+/.exec(login.headers.get("set-cookie")!)![0];
      await login.body?.cancel();
      const list = await fetch(`${local}/api/v1/questionnaires`, { headers: { cookie } });
      const forms = (await list.json()).data;
      assert.equal(forms.length, 1, "one questionnaire after two runs");
      assert.equal(forms[0].slug, DEMO_SLUG);
      assert.equal(forms[0].state, "published");
      const exp = await fetch(`${local}/api/v1/exports`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ questionnaire_id: forms[0].id, format: "ndjson" }),
      });
      assert.equal(exp.status, 202);
      assert.equal((await exp.json()).sessions, 5, "sample sessions made once");

      const publicForm = await fetch(`${local}/api/v1/public/q/${DEMO_SLUG}`);
      const types = (await publicForm.json()).questions.map((q: { type: string }) => q.type);
      assert.deepEqual(types.toSorted(), ["choice", "email", "number", "rating", "text"]);
      const tryPage = await fetch(`${local}/try/${DEMO_SLUG}`);
      assert.equal(tryPage.status, 200);
      await tryPage.body?.cancel();
    } finally {
      child.kill("SIGTERM");
      await child.status;
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await database.drop();
  }
});

test("demo: a re-run completes the grant of an account a failed run left without one", async () => {
  const database = await freshDatabase();
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATABASE_URL: database.url ?? "" });
  const real = await openDb({ databaseUrl: database.url, dataDir: "memory://" });
  await migrate(real, migrations);
  // The demo closes its database when done; this one is kept open to be read afterwards.
  const db: Db = { ...real, close: () => Promise.resolve() };
  // The first run fails between the account and its grant: the grant's statement never runs.
  const grantFails = aroundQueries(
    db.sql,
    (query, strings) =>
      /insert into ads_grants/.test(strings.join(""))
        ? Promise.reject(new Error("connection lost"))
        : query(db.sql),
  );
  try {
    await assert.rejects(
      loadDemo({ ...db, sql: grantFails }, config, () => {}),
      /admin grant demo failed/,
    );
    const [before] = await db.sql`select 1 from ads_accounts where id = ${DEMO_ACCOUNT}`;
    assert.ok(before, "the failed run created the account");

    await loadDemo(db, config, () => {});
    const grants = await db.sql<{ station_ids: string[] }>`
      select station_ids from ads_grants where account_id = ${DEMO_ACCOUNT}`;
    assert.equal(grants.length, 1, "the re-run granted the account");
    assert.equal(grants[0].station_ids.length, 4);
  } finally {
    await real.close();
    await database.drop();
  }
});
