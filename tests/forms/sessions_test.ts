// GET /api/v1/questionnaires/{id}/sessions, /sessions/{sessionId} (and its DELETE) and
// /summary (routes/forms/sessions.ts): shape, roles, isolation, the cursor under concurrent
// sessions, filters, and the summary's figures. Erasure by address: erasure_test.ts.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import {
  answer,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  startSession,
  type TestQuestionnaire,
  type TestUser,
} from "./_forms.ts";
import { addMember } from "./_workspace.ts";
import { encodeCursor } from "../../lib/http/cursor.ts";

const service = await startTestService({
  env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000", RATE_LIMIT_USER_PER_MINUTE: "1000000" },
});

interface Session {
  id: number;
  questionnaire_id: string;
  state: string;
  respondent: { name: string; email: string };
  loaded_at: number;
  started_at: string;
  completed_at: string | null;
  progress: { answered: number; total: number };
  answers: { question_id: number; question_title: string; answer: string; answered_at: string }[];
}
interface Page {
  data: Session[];
  next_cursor: string | null;
  has_more: boolean;
}

async function get(user: TestUser, path: string) {
  const res = await service.fetch(path, { headers: user.headers() });
  return { status: res.status, body: await body(res) };
}

async function page(user: TestUser, form: { id: string }, query = ""): Promise<Page> {
  const res = await get(user, `/api/v1/questionnaires/${form.id}/sessions?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as unknown as Page;
}

/** Every session of the list with `query`, page by page. */
async function walk(user: TestUser, form: { id: string }, query: string, between = async () => {}) {
  const seen: Session[] = [];
  let cursor: string | null = null;
  do {
    const at: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const p = await page(user, form, query + at);
    seen.push(...p.data);
    assert.equal(p.has_more, p.next_cursor !== null);
    cursor = p.next_cursor;
    await between();
  } while (cursor);
  return seen;
}

/** `count` sessions written straight into the tables, started at `start` + i seconds. */
async function bulkSessions(
  owner: TestUser,
  form: TestQuestionnaire,
  count: number,
  start: Date,
  options: { sameStart?: boolean; completedEvery?: number } = {},
) {
  const step = options.sameStart ? "0 seconds" : "1 second";
  const every = options.completedEvery ?? 2;
  const rows = await service.db.sql<{ id: number }>`
    insert into sessions (id, questionnaire_id, workspace_id, name, email, loaded_at,
                          started_at, completed_at, answered, total)
    select (random() * 1e15)::int8 + 1, ${form.id}, ${owner.workspaceId}, 'Bulk ' || g,
      'bulk' || g || '@example.com', ${start}::timestamptz,
      ${start}::timestamptz + (g * ${step}::interval),
      case when g % ${every} = 0 then ${start}::timestamptz + g * interval '1 second' +
        interval '30 seconds' end,
      0, ${form.questions.length}
    from generate_series(1, ${count}::int) g
    returning id`;
  return rows.map((r) => r.id);
}

test("sessions: each shows respondent, loaded_at, times, progress and its answers with question id, title, text and time", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const loadedAt = Date.now() - 5000;
  const first = await startSession(
    service,
    form.slug,
    sessionBody({ name: "Ana Lima", email: "ana@example.com", loaded_at: loadedAt }),
  );
  const texts = ["Fine, thanks", "5", "pro"];
  for (const [i, q] of form.questions.entries()) {
    const res = await answer(service, form.slug, first, q.id, texts[i]);
    assert.equal(res.status, 201);
    await res.body?.cancel();
  }
  const second = await startSession(service, form.slug, sessionBody({ name: "Bo" }));
  const res = await answer(service, form.slug, second, form.questions[1].id, "3");
  await res.body?.cancel();

  const list = await page(owner, form);
  assert.deepEqual(list.data.map((s) => s.id), [second, first], "newest first");
  assert.equal(list.has_more, false);
  assert.equal(list.next_cursor, null);
  const [open, done] = list.data;
  assert.equal(done.state, "completed");
  assert.deepEqual(done.respondent, { name: "Ana Lima", email: "ana@example.com" });
  assert.equal(done.loaded_at, loadedAt);
  assert.equal(done.questionnaire_id, form.id);
  assert.ok(done.completed_at && done.completed_at >= done.started_at);
  assert.deepEqual(done.progress, { answered: 3, total: 3 });
  assert.deepEqual(
    done.answers.map((a) => [a.question_id, a.question_title, a.answer]),
    form.questions.map((q, i) => [q.id, q.title, texts[i]]),
  );
  for (const a of done.answers) assert.match(a.answered_at, /^\d{4}-.*\.\d{3}Z$/);
  assert.equal(open.state, "started");
  assert.equal(open.completed_at, null);
  assert.deepEqual(open.progress, { answered: 1, total: 3 });
  assert.deepEqual(open.answers.map((a) => a.answer), ["3"]);

  const one = await get(owner, `/api/v1/questionnaires/${form.id}/sessions/${first}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, done);
});

test("sessions: a session's JSON text is the one json_build_object writes, for quotes, backslashes, line breaks, control characters and non-ASCII", async () => {
  const owner = await registerUser(service);
  const odd = 'He said "hi" \\ C:\\path\n\ttab \u0001\u001f é 漢字 😀 </script>';
  const form = await publishedQuestionnaire(service, owner, [
    { title: `Title ${odd}`, type: "text", required: false },
    { title: "Plain", type: "text", required: false },
    { title: "Never answered", type: "text", required: false },
  ]);
  const [id] = await bulkSessions(owner, form, 1, new Date("2026-02-01T00:00:00.123456Z"), {
    completedEvery: 1,
  });
  await service.db.sql`update sessions set name = ${`Name ${odd}`} where id = ${id}`;
  await service.db.sql`
    insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
    values (${id}, ${form.questions[0].id}, ${form.id}, ${odd}, '2026-02-01T00:00:01.999999Z'),
           (${id}, ${form.questions[1].id}, ${form.id}, '', '2026-02-01T00:00:02Z')`;
  // The shape as json_build_object and json_agg write it (the first build's statement).
  const [want] = await service.db.sql<{ text: string }>`
    select json_build_object(
      'id', s.id, 'questionnaire_id', s.questionnaire_id,
      'state', case when s.completed_at is null then 'started' else 'completed' end,
      'respondent', json_build_object('name', s.name, 'email', s.email),
      'loaded_at', floor(extract(epoch from s.loaded_at) * 1000)::int8,
      'started_at', to_char(s.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'completed_at',
        to_char(s.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'progress', json_build_object('answered', s.answered, 'total', s.total),
      'answers', coalesce((
        select json_agg(json_build_object(
                 'question_id', a.question_id, 'question_title', q.title, 'answer', a.answer,
                 'answered_at',
                   to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
               order by q.position, a.question_id)
        from answers a join questions q on q.id = a.question_id
        where a.session_id = s.id), '[]'::json))::text as text
    from sessions s where s.id = ${id}`;
  const one = await service.fetch(`/api/v1/questionnaires/${form.id}/sessions/${id}`, {
    headers: owner.headers(),
  });
  assert.equal(one.status, 200);
  assert.equal(await one.text(), want.text);
  const list = await service.fetch(`/api/v1/questionnaires/${form.id}/sessions`, {
    headers: owner.headers(),
  });
  const text = await list.text();
  assert.ok(text.startsWith(`{"data":[${want.text}],`), text.slice(0, 300));
  const shown = (JSON.parse(text) as Page).data[0];
  assert.equal(shown.respondent.name, `Name ${odd}`);
  assert.deepEqual(shown.answers.map((a) => [a.question_title, a.answer]), [
    [`Title ${odd}`, odd],
    ["Plain", ""],
  ]);
  // A session without answers has an empty list.
  const [bare] = await bulkSessions(owner, form, 1, new Date("2026-02-02T00:00:00Z"));
  const none = await service.fetch(`/api/v1/questionnaires/${form.id}/sessions/${bare}`, {
    headers: owner.headers(),
  });
  assert.deepEqual((await body<Session>(none)).answers, []);
});

test("sessions: viewers read sessions and the summary; deleting a session needs admin", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const id = await startSession(service, form.slug);
  const base = `/api/v1/questionnaires/${form.id}`;
  for (const role of ["viewer", "editor", "admin"] as const) {
    const member = await addMember(service, owner, role);
    for (const path of [`${base}/sessions`, `${base}/sessions/${id}`, `${base}/summary`]) {
      assert.equal((await get(member, path)).status, 200, `${role} ${path}`);
    }
    if (role === "admin") continue;
    const del = await service.fetch(`${base}/sessions/${id}`, {
      method: "DELETE",
      headers: member.headers(),
    });
    assert.equal(del.status, 403, role);
    await del.body?.cancel();
  }
  const admin = await addMember(service, owner, "admin");
  const del = await service.fetch(`${base}/sessions/${id}`, {
    method: "DELETE",
    headers: admin.headers(),
  });
  assert.equal(del.status, 204);
  const anonymous = await service.fetch(`${base}/sessions`);
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
});

test("sessions: another workspace's questionnaire or session is 404 on every route", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const id = await startSession(service, form.slug);
  const other = await registerUser(service);
  const otherForm = await publishedQuestionnaire(service, other);
  const base = `/api/v1/questionnaires/${form.id}`;
  for (const path of [`${base}/sessions`, `${base}/sessions/${id}`, `${base}/summary`]) {
    const res = await get(other, path);
    assert.equal(res.status, 404, path);
    assert.equal((res.body.error as { code: string }).code, "NOT_FOUND");
  }
  // The session under the other workspace's own questionnaire: not its session either.
  const cross = `/api/v1/questionnaires/${otherForm.id}/sessions/${id}`;
  assert.equal((await get(other, cross)).status, 404);
  const del = await service.fetch(`${base}/sessions/${id}`, {
    method: "DELETE",
    headers: other.headers(),
  });
  assert.equal(del.status, 404);
  await del.body?.cancel();
  const delCross = await service.fetch(cross, { method: "DELETE", headers: other.headers() });
  assert.equal(delCross.status, 404);
  await delCross.body?.cancel();
  assert.equal((await get(owner, `${base}/sessions/${id}`)).status, 200, "still there");
  // A deleted questionnaire's sessions are not readable either.
  const gone = await service.fetch(base, { method: "DELETE", headers: owner.headers() });
  assert.equal(gone.status, 204);
  assert.equal((await get(owner, `${base}/sessions`)).status, 404);
});

test("sessions: the cursor walks every session exactly once while new sessions arrive", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const start = new Date(Date.now() - 3600_000);
  // Sessions that share a start time are told apart by id, so ties cross page boundaries too.
  const ids = [
    ...await bulkSessions(owner, form, 40, start),
    ...await bulkSessions(owner, form, 23, new Date(start.getTime() + 100), { sameStart: true }),
  ];
  // The default page size, crossed.
  const first = await page(owner, form);
  assert.equal(first.data.length, 25);
  assert.equal(first.has_more, true);

  const arrived: number[] = [];
  const seen = await walk(owner, form, "limit=7", async () => {
    arrived.push(await startSession(service, form.slug));
  });
  const seenIds = seen.map((s) => s.id);
  assert.equal(new Set(seenIds).size, seenIds.length, "no session served twice");
  for (const id of ids) assert.ok(seenIds.includes(id), `session ${id} served`);
  // Newest first throughout: (started_at, id) strictly decreasing.
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1], seen[i]];
    assert.ok(a.started_at > b.started_at || (a.started_at === b.started_at && a.id > b.id));
  }
  // Those that arrived during the walk are newer than its first page: on the next walk.
  const again = (await walk(owner, form, "limit=100")).map((s) => s.id);
  assert.equal(again.length, ids.length + arrived.length);
});

test("sessions: state and since/until filter the list, and a cursor is bound to its filters", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const start = new Date("2026-01-10T00:00:00Z");
  const ids = await bulkSessions(owner, form, 30, start, { completedEvery: 3 });
  const completed = ids.filter((_, i) => (i + 1) % 3 === 0);

  const done = await walk(owner, form, "limit=4&state=completed");
  assert.deepEqual(done.map((s) => s.id).sort(), [...completed].sort());
  assert.ok(done.every((s) => s.state === "completed"));
  const open = await walk(owner, form, "limit=4&state=started");
  assert.equal(open.length, ids.length - completed.length);
  assert.ok(open.every((s) => s.state === "started" && s.completed_at === null));

  // since inclusive, until exclusive: sessions 5 to 14 (started at +5 s to +14 s).
  const since = new Date(start.getTime() + 5000).toISOString();
  const until = new Date(start.getTime() + 15_000).toISOString();
  const range = await walk(owner, form, `limit=3&since=${since}&until=${until}`);
  assert.deepEqual(range.map((s) => s.id).sort(), ids.slice(4, 14).sort());

  const p = await page(owner, form, "limit=2&state=completed");
  const foreign = await get(
    owner,
    `/api/v1/questionnaires/${form.id}/sessions?limit=2&state=started&cursor=${
      encodeURIComponent(p.next_cursor!)
    }`,
  );
  assert.equal(foreign.status, 400);
  assert.equal((foreign.body.error as { field: string }).field, "cursor");
  const tampered = await get(
    owner,
    `/api/v1/questionnaires/${form.id}/sessions?limit=2&state=completed&cursor=x${p.next_cursor}`,
  );
  assert.equal(tampered.status, 400);
  service.clock.advance(25 * 3600_000);
  try {
    const expired = await get(
      owner,
      `/api/v1/questionnaires/${form.id}/sessions?limit=2&state=completed&cursor=${
        encodeURIComponent(p.next_cursor!)
      }`,
    );
    assert.equal(expired.status, 400, "expired after 24 h");
  } finally {
    service.clock.set(new Date());
  }
  // Signed by the service but holding a key no page gave (a day February lacks, a negative id).
  const scope = {
    list: "sessions",
    filter: {
      workspace: owner.workspaceId,
      questionnaire: form.id,
      state: null,
      since: null,
      until: null,
    },
  };
  for (const key of [["2026-02-30T00:00:00.000000Z", 5], ["2026-02-01T00:00:00.000000Z", -5]]) {
    const forged = await encodeCursor(service.app, scope, key);
    const res = await get(
      owner,
      `/api/v1/questionnaires/${form.id}/sessions?cursor=${encodeURIComponent(forged)}`,
    );
    assert.equal(res.status, 400, JSON.stringify(key));
  }
  const signed = await encodeCursor(service.app, scope, ["2026-01-10T00:00:20.000000Z", ids[19]]);
  const rest = await get(
    owner,
    `/api/v1/questionnaires/${form.id}/sessions?limit=100&cursor=${encodeURIComponent(signed)}`,
  );
  assert.equal((rest.body.data as Session[]).length, 19, "a well-formed key pages on");
  for (const query of ["state=done", `since=${until}&until=${since}`, "since=yesterday"]) {
    const bad = await get(owner, `/api/v1/questionnaires/${form.id}/sessions?${query}`);
    assert.equal(bad.status, 400, query);
  }
});

test("summary: per question answered counts, option counts, min/max/mean and value counts, and completion, exact and within since/until", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner, [
    { title: "Comment", type: "text", required: false },
    { title: "Plan", type: "choice", options: ["free", "pro", "business"] },
    { title: "Score", type: "rating" },
    { title: "Team size", type: "number", required: false },
  ]);
  const start = new Date("2026-02-01T00:00:00Z");
  const ids = await bulkSessions(owner, form, 120, start, { completedEvery: 4 });
  const [comment, plan, score, size] = form.questions;
  // Session i (1-based): comment empty when i % 5 = 0; plan by i % 3 (no business when
  // i % 7 = 0: none of those is skipped); score 1 + i % 5, only for i <= 100; size i % 9 * 10.5.
  const given: { i: number; q: number; text: string }[] = [];
  ids.forEach((_, k) => {
    const i = k + 1;
    given.push({ i, q: comment.id, text: i % 5 === 0 ? "" : `note ${i}` });
    given.push({ i, q: plan.id, text: ["free", "pro", "free"][i % 3] });
    if (i <= 100) given.push({ i, q: score.id, text: String(1 + (i % 5)) });
    given.push({ i, q: size.id, text: String((i % 9) * 10.5) });
  });
  await service.db.sql`
    insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
    select (${ids}::int8[])[g.i], g.q, ${form.id}, g.text, now()
    from jsonb_to_recordset(${JSON.stringify(given)}::jsonb) as g(i int, q int8, text text)`;

  function expected(range: (i: number) => boolean) {
    const rows = given.filter((g) => range(g.i));
    const of = (q: number) => rows.filter((g) => g.q === q && g.text !== "").map((g) => g.text);
    const nums = (q: number) => of(q).map(Number);
    const stats = (q: number) => {
      const v = nums(q);
      return v.length
        ? {
          min: Math.min(...v),
          max: Math.max(...v),
          mean: v.reduce((a, b) => a + b, 0) / v.length,
        }
        : { min: null, max: null, mean: null };
    };
    const counts = (values: string[], q: number) =>
      values.map((value) => of(q).filter((t) => t === value).length);
    const started = ids.filter((_, k) => range(k + 1)).length;
    const completed = ids.filter((_, k) => range(k + 1) && (k + 1) % 4 === 0).length;
    const sizes = [...new Set(nums(size.id))].sort((a, b) => a - b);
    return {
      started,
      completed,
      rate: started ? completed / started : null,
      answered: [comment, plan, score, size].map((q) => of(q.id).length),
      skipped: rows.filter((g) => g.q === comment.id && g.text === "").length,
      options: counts(["free", "pro", "business"], plan.id),
      score: { ...stats(score.id), values: counts(["1", "2", "3", "4", "5"], score.id) },
      size: {
        ...stats(size.id),
        values: sizes.map((v) => [v, nums(size.id).filter((n) => n === v).length]),
      },
    };
  }

  // deno-lint-ignore no-explicit-any
  async function check(query: string, want: ReturnType<typeof expected>): Promise<any> {
    const res = await get(owner, `/api/v1/questionnaires/${form.id}/summary?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // deno-lint-ignore no-explicit-any
    const got = res.body as any;
    assert.deepEqual(got.sessions, {
      started: want.started,
      completed: want.completed,
      completion_rate: want.rate,
    });
    // deno-lint-ignore no-explicit-any
    const [c, p, s, n] = got.questions as any[];
    assert.deepEqual(
      got.questions.map((q: { id: number }) => q.id),
      form.questions.map((q) => q.id),
    );
    assert.deepEqual([c, p, s, n].map((q) => q.answered), want.answered);
    assert.equal(c.skipped, want.skipped);
    assert.equal(c.options, null);
    assert.equal(c.values, null);
    assert.equal(c.mean, null);
    assert.deepEqual(p.options, [
      { option: "free", count: want.options[0] },
      { option: "pro", count: want.options[1] },
      { option: "business", count: want.options[2] },
    ]);
    assert.equal(p.mean, null);
    assert.deepEqual([s.min, s.max], [want.score.min, want.score.max]);
    assert.ok(Math.abs(s.mean - want.score.mean!) < 1e-9, `${s.mean} vs ${want.score.mean}`);
    assert.deepEqual(
      s.values,
      want.score.values.map((count, i) => ({ value: i + 1, count })),
    );
    assert.deepEqual([n.min, n.max], [want.size.min, want.size.max]);
    assert.ok(Math.abs(n.mean - want.size.mean!) < 1e-9);
    assert.deepEqual(n.values, want.size.values.map(([value, count]) => ({ value, count })));
    return got;
  }

  await check("", expected(() => true));
  // Sessions started at +20 s (inclusive) to +110 s (exclusive): i from 20 to 109.
  const since = new Date(start.getTime() + 20_000).toISOString();
  const until = new Date(start.getTime() + 110_000).toISOString();
  const got = await check(`since=${since}&until=${until}`, expected((i) => i >= 20 && i < 110));
  assert.equal(got.since, since);
  assert.equal(got.until, until);
  const none = await get(
    owner,
    `/api/v1/questionnaires/${form.id}/summary?since=2030-01-01T00:00:00Z`,
  );
  // deno-lint-ignore no-explicit-any
  const empty = none.body as any;
  assert.deepEqual(empty.sessions, { started: 0, completed: 0, completion_rate: null });
  assert.deepEqual(empty.questions[2].values.map((v: { count: number }) => v.count), [
    0,
    0,
    0,
    0,
    0,
  ]);
  assert.equal(empty.questions[3].mean, null);
  const bad = await get(
    owner,
    `/api/v1/questionnaires/${form.id}/summary?since=${until}&until=${since}`,
  );
  assert.equal(bad.status, 400);
});

test("summary: a number question with many distinct values gives no per-value counts", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner, [{ title: "Age", type: "number" }]);
  const ids = await bulkSessions(owner, form, 30, new Date(Date.now() - 60_000));
  await service.db.sql`
    insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
    select id, ${form.questions[0].id}, ${form.id}, (row_number() over (order by id))::text, now()
    from unnest(${ids}::int8[]) as id`;
  const res = await get(owner, `/api/v1/questionnaires/${form.id}/summary`);
  // deno-lint-ignore no-explicit-any
  const q = (res.body as any).questions[0];
  assert.deepEqual([q.answered, q.min, q.max, q.mean, q.values], [30, 1, 30, 15.5, null]);
});

test("summary: the all-time and the period tallies agree after answers, completions and erasures", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner, [
    { title: "Plan", type: "choice", options: ["free", "pro"] },
    { title: "Score", type: "rating" },
    { title: "Note", type: "text", required: false },
    { title: "Size", type: "number", required: false },
  ]);
  const ids: number[] = [];
  for (let i = 0; i < 12; i++) {
    const id = await startSession(service, form.slug, sessionBody({ email: `t${i}@example.com` }));
    ids.push(id);
    const texts = [i % 3 ? "free" : "pro", String(1 + (i % 5)), i % 4 ? `note ${i}` : "", `${i}`];
    // Every third session stops after two answers; the others complete.
    for (const [k, q] of form.questions.entries()) {
      if (i % 3 === 2 && k >= 2) break;
      const res = await answer(service, form.slug, id, q.id, texts[k]);
      assert.equal(res.status, 201);
      await res.body?.cancel();
    }
  }
  const base = `/api/v1/questionnaires/${form.id}`;
  for (const id of ids.slice(0, 3)) {
    const res = await service.fetch(`${base}/sessions/${id}`, {
      method: "DELETE",
      headers: owner.headers(),
    });
    assert.equal(res.status, 204);
  }
  const erased = await service.fetch("/api/v1/workspace/erasures", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ email: "t5@example.com" }),
  });
  assert.equal(erased.status, 200);
  await erased.body?.cancel();
  const tallied = (await get(owner, `${base}/summary`)).body;
  const counted = (await get(owner, `${base}/summary?since=2000-01-01T00:00:00Z`)).body;
  assert.deepEqual({ ...counted, since: null }, tallied);
  // deno-lint-ignore no-explicit-any
  const sessions = tallied.sessions as any;
  assert.deepEqual([sessions.started, sessions.completed], [8, 6]);
});

test("sessions: close the service", async () => {
  await service.close();
});
