// Plan limits (lib/forms/plan.ts): answers per calendar month per plan from the configuration (free
// PLAN_FREE_ANSWERS_PER_MONTH, pro PLAN_PRO_ANSWERS_PER_MONTH, business unlimited), usage as
// GET /api/v1/workspace shows it, and DEFAULT_PLAN applied at registration.

import assert from "node:assert/strict";
import { body, startTestService, test, type TestService } from "../_server.ts";
import {
  answer,
  publishedQuestionnaire,
  registerUser,
  startSession,
  type TestUser,
} from "./_forms.ts";

const FREE = 2;
const PRO = 3;
const service = await startTestService({
  env: {
    PLAN_FREE_ANSWERS_PER_MONTH: String(FREE),
    PLAN_PRO_ANSWERS_PER_MONTH: String(PRO),
    DEFAULT_PLAN: "pro",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "100000",
  },
});

type Workspace = { plan: string; usage: { answers: number; answers_limit: number | null } };
type Err = { error: { code: string; field: string | null } };

async function workspace(user: TestUser, on: TestService = service): Promise<Workspace> {
  const res = await on.fetch("/api/v1/workspace", { headers: user.headers() });
  assert.equal(res.status, 200);
  return await body<Workspace>(res);
}

/** A user on `plan` with a published one-question form. */
async function onPlan(plan: string) {
  const user = await registerUser(service);
  await service.db.sql`update workspaces set plan = ${plan} where id = ${user.workspaceId}`;
  const form = await publishedQuestionnaire(service, user, [{ title: "Q", type: "text" }]);
  return { user, form };
}

/** One new session with its one answer: the answer's status (422 body checked). */
async function answerOnce(form: { slug: string; questions: { id: number }[] }) {
  const sid = await startSession(service, form.slug);
  const res = await answer(service, form.slug, sid, form.questions[0].id, "yes");
  if (res.status === 422) {
    const data = await body<Err>(res);
    assert.deepEqual([data.error.code, data.error.field], [
      "UNPROCESSABLE",
      "plan.answers_per_month",
    ]);
  } else {
    await res.body?.cancel();
  }
  return res.status;
}

async function storedAnswers(form: { id: string }) {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from answers where questionnaire_id = ${form.id}`;
  return row.n;
}

test("plans: DEFAULT_PLAN is the plan of a workspace created at registration (default free)", async () => {
  const user = await registerUser(service);
  const registered = await service.fetch("/api/v1/auth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `p${user.email}`, password: "long enough pw", name: "P" }),
  });
  assert.equal(registered.status, 201);
  const data = await body<{ workspaces: { plan: string }[] }>(registered);
  assert.deepEqual(data.workspaces.map((w) => w.plan), ["pro"]);
  const shown = await workspace(user);
  assert.equal(shown.plan, "pro");
  assert.equal(shown.usage.answers_limit, PRO);
  const [row] = await service.db.sql`select plan from workspaces where id = ${user.workspaceId}`;
  assert.equal(row.plan, "pro");

  const plain = await startTestService();
  try {
    const other = await registerUser(plain);
    const otherShown = await workspace(other, plain);
    assert.equal(otherShown.plan, "free");
    assert.equal(otherShown.usage.answers_limit, 1000);
  } finally {
    await plain.close();
  }
});

const LIMITED = [
  { plan: "free", limit: FREE, variable: "PLAN_FREE_ANSWERS_PER_MONTH" },
  { plan: "pro", limit: PRO, variable: "PLAN_PRO_ANSWERS_PER_MONTH" },
];

for (const { plan, limit, variable } of LIMITED) {
  test(`plans: ${plan} takes ${variable} answers a month, then 422 with nothing stored`, async () => {
    const { user, form } = await onPlan(plan);
    for (let i = 0; i < limit; i++) assert.equal(await answerOnce(form), 201, `answer ${i + 1}`);
    assert.equal(await answerOnce(form), 422, "one over the limit");
    assert.equal(await storedAnswers(form), limit);
    const shown = await workspace(user);
    assert.equal(shown.plan, plan);
    assert.deepEqual([shown.usage.answers, shown.usage.answers_limit], [limit, limit]);
  });
}

test("plans: business has no monthly limit (answers_limit null)", async () => {
  const { user, form } = await onPlan("business");
  const month = new Date().toISOString().slice(0, 8) + "01";
  // Far beyond every configured limit already this month.
  await service.db.sql`insert into plan_usage (workspace_id, month, shard, answers)
                       values (${user.workspaceId}, ${month}::date, 1, 1000000)`;
  for (let i = 0; i < PRO + 2; i++) assert.equal(await answerOnce(form), 201, `answer ${i + 1}`);
  assert.equal(await storedAnswers(form), PRO + 2);
  const shown = await workspace(user);
  assert.equal(shown.usage.answers_limit, null);
  assert.equal(shown.usage.answers, 1000000 + PRO + 2);
});

test("plans: answers taken on business count against a limited plan later in the month", async () => {
  const { user, form } = await onPlan("business");
  for (let i = 0; i < FREE; i++) assert.equal(await answerOnce(form), 201);
  await service.db.sql`update workspaces set plan = 'free' where id = ${user.workspaceId}`;
  assert.equal(await answerOnce(form), 422, "the month's business answers fill the free limit");
  assert.equal(await storedAnswers(form), FREE);
});

test("plans: close the service", async () => {
  await service.close();
});
