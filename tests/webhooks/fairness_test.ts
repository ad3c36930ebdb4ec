// Worker behaviour around slow receivers. Fairness: a receiver that hangs until the attempt
// timeout holds at most its share of the worker's slots, so other webhooks' events are still
// delivered promptly (a small worker, 4 slots and 2 per webhook, makes this visible with a
// handful of events). Stopping: in-flight claims are released at once.

import assert from "node:assert/strict";
import { startTestService, test } from "../_server.ts";
import { hookedWorkspace, startReceiver } from "./_webhooks.ts";
import { createWebhookWorker } from "../../lib/webhooks/worker.ts";

const service = await startTestService();

test("fairness: a hanging receiver does not hold up another webhook's deliveries", async () => {
  const held: (() => void)[] = [];
  const hanging = startReceiver(() =>
    new Promise<Response>((resolve) => held.push(() => resolve(new Response(null))))
  );
  const healthy = startReceiver();
  const stop = new AbortController();
  const worker = createWebhookWorker({ timeoutMs: 6000, concurrency: 4, perWebhook: 2 })(
    service.app,
    stop.signal,
  );
  try {
    const stuck = await hookedWorkspace(service, hanging.url);
    const fine = await hookedWorkspace(service, healthy.url);
    // A backlog for the hanging receiver first, then one event for the healthy one.
    await service.db.sql`
      insert into outbox_events (workspace_id, type, data, created_at)
      select ${stuck.user.workspaceId}, 'answer.submitted', jsonb_build_object('sequence', n),
             now() - interval '1 second' + n * interval '1 millisecond'
      from generate_series(1, 10) as n`;
    await service.db.sql`
      insert into outbox_events (workspace_id, type, data)
      values (${fine.user.workspaceId}, 'session.started', '{"sequence":1}'::jsonb)`;
    const started = performance.now();
    // Without a per-webhook share all four slots would hang for the 6 s timeout.
    await healthy.waitFor((r) => r.length === 1, 4000);
    assert.ok(performance.now() - started < 4000);
    assert.equal(hanging.received.length, 2, "the hanging receiver got more than its share");
  } finally {
    stop.abort();
    await worker;
    for (const release of held) release();
    await hanging.close();
    await healthy.close();
  }
});

test("worker: stopping releases its in-flight claims at once, without recording an attempt", async () => {
  const held: (() => void)[] = [];
  const receiver = startReceiver((_, n) =>
    n === 1
      ? new Promise<Response>((resolve) => held.push(() => resolve(new Response(null))))
      : new Response(null, { status: 204 })
  );
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await service.db.sql`
      insert into outbox_events (workspace_id, type, data)
      values (${hooked.user.workspaceId}, 'session.started', '{"sequence":1}'::jsonb)`;
    const first = new AbortController();
    const stopping = createWebhookWorker()(service.app, first.signal);
    await receiver.waitFor((r) => r.length === 1);
    first.abort();
    await stopping;
    const [row] = await service.db.sql<{ claimed_by: string | null; attempts: number }>`
      select claimed_by, attempts from webhook_deliveries
      where workspace_id = ${hooked.user.workspaceId}`;
    assert.deepEqual(row, { claimed_by: null, attempts: 0 });
    // Another worker takes it over at once, not after the 5 s heartbeat staleness.
    const second = new AbortController();
    const next = createWebhookWorker()(service.app, second.signal);
    const started = performance.now();
    await receiver.waitFor((r) => r.length === 2, 3000);
    assert.ok(performance.now() - started < 3000);
    second.abort();
    await next;
  } finally {
    for (const release of held) release();
    await receiver.close();
  }
});

test("fairness: close", async () => {
  await service.close();
});
