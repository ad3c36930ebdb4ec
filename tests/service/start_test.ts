// Start errors name their cause in one line: a port in use (found before the migrations run),
// a database that cannot be reached (host:port and the driver's reason, never the password);
// and the start line shows the address actually bound.

import assert from "node:assert/strict";
import postgres from "postgres";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase } from "../../lib/server.ts";
import { freshDatabase, PG_URL, test } from "../_server.ts";
import { freePort } from "../_pg_cluster.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

/** main.ts in its own process; resolves to its exit code and stderr once it exits. */
async function start(env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", `${ROOT}/main.ts`],
    cwd: ROOT,
    env: { WEBHOOK_WORKER: "0", ...env },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

/** The one line main.ts prints when it cannot start, and nothing else (no stack trace). */
function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.match(lines[0], /^startup error: /);
  return lines[0];
}

/** The configured database for a child: a fresh PostgreSQL one, else DATA_DIR (embedded). */
async function childDatabase(dataDir: string) {
  const database = await freshDatabase();
  const env: Record<string, string> = database.url
    ? { DATABASE_URL: database.url }
    : { DATA_DIR: dataDir };
  return { ...database, env };
}

test("start: a port in use is named with its address, before any migration runs", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  const dataDir = await Deno.makeTempDir({ prefix: "onda_start_" });
  const database = await childDatabase(dataDir);
  try {
    const run = await start({ ...database.env, PORT: String(port), HOST: "127.0.0.1" });
    assert.equal(run.code, 1);
    assert.match(oneLine(run.stderr), new RegExp(`127\\.0\\.0\\.1:${port}: .*in use`));
    if (database.url) {
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      const [row] = await sql`select to_regclass('schema_migrations') is null as untouched`;
      await sql.end();
      assert.equal(row.untouched, true, "no migration ran on PostgreSQL");
    }
    assert.deepEqual([...Deno.readDirSync(dataDir)], [], "nothing made in DATA_DIR");
  } finally {
    taken.close();
    await database.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

test("start: an unreachable database names host:port and the reason, never the password", async () => {
  const closed = freePort();
  const refused = await start({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: `postgres://onda:s3cret-pw@127.0.0.1:${closed}/onda`,
  });
  assert.equal(refused.code, 1);
  const line = oneLine(refused.stderr);
  assert.match(line, new RegExp(`cannot reach the database at 127\\.0\\.0\\.1:${closed}`));
  assert.match(line, /ECONNREFUSED/);
  assert.doesNotMatch(line, /s3cret-pw/);

  // A server that refuses the role: only where PostgreSQL is the configured database.
  if (!PG_URL) return;
  const unknown = new URL(PG_URL);
  unknown.username = "no_such_role";
  unknown.password = "s3cret-pw";
  const denied = await start({ PORT: "0", HOST: "127.0.0.1", DATABASE_URL: unknown.toString() });
  assert.equal(denied.code, 1);
  const deniedLine = oneLine(denied.stderr);
  assert.match(deniedLine, new RegExp(`the database at ${unknown.hostname}:${unknown.port}`));
  assert.match(deniedLine, /no_such_role/);
  assert.doesNotMatch(deniedLine, /s3cret-pw/);
});

test("start: a database host that never answers is given up, named", async () => {
  // Accepts connections and says nothing, like a frozen server or a firewall that drops.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) held.push(conn);
  })().catch(() => {});
  const port = (silent.addr as Deno.NetAddr).port;
  try {
    const config = loadConfig({ DATABASE_URL: `postgres://onda:pw@127.0.0.1:${port}/onda` });
    await assert.rejects(
      openDatabase(config, 300),
      new RegExp(`cannot reach the database at 127\\.0\\.0\\.1:${port} .*no answer within 0\\.3 s`),
    );
  } finally {
    silent.close();
    for (const conn of held) conn.close();
  }
});

test("start: the start line shows the address bound, 0.0.0.0 included", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "onda_start_" });
  const database = await childDatabase(dataDir);
  try {
    for (const host of ["127.0.0.1", "0.0.0.0"]) {
      const port = freePort();
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-all", `${ROOT}/main.ts`],
        cwd: ROOT,
        env: { ...database.env, PORT: String(port), HOST: host, WEBHOOK_WORKER: "0" },
        clearEnv: true,
        stdout: "null",
        stderr: "piped",
      }).spawn();
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stderr) {
        text += decoder.decode(chunk);
        if (text.includes("\n")) break;
      }
      child.kill("SIGTERM");
      await child.status;
      assert.match(
        text,
        new RegExp(`^onda listening on http://${host.replaceAll(".", "\\.")}:${port} `),
      );
    }
  } finally {
    await database.drop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
