// The delivery worker's loop: how long it rests between turns (restMs, a pure rule), and what a
// stopping worker leaves behind.

import assert from "node:assert/strict";
import { startTestService, test } from "../_server.ts";
import { hookedWorkspace, startReceiver } from "./_webhooks.ts";
import { createWebhookWorker, FLUSH_DELAY_MS, POLL_MS, restMs } from "../../lib/webhooks/worker.ts";
import type { AttemptResult } from "../../lib/webhooks/attempt.ts";

/** A worker's state as restMs reads it: idle, nothing known to wait, polls cheap. */
function idle(concurrency = 4) {
  return {
    backlog: { events: false, deliveries: false, prune: false },
    inFlight: new Set<Promise<void>>(),
    results: [] as AttemptResult[],
    pollCostMs: 0,
    options: { concurrency },
  };
}

test("worker: idle, it rests until the next poll, and longer when an idle poll costs more", () => {
  assert.equal(restMs(idle()), POLL_MS);
  // At most about half of one connection's time goes to polling.
  assert.equal(restMs({ ...idle(), pollCostMs: POLL_MS * 3 }), POLL_MS * 3);
  assert.equal(restMs({ ...idle(), pollCostMs: POLL_MS / 2 }), POLL_MS);
});

test("worker: with attempts in flight or results to write, it turns every FLUSH_DELAY_MS", () => {
  const flying = idle();
  flying.inFlight.add(Promise.resolve());
  assert.equal(restMs({ ...flying, pollCostMs: POLL_MS * 3 }), FLUSH_DELAY_MS);
  const writing = idle();
  writing.results.push({} as AttemptResult);
  assert.equal(restMs(writing), FLUSH_DELAY_MS);
});

test("worker: after a full batch it goes on at once; after a full claim only while a slot is free", () => {
  for (const kind of ["events", "prune", "deliveries"] as const) {
    const full = idle();
    full.backlog[kind] = true;
    assert.equal(restMs(full), null, kind);
  }
  const busy = idle(1);
  busy.backlog.deliveries = true;
  busy.inFlight.add(Promise.resolve());
  assert.equal(restMs(busy), FLUSH_DELAY_MS, "every slot taken: it waits for one to free");
});

test("worker: a stopped worker leaves no claim and no heartbeat behind", async () => {
  const service = await startTestService();
  const receiver = startReceiver();
  const stop = new AbortController();
  const worker = createWebhookWorker()(service.app, stop.signal);
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await service.db.sql`
      insert into outbox_events (workspace_id, type, data)
      values (${hooked.user.workspaceId}, 'session.started', '{"sequence":1}'::jsonb)`;
    await receiver.waitFor((r) => r.length === 1, 10_000);
    const [beating] = await service.db.sql<{ n: number }>`
      select count(*)::int as n from webhook_workers`;
    assert.equal(beating.n, 1, "a running worker has its heartbeat row");
    stop.abort();
    await worker;
    const [left] = await service.db.sql<{ workers: number; claimed: number }>`
      select (select count(*) from webhook_workers)::int as workers,
             (select count(*) from webhook_deliveries where claimed_by is not null)::int as claimed`;
    assert.deepEqual(left, { workers: 0, claimed: 0 });
  } finally {
    stop.abort();
    await worker;
    await receiver.close();
    await service.close();
  }
});
