// Bot protection of public questionnaires (issue 31): the bot_protection setting, the signed
// form token of the public read, and the session start's checks (signature, single use, age,
// proof of work, questionnaire, honeypot), each refusal writing nothing: no session, event,
// webhook delivery, Idempotency-Key record or plan answer.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import {
  answer,
  createQuestionnaire,
  postSession,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  type TestQuestionnaire,
  validAnswerFor,
} from "./_forms.ts";
import { startReceiver } from "../webhooks/_webhooks.ts";
import { proofHolds } from "../../lib/forms/form_token.ts";

const receiver = startReceiver();
const service = await startTestService({
  env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" },
  startWorkers: true,
});
const owner = await registerUser(service);
const hook = await service.fetch("/api/v1/webhooks", {
  method: "POST",
  headers: owner.headers(),
  body: JSON.stringify({ url: receiver.url }),
});
assert.equal(hook.status, 201, await hook.clone().text());
await hook.body?.cancel();

const QUESTIONS = [{ title: "Comment", type: "text" as const }];
const guarded = await publishedQuestionnaire(service, owner, QUESTIONS, { bot_protection: true });
const other = await publishedQuestionnaire(service, owner, QUESTIONS, { bot_protection: true });
const open = await publishedQuestionnaire(service, owner, QUESTIONS);

type Err = { error: { code: string; field: string | null } };
interface FormTokenJson {
  token: string;
  challenge: string;
  difficulty: number;
  min_fill_seconds: number;
  expires_at: string;
}

/** A form token from the public read of `form`. */
async function readToken(form: { slug: string }): Promise<FormTokenJson> {
  const res = await service.fetch(`/api/v1/public/q/${form.slug}`);
  assert.equal(res.status, 200);
  const data = await body<{ form_token: FormTokenJson }>(res);
  assert.ok(data.form_token, "a protected questionnaire's read hands out a form token");
  return data.form_token;
}

/** The proof of work's solution, found as a client would: nonce after nonce. */
function solve(token: FormTokenJson): string {
  for (let n = 0;; n++) {
    if (proofHolds(token.challenge, String(n), token.difficulty)) return String(n);
  }
}

/** A start body carrying `token` and its solution, loaded now on the service's clock. */
function startBody(token: FormTokenJson, overrides: Record<string, unknown> = {}) {
  return sessionBody({
    loaded_at: service.clock().getTime(),
    form_token: token.token,
    pow_nonce: solve(token),
    ...overrides,
  });
}

/** Lets the minimum fill time pass on the service's clock. */
function fillTime(token: FormTokenJson) {
  service.clock.advance(token.min_fill_seconds * 1000 + 10);
}

/**
 * Everything a start could have written for the workspace, counted, once every event so far has
 * its webhook delivery (the worker fans out on its own time).
 */
async function traces() {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const counts = await countTraces();
    if (counts.deliveries === counts.events) return counts;
    assert.ok(Date.now() < deadline, "the worker never fanned every event out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function countTraces() {
  const [row] = await service.db.sql<Record<string, number>>`
    select
      (select count(*)::int from sessions where workspace_id = ${owner.workspaceId}) as sessions,
      (select count(*)::int from outbox_events where workspace_id = ${owner.workspaceId})
        as events,
      (select count(*)::int from webhook_deliveries where workspace_id = ${owner.workspaceId})
        as deliveries,
      (select count(*)::int from idempotency_keys
        where route like 'POST /api/v1/public/q/%/sessions') as idempotency_records,
      (select coalesce(sum(answers), 0)::int from plan_usage
        where workspace_id = ${owner.workspaceId}) as plan_answers,
      (select count(*)::int from form_tokens_used) as used_tokens`;
  return row;
}

test("questionnaires: bot_protection (default false) and min_fill_seconds (default 3) are set on create and PATCH and read back", async () => {
  const plain = await createQuestionnaire(service, owner, QUESTIONS) as unknown as Record<
    string,
    unknown
  >;
  assert.deepEqual([plain.bot_protection, plain.min_fill_seconds], [false, 3]);
  const made = await createQuestionnaire(service, owner, QUESTIONS, {
    bot_protection: true,
    min_fill_seconds: 7,
  });
  const patched = await service.fetch(`/api/v1/questionnaires/${made.id}`, {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ min_fill_seconds: 0 }),
  });
  assert.equal(patched.status, 200);
  assert.deepEqual(
    await body(patched).then((d) => [d.bot_protection, d.min_fill_seconds]),
    [true, 0],
  );
  const read = await service.fetch(`/api/v1/questionnaires/${made.id}`, {
    headers: owner.headers(),
  });
  assert.deepEqual(await body(read).then((d) => [d.bot_protection, d.min_fill_seconds]), [
    true,
    0,
  ]);
  const bad = await service.fetch(`/api/v1/questionnaires/${made.id}`, {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ bot_protection: "yes" }),
  });
  assert.equal(bad.status, 400);
  assert.equal((await body<Err>(bad)).error.field, "bot_protection");
});

test("bot protection: the public read hands out a new signed form token each time, not cacheable; none when off", async () => {
  const res = await service.fetch(`/api/v1/public/q/${guarded.slug}`);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const first = (await body<{ form_token: FormTokenJson }>(res)).form_token;
  assert.match(first.token, /^ft1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  assert.equal(first.min_fill_seconds, 3);
  assert.ok(first.difficulty >= 8);
  assert.ok(Date.parse(first.expires_at) > service.clock().getTime());
  const second = await readToken(guarded);
  assert.notEqual(second.token, first.token);
  assert.notEqual(second.challenge, first.challenge);
  const plain = await service.fetch(`/api/v1/public/q/${open.slug}`);
  assert.equal((await body(plain)).form_token, null);
});

test("bot protection: a start with a solved token after the minimum fill time is 201, and the session can be answered", async () => {
  const token = await readToken(guarded);
  fillTime(token);
  const res = await postSession(service, guarded.slug, startBody(token));
  assert.equal(res.status, 201, await res.clone().text());
  const { sessionId } = await body<{ sessionId: number }>(res);
  const answered = await answer(service, guarded.slug, sessionId, guarded.questions[0].id, "Hi");
  assert.equal(answered.status, 201);
  await answered.body?.cancel();
});

test("bot protection: every refused start is a 4xx with its own code and field, and writes nothing", async () => {
  // The case's token is read before the case runs its request, at the time it chooses.
  const cases: {
    name: string;
    form?: TestQuestionnaire;
    request: () => Promise<Record<string, unknown>>;
    status: number;
    code: string;
    field: string;
  }[] = [
    {
      name: "no token (a plain curl-style start)",
      request: () => Promise.resolve(sessionBody({ loaded_at: service.clock().getTime() })),
      status: 400,
      code: "FORM_TOKEN_REQUIRED",
      field: "form_token",
    },
    {
      name: "a replayed token",
      request: async () => {
        const token = await readToken(guarded);
        fillTime(token);
        const first = await postSession(service, guarded.slug, startBody(token));
        assert.equal(first.status, 201);
        await first.body?.cancel();
        return startBody(token, { name: "Replay" });
      },
      status: 409,
      code: "FORM_TOKEN_USED",
      field: "form_token",
    },
    {
      name: "too fast: sooner than the minimum fill time after the read",
      request: async () => startBody(await readToken(guarded)),
      status: 422,
      code: "FILLED_TOO_FAST",
      field: "form_token",
    },
    {
      name: "a wrong solution",
      request: async () => {
        const token = await readToken(guarded);
        fillTime(token);
        const right = solve(token);
        let wrong = Number(right) + 1;
        while (proofHolds(token.challenge, String(wrong), token.difficulty)) wrong++;
        return startBody(token, { pow_nonce: String(wrong) });
      },
      status: 400,
      code: "PROOF_OF_WORK_INVALID",
      field: "pow_nonce",
    },
    {
      name: "no solution",
      request: async () => {
        const token = await readToken(guarded);
        fillTime(token);
        return startBody(token, { pow_nonce: undefined });
      },
      status: 400,
      code: "PROOF_OF_WORK_INVALID",
      field: "pow_nonce",
    },
    {
      name: "a token of another questionnaire",
      request: async () => {
        const token = await readToken(other);
        fillTime(token);
        return startBody(token);
      },
      status: 400,
      code: "FORM_TOKEN_INVALID",
      field: "form_token",
    },
    {
      name: "an expired token",
      request: async () => {
        const token = await readToken(guarded);
        service.clock.set(new Date(Date.parse(token.expires_at) + 1));
        return startBody(token);
      },
      status: 400,
      code: "FORM_TOKEN_EXPIRED",
      field: "form_token",
    },
    {
      name: "a token whose payload was altered (a shorter minimum time)",
      request: async () => {
        const token = await readToken(guarded);
        const [prefix, payload, signature] = token.token.split(".");
        const fields = JSON.parse(new TextDecoder().decode(
          Uint8Array.fromBase64(payload, { alphabet: "base64url" }),
        ));
        fields.m = 0;
        const altered = new TextEncoder().encode(JSON.stringify(fields))
          .toBase64({ alphabet: "base64url", omitPadding: true });
        return startBody(token, { form_token: `${prefix}.${altered}.${signature}` });
      },
      status: 400,
      code: "FORM_TOKEN_INVALID",
      field: "form_token",
    },
    {
      name: "a filled honeypot, with a good token",
      request: async () => {
        const token = await readToken(guarded);
        fillTime(token);
        return startBody(token, { honeypot: "http://spam.example" });
      },
      status: 400,
      code: "HONEYPOT_FILLED",
      field: "honeypot",
    },
    {
      name: "a filled honeypot on an unprotected questionnaire",
      form: open,
      request: () =>
        Promise.resolve(
          sessionBody({ loaded_at: service.clock().getTime(), honeypot: "http://spam.example" }),
        ),
      status: 400,
      code: "HONEYPOT_FILLED",
      field: "honeypot",
    },
  ];
  for (const c of cases) {
    const payload = await c.request();
    const before = await traces();
    // With an Idempotency-Key: not even its record is kept.
    const res = await postSession(service, (c.form ?? guarded).slug, payload, {
      "idempotency-key": crypto.randomUUID(),
    });
    assert.equal(res.status, c.status, `${c.name}: ${await res.clone().text()}`);
    const data = await body<Err>(res);
    assert.deepEqual([data.error.code, data.error.field], [c.code, c.field], c.name);
    if (c.code === "FILLED_TOO_FAST") assert.ok(Number(res.headers.get("retry-after")) >= 1);
    assert.deepEqual(await traces(), before, `${c.name} wrote something`);
  }
  // One start that passes, then its delivery: the refusals before it fanned out none.
  const token = await readToken(guarded);
  fillTime(token);
  const started = await postSession(service, guarded.slug, startBody(token, { name: "Last" }));
  assert.equal(started.status, 201);
  const { sessionId } = await body<{ sessionId: number }>(started);
  await receiver.waitFor((got) => got.some((r) => r.json.data?.session_id === sessionId), 30_000);
  const [counts] = await service.db.sql<{ sessions: number; deliveries: number }>`
    select (select count(*)::int from sessions where questionnaire_id = ${guarded.id}) as sessions,
           (select count(*)::int from webhook_deliveries
             where workspace_id = ${owner.workspaceId} and event_type = 'session.started')
             as deliveries`;
  assert.equal(counts.deliveries, counts.sessions, "a delivery per session that passed, no more");
});

test("bot protection: a start too fast keeps its token good: the same request after Retry-After passes", async () => {
  const token = await readToken(guarded);
  const payload = startBody(token);
  const key = crypto.randomUUID();
  const early = await postSession(service, guarded.slug, payload, { "idempotency-key": key });
  assert.equal(early.status, 422);
  const wait = Number(early.headers.get("retry-after"));
  await early.body?.cancel();
  service.clock.advance(wait * 1000);
  const again = await postSession(service, guarded.slug, payload, { "idempotency-key": key });
  assert.equal(again.status, 201, await again.clone().text());
  await again.body?.cancel();
});

test("bot protection: a retried start with its Idempotency-Key replays its 201, not FORM_TOKEN_USED", async () => {
  const token = await readToken(guarded);
  fillTime(token);
  const payload = startBody(token);
  const key = crypto.randomUUID();
  const first = await postSession(service, guarded.slug, payload, { "idempotency-key": key });
  assert.equal(first.status, 201);
  const retried = await postSession(service, guarded.slug, payload, { "idempotency-key": key });
  assert.equal(retried.status, 201);
  assert.equal(retried.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(await body(retried), await body(first));
});

test("bot protection: concurrent starts with one token: exactly one wins, the others are FORM_TOKEN_USED", async () => {
  const token = await readToken(guarded);
  fillTime(token);
  const [before] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from sessions where questionnaire_id = ${guarded.id}`;
  const solved = startBody(token);
  const results = await Promise.all(
    Array.from(
      { length: 8 },
      (_, i) =>
        postSession(service, guarded.slug, { ...solved, name: `Racer ${i}` }, {
          "idempotency-key": crypto.randomUUID(),
        }).then(async (res) => [res.status, (await body<Err>(res)).error?.code ?? null]),
    ),
  );
  const wins = results.filter(([status]) => status === 201);
  assert.equal(wins.length, 1, JSON.stringify(results));
  for (const [status, code] of results.filter(([status]) => status !== 201)) {
    assert.deepEqual([status, code], [409, "FORM_TOKEN_USED"]);
  }
  const [after] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from sessions where questionnaire_id = ${guarded.id}`;
  assert.equal(after.n, before.n + 1);
});

test("sessions: an unprotected questionnaire still starts with only name, email and loaded_at", async () => {
  const res = await postSession(service, open.slug, {
    name: "Server",
    email: "server@example.com",
    loaded_at: service.clock().getTime(),
  });
  assert.equal(res.status, 201, await res.clone().text());
  await res.body?.cancel();
});

test("plan: refused and abandoned starts spend no answer; answers of sessions that passed do", async () => {
  const user = await registerUser(service);
  const form = await publishedQuestionnaire(service, user, QUESTIONS, { bot_protection: true });
  const usage = async () => {
    const res = await service.fetch("/api/v1/workspace", { headers: user.headers() });
    return (await body<{ usage: { answers: number } }>(res)).usage.answers;
  };
  for (let i = 0; i < 3; i++) {
    const refused = await postSession(service, form.slug, sessionBody());
    assert.equal(refused.status, 400);
    await refused.body?.cancel();
  }
  const token = await readToken(form);
  fillTime(token);
  const abandoned = await postSession(service, form.slug, startBody(token));
  assert.equal(abandoned.status, 201);
  await abandoned.body?.cancel();
  assert.equal(await usage(), 0);
  const next = await readToken(form);
  fillTime(next);
  const res = await postSession(service, form.slug, startBody(next));
  const { sessionId } = await body<{ sessionId: number }>(res);
  const answered = await answer(
    service,
    form.slug,
    sessionId,
    form.questions[0].id,
    validAnswerFor(form.questions[0]),
  );
  assert.equal(answered.status, 201);
  await answered.body?.cancel();
  assert.equal(await usage(), 1);
});

test("form tokens: spent tokens are forgotten once long expired, as later starts clean up", async () => {
  const token = await readToken(guarded);
  fillTime(token);
  const res = await postSession(service, guarded.slug, startBody(token));
  assert.equal(res.status, 201);
  await res.body?.cancel();
  const id = token.challenge;
  const [kept] = await service.db.sql`select 1 from form_tokens_used where id = ${id}`;
  assert.ok(kept, "a spent token is remembered while it could still be presented");
  // Long after it expired, other starts delete it (and every other expired one).
  service.clock.set(new Date(Date.parse(token.expires_at) + 3600_000));
  for (let i = 0; i < 8; i++) {
    const next = await readToken(guarded);
    fillTime(next);
    const started = await postSession(service, guarded.slug, startBody(next));
    assert.equal(started.status, 201);
    await started.body?.cancel();
  }
  const [gone] = await service.db.sql`select 1 from form_tokens_used where id = ${id}`;
  assert.equal(gone, undefined);
});

test("bot protection: close", async () => {
  await service.close();
  await receiver.close();
});
