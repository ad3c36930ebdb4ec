// Any DATA_DIR: the deno tasks grant whatever DATA_DIR names when they start (the compile task
// when the binary is built), a data directory the process may not use stops it with one line
// naming the variable and the path, and an import on PostgreSQL writes no file at all.

import assert from "node:assert/strict";
import { dataDirFlags } from "../../lib/data_dir.ts";
import { freshDatabase, PG_URL, test } from "../_server.ts";
import { freePort } from "../_pg_cluster.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const PGLITE_DIR = `${ROOT}/node_modules/.deno/@electric-sql+pglite@0.3.15`;
const tasks: Record<string, string> = JSON.parse(
  await Deno.readTextFile(`${ROOT}/deno.json`),
).tasks;

/** What `deno task` needs of the environment (its cache), and nothing else of this one. */
function taskEnv(env: Record<string, string>): Record<string, string> {
  const keep = ["HOME", "PATH", "DENO_DIR"].filter((name) => Deno.env.get(name) !== undefined);
  return { ...Object.fromEntries(keep.map((name) => [name, Deno.env.get(name)!])), ...env };
}

async function run(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: taskEnv(env),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
    // A command that never ends is killed, and its test fails on what it printed.
    signal: AbortSignal.timeout(120_000),
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

/** stderr less `deno task`'s own echo of the command. */
const ownLines = (stderr: string) =>
  stderr.trimEnd().split("\n").filter((line) => line && !line.startsWith("Task "));

test("data dir: `deno task admin` and `deno task start` work in another DATA_DIR", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "onda_elsewhere_" });
  const env = { DATA_DIR: `${dataDir}/nested/data`, NO_COLOR: "1" };
  try {
    const created = await run(
      ["task", "admin", "account", "create", "elsewhere", "--name", "E"],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /account elsewhere created/);
    const key = await run([
      "task",
      "admin",
      "key",
      "create",
      "elsewhere",
      "--permissions",
      "ads:read",
    ], env);
    assert.equal(key.code, 0, key.stderr);
    assert.ok(Deno.statSync(`${dataDir}/nested/data/pgdata`).isDirectory);

    const port = freePort();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "start"],
      cwd: ROOT,
      env: taskEnv({ ...env, PORT: String(port), HOST: "127.0.0.1", WEBHOOK_WORKER: "0" }),
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const whoami = await untilAnswered(`http://127.0.0.1:${port}/api/v1/whoami`, {
        authorization: `Bearer ${key.stdout.trim().split("\n").pop()}`,
      });
      assert.equal(whoami.status, 200);
      assert.equal((await whoami.json()).data.account.id, "elsewhere");
    } finally {
      child.kill("SIGTERM");
      await child.status;
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

test("data dir: one the process may not use is one line naming DATA_DIR and the path", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "onda_denied_" });
  const denied = `${dataDir}/data`;
  try {
    // The permissions of a process (or binary) granted another directory than DATA_DIR.
    const narrow = [
      "run",
      "--allow-net",
      "--allow-env",
      `--allow-read=${PGLITE_DIR},${ROOT}/data`,
      `--allow-write=${ROOT}/data`,
    ];
    for (const [entry, prefix] of [["main.ts", "startup error"], ["admin.ts", "error"]]) {
      const args = [
        ...narrow,
        `${ROOT}/${entry}`,
        ...(entry === "admin.ts" ? ["key", "list", "x"] : []),
      ];
      const res = await run(args, { DATA_DIR: denied, PORT: "0", HOST: "127.0.0.1" });
      assert.equal(res.code, 1, entry);
      const lines = ownLines(res.stderr);
      assert.equal(lines.length, 1, `${entry}: one line, no stack trace:\n${res.stderr}`);
      assert.ok(
        lines[0].startsWith(`${prefix}: DATA_DIR=${denied}: this process may not read ${denied}`),
        lines[0],
      );
    }
    assert.deepEqual([...Deno.readDirSync(dataDir)], [], "nothing made there");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

// Where PostgreSQL is the configured database (DATABASE_URL), as in CI's second pass.
Deno.test({
  name: "data dir: an import into PostgreSQL needs no writable directory",
  ignore: !PG_URL,
  fn: importWithoutWrites,
});

async function importWithoutWrites() {
  const database = await freshDatabase(PG_URL);
  const file = await Deno.makeTempFile({ suffix: ".ndjson" });
  try {
    const lines = [
      { type: "snapshot", id: "nowrite-1", exported_at: "2026-10-01T00:00:00Z" },
      { type: "station", id: "nw-1", name: "No Write" },
      {
        type: "capture",
        id: "nwc-1",
        station_id: "nw-1",
        started_at: "2026-10-01T00:00:00Z",
        ended_at: "2026-10-01T01:00:00Z",
      },
    ];
    await Deno.writeTextFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const res = await run(
      [
        "run",
        "--no-prompt",
        "--allow-net",
        "--allow-env",
        "--allow-read",
        `${ROOT}/admin.ts`,
        "import",
        file,
      ],
      { DATABASE_URL: database.url!, DATA_DIR: "/nonexistent/onda" },
    );
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /snapshot nowrite-1 imported: 0 occurrences, 1 captures/);
  } finally {
    await Deno.remove(file);
    await database.drop();
  }
}

test("data dir: the tasks take DATA_DIR's flags when they start, the compile task too", async () => {
  for (const name of ["start", "demo", "admin", "compile"]) {
    assert.match(
      tasks[name],
      /\$\(deno run --quiet --allow-env=DATA_DIR lib\/data_dir\.ts( write)?\)/,
    );
    assert.doesNotMatch(tasks[name], /--allow-write=\.\/data/, `${name} no longer fixes ./data`);
  }
  assert.equal(dataDirFlags(undefined), "--allow-read=./data --allow-write=./data");
  assert.equal(dataDirFlags("/srv/onda"), "--allow-read=/srv/onda --allow-write=/srv/onda");
  assert.equal(dataDirFlags("/srv/onda", true), "--allow-write=/srv/onda");
  assert.throws(() => dataDirFlags("/srv/my data"), /DATA_DIR=\/srv\/my data: .*without spaces/);
  const printed = await run(
    ["run", "--quiet", "--allow-env=DATA_DIR", `${ROOT}/lib/data_dir.ts`],
    { DATA_DIR: "/var/lib/onda" },
  );
  assert.equal(printed.stdout, "--allow-read=/var/lib/onda --allow-write=/var/lib/onda\n");
});

async function untilAnswered(url: string, headers: Record<string, string>): Promise<Response> {
  for (let i = 0; i < 600; i++) {
    try {
      return await fetch(url, { headers });
    } catch { /* starting */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never answered`);
}
