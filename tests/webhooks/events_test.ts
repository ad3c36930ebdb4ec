// GET /api/v1/events and /events/{id} (routes/webhooks/events.ts): exactly-once catch-up under
// concurrent submissions and two competing workers, the webhook's bytes, workspace isolation,
// roles, filters and cursors. Retention: tests/webhooks/retention_test.ts.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import { publishedQuestionnaire, registerUser, startSession } from "../forms/_forms.ts";
import { addMember } from "../forms/_workspace.ts";
import { createWebhookWorker } from "../../lib/webhooks/worker.ts";
import { completeSession, hookedWorkspace, startReceiver } from "./_webhooks.ts";
import { eventsPage, type FeedEvent, numbered, outboxIds, readToEnd } from "./_events.ts";

const service = await startTestService({
  startWorkers: true,
  env: {
    RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000",
    RATE_LIMIT_USER_PER_MINUTE: "1000000",
    DEFAULT_PLAN: "business",
  },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function fetchStatus(path: string, headers: Record<string, string>) {
  const res = await service.fetch(path, { headers });
  return { status: res.status, body: await body<{ error: { code: string; field: string } }>(res) };
}

test("events: a reader keeping its cursor reads every event exactly once while answers are submitted concurrently", async () => {
  const user = await registerUser(service);
  const form = await publishedQuestionnaire(service, user);
  const other = await registerUser(service);
  const otherForm = await publishedQuestionnaire(service, other);
  // A second worker on the same database, as a second instance would run: the two compete to
  // fan out (and number) the events.
  const stopSecond = new AbortController();
  const second = createWebhookWorker()(service.app, stopSecond.signal);
  // Writing goes on for 3 s, and on a busy machine until the reader has read 10 pages meanwhile
  // (20 s at most), so that reading and writing really overlap.
  let pagesWhileWriting = 0;
  const until = performance.now() + 3000;
  const writingOn = () =>
    performance.now() < until || (pagesWhileWriting < 10 && performance.now() < until + 20_000);
  let writing = true;
  const clients = Array.from({ length: 6 }, async (_, i) => {
    while (writingOn()) await completeSession(service, i < 5 ? form : otherForm);
  });
  const submitted = Promise.all(clients).finally(() => writing = false);

  const read: FeedEvent[] = [];
  let cursor: string | undefined;
  try {
    for (;;) {
      // Read before the page: a page that starts once every event is numbered and finds
      // nothing more means caught up.
      const finished = !writing;
      if (finished) await numbered(service, user.workspaceId);
      const at = cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await eventsPage(service, user, `limit=7${at}`);
      read.push(...page.data);
      cursor = page.next_cursor;
      if (!finished) pagesWhileWriting++;
      if (!page.has_more) {
        if (finished) break;
        await sleep(5);
      }
    }
    await submitted;
  } finally {
    stopSecond.abort();
    await second;
  }

  const ids = read.map((e) => e.id);
  assert.ok(pagesWhileWriting >= 10, `only ${pagesWhileWriting} pages were read while writing`);
  assert.equal(new Set(ids).size, ids.length, "an event was read twice");
  assert.deepEqual([...ids].sort(), await outboxIds(service, user.workspaceId));
  assert.ok(read.every((e) => e.workspace_id === user.workspaceId));
  const sessions = new Map<number, FeedEvent[]>();
  for (const event of read) {
    sessions.set(event.data.session_id, [...sessions.get(event.data.session_id) ?? [], event]);
  }
  assert.ok(sessions.size >= 10, `only ${sessions.size} sessions`);
  for (const [session, events] of sessions) {
    assert.deepEqual(
      events.map((e) => e.data.sequence),
      [1, 2, 3, 4, 5],
      `session ${session}: sequence in the order read`,
    );
    assert.deepEqual(events.map((e) => e.type), [
      "session.started",
      "answer.submitted",
      "answer.submitted",
      "answer.submitted",
      "session.completed",
    ]);
  }
});

test("events: an event read through /events is byte for byte the body its webhook delivered", async () => {
  const receiver = startReceiver();
  try {
    const hooked = await hookedWorkspace(service, receiver.url);
    await completeSession(service, hooked.form);
    await receiver.waitFor((r) => r.length >= 5);
    const page = await eventsPage(service, hooked.user, "limit=100");
    assert.equal(page.data.length, 5);
    for (const delivered of receiver.received) {
      assert.ok(page.text.includes(delivered.body), `list lacks the bytes of ${delivered.body}`);
      const one = await service.fetch(`/api/v1/events/${delivered.json.id}`, {
        headers: hooked.user.headers(),
      });
      assert.equal(one.status, 200);
      assert.equal(one.headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(await one.text(), delivered.body);
    }
    const bySequence = receiver.received.map((r) => r.json)
      .sort((a, b) => a.data.sequence - b.data.sequence);
    assert.deepEqual(page.data, bySequence);
  } finally {
    await receiver.close();
  }
});

test("events: another workspace's events are never listed, and 404 by id or as after", async () => {
  const mine = await registerUser(service);
  const theirs = await registerUser(service);
  await completeSession(service, await publishedQuestionnaire(service, mine));
  await completeSession(service, await publishedQuestionnaire(service, theirs));
  await numbered(service, mine.workspaceId);
  await numbered(service, theirs.workspaceId);
  const { events, cursor } = await readToEnd(service, mine);
  assert.deepEqual(events.map((e) => e.id).sort(), await outboxIds(service, mine.workspaceId));
  const [foreign] = await outboxIds(service, theirs.workspaceId);
  const byId = await fetchStatus(`/api/v1/events/${foreign}`, mine.headers());
  assert.equal(byId.status, 404);
  assert.equal(byId.body.error.code, "NOT_FOUND");
  const after = await fetchStatus(`/api/v1/events?after=${foreign}`, mine.headers());
  assert.equal(after.status, 404);
  assert.equal(after.body.error.field, "after");
  // My cursor in their workspace: bound to mine.
  const borrowed = await fetchStatus(
    `/api/v1/events?cursor=${encodeURIComponent(cursor)}`,
    theirs.headers(),
  );
  assert.equal(borrowed.status, 400);
  assert.equal(borrowed.body.error.field, "cursor");
});

test("events: the cursor reveals nothing, not even how far the feed all workspaces share went", async () => {
  // Issue 30, item 4: one workspace's readable cursor moved with another workspace's activity.
  const mine = await registerUser(service);
  const theirs = await registerUser(service);
  await completeSession(service, await publishedQuestionnaire(service, mine));
  await numbered(service, mine.workspaceId);
  const before = (await readToEnd(service, mine)).cursor;
  const theirForm = await publishedQuestionnaire(service, theirs);
  for (let i = 0; i < 3; i++) await completeSession(service, theirForm);
  await numbered(service, theirs.workspaceId);
  const idle = await eventsPage(service, mine, `cursor=${encodeURIComponent(before)}`);
  assert.deepEqual(idle.data, []);
  const after = idle.next_cursor;
  const [{ last }] = await service.db.sql<{ last: number }>`
    select last::int as last from event_positions`;
  for (const cursor of [before, after]) {
    const text = new TextDecoder().decode(
      Uint8Array.fromBase64(cursor.split(".")[0], { alphabet: "base64url" }),
    );
    assert.throws(() => JSON.parse(text));
    for (const part of ['"k"', '"t"', `[${last}]`]) {
      assert.ok(!text.includes(part), `the cursor shows ${part}`);
    }
  }
  assert.equal(after.length, before.length, "its length does not follow the position either");
  // Still the same position: it goes on exactly after what was read.
  await completeSession(service, await publishedQuestionnaire(service, mine));
  await numbered(service, mine.workspaceId);
  assert.equal((await readToEnd(service, mine, "", after)).events.length, 5);
});

test("events: only admins and owners read events (viewer and editor get 403, no login 401)", async () => {
  const owner = await registerUser(service);
  await startSession(service, (await publishedQuestionnaire(service, owner)).slug);
  await numbered(service, owner.workspaceId);
  const [id] = await outboxIds(service, owner.workspaceId);
  for (const role of ["viewer", "editor", "admin"] as const) {
    const member = await addMember(service, owner, role);
    for (const path of ["/api/v1/events", `/api/v1/events/${id}`]) {
      const res = await service.fetch(path, { headers: member.headers() });
      assert.equal(res.status, role === "admin" ? 200 : 403, `${role} ${path}`);
      await res.body?.cancel();
    }
  }
  const res = await service.fetch("/api/v1/events");
  assert.equal(res.status, 401);
  await res.body?.cancel();
});

test("events: when caught up, next_cursor is still given and later yields exactly the newer events", async () => {
  const user = await registerUser(service);
  const form = await publishedQuestionnaire(service, user);
  await completeSession(service, form);
  await numbered(service, user.workspaceId);
  const first = await readToEnd(service, user);
  assert.equal(first.events.length, 5);
  const idle = await eventsPage(service, user, `cursor=${encodeURIComponent(first.cursor)}`);
  assert.deepEqual(idle.data, []);
  assert.equal(idle.has_more, false);
  assert.equal(typeof idle.next_cursor, "string");
  await completeSession(service, form);
  await numbered(service, user.workspaceId);
  const later = await readToEnd(service, user, "", idle.next_cursor);
  assert.equal(later.events.length, 5);
  const seen = new Set(first.events.map((e) => e.id));
  assert.ok(later.events.every((e) => !seen.has(e.id)));
});

test("events: after=<event id> starts right after that event", async () => {
  const user = await registerUser(service);
  const form = await publishedQuestionnaire(service, user);
  await completeSession(service, form);
  await completeSession(service, form);
  await numbered(service, user.workspaceId);
  const all = (await readToEnd(service, user)).events;
  assert.equal(all.length, 10);
  const page = await eventsPage(service, user, `after=${all[2].id}&limit=100`);
  assert.deepEqual(page.data.map((e) => e.id), all.slice(3).map((e) => e.id));
});

test("events: filters type (repeated or listed), questionnaire_id, since and until select events", async () => {
  const user = await registerUser(service);
  const first = await publishedQuestionnaire(service, user);
  const second = await publishedQuestionnaire(service, user);
  await completeSession(service, first);
  await numbered(service, user.workspaceId);
  // The second session enters the feed an hour later on the service's clock.
  const boundary = new Date(service.clock().getTime() + 30 * 60_000).toISOString();
  service.clock.advance(3600_000);
  await completeSession(service, second);
  await numbered(service, user.workspaceId);

  const ends = ["session.started", "session.completed"];
  for (const query of ["type=session.started&type=session.completed", `type=${ends.join(",")}`]) {
    const { events } = await readToEnd(service, user, query);
    assert.equal(events.length, 4, query);
    assert.ok(events.every((e) => ends.includes(e.type)), query);
  }
  const { events: ofFirst } = await readToEnd(service, user, `questionnaire_id=${first.id}`);
  assert.equal(ofFirst.length, 5);
  assert.ok(ofFirst.every((e) => e.data.questionnaire_id === first.id));
  const { events: later } = await readToEnd(service, user, `since=${boundary}`);
  assert.deepEqual(later.map((e) => e.data.questionnaire_id), Array(5).fill(second.id));
  const { events: earlier } = await readToEnd(service, user, `until=${boundary}`);
  assert.deepEqual(earlier.map((e) => e.data.questionnaire_id), Array(5).fill(first.id));
  const { events: none } = await readToEnd(
    service,
    user,
    `since=${boundary}&questionnaire_id=${first.id}&type=answer.submitted`,
  );
  assert.deepEqual(none, []);
});

test("events: bad parameters and a cursor used with other filters are 400 naming the field", async () => {
  const user = await registerUser(service);
  const form = await publishedQuestionnaire(service, user);
  await completeSession(service, form);
  await numbered(service, user.workspaceId);
  const page = await eventsPage(service, user, "type=answer.submitted&limit=1");
  assert.equal(page.has_more, true);
  const cursor = encodeURIComponent(page.next_cursor);
  const [id] = await outboxIds(service, user.workspaceId);
  const cases = [
    { query: `cursor=${cursor}`, field: "cursor" },
    { query: `cursor=${cursor}&type=session.started`, field: "cursor" },
    { query: `cursor=${cursor}x&type=answer.submitted`, field: "cursor" },
    { query: `cursor=${cursor}&type=answer.submitted&after=${id}`, field: "after" },
    { query: "type=session.ended", field: "type[0]" },
    { query: "type=", field: "type" },
    { query: "since=2026-11-20T08:00:00Z&until=2026-11-20T08:00:00Z", field: "until" },
    { query: "since=yesterday", field: "since" },
    // Found by the campaign: a 500 from PostgreSQL, which has no year 0.
    { query: "since=0000-01-01T00%3A00%3A00Z", field: "since" },
    { query: "questionnaire_id=42", field: "questionnaire_id" },
    { query: "after=42", field: "after" },
    { query: "limit=101", field: "limit" },
    { query: "limit=5&limit=6", field: "limit" },
    { query: "kind=answer.submitted", field: "kind" },
  ];
  for (const { query, field } of cases) {
    const res = await fetchStatus(`/api/v1/events?${query}`, user.headers());
    assert.equal(res.status, 400, query);
    assert.equal(res.body.error.code, "VALIDATION_FAILED", query);
    assert.equal(res.body.error.field, field, query);
  }
  // The same cursor with its own filter goes on.
  const next = await eventsPage(service, user, `cursor=${cursor}&type=answer.submitted`);
  assert.equal(next.data.length, 2);
  const unknown = await fetchStatus(`/api/v1/events/${crypto.randomUUID()}`, user.headers());
  assert.equal(unknown.status, 404);
});

test("events: close", async () => {
  await service.close();
});
