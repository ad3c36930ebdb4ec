// Billing: POST /api/v1/billing/checkout, GET /api/v1/billing/checkouts/{id}, and the admin
// command `billing complete <id>` that switches the workspace's plan.

import assert from "node:assert/strict";
import { runAdmin } from "../../admin.ts";
import {
  answer,
  publishedQuestionnaire,
  registerUser,
  startSession,
  type TestUser,
} from "./_forms.ts";
import { body, startTestService, test } from "../_server.ts";
import { addMember } from "./_workspace.ts";

const service = await startTestService({ env: { PLAN_FREE_ANSWERS_PER_MONTH: "2" } });

interface Checkout {
  id: string;
  plan: string;
  interval: string;
  status: string;
  checkout_url: string;
}

function checkout(user: TestUser, payload: unknown, key?: string) {
  return service.fetch("/api/v1/billing/checkout", {
    method: "POST",
    headers: user.headers(key ? { "idempotency-key": key } : {}),
    body: JSON.stringify(payload),
  });
}

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAdmin(argv, {
    db: service.db,
    config: service.app.config,
    clock: service.clock,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { status, out: out.join("\n"), err: err.join("\n") };
}

test("billing: owner starts a pending checkout, 201 with checkout_url", async () => {
  const owner = await registerUser(service);
  const res = await checkout(owner, { plan: "pro", interval: "year" });
  assert.equal(res.status, 201);
  const data = await body<Checkout>(res);
  assert.match(data.id, /^[0-9a-f-]{36}$/);
  assert.equal(data.plan, "pro");
  assert.equal(data.interval, "year");
  assert.equal(data.status, "pending");
  assert.ok(data.checkout_url.startsWith("http"), data.checkout_url);
  const [row] = await service.db.sql<{ status: string; workspace_id: string }>`
    select status, workspace_id from billing_checkouts where id = ${data.id}`;
  assert.deepEqual(row, { status: "pending", workspace_id: owner.workspaceId });
  // Nothing changes before the payment is reported.
  const [ws] = await service.db.sql<{ plan: string }>`
    select plan from workspaces where id = ${owner.workspaceId}`;
  assert.equal(ws.plan, "free");
});

test("billing: a bad plan or interval is 400 naming the field", async () => {
  const owner = await registerUser(service);
  const cases: [unknown, string][] = [
    [{ plan: "gold", interval: "month" }, "plan"],
    [{ plan: "free", interval: "month" }, "plan"],
    [{ interval: "month" }, "plan"],
    [{ plan: "pro", interval: "week" }, "interval"],
    [{ plan: "pro" }, "interval"],
    [{ plan: "pro", interval: 12 }, "interval"],
    [{ plan: "pro", interval: "month", coupon: "x" }, "coupon"],
  ];
  for (const [payload, field] of cases) {
    const res = await checkout(owner, payload);
    assert.equal(res.status, 400, JSON.stringify(payload));
    const err = (await body<{ error: { code: string; field: string } }>(res)).error;
    assert.equal(err.code, "VALIDATION_FAILED");
    assert.equal(err.field, field, JSON.stringify(payload));
  }
  const [count] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from billing_checkouts where workspace_id = ${owner.workspaceId}`;
  assert.equal(count.n, 0, "nothing stored for a refused request");
});

test("billing: only the owner may start a checkout (admin, editor, viewer 403; none 401)", async () => {
  const owner = await registerUser(service);
  for (const role of ["admin", "editor", "viewer"] as const) {
    const member = await addMember(service, owner, role);
    const res = await checkout(member, { plan: "pro", interval: "month" });
    assert.equal(res.status, 403, role);
    assert.equal((await body<{ error: { code: string } }>(res)).error.code, "FORBIDDEN");
  }
  const anonymous = await service.fetch("/api/v1/billing/checkout", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ plan: "pro", interval: "month" }),
  });
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  const [count] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from billing_checkouts where workspace_id = ${owner.workspaceId}`;
  assert.equal(count.n, 0);
});

test("billing: Idempotency-Key replays the checkout without a second one", async () => {
  const owner = await registerUser(service);
  const key = crypto.randomUUID();
  const first = await checkout(owner, { plan: "business", interval: "month" }, key);
  assert.equal(first.status, 201);
  const a = await body<Checkout>(first);
  const again = await checkout(owner, { plan: "business", interval: "month" }, key);
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(await body<Checkout>(again), a);
  const [count] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from billing_checkouts where workspace_id = ${owner.workspaceId}`;
  assert.equal(count.n, 1);
  const changed = await checkout(owner, { plan: "pro", interval: "month" }, key);
  assert.equal(changed.status, 422);
  assert.equal((await body<{ error: { field: string } }>(changed)).error.field, "Idempotency-Key");
  const notV4 = await checkout(owner, { plan: "pro", interval: "month" }, "not-a-uuid");
  assert.equal(notV4.status, 400);
  await notV4.body?.cancel();
});

test("billing: completing the checkout switches the plan and raises the answer limit at once", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner, [
    { title: "One", type: "text" },
    { title: "Two", type: "text" },
    { title: "Three", type: "text" },
  ]);
  const session = await startSession(service, form.slug);
  const [q1, q2, q3] = form.questions;
  assert.equal((await answer(service, form.slug, session, q1.id, "a")).status, 201);
  assert.equal((await answer(service, form.slug, session, q2.id, "b")).status, 201);
  const over = await answer(service, form.slug, session, q3.id, "c");
  assert.equal(over.status, 422, "free plan here allows 2 answers a month");
  assert.equal(
    (await body<{ error: { field: string } }>(over)).error.field,
    "plan.answers_per_month",
  );

  const started = await body<Checkout>(await checkout(owner, { plan: "pro", interval: "month" }));
  const done = await admin("billing", "complete", started.id);
  assert.equal(done.status, 0, done.err);
  assert.match(done.out, /now on plan pro/);

  const [ws] = await service.db.sql<{ plan: string }>`
    select plan from workspaces where id = ${owner.workspaceId}`;
  assert.equal(ws.plan, "pro");
  const third = await answer(service, form.slug, session, q3.id, "c");
  assert.equal(third.status, 201, "the pro limit applies to the very next answer");
  await third.body?.cancel();

  const status = await service.fetch(`/api/v1/billing/checkouts/${started.id}`, {
    headers: owner.headers(),
  });
  assert.equal(status.status, 200);
  assert.equal((await body<Checkout>(status)).status, "completed");

  const twice = await admin("billing", "complete", started.id);
  assert.equal(twice.status, 0);
  assert.match(twice.out, /already completed/);
  const same = await checkout(owner, { plan: "pro", interval: "year" });
  assert.equal(same.status, 409, "a checkout for the current plan is a conflict");
  assert.equal((await body<{ error: { field: string } }>(same)).error.field, "plan");
});

test("billing: admin command refuses unknown or malformed checkout ids", async () => {
  const unknown = await admin("billing", "complete", crypto.randomUUID());
  assert.equal(unknown.status, 1);
  assert.match(unknown.err, /no checkout/);
  const malformed = await admin("billing", "complete", "12");
  assert.equal(malformed.status, 2);
  const none = await admin("billing", "complete");
  assert.equal(none.status, 2);
});

test("billing: another workspace's checkout is 404", async () => {
  const owner = await registerUser(service);
  const mine = await body<Checkout>(await checkout(owner, { plan: "pro", interval: "month" }));
  const stranger = await registerUser(service);
  const res = await service.fetch(`/api/v1/billing/checkouts/${mine.id}`, {
    headers: stranger.headers(),
  });
  assert.equal(res.status, 404);
  await res.body?.cancel();
  const done = await admin("billing", "complete", mine.id);
  assert.equal(done.status, 0);
  const [ws] = await service.db.sql<{ plan: string }>`
    select plan from workspaces where id = ${stranger.workspaceId}`;
  assert.equal(ws.plan, "free", "only the checkout's own workspace switches");
});

test("billing: close", async () => {
  await service.close();
});
