// Retention (lib/webhooks/retention.ts): with EVENT_RETENTION_DAYS=1 and the service's clock moved
// two days on, the worker removes the old events, deliveries and attempts and keeps the newer
// ones; a cursor from before what it removed answers 410 GONE.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import { createWebhookWorker } from "../../lib/webhooks/worker.ts";
import { pruneEvents } from "../../lib/webhooks/retention.ts";
import { publishedQuestionnaire, registerUser } from "../forms/_forms.ts";
import { completeSession, deliveryLog, hookedWorkspace, startReceiver } from "./_webhooks.ts";
import { eventsPage, numbered, outboxIds, readToEnd } from "./_events.ts";

const DAY_MS = 86_400_000;
const service = await startTestService({ env: { EVENT_RETENTION_DAYS: "1" } });
const receiver = startReceiver();
const stopWorker = new AbortController();
const worker = createWebhookWorker({ pruneEveryMs: 20 })(service.app, stopWorker.signal);

async function waitUntil(check: () => Promise<boolean>, what: string) {
  const deadline = performance.now() + 10_000;
  while (!await check()) {
    if (performance.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test("retention: events, deliveries and attempts older than EVENT_RETENTION_DAYS are removed, newer ones kept, and an older cursor is 410 GONE", async () => {
  const hooked = await hookedWorkspace(service, receiver.url);
  const { user } = hooked;
  await completeSession(service, hooked.form);
  await waitUntil(
    async () =>
      (await deliveryLog(service, hooked)).filter((d) => d.status === "succeeded")
        .length === 5,
    "five deliveries succeeded",
  );
  const oldIds = await outboxIds(service, user.workspaceId);
  const oldDeliveries = (await deliveryLog(service, hooked)).map((d) => d.id);
  const midway = (await eventsPage(service, user, "limit=2")).next_cursor;
  const caughtUp = (await readToEnd(service, user)).cursor;
  // A delivery as old, but still pending: its retries are due later, so it stays.
  const [pending] = await service.db.sql<{ id: string }>`
    insert into webhook_deliveries
      (webhook_id, workspace_id, event_id, event_type, body, created_at, next_attempt_at)
    values (${hooked.webhook.id}, ${user.workspaceId}, ${crypto.randomUUID()}, 'ping', '{}',
            ${service.clock()}, ${new Date(service.clock().getTime() + 10 * DAY_MS)})
    returning id`;

  service.clock.advance(2 * DAY_MS);
  await completeSession(service, hooked.form);
  await numbered(service, user.workspaceId);
  await waitUntil(async () => {
    const [row] = await service.db.sql<{ events: number; deliveries: number }>`
      select (select count(*)::int from outbox_events where id = any(${oldIds}::uuid[]))
               as events,
             (select count(*)::int from webhook_deliveries where id = any(${oldDeliveries}::uuid[]))
               as deliveries`;
    return row.events === 0 && row.deliveries === 0;
  }, "old events and deliveries removed");

  const [attempts] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from webhook_attempts
    where delivery_id = any(${oldDeliveries}::uuid[])`;
  assert.equal(attempts.n, 0);
  const newIds = await outboxIds(service, user.workspaceId);
  assert.equal(newIds.length, 5);
  const kept = await service.db.sql`select 1 from webhook_deliveries where id = ${pending.id}`;
  assert.equal(kept.length, 1, "the pending delivery was removed");
  await waitUntil(
    async () =>
      (await deliveryLog(service, hooked)).filter((d) => d.status === "succeeded")
        .length === 5,
    "the new deliveries are delivered and kept",
  );

  const fresh = await readToEnd(service, user);
  assert.deepEqual(fresh.events.map((e) => e.id).sort(), newIds);
  // Everything removed had been read through caughtUp: nothing is missing after it.
  const resumed = await readToEnd(service, user, "", caughtUp);
  assert.deepEqual(resumed.events.map((e) => e.id).sort(), newIds);

  const gone = await service.fetch(`/api/v1/events?cursor=${encodeURIComponent(midway)}`, {
    headers: user.headers(),
  });
  assert.equal(gone.status, 410);
  const error = (await body<{ error: { code: string; field: string; message: string } }>(gone))
    .error;
  assert.equal(error.code, "GONE");
  assert.equal(error.field, "cursor");
  assert.match(error.message, /kept 1 days/);
  assert.match(error.message, /until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z were removed/);
  const [oldestKept] = await service.db.sql<{ id: string }>`
    select id from outbox_events where workspace_id = ${user.workspaceId}
    order by feed_position limit 1`;
  assert.match(
    error.message,
    new RegExp(`oldest event kept in this workspace is ${oldestKept.id}`),
  );
  for (const path of [`/api/v1/events/${oldIds[0]}`, `/api/v1/events?after=${oldIds[0]}`]) {
    const res = await service.fetch(path, { headers: user.headers() });
    assert.equal(res.status, 404, path);
    await res.body?.cancel();
  }
});

test("retention: each batch removes at most its size, the oldest first, and marks how far it went", async () => {
  // Batches by hand from here on.
  stopWorker.abort();
  await worker;
  const user = await registerUser(service);
  const form = await publishedQuestionnaire(service, user);
  await completeSession(service, form);
  const numbering = new AbortController();
  const numberer = createWebhookWorker()(service.app, numbering.signal);
  await numbered(service, user.workspaceId);
  numbering.abort();
  await numberer;
  const feed = await service.db.sql<{ id: string; feed_position: number }>`
    select id, feed_position from outbox_events where workspace_id = ${user.workspaceId}
    order by feed_position`;
  // Before every other event kept.
  await service.db.sql`
    update outbox_events set feed_at = '2000-01-01T00:00:00Z'
    where workspace_id = ${user.workspaceId}`;
  await service.db.sql`
    update outbox_events set feed_at = '1999-01-01T00:00:00Z'
    where id = any(${feed.slice(0, 3).map((e) => e.id)}::uuid[])`;
  assert.equal(await pruneEvents(service.db.sql, new Date("1999-06-01T00:00:00Z"), 2), 2);
  const [mark] = await service.db.sql<{ pruned_through: number }>`
    select pruned_through from event_retention`;
  assert.equal(mark.pruned_through, feed[1].feed_position);
  assert.equal(await pruneEvents(service.db.sql, new Date("1999-06-01T00:00:00Z"), 2), 1);
  assert.equal(await pruneEvents(service.db.sql, new Date("1999-06-01T00:00:00Z"), 2), 0);
  const left = await service.db.sql<{ id: string }>`
    select id from outbox_events where workspace_id = ${user.workspaceId}
    order by feed_position`;
  assert.deepEqual(left.map((e) => e.id), feed.slice(3).map((e) => e.id));
});

test("retention: close", async () => {
  stopWorker.abort();
  await worker;
  await receiver.close();
  await service.close();
});
