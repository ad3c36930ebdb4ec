// Webhook endpoints and end-to-end delivery: signatures checked by independent code
// (node:crypto and the standardwebhooks library), payloads, permissions, the log, ping,
// manual retry and signing-secret rotation.

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { body, PG_URL, retriedAfterCrash, startTestService, test } from "../_server.ts";
import { registerUser, startSession } from "../forms/_forms.ts";
import { joinByInvitation } from "../forms/_workspace.ts";
import {
  completeSession,
  deliveryLog,
  hookedWorkspace,
  type Received,
  startReceiver,
} from "./_webhooks.ts";

const service = await startTestService({
  startWorkers: true,
  env: { WEBHOOK_RETRY_DELAYS: "0.2,0.4" },
});
const receiver = startReceiver();

/** x-service-signature as a receiver checks it: hex HMAC-SHA256 of the raw body. */
function serviceSignatureValid(request: Received, secret: string): boolean {
  const expected = createHmac("sha256", secret).update(request.body).digest("hex");
  return (request.headers.get("x-service-signature") ?? "").split(",").includes(expected);
}

function standardHeaders(request: Received) {
  return {
    "webhook-id": request.headers.get("webhook-id")!,
    "webhook-timestamp": request.headers.get("webhook-timestamp")!,
    "webhook-signature": request.headers.get("webhook-signature")!,
  };
}

/** Throws unless the Standard Webhooks signature verifies with `secret`. */
function verifyStandard(request: Received, secret: string) {
  new Webhook(secret).verify(request.body, standardHeaders(request));
}

function fromWorkspace(workspaceId: string) {
  return (r: Received[]) => r.filter((x) => x.json.workspace_id === workspaceId);
}

test("webhooks: every delivery verifies with node:crypto and with standardwebhooks", async () => {
  const hooked = await hookedWorkspace(service, receiver.url);
  assert.match(hooked.webhook.signing_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  await completeSession(service, hooked.form);
  const mine = fromWorkspace(hooked.user.workspaceId);
  await receiver.waitFor((r) => mine(r).length >= 5);
  for (const request of mine(receiver.received)) {
    assert.ok(serviceSignatureValid(request, hooked.webhook.signing_secret));
    verifyStandard(request, hooked.webhook.signing_secret);
    assert.equal(request.headers.get("x-service-event"), request.json.type);
    assert.equal(request.headers.get("webhook-id"), request.json.id);
    assert.equal(
      request.headers.get("x-service-timestamp"),
      request.headers.get("webhook-timestamp"),
    );
    assert.match(request.headers.get("x-service-delivery")!, /^[0-9a-f-]{36}$/);
    // A wrong secret or a changed byte must not verify (the checks are real).
    assert.ok(!serviceSignatureValid(request, hooked.webhook.signing_secret + "x"));
    assert.ok(
      !serviceSignatureValid(
        { ...request, body: request.body + " " },
        hooked.webhook.signing_secret,
      ),
    );
    assert.throws(() =>
      new Webhook("whsec_" + btoa("another secret of 32 bytes......")).verify(
        request.body,
        standardHeaders(request),
      )
    );
  }
});

test("webhooks: payloads carry questionnaire, session, respondent, answers, progress and sequence", async () => {
  const hooked = await hookedWorkspace(service, receiver.url);
  const sessionId = await completeSession(service, hooked.form);
  const mine = fromWorkspace(hooked.user.workspaceId);
  await receiver.waitFor((r) => mine(r).length >= 5);
  const events = mine(receiver.received).map((r) => r.json)
    .sort((a, b) => a.data.sequence - b.data.sequence);
  assert.deepEqual(events.map((e) => e.type), [
    "session.started",
    "answer.submitted",
    "answer.submitted",
    "answer.submitted",
    "session.completed",
  ]);
  assert.deepEqual(events.map((e) => e.data.sequence), [1, 2, 3, 4, 5]);
  for (const event of events) {
    assert.deepEqual(Object.keys(event).sort(), [
      "created_at",
      "data",
      "id",
      "type",
      "workspace_id",
    ]);
    assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.equal(event.data.questionnaire_id, hooked.form.id);
    assert.equal(event.data.questionnaire_slug, hooked.form.slug);
    assert.equal(event.data.session_id, sessionId);
    assert.equal(typeof event.data.progress.total, "number");
  }
  assert.deepEqual(events[0].data.respondent, { name: "Visitor", email: "visitor@example.com" });
  assert.equal(events[1].data.question_id, hooked.form.questions[0].id);
  assert.equal(events[1].data.answer, "Fine.");
  assert.deepEqual(events[3].data.progress, { answered: 3, total: 3 });
  assert.equal(events[4].data.answers.length, 3);
  // Event ids are the outbox ids: unique, and exactly one session.completed per session.
  const ids = new Set(events.map((e) => e.id));
  assert.equal(ids.size, 5);
  const outbox = await service.db.sql<{ id: string }>`
    select id from outbox_events where workspace_id = ${hooked.user.workspaceId}`;
  assert.deepEqual(outbox.map((r) => r.id).sort(), [...ids].sort());
  const completed = await service.db.sql<{ n: number }>`
    select count(*)::int as n from webhook_deliveries
    where workspace_id = ${hooked.user.workspaceId} and event_type = 'session.completed'`;
  assert.equal(completed[0].n, 1);
});

test("webhooks: a webhook receives only the events it subscribed to", async () => {
  const hooked = await hookedWorkspace(service, receiver.url, ["session.completed"]);
  assert.deepEqual(hooked.webhook.events, ["session.completed"]);
  await completeSession(service, hooked.form);
  const mine = fromWorkspace(hooked.user.workspaceId);
  await receiver.waitFor((r) => mine(r).length >= 1);
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(mine(receiver.received).map((r) => r.json.type), ["session.completed"]);
});

test("webhooks: create validates url and events (400 naming the field)", async () => {
  const user = await registerUser(service);
  const cases = [
    { name: "not a URL", payload: { url: "not a url" }, field: "url" },
    { name: "ftp scheme", payload: { url: "ftp://127.0.0.1/x" }, field: "url" },
    { name: "credentials", payload: { url: "http://user:pw@127.0.0.1/x" }, field: "url" },
    { name: "missing url", payload: {}, field: "url" },
    { name: "unknown event", payload: { url: receiver.url, events: ["nope"] }, field: "events[0]" },
    { name: "empty events", payload: { url: receiver.url, events: [] }, field: "events" },
    { name: "unknown field", payload: { url: receiver.url, secret: "x" }, field: "secret" },
  ];
  for (const c of cases) {
    const res = await service.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: user.headers(),
      body: JSON.stringify(c.payload),
    });
    assert.equal(res.status, 400, c.name);
    const data = await body<{ error: { code: string; field: string } }>(res);
    assert.equal(data.error.code, "VALIDATION_FAILED", c.name);
    assert.equal(data.error.field, c.field, c.name);
  }
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from webhooks where workspace_id = ${user.workspaceId}`;
  assert.equal(row.n, 0);
});

test("webhooks: create accepts Idempotency-Key (one webhook, replayed answer)", async () => {
  const user = await registerUser(service);
  const key = crypto.randomUUID();
  const send = () =>
    service.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: user.headers({ "idempotency-key": key }),
      body: JSON.stringify({ url: receiver.url }),
    });
  const first = await send();
  assert.equal(first.status, 201);
  const again = await send();
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.equal((await body(again)).id, (await body(first)).id);
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from webhooks where workspace_id = ${user.workspaceId}`;
  assert.equal(row.n, 1);
});

test("webhooks: a workspace has at most 20 webhooks (422), nothing more is stored", async () => {
  const user = await registerUser(service);
  const create = () =>
    service.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: user.headers(),
      body: JSON.stringify({ url: receiver.url }),
    });
  for (let i = 0; i < 20; i++) {
    const res = await create();
    assert.equal(res.status, 201);
    await res.body?.cancel();
  }
  const over = await create();
  assert.equal(over.status, 422);
  assert.equal((await body<{ error: { code: string } }>(over)).error.code, "UNPROCESSABLE");
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from webhooks where workspace_id = ${user.workspaceId}`;
  assert.equal(row.n, 20);
});

test("webhooks: only admins and owners manage webhooks (viewer and editor get 403)", async () => {
  const hooked = await hookedWorkspace(service, receiver.url);
  for (const role of ["viewer", "editor"]) {
    const member = await registerUser(service);
    await joinByInvitation(service, hooked.user, member, role);
    const headers = member.headers({ "x-workspace-id": hooked.user.workspaceId });
    const id = hooked.webhook.id;
    for (
      const [method, path] of [
        ["GET", "/api/v1/webhooks"],
        ["POST", "/api/v1/webhooks"],
        ["DELETE", `/api/v1/webhooks/${id}`],
        ["GET", `/api/v1/webhooks/${id}/deliveries`],
        ["POST", `/api/v1/webhooks/${id}/test`],
        ["POST", `/api/v1/webhooks/${id}/disable`],
        ["POST", `/api/v1/webhooks/${id}/enable`],
        ["POST", "/api/v1/workspace/signing-secret/rotate"],
      ]
    ) {
      const res = await service.fetch(path, {
        method,
        headers,
        body: method === "POST" ? JSON.stringify({ url: receiver.url }) : undefined,
      });
      assert.equal(res.status, 403, `${role} ${method} ${path}`);
      await res.body?.cancel();
    }
  }
  const res = await service.fetch("/api/v1/webhooks");
  assert.equal(res.status, 401);
  await res.body?.cancel();
});

test("webhooks: another workspace's webhook and deliveries are 404", async () => {
  const owner = await hookedWorkspace(service, receiver.url);
  await startSession(service, owner.form.slug);
  await receiver.waitFor((r) => fromWorkspace(owner.user.workspaceId)(r).length >= 1);
  const [delivery] = await deliveryLog(service, owner);
  const stranger = await registerUser(service);
  const id = owner.webhook.id;
  for (
    const [method, path] of [
      ["GET", `/api/v1/webhooks/${id}/deliveries`],
      ["POST", `/api/v1/webhooks/${id}/deliveries/${delivery.id}/retry`],
      ["POST", `/api/v1/webhooks/${id}/test`],
      ["POST", `/api/v1/webhooks/${id}/disable`],
      ["POST", `/api/v1/webhooks/${id}/enable`],
      ["DELETE", `/api/v1/webhooks/${id}`],
    ]
  ) {
    const res = await service.fetch(path, { method, headers: stranger.headers() });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal((await body<{ error: { code: string } }>(res)).error.code, "NOT_FOUND");
  }
  // A delivery id under another of the stranger's own webhooks is 404 as well.
  const own = await service.fetch("/api/v1/webhooks", {
    method: "POST",
    headers: stranger.headers(),
    body: JSON.stringify({ url: receiver.url }),
  });
  const ownId = (await body(own)).id;
  const res = await service.fetch(`/api/v1/webhooks/${ownId}/deliveries/${delivery.id}/retry`, {
    method: "POST",
    headers: stranger.headers(),
  });
  assert.equal(res.status, 404);
  await res.body?.cancel();
  const list = await service.fetch("/api/v1/webhooks", { headers: stranger.headers() });
  assert.deepEqual((await body<{ data: { id: string }[] }>(list)).data.map((w) => w.id), [ownId]);
  const [still] = await service.db.sql`select id from webhooks where id = ${id}`;
  assert.ok(still);
});

test("webhooks: an admin disables a webhook (nothing more is sent) and enables it again (later events are)", async () => {
  const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
  const mine = fromWorkspace(hooked.user.workspaceId);
  const post = async (action: string) => {
    const res = await service.fetch(`/api/v1/webhooks/${hooked.webhook.id}/${action}`, {
      method: "POST",
      headers: hooked.user.headers(),
    });
    assert.equal(res.status, 200, action);
    return await body<{ status: string; disabled_at: string | null; disabled_reason: string }>(
      res,
    );
  };
  const disabled = await post("disable");
  assert.equal(disabled.status, "disabled");
  assert.match(disabled.disabled_reason, /admin/);
  assert.equal((await post("disable")).disabled_at, disabled.disabled_at, "disable twice");
  const missed = await startSession(service, hooked.form.slug);
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(mine(receiver.received).length, 0);
  assert.equal((await deliveryLog(service, hooked)).length, 0);

  const enabled = await post("enable");
  assert.equal(enabled.status, "active");
  assert.equal(enabled.disabled_at, null);
  assert.equal(enabled.disabled_reason, null);
  assert.equal((await post("enable")).status, "active", "enable twice");
  const later = await startSession(service, hooked.form.slug);
  await receiver.waitFor((r) => mine(r).length >= 1);
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(mine(receiver.received).map((r) => r.json.data.session_id), [later]);
  assert.notEqual(later, missed);
});

test("webhooks: the list is newest first and paged with a cursor; delete removes one", async () => {
  const user = await registerUser(service);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await service.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: user.headers(),
      body: JSON.stringify({ url: `${receiver.url}?n=${i}` }),
    });
    ids.push((await body(res)).id as string);
  }
  const first = await body<{ data: { id: string }[]; next_cursor: string; has_more: boolean }>(
    await service.fetch("/api/v1/webhooks?limit=2", { headers: user.headers() }),
  );
  assert.deepEqual(first.data.map((w) => w.id), [ids[2], ids[1]]);
  assert.equal(first.has_more, true);
  const second = await body<{ data: { id: string }[]; next_cursor: null; has_more: boolean }>(
    await service.fetch(`/api/v1/webhooks?limit=2&cursor=${first.next_cursor}`, {
      headers: user.headers(),
    }),
  );
  assert.deepEqual(second.data.map((w) => w.id), [ids[0]]);
  assert.equal(second.has_more, false);
  const tampered = await service.fetch(
    `/api/v1/webhooks?limit=2&cursor=${first.next_cursor.slice(0, -2)}xx`,
    { headers: user.headers() },
  );
  assert.equal(tampered.status, 400);
  assert.equal((await body<{ error: { field: string } }>(tampered)).error.field, "cursor");

  const deleted = await service.fetch(`/api/v1/webhooks/${ids[1]}`, {
    method: "DELETE",
    headers: user.headers(),
  });
  assert.equal(deleted.status, 204);
  const again = await service.fetch(`/api/v1/webhooks/${ids[1]}`, {
    method: "DELETE",
    headers: user.headers(),
  });
  assert.equal(again.status, 404);
  await again.body?.cancel();
  const after = await body<{ data: { id: string }[] }>(
    await service.fetch("/api/v1/webhooks", { headers: user.headers() }),
  );
  assert.deepEqual(after.data.map((w) => w.id), [ids[2], ids[0]]);
});

test("webhooks: test sends a signed ping and logs it", async () => {
  const hooked = await hookedWorkspace(service, receiver.url);
  const res = await service.fetch(`/api/v1/webhooks/${hooked.webhook.id}/test`, {
    method: "POST",
    headers: hooked.user.headers(),
  });
  assert.equal(res.status, 202);
  const queued = await body<{ id: string; event_type: string; status: string }>(res);
  assert.equal(queued.event_type, "ping");
  const mine = fromWorkspace(hooked.user.workspaceId);
  await receiver.waitFor((r) => mine(r).length >= 1);
  const [ping] = mine(receiver.received);
  assert.equal(ping.json.type, "ping");
  assert.equal(ping.json.data.webhook_id, hooked.webhook.id);
  assert.equal(ping.headers.get("x-service-delivery"), queued.id);
  assert.ok(serviceSignatureValid(ping, hooked.webhook.signing_secret));
  verifyStandard(ping, hooked.webhook.signing_secret);
  await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
  const [logged] = await deliveryLog(service, hooked);
  assert.equal(logged.id, queued.id);
  assert.equal(logged.attempts, 1);
  assert.equal(logged.last_response_code, 204);
  assert.equal(logged.attempt_log.length, 1);
});

async function waitForLog(
  hooked: Awaited<ReturnType<typeof hookedWorkspace>>,
  check: (log: Awaited<ReturnType<typeof deliveryLog>>) => boolean,
  timeoutMs = 60_000,
) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const log = await deliveryLog(service, hooked);
    if (check(log)) return log;
    if (performance.now() > deadline) {
      throw new Error(`delivery log never matched: ${JSON.stringify(log)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("webhooks: manual retry sends a failed delivery again with the same event id and body", async () => {
  let failing = true;
  const flaky = startReceiver(() => new Response(null, { status: failing ? 500 : 200 }));
  try {
    const hooked = await hookedWorkspace(service, flaky.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    // Schedule 0.2 s, 0.4 s: three attempts, then failed.
    const [failed] = await waitForLog(hooked, (log) => log[0]?.status === "failed");
    assert.equal(failed.attempts, 3);
    assert.equal(failed.next_attempt_at, null);
    assert.equal(flaky.received.length, 3);

    failing = false;
    const res = await service.fetch(
      `/api/v1/webhooks/${hooked.webhook.id}/deliveries/${failed.id}/retry`,
      { method: "POST", headers: hooked.user.headers() },
    );
    assert.equal(res.status, 202);
    assert.equal((await body(res)).status, "pending");
    const [done] = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    assert.equal(done.attempts, 4);
    assert.deepEqual(done.attempt_log.map((a) => a.response_code), [500, 500, 500, 200]);
    assert.equal(flaky.received.length, 4);
    assert.equal(new Set(flaky.received.map((r) => r.body)).size, 1);
    assert.equal(new Set(flaky.received.map((r) => r.headers.get("webhook-id"))).size, 1);
    assert.equal(flaky.received[3].json.id, failed.event_id);
  } finally {
    await flaky.close();
  }
});

test("webhooks: manual retry of a delivery being attempted right now is 409", async () => {
  let release = () => {};
  const slow = startReceiver(() =>
    new Promise<Response>((resolve) => {
      release = () => resolve(new Response(null, { status: 204 }));
    })
  );
  try {
    const hooked = await hookedWorkspace(service, slow.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    await slow.waitFor((r) => r.length === 1);
    const [delivery] = await deliveryLog(service, hooked);
    const res = await service.fetch(
      `/api/v1/webhooks/${hooked.webhook.id}/deliveries/${delivery.id}/retry`,
      { method: "POST", headers: hooked.user.headers() },
    );
    assert.equal(res.status, 409);
    await res.body?.cancel();
    release();
    await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    assert.equal(slow.received.length, 1);
  } finally {
    release();
    await slow.close();
  }
});

// The race needs two connections: a disable under way in one while the request runs in another.
// PGlite is one connection that runs one statement or transaction at a time, so it cannot stage
// it (nor can a disable come between a statement's check and its write there).
Deno.test({
  name: "webhooks: a retry or test ping that meets a disable under way is 409 and queues nothing",
  ignore: !PG_URL,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    const hook = hooked.webhook.id;
    const post = (path: string) =>
      service.fetch(`/api/v1/webhooks/${hook}/${path}`, {
        method: "POST",
        headers: hooked.user.headers(),
      });
    const ping = await post("test");
    assert.equal(ping.status, 202);
    const delivery = (await body<{ id: string }>(ping)).id;
    await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    for (const path of [`deliveries/${delivery}/retry`, "test"]) {
      assert.equal((await post("enable")).status, 200);
      // What POST /disable writes, held uncommitted in another connection.
      const holding = Promise.withResolvers<number>();
      const commit = Promise.withResolvers<void>();
      const disabling = service.db.begin(async (tx) => {
        await tx`update webhooks set status = 'disabled', disabled_at = now(),
                   disabled_reason = 'Disabled by an admin.'
                 where id = ${hook}`;
        await tx`update webhook_deliveries set status = 'failed', next_attempt_at = null
                 where webhook_id = ${hook} and status = 'pending' and claimed_by is null`;
        const [{ pid }] = await tx<{ pid: number }>`select pg_backend_pid() as pid`;
        holding.resolve(pid);
        await commit.promise;
      });
      const holder = await holding.promise;
      const answer = post(path);
      let answered = false;
      answer.then(() => answered = true, () => answered = true);
      // The disable commits once the request has answered or waits for its lock.
      while (!answered) {
        const waiting = await service.db.sql`
          select 1 from pg_stat_activity where ${holder}::int = any(pg_blocking_pids(pid))`;
        if (waiting.length) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      commit.resolve();
      await disabling;
      const res = await answer;
      assert.equal(res.status, 409, path);
      assert.match((await body<{ error: { message: string } }>(res)).error.message, /disabled/);
      const pending = await service.db.sql`
        select id from webhook_deliveries where webhook_id = ${hook} and status = 'pending'`;
      assert.equal(pending.length, 0, path);
    }
  },
});

test("webhooks: the service's worker gives each attempt 10 s (contract.md), then fails it and retries", async () => {
  // The worker main.ts starts (startWorkers), with its default timeout; the first attempt gets
  // no answer until the test ends.
  const silence = Promise.withResolvers<void>();
  const silent = startReceiver(async (_, n) => {
    if (n === 1) await silence.promise;
    return new Response(null, { status: 204 });
  });
  try {
    const hooked = await hookedWorkspace(service, silent.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    const [delivery] = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    const [timedOut, answered] = delivery.attempt_log;
    assert.deepEqual([timedOut.response_code, timedOut.error], [null, "No answer within 10 s."]);
    assert.ok(
      timedOut.duration_ms >= 9_900 && timedOut.duration_ms < 12_000,
      `${timedOut.duration_ms} ms`,
    );
    assert.equal(answered.response_code, 204);
  } finally {
    silence.resolve();
    await silent.close();
  }
});

test("webhooks: after a rotation both secrets sign for 24 h, then only the new one", async () => {
  const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
  const oldSecret = hooked.webhook.signing_secret;
  const rotated = await service.fetch("/api/v1/workspace/signing-secret/rotate", {
    method: "POST",
    headers: hooked.user.headers(),
  });
  assert.equal(rotated.status, 200);
  const { signing_secret: newSecret, previous_secret_expires_at } = await body<
    { signing_secret: string; previous_secret_expires_at: string }
  >(rotated);
  assert.notEqual(newSecret, oldSecret);
  assert.ok(Math.abs(Date.parse(previous_secret_expires_at) - Date.now() - 86_400_000) < 60_000);
  const mine = fromWorkspace(hooked.user.workspaceId);

  await startSession(service, hooked.form.slug);
  await receiver.waitFor((r) => mine(r).length >= 1);
  const during = mine(receiver.received)[0];
  assert.ok(serviceSignatureValid(during, oldSecret));
  assert.ok(serviceSignatureValid(during, newSecret));
  verifyStandard(during, oldSecret);
  verifyStandard(during, newSecret);

  // 24 h later (the service's clock) the old secret no longer signs.
  service.clock.advance(24 * 3600 * 1000 + 1000);
  try {
    await startSession(service, hooked.form.slug, {
      name: "Later",
      email: "later@example.com",
      loaded_at: service.clock().getTime(),
    });
    await receiver.waitFor((r) => mine(r).length >= 2);
    const after = mine(receiver.received)[1];
    assert.ok(serviceSignatureValid(after, newSecret));
    assert.ok(!serviceSignatureValid(after, oldSecret));
    assert.equal(after.headers.get("x-service-signature")!.split(",").length, 1);
    // The Standard Webhooks signature, checked by hand (the library would also refuse the
    // timestamp, which is a day ahead of the real clock here).
    const signed = `${after.json.id}.${after.headers.get("webhook-timestamp")}.${after.body}`;
    const key = Buffer.from(newSecret.slice("whsec_".length), "base64");
    const expected = "v1," + createHmac("sha256", key).update(signed).digest("base64");
    assert.equal(after.headers.get("webhook-signature"), expected);
  } finally {
    service.clock.set(new Date());
  }
});

test("webhooks: a crash after a keyed create, ping or rotation committed: the retry replays it, nothing is done twice", async () => {
  // The crash is simulated between the handler's commit and its answer leaving the service;
  // the client retries with the same Idempotency-Key. The key's record must have committed
  // with the write, or the retry is 409 for a minute and then does it all again.
  const hooked = await hookedWorkspace(service, receiver.url, ["session.completed"]);
  const { user } = hooked;
  const [before] = await service.db.sql<{ signing_secret: string }>`
    select signing_secret from workspaces where id = ${user.workspaceId}`;
  const cases = [
    { path: "/api/v1/webhooks", payload: { url: `${receiver.url}?crash` }, status: 201 },
    { path: `/api/v1/webhooks/${hooked.webhook.id}/test`, payload: undefined, status: 202 },
    { path: "/api/v1/workspace/signing-secret/rotate", payload: undefined, status: 200 },
  ];
  for (const c of cases) {
    const key = crypto.randomUUID();
    const send = () =>
      service.fetch(c.path, {
        method: "POST",
        headers: user.headers({ "idempotency-key": key }),
        body: c.payload && JSON.stringify(c.payload),
      });
    const retry = await retriedAfterCrash(service, send);
    assert.equal(retry.status, c.status, `${c.path}: the retry replays the committed answer`);
    assert.equal(retry.headers.get("idempotent-replayed"), "true", c.path);
    await retry.body?.cancel();
  }
  const [counts] = await service.db.sql<{ hooks: number; pings: number }>`
    select (select count(*)::int from webhooks where workspace_id = ${user.workspaceId}) as hooks,
           (select count(*)::int from webhook_deliveries
            where webhook_id = ${hooked.webhook.id} and event_type = 'ping') as pings`;
  assert.deepEqual(counts, { hooks: 2, pings: 1 });
  // Rotated once: the secret receivers held still signs for 24 h.
  const [after] = await service.db.sql<{ previous_signing_secret: string }>`
    select previous_signing_secret from workspaces where id = ${user.workspaceId}`;
  assert.equal(after.previous_signing_secret, before.signing_secret);
});

test("webhooks: a keyed create's or rotation's stored answer keeps the signing secret sealed; the replay shows it", async () => {
  const user = await registerUser(service);
  for (
    const [route, payload] of [
      ["POST /api/v1/webhooks", { url: receiver.url }],
      ["POST /api/v1/workspace/signing-secret/rotate", undefined],
    ] as const
  ) {
    const key = crypto.randomUUID();
    const send = () =>
      service.fetch(route.slice("POST ".length), {
        method: "POST",
        headers: user.headers({ "idempotency-key": key }),
        body: payload && JSON.stringify(payload),
      });
    const first = await send();
    assert.ok(first.ok, route);
    const shown = await first.text();
    const { signing_secret } = JSON.parse(shown);
    assert.match(signing_secret, /^whsec_/, route);
    const [record] = await service.db.sql<{ body: string }>`
      select body from idempotency_keys where route = ${route} and key = ${key}`;
    assert.ok(!record.body.includes(signing_secret), `${route}: the secret is stored in clear`);
    assert.ok(!record.body.includes(signing_secret.slice("whsec_".length, 20)), route);
    const replay = await send();
    assert.equal(replay.headers.get("idempotent-replayed"), "true", route);
    assert.equal(await replay.text(), shown, route);
  }
});

test("webhooks: close", async () => {
  await receiver.close();
  await service.close();
});
