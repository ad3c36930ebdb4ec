// Single-binary readiness: the service runs with permissions that deny reading the source
// tree (only DATA_DIR and the embedded database's package may be read), as a `deno compile`
// binary must, and every route of its OpenAPI document answers without a 500 or a crash.
// Migrations, embed.js and the OpenAPI document are imported, never read from disk.

import assert from "node:assert/strict";
import { test } from "../_server.ts";
import { freePort } from "../_pg_cluster.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const PGLITE_DIR = `${ROOT}/node_modules/.deno/@electric-sql+pglite@0.3.15`;

/** The `start` task's flags, with reads and writes narrowed to a temporary data directory. */
async function startFlags(dataDir: string): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  const start: string = config.tasks.start;
  // Drop "deno run", "main.ts" and the data directory's flags (given below).
  const args = start.replace(/\$\([^)]*\)/, "").split(/\s+/).filter(Boolean).slice(2, -1);
  assert.ok(args.some((a) => a.startsWith("--allow-env=")), "start task lists its env vars");
  return [
    "--no-prompt",
    ...args.filter((a) => !/^--allow-(read|write|net)/.test(a)),
    "--allow-net=127.0.0.1",
    `--allow-read=${dataDir},${PGLITE_DIR}`,
    `--allow-write=${dataDir}`,
  ];
}

async function waitForStatus(base: string, child: Deno.ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.status.then(() => exited = true);
  while (Date.now() < deadline) {
    if (exited) throw new Error("the service exited during start");
    try {
      const res = await fetch(`${base}/status`);
      await res.body?.cancel();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the service did not answer 200 on /status in time");
}

/** A concrete path for an OpenAPI path template, with harmless values for its parameters. */
function concretePath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (/slug/i.test(name)) return "no-such-slug";
    if (/^(id|.*_id|.*Id)$/.test(name) && !/session|question/i.test(name)) {
      return "00000000-0000-4000-8000-000000000000";
    }
    return "1";
  });
}

test("readiness: the service serves every route without reading the source tree", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "onda_ready_" });
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await startFlags(dataDir)), `${ROOT}/main.ts`],
    cwd: ROOT,
    env: { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, WEBHOOK_WORKER: "0" },
    clearEnv: true,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForStatus(base, child, 60_000);

    // The source tree really is closed to the process: prove the sandbox is in force.
    const openapiRes = await fetch(`${base}/api/openapi`);
    assert.equal(openapiRes.status, 200);
    const doc = await openapiRes.json();
    const paths = Object.entries(doc.paths as Record<string, Record<string, unknown>>);
    assert.ok(paths.length >= 5, "the document lists the routes");

    const failures: string[] = [];
    let requests = 0;
    for (const [template, operations] of paths) {
      for (const method of Object.keys(operations)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        const hasBody = method !== "get" && method !== "delete";
        const res = await fetch(base + concretePath(template), {
          method: method.toUpperCase(),
          headers: hasBody ? { "content-type": "application/json" } : {},
          body: hasBody ? "{}" : undefined,
        });
        await res.body?.cancel();
        requests++;
        if (res.status >= 500) failures.push(`${method.toUpperCase()} ${template}: ${res.status}`);
      }
    }
    assert.deepEqual(failures, [], "no route answers 5xx");
    assert.ok(requests >= paths.length);

    const embed = await fetch(`${base}/embed.js`);
    assert.equal(embed.status, 200);
    assert.match(await embed.text(), /attachShadow/);
    const page = await fetch(`${base}/try/demo`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  const log = await stderr;
  assert.doesNotMatch(log, /NotCapable|PermissionDenied|Requires read access/);
});

test("readiness: the sandbox refuses reads of the source tree", async () => {
  // The same flags must actually forbid reading a source file; otherwise the test above
  // would prove nothing.
  const dataDir = await Deno.makeTempDir({ prefix: "onda_ready_" });
  const probe = `${dataDir}/probe.ts`;
  await Deno.writeTextFile(
    probe,
    `try { await Deno.readTextFile(${JSON.stringify(`${ROOT}/sql/001_core.sql`)}); ` +
      `console.log("read"); } catch (e) { console.log(e.name); }`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...(await startFlags(dataDir)), probe],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(dataDir, { recursive: true });
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "NotCapable");
});
