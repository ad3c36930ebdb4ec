// Public questionnaires: read by slug, sessions (required fields, loaded_at plausibility,
// random ids), answers one at a time (progress, completion, 404/409/400 rules), the events
// they write, the plan limit and its race, public CORS.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import {
  answer,
  createQuestionnaire,
  postSession,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  startSession,
  validAnswerFor,
} from "./_forms.ts";

const service = await startTestService({
  env: { PLAN_FREE_ANSWERS_PER_MONTH: "1000000", RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" },
});
const owner = await registerUser(service);
const form = await publishedQuestionnaire(service, owner, [
  { title: "Comment", type: "text", required: false },
  { title: "Mail", type: "email" },
  { title: "Age", type: "number" },
  { title: "Pick", type: "choice", options: ["red", "green"] },
  { title: "Stars", type: "rating" },
]);
const [qText, qMail, qAge, qPick, qStars] = form.questions;

type Err = { error: { code: string; field: string | null } };

test("public: a published questionnaire is readable by slug; drafts and unknown slugs are 404", async () => {
  const res = await service.fetch(`/api/v1/public/q/${form.slug}`);
  assert.equal(res.status, 200);
  const data = await body<{ title: string; questions: { id: number; options: unknown }[] }>(res);
  assert.equal(data.title, form.title);
  assert.deepEqual(data.questions.map((q) => q.id), form.questions.map((q) => q.id));
  assert.deepEqual(data.questions[3].options, ["red", "green"]);
  const draft = await createQuestionnaire(service, owner);
  for (const slug of [draft.slug, "no-such-form"]) {
    const r = await service.fetch(`/api/v1/public/q/${slug}`);
    assert.equal(r.status, 404, slug);
    await r.body?.cancel();
    const s = await postSession(service, slug);
    assert.equal(s.status, 404, slug);
    await s.body?.cancel();
  }
});

test("sessions: name, email and loaded_at are all required and validated (400 naming the field)", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ name: undefined }, "name"],
    [{ email: undefined }, "email"],
    [{ loaded_at: undefined }, "loaded_at"],
    [{ name: "" }, "name"],
    [{ email: "not-an-address" }, "email"],
    [{ loaded_at: "yesterday" }, "loaded_at"],
    [{ loaded_at: 1.5 }, "loaded_at"],
  ];
  for (const [override, field] of cases) {
    const res = await postSession(service, form.slug, sessionBody(override));
    assert.equal(res.status, 400, JSON.stringify(override));
    const data = await body<Err>(res);
    assert.deepEqual([data.error.code, data.error.field], ["VALIDATION_FAILED", field]);
  }
});

test("sessions: loaded_at beyond 5 minutes in the future or older than 24 hours is 400", async () => {
  const now = service.clock().getTime();
  const cases = [
    [now + 6 * 60_000, 400],
    [now + 4 * 60_000, 201],
    [now - 24 * 3600_000 - 60_000, 400],
    [now - 23 * 3600_000, 201],
  ];
  for (const [loadedAt, status] of cases) {
    const res = await postSession(service, form.slug, sessionBody({ loaded_at: loadedAt }));
    assert.equal(res.status, status, String(loadedAt - now));
    const data = await body<Err>(res);
    if (status === 400) assert.equal(data.error.field, "loaded_at");
  }
});

test("sessions: ids are random integers below 2^53, not sequential", async () => {
  const ids: number[] = [];
  for (let i = 0; i < 8; i++) ids.push(await startSession(service, form.slug));
  for (const id of ids) assert.ok(Number.isSafeInteger(id) && id > 0 && id < 2 ** 53);
  const steps = ids.slice(1).map((id, i) => id - ids[i]);
  assert.ok(!steps.every((d) => d === steps[0]), "ids step by a constant");
  assert.ok(ids.some((id) => id > 2 ** 40), "ids use the upper range");
  assert.equal(new Set(ids).size, ids.length);
});

test("answers: one at a time with progress; the last answer completes the session", async () => {
  const sid = await startSession(service, form.slug);
  const order = [qStars, qText, qPick, qMail, qAge];
  for (const [i, q] of order.entries()) {
    const res = await answer(service, form.slug, sid, q.id, validAnswerFor(q));
    assert.equal(res.status, 201);
    const data = await body(res);
    assert.deepEqual(data, {
      success: true,
      isComplete: i === order.length - 1,
      progress: { answered: i + 1, total: 5 },
    });
  }
  const [row] = await service.db.sql`select completed_at, answered from sessions where id = ${sid}`;
  assert.ok(row.completed_at instanceof Date);
  assert.equal(row.answered, 5);
});

test("answers: every change writes its event in the outbox, numbered, completed exactly once", async () => {
  const sid = await startSession(service, form.slug, sessionBody({ name: "Eve", email: "e@x.io" }));
  for (const q of form.questions) {
    await answer(service, form.slug, sid, q.id, validAnswerFor(q)).then((r) => r.body?.cancel());
  }
  const late = await answer(service, form.slug, sid, qText.id, "again");
  await late.body?.cancel();
  const events = await service.db.sql<{ type: string; data: Record<string, unknown> }>`
    select type, data from outbox_events
    where (data->>'session_id')::bigint = ${sid} order by created_at, (data->>'sequence')::int`;
  assert.deepEqual(events.map((e) => e.type), [
    "session.started",
    ...form.questions.map(() => "answer.submitted"),
    "session.completed",
  ]);
  assert.deepEqual(events.map((e) => e.data.sequence), [1, 2, 3, 4, 5, 6, 7]);
  const started = events[0].data;
  assert.deepEqual(started.respondent, { name: "Eve", email: "e@x.io" });
  assert.equal(started.questionnaire_slug, form.slug);
  const submitted = events[2].data;
  assert.deepEqual([submitted.question_id, submitted.answer], [qMail.id, validAnswerFor(qMail)]);
  const completed = events[6].data;
  assert.deepEqual(completed.progress, { answered: 5, total: 5 });
  assert.equal((completed.answers as unknown[]).length, 5);
  assert.equal(completed.questionnaire_id, form.id);
});

test("answers: a second answer to a question is 409 (field questionId)", async () => {
  const sid = await startSession(service, form.slug);
  await answer(service, form.slug, sid, qStars.id, "5").then((r) => r.body?.cancel());
  const res = await answer(service, form.slug, sid, qStars.id, "4");
  assert.equal(res.status, 409);
  const data = await body<Err>(res);
  assert.deepEqual([data.error.code, data.error.field], ["CONFLICT", "questionId"]);
  const rows = await service.db.sql`select answer from answers where session_id = ${sid}`;
  assert.deepEqual(rows.map((r) => r.answer), ["5"]);
});

test("answers: concurrent answers to one question store one; concurrent last answers complete once", async () => {
  const two = await publishedQuestionnaire(service, owner, [
    { title: "A", type: "text" },
    { title: "B", type: "text" },
  ]);
  const sid = await startSession(service, two.slug);
  const same = await Promise.all(
    Array.from(
      { length: 6 },
      (_, i) =>
        answer(service, two.slug, sid, two.questions[0].id, `v${i}`).then(async (r) => {
          await r.body?.cancel();
          return r.status;
        }),
    ),
  );
  assert.deepEqual(same.sort(), [201, 409, 409, 409, 409, 409]);
  // A fresh session: both questions answered at once; exactly one response completes it.
  const sid2 = await startSession(service, two.slug);
  const both = await Promise.all(
    two.questions.map((q) =>
      answer(service, two.slug, sid2, q.id, "x").then((r) =>
        body<{ isComplete: boolean; progress: { answered: number } }>(r)
      )
    ),
  );
  assert.deepEqual(both.map((b) => b.isComplete).sort(), [false, true]);
  assert.deepEqual(both.map((b) => b.progress.answered).sort(), [1, 2]);
  const completed = await service.db.sql`
    select 1 from outbox_events
    where type = 'session.completed' and (data->>'session_id')::bigint = ${sid2}`;
  assert.equal(completed.length, 1);
});

test("answers: a questionId not in the questionnaire is 404 (field questionId)", async () => {
  const otherForm = await publishedQuestionnaire(service, owner);
  // Questions whose rules "abc" breaks: the 404 must come first, or an answer would reveal the
  // type of another questionnaire's (another tenant's) question.
  const strict = await publishedQuestionnaire(service, owner, [
    { title: "Rate", type: "rating" },
    { title: "Pick", type: "choice", options: ["a", "b"] },
  ]);
  const sid = await startSession(service, form.slug);
  for (
    const [questionId, text] of [
      [otherForm.questions[0].id, "x"],
      [strict.questions[0].id, "abc"],
      [strict.questions[1].id, "abc"],
      [999_999, "x"],
    ] as const
  ) {
    const res = await answer(service, form.slug, sid, questionId, text);
    assert.equal(res.status, 404, `${questionId} ${text}`);
    const data = await body<Err>(res);
    assert.deepEqual([data.error.code, data.error.field], ["NOT_FOUND", "questionId"]);
  }
});

test("answers: an answer to a completed session is 409", async () => {
  const single = await publishedQuestionnaire(service, owner, [{ title: "One", type: "text" }]);
  const sid = await startSession(service, single.slug);
  const first = await answer(service, single.slug, sid, single.questions[0].id, "done");
  assert.equal((await body<{ isComplete: boolean }>(first)).isComplete, true);
  const res = await answer(service, single.slug, sid, single.questions[0].id, "more");
  assert.equal(res.status, 409);
  assert.equal((await body<Err>(res)).error.code, "CONFLICT");
});

test("answers: server-side validation per question type (400 field answerText)", async () => {
  const sid = await startSession(service, form.slug);
  const invalid: [typeof qText, string][] = [
    [qMail, "not mail"],
    [qMail, ""],
    [qAge, "forty"],
    [qAge, "1e5"],
    [qPick, "blue"],
    [qStars, "6"],
    [qStars, "0"],
    [qStars, "4.5"],
  ];
  for (const [q, text] of invalid) {
    const res = await answer(service, form.slug, sid, q.id, text);
    assert.equal(res.status, 400, `${q.type} ${JSON.stringify(text)}`);
    const data = await body<Err>(res);
    assert.deepEqual([data.error.code, data.error.field], ["VALIDATION_FAILED", "answerText"]);
  }
  const rows = await service.db.sql`select 1 from answers where session_id = ${sid}`;
  assert.equal(rows.length, 0, "nothing stored");
  const empty = await answer(service, form.slug, sid, qText.id, "");
  assert.equal(empty.status, 201, "empty answer to a question that is not required");
  await empty.body?.cancel();
});

test("sessions: another questionnaire's slug, an unknown session or a closed form: 404/409", async () => {
  const mine = await publishedQuestionnaire(service, owner);
  const sid = await startSession(service, mine.slug);
  const intruder = await registerUser(service);
  const theirs = await publishedQuestionnaire(service, intruder);
  const wrongSlug = await answer(service, theirs.slug, sid, theirs.questions[0].id, "x");
  assert.equal(wrongSlug.status, 404);
  await wrongSlug.body?.cancel();
  const unknown = await answer(service, mine.slug, 12345, mine.questions[0].id, "x");
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  const close = await service.fetch(`/api/v1/questionnaires/${mine.id}/close`, {
    method: "POST",
    headers: owner.headers(),
  });
  assert.equal(close.status, 200);
  await close.body?.cancel();
  const afterClose = await answer(service, mine.slug, sid, mine.questions[0].id, "x");
  assert.equal(afterClose.status, 409);
  await afterClose.body?.cancel();
  const newSession = await postSession(service, mine.slug);
  assert.equal(newSession.status, 404);
  await newSession.body?.cancel();
});

test("answers: closing or deleting a questionnaire whose questions are cached still refuses answers (409, then 404)", async () => {
  const cached = await publishedQuestionnaire(service, owner, [{ title: "A", type: "text" }]);
  const [first, second] = [
    await startSession(service, cached.slug),
    await startSession(service, cached.slug),
  ];
  const q = cached.questions[0];
  // The first answer puts the question in the service's cache; the state is the database's.
  const ok = await answer(service, cached.slug, first, q.id, "before");
  assert.equal(ok.status, 201);
  await ok.body?.cancel();
  const close = await service.fetch(`/api/v1/questionnaires/${cached.id}/close`, {
    method: "POST",
    headers: owner.headers(),
  });
  assert.equal(close.status, 200);
  await close.body?.cancel();
  const closed = await answer(service, cached.slug, second, q.id, "after close");
  assert.equal(closed.status, 409);
  assert.equal((await body<Err>(closed)).error.code, "CONFLICT");
  const del = await service.fetch(`/api/v1/questionnaires/${cached.id}`, {
    method: "DELETE",
    headers: owner.headers(),
  });
  assert.ok(del.status < 300, String(del.status));
  await del.body?.cancel();
  const deleted = await answer(service, cached.slug, second, q.id, "after delete");
  assert.equal(deleted.status, 404);
  assert.equal((await body<Err>(deleted)).error.code, "NOT_FOUND");
  const rows = await service.db.sql`select session_id from answers where question_id = ${q.id}`;
  assert.deepEqual(rows.map((r) => r.session_id), [first], "nothing stored after closing");
});

test("answers: an invalid answer to a completed or closed session is 409, as the checks come in order", async () => {
  const single = await publishedQuestionnaire(service, owner, [{ title: "N", type: "number" }]);
  const sid = await startSession(service, single.slug);
  const q = single.questions[0];
  await answer(service, single.slug, sid, q.id, "1").then((r) => r.body?.cancel());
  const completed = await answer(service, single.slug, sid, q.id, "not a number");
  assert.equal(completed.status, 409);
  assert.equal((await body<Err>(completed)).error.code, "CONFLICT");
  const fresh = await startSession(service, single.slug);
  const unknown = await answer(service, single.slug, fresh + 1, q.id, "not a number");
  assert.equal(unknown.status, 404, "unknown session before the answer's validation");
  await unknown.body?.cancel();
  const invalid = await answer(service, single.slug, fresh, q.id, "not a number");
  assert.equal(invalid.status, 400);
  assert.equal((await body<Err>(invalid)).error.field, "answerText");
});

test("answers: the replayed answer is the first one byte for byte", async () => {
  const sid = await startSession(service, form.slug);
  const key = { "idempotency-key": crypto.randomUUID() };
  const first = await answer(service, form.slug, sid, qStars.id, "3", key);
  const again = await answer(service, form.slug, sid, qStars.id, "3", key);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.equal(again.headers.get("content-type"), first.headers.get("content-type"));
  const text = await first.text();
  assert.equal(text, '{"success":true,"isComplete":false,"progress":{"answered":1,"total":5}}');
  assert.equal(await again.text(), text);
});

test("cors: public routes answer Access-Control-Allow-Origin * and preflights", async () => {
  const res = await service.fetch(`/api/v1/public/q/${form.slug}`, {
    headers: { origin: "https://anywhere.example" },
  });
  await res.body?.cancel();
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("access-control-allow-credentials"), null);
  const pre = await service.fetch(`/api/v1/public/q/${form.slug}/sessions`, {
    method: "OPTIONS",
    headers: { origin: "https://anywhere.example", "access-control-request-method": "POST" },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.match(pre.headers.get("access-control-allow-methods") ?? "", /POST/);
  const err = await postSession(service, "nope", sessionBody(), { origin: "https://a.example" });
  await err.body?.cancel();
  assert.equal(err.headers.get("access-control-allow-origin"), "*", "errors too");
  // Under the public prefix, a path of no route (404) or a method of none (405) too.
  const unrouted = [
    { path: "/api/v1/public/nothing", method: "GET", status: 404 },
    { path: `/api/v1/public/q/${form.slug}`, method: "DELETE", status: 405 },
  ];
  for (const { path, method, status } of unrouted) {
    const res = await service.fetch(path, { method, headers: { origin: "https://a.example" } });
    await res.body?.cancel();
    assert.equal(res.status, status, path);
    assert.equal(res.headers.get("access-control-allow-origin"), "*", `${method} ${path}`);
  }
});

test("plan: an answer over the monthly limit is 422 field plan.answers_per_month, nothing stored", async () => {
  const user = await registerUser(service);
  const q = await publishedQuestionnaire(service, user, [
    { title: "A", type: "text" },
    { title: "B", type: "text" },
  ]);
  const month = new Date().toISOString().slice(0, 8) + "01";
  // The limit is 1,000,000 in this file: leave exactly one answer.
  await service.db.sql`insert into plan_usage (workspace_id, month, answers)
                       values (${user.workspaceId}, ${month}::date, 999999)`;
  const sid = await startSession(service, q.slug);
  const ok = await answer(service, q.slug, sid, q.questions[0].id, "fits");
  assert.equal(ok.status, 201);
  await ok.body?.cancel();
  const over = await answer(service, q.slug, sid, q.questions[1].id, "over");
  assert.equal(over.status, 422);
  const data = await body<Err>(over);
  assert.deepEqual([data.error.code, data.error.field], [
    "UNPROCESSABLE",
    "plan.answers_per_month",
  ]);
  const rows = await service.db.sql`select answer from answers where session_id = ${sid}`;
  assert.deepEqual(rows.map((r) => r.answer), ["fits"]);
  const events = await service.db.sql`
    select 1 from outbox_events where (data->>'session_id')::bigint = ${sid}
      and type = 'answer.submitted'`;
  assert.equal(events.length, 1, "no event for the refused answer");
  // A new calendar month starts from zero.
  service.clock.set(
    new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1, 0, 1)),
  );
  try {
    const sid2 = await startSession(
      service,
      q.slug,
      sessionBody({ loaded_at: service.clock().getTime() }),
    );
    const next = await answer(service, q.slug, sid2, q.questions[0].id, "new month");
    assert.equal(next.status, 201);
    await next.body?.cancel();
  } finally {
    service.clock.set(new Date());
  }
});

test("plan: with 3 answers left, 20 concurrent answers store exactly 3", async () => {
  const user = await registerUser(service);
  const q = await publishedQuestionnaire(service, user, [{ title: "A", type: "text" }]);
  const sessions: number[] = [];
  for (let i = 0; i < 20; i++) sessions.push(await startSession(service, q.slug));
  const month = new Date().toISOString().slice(0, 8) + "01";
  await service.db.sql`insert into plan_usage (workspace_id, month, answers)
                       values (${user.workspaceId}, ${month}::date, 999997)`;
  const results = await Promise.all(
    sessions.map((sid) =>
      answer(service, q.slug, sid, q.questions[0].id, "race").then(async (r) => {
        await r.body?.cancel();
        return r.status;
      })
    ),
  );
  assert.equal(results.filter((s) => s === 201).length, 3, JSON.stringify(results));
  assert.equal(results.filter((s) => s === 422).length, 17);
  const [stored] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from answers where questionnaire_id = ${q.id}`;
  assert.equal(stored.n, 3);
  const [usage] = await service.db.sql`
    select answers from plan_usage where workspace_id = ${user.workspaceId}`;
  assert.equal(usage.answers, 1_000_000);
});

test("public: close the service", async () => {
  await service.close();
});
