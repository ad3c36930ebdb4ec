// Fairness between receivers: a receiver that hangs until the attempt timeout holds at most
// its share of the worker's slots, so other webhooks' events are still delivered promptly.
// A small worker (4 slots, 2 per webhook) makes the rule visible with a handful of events.

import assert from "node:assert/strict";
import { startTestService, test } from "./_server.ts";
import { hookedWorkspace, startReceiver } from "./_webhooks.ts";
import { createWebhookWorker } from "../lib/webhook_worker.ts";

const service = await startTestService();

test("fairness: a hanging receiver does not hold up another webhook's deliveries", async () => {
  const held: (() => void)[] = [];
  const hanging = startReceiver(() =>
    new Promise<Response>((resolve) => held.push(() => resolve(new Response(null))))
  );
  const healthy = startReceiver();
  const stop = new AbortController();
  const worker = createWebhookWorker({ timeoutMs: 3000, concurrency: 4, perWebhook: 2 })(
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
    // Without a per-webhook share all four slots would hang for the 3 s timeout.
    await healthy.waitFor((r) => r.length === 1, 2500);
    assert.ok(performance.now() - started < 2500);
    assert.equal(hanging.received.length, 2, "the hanging receiver got more than its share");
  } finally {
    stop.abort();
    await worker;
    for (const release of held) release();
    await hanging.close();
    await healthy.close();
  }
});

test("fairness: close", async () => {
  await service.close();
});
