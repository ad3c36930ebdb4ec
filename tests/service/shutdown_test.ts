// Graceful shutdown: on SIGTERM the server stops accepting, finishes in-flight requests and
// exits cleanly.

import assert from "node:assert/strict";
import { freshDatabase, PG_FALLBACK_URL, PG_URL, test } from "../_server.ts";
import { startTcpProxy } from "../_tcp_proxy.ts";

async function waitForListening(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (true) {
    const match = /listening on (http:\/\/\S+)/.exec(text);
    if (match) {
      reader.releaseLock();
      return match[1];
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`server did not start: ${text}`);
    text += value;
  }
}

test("shutdown: SIGTERM during a slow request lets it complete, then the process exits 0", async () => {
  // The slow request reaches PostgreSQL through a proxy that delays every reply. (A slow
  // request *body* is no use here: Deno stops reading bodies once shutdown begins.)
  const database = await freshDatabase(PG_URL ?? PG_FALLBACK_URL);
  const target = new URL(database.url!);
  const proxy = startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(database.url!);
  viaProxy.port = String(proxy.port);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts"],
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: viaProxy.toString(),
      SHUTDOWN_TIMEOUT_MS: "20000",
      WEBHOOK_WORKER: "0",
      NO_COLOR: "1",
    },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    const url = await waitForListening(child.stderr);
    proxy.delayMs = 800;
    const started = performance.now();
    const inFlight = fetch(`${url}/api/v1/public/q/no-such-form`);
    await new Promise((r) => setTimeout(r, 300));
    child.kill("SIGTERM");
    const res = await inFlight;
    assert.equal(res.status, 404, "the in-flight request got its real answer");
    assert.equal((await res.json()).error.code, "NOT_FOUND");
    assert.ok(performance.now() - started >= 800, "the request really was slow");
    const status = await child.status;
    assert.equal(status.code, 0);
    await assert.rejects(fetch(`${url}/status`), "no longer accepting");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await child.stderr.cancel().catch(() => {});
    proxy.close();
    await database.drop();
  }
});
