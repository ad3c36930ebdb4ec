// Two instances on one PostgreSQL database, both running the delivery worker: with a healthy
// receiver every event is delivered exactly once (FOR UPDATE SKIP LOCKED claims; no double
// attempts), and both instances take part.

import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config.ts";
import { type Service, startService } from "../../lib/server.ts";
import { freshDatabase, PG_FALLBACK_URL, test, type TestService } from "../_server.ts";
import { completeSession, hookedWorkspace, startReceiver } from "./_webhooks.ts";

const BULK_EVENTS = 1500;

test("instances: two workers on one database deliver each event exactly once", async () => {
  const database = await freshDatabase(PG_FALLBACK_URL);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: database.url!,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
  });
  const receiver = startReceiver(async () => {
    await new Promise((r) => setTimeout(r, 2));
    return new Response(null, { status: 200 });
  });
  const instances: Service[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      instances.push(await startService({ config, startWorkers: true, log: () => {} }));
    }
    const [a, b] = instances.map((s) =>
      ({
        fetch: (path: string, init?: RequestInit) => fetch(s.url + path, init),
      }) as TestService
    );
    const hooked = await hookedWorkspace(a, receiver.url);
    // Answers through both instances, plus a burst written straight to the outbox (as a
    // busy minute of answers would) so that both workers compete for the same rows.
    await completeSession(a, hooked.form);
    await completeSession(b, hooked.form);
    await instances[0].app.db.sql`
      insert into outbox_events (workspace_id, type, data)
      select ${hooked.user.workspaceId}, 'answer.submitted', jsonb_build_object('sequence', n)
      from generate_series(1, ${BULK_EVENTS}::int) as n`;
    const total = BULK_EVENTS + 10;
    await receiver.waitFor((r) => r.length >= total, 30_000);
    await new Promise((r) => setTimeout(r, 500));

    const ids = receiver.received.map((r) => r.headers.get("webhook-id"));
    assert.equal(ids.length, total, "a delivery was sent twice");
    assert.equal(new Set(ids).size, total);
    const sql = instances[0].app.db.sql;
    const [stats] = await sql<{ attempts: number; deliveries: number; workers: number }>`
      select (select count(*)::int from webhook_attempts) as attempts,
             (select count(*)::int from webhook_deliveries where status = 'succeeded')
               as deliveries,
             (select count(distinct worker_id)::int from webhook_attempts) as workers`;
    assert.equal(stats.deliveries, total);
    assert.equal(stats.attempts, total);
    assert.equal(stats.workers, 2, "only one instance delivered");
  } finally {
    for (const instance of instances) await instance.shutdown();
    await receiver.close();
    await database.drop();
  }
});
