// Crash safety: the service runs as a subprocess (main.ts) on PostgreSQL, events are created,
// the process is killed with SIGKILL while deliveries are in flight, and after a restart every
// event is delivered at least once.

import assert from "node:assert/strict";
import { freshDatabase, PG_FALLBACK_URL, test, type TestService } from "../_server.ts";
import { completeSession, hookedWorkspace, startReceiver } from "./_webhooks.ts";
import postgres from "postgres";
import { CLAIM_STALE_AFTER_MS } from "../../lib/webhooks/claims.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Starts main.ts and waits until /status answers. */
async function startMain(env: Record<string, string>, port: number) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", new URL("../../main.ts", import.meta.url).pathname],
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdout: "null",
    stderr: "null",
  }).spawn();
  const deadline = performance.now() + 20_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/status`);
      await res.body?.cancel();
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error("main.ts did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("crash: after kill -9 mid-delivery and a restart, every event is delivered at least once", async () => {
  const database = await freshDatabase(PG_FALLBACK_URL);
  const sql = postgres(database.url!, { max: 2, onnotice: () => {} });
  // Slow answers keep deliveries in flight when the process dies.
  const receiver = startReceiver(async () => {
    await new Promise((r) => setTimeout(r, 400));
    return new Response(null, { status: 204 });
  });
  const env = {
    DATABASE_URL: database.url!,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    WEBHOOK_RETRY_DELAYS: "0.5,0.5,0.5",
  };
  const port = freePort();
  let child = await startMain(env, port);
  try {
    const target = {
      fetch: (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${path}`, init),
    } as TestService;
    const hooked = await hookedWorkspace(target, receiver.url);
    for (let i = 0; i < 6; i++) await completeSession(target, hooked.form);
    await receiver.waitFor((r) => r.length >= 3);

    child.kill("SIGKILL");
    await child.status;
    const [open] = await sql<{ n: number }[]>`
      select (select count(*) from outbox_events where dispatched_at is null) +
             (select count(*) from webhook_deliveries where status <> 'succeeded') as n`;
    // Otherwise the kill came too late to test anything.
    assert.ok(Number(open.n) > 0, "nothing was in flight at the kill");

    child = await startMain(env, port);
    const events = await sql<{ id: string }[]>`select id from outbox_events`;
    assert.equal(events.length, 30);
    const delivered = () => new Set(receiver.received.map((r) => r.headers.get("webhook-id")));
    await receiver.waitFor(() => events.every((e) => delivered().has(e.id)), 20_000);
    // The log catches up with the receiver: deliveries the killed process had sent but not
    // recorded are sent again once its claims go stale (CLAIM_STALE_AFTER_MS after its last
    // heartbeat), so allow that plus a margin for a loaded machine.
    let settled = 0;
    const deadline = performance.now() + CLAIM_STALE_AFTER_MS + 10_000;
    while (performance.now() < deadline && settled < 30) {
      await new Promise((r) => setTimeout(r, 100));
      [{ n: settled }] = await sql<{ n: number }[]>`
        select count(*)::int as n from webhook_deliveries where status = 'succeeded'`;
    }
    assert.equal(settled, 30);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await receiver.close();
    await sql.end();
    await database.drop();
  }
});
