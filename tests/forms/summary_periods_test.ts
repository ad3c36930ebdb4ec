// GET /api/v1/questionnaires/{id}/summary with since/until (lib/forms/summary.ts): a period's
// figures come from tallies per day and hour of the sessions' start plus the sessions of its
// partial first and last hours (sql/010_period_tallies.sql). Each is checked against the same
// figures counted here from the sessions and answers the test wrote, for periods on and off
// hour and day boundaries, after completions and erasures.

import assert from "node:assert/strict";
import { body, PG_URL, startTestService, test } from "../_server.ts";
import { publishedQuestionnaire, registerUser } from "./_forms.ts";

const service = await startTestService({
  env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000", RATE_LIMIT_USER_PER_MINUTE: "1000000" },
});

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const BASE = Date.parse("2026-03-10T00:00:00Z");

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Written {
  id: number;
  email: string;
  started: number;
  completed: boolean;
  answers: Map<number, string>;
}

const QUESTIONS = [
  { title: "Plan", type: "choice" as const, options: ["free", "pro", "business"] },
  { title: "Score", type: "rating" as const },
  { title: "Seats", type: "number" as const, required: false },
  { title: "Note", type: "text" as const, required: false },
];

/** The summary's figures, counted from what the test wrote. */
function expected(
  sessions: Written[],
  questions: { id: number; type: string; options: string[] | null }[],
  since: number | null,
  until: number | null,
) {
  const inside = sessions.filter((s) =>
    (since === null || s.started >= since) && (until === null || s.started < until)
  );
  const started = inside.length;
  const completed = inside.filter((s) => s.completed).length;
  return {
    sessions: { started, completed, completion_rate: started ? completed / started : null },
    questions: questions.map((q) => {
      const given = inside.flatMap((s) => s.answers.has(q.id) ? [s.answers.get(q.id)!] : []);
      const filled = given.filter((t) => t !== "");
      const numeric = q.type === "number" || q.type === "rating";
      const nums = numeric ? filled.map(Number) : [];
      const distinct = [...new Set(nums)].sort((a, b) => a - b);
      const count = (v: number) => nums.filter((n) => n === v).length;
      return {
        id: q.id,
        answered: filled.length,
        skipped: given.length - filled.length,
        options: q.type === "choice"
          ? q.options!.map((option) => ({
            option,
            count: filled.filter((t) => t === option).length,
          }))
          : null,
        min: nums.length ? Math.min(...nums) : null,
        max: nums.length ? Math.max(...nums) : null,
        mean: nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : null,
        values: q.type === "rating"
          ? [1, 2, 3, 4, 5].map((value) => ({ value, count: count(value) }))
          : q.type === "number" && distinct.length > 0 && distinct.length <= 20
          ? distinct.map((value) => ({ value, count: count(value) }))
          : null,
      };
    }),
  };
}

/** Starts, answers in two rounds, completions: through SQL, where the tallies' triggers run. */
async function writeSessions(
  owner: { workspaceId: string },
  form: { id: string; questions: { id: number; type: string; options: string[] | null }[] },
  next: () => number,
): Promise<Written[]> {
  // On and beside the hour and day boundaries around BASE, and anywhere in four days.
  const offsets = [0, -1, 1, HOUR, HOUR - 1, HOUR + 1, DAY, DAY - 1, DAY + 1, 2 * DAY, -DAY];
  for (let i = 0; i < 60; i++) offsets.push(Math.floor((next() * 4 - 1.5) * DAY));
  const sessions: Written[] = offsets.map((offset, i) => ({
    id: 1 + Math.floor(next() * 2 ** 50),
    email: i % 13 === 0
      ? (i % 2 ? "Erase-Me@Example.com" : "erase-me@example.com")
      : `p${i}@example.com`,
    started: BASE + offset,
    completed: false,
    answers: new Map(),
  }));
  await service.db.sql`
    insert into sessions (id, questionnaire_id, workspace_id, name, email, loaded_at, started_at,
                          total)
    select s.id, ${form.id}, ${owner.workspaceId}, 'Visitor', s.email, s.at, s.at, 4
    from jsonb_to_recordset(${
    JSON.stringify(sessions.map((s) => ({
      id: s.id,
      email: s.email,
      at: new Date(s.started).toISOString(),
    })))
  }::jsonb) as s(id int8, email text, at timestamptz)`;
  // Seats: a few values in some sessions, from a wide range in others (so that some periods
  // have more than 20 distinct values and others fewer).
  const text = (q: { type: string; options: string[] | null }) =>
    q.type === "choice"
      ? q.options![Math.floor(next() * 3)]
      : q.type === "rating"
      ? String(1 + Math.floor(next() * 5))
      : q.type === "number"
      ? (next() < 0.2
        ? ""
        : next() < 0.4
        ? ["1", "2", "2.5", "10"][Math.floor(next() * 4)]
        : String(Math.floor(next() * 1000) / 4))
      : next() < 0.3
      ? ""
      : `words "${Math.floor(next() * 1e6)}"`;
  for (const round of [0, 1]) {
    const rows: { id: number; q: number; text: string; at: string }[] = [];
    for (const s of sessions) {
      // The first round answers the first questions of every session; the second, later,
      // the rest of most (the answers of a session started long before).
      const upTo = round === 0 ? 2 : next() < 0.75 ? 4 : 2;
      for (const q of form.questions.slice(round === 0 ? 0 : 2, upTo)) {
        const t = text(q);
        s.answers.set(q.id, t);
        rows.push({ id: s.id, q: q.id, text: t, at: new Date(s.started + 1000).toISOString() });
      }
    }
    await service.db.sql`
      insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
      select r.id, r.q, ${form.id}, r.text, r.at
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r(id int8, q int8, text text, at timestamptz)`;
  }
  for (const s of sessions) s.completed = s.answers.size === 4 && next() < 0.8;
  await service.db.sql`
    update sessions set completed_at = started_at + interval '1 minute', answered = 4
    where id = any(${sessions.filter((s) => s.completed).map((s) => s.id)}::int8[])`;
  return sessions;
}

test("summary: any period's figures equal those counted from its sessions, on and off hour and day boundaries, after completions and erasures", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner, QUESTIONS);
  const next = random(20261128);
  let sessions = await writeSessions(owner, form, next);
  const base = `/api/v1/questionnaires/${form.id}`;
  // One session erased by its route, three by address (one of them under another case).
  const one = sessions.find((s) => s.completed && !s.email.includes("erase"))!;
  const res = await service.fetch(`${base}/sessions/${one.id}`, {
    method: "DELETE",
    headers: owner.headers(),
  });
  assert.equal(res.status, 204);
  const erased = await service.fetch("/api/v1/workspace/erasures", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ email: "erase-me@example.com" }),
  });
  const gone = sessions.filter((s) => s.email.toLowerCase() === "erase-me@example.com");
  assert.equal((await body<{ sessions: number }>(erased)).sessions, gone.length);
  assert.ok(gone.length >= 3);
  sessions = sessions.filter((s) => s !== one && !gone.includes(s));

  const periods: [number | null, number | null][] = [
    [null, null], // all time
    [BASE, BASE + DAY], // a whole day
    [BASE - DAY, BASE + 2 * DAY], // whole days
    [BASE + HOUR, BASE + 5 * HOUR], // whole hours
    [BASE + 1, BASE + DAY - 1], // a millisecond inside both ends
    [BASE - 1, BASE + DAY + 1], // a millisecond outside both ends
    [BASE + 10 * 60_000, BASE + 50 * 60_000], // within one hour
    [BASE - HOUR / 2, BASE + HOUR / 2], // across one hour boundary
    [BASE - 5 * HOUR - 17, BASE + 30 * HOUR + 23], // hours, a day and hours again
    [BASE, null], // since alone
    [null, BASE + DAY + 1], // until alone
    [null, BASE - 3 * DAY], // before everything
    [BASE + 10 * DAY, null], // after everything
  ];
  for (let i = 0; i < 40; i++) {
    const a = BASE + Math.floor((next() * 5 - 2) * DAY);
    const b = a + 1 + Math.floor(next() * (next() < 0.5 ? 3 * HOUR : 3 * DAY));
    periods.push([next() < 0.1 ? null : a, next() < 0.1 ? null : b]);
  }
  let wide = 0;
  for (const [since, until] of periods) {
    const query = [
      since === null ? "" : `since=${new Date(since).toISOString()}`,
      until === null ? "" : `until=${new Date(until).toISOString()}`,
    ].filter(Boolean).join("&");
    const got = await service.fetch(`${base}/summary?${query}`, { headers: owner.headers() });
    assert.equal(got.status, 200, query);
    // deno-lint-ignore no-explicit-any
    const summary = await body<any>(got);
    const want = expected(sessions, form.questions, since, until);
    assert.deepEqual(summary.sessions, want.sessions, query);
    for (const [k, w] of want.questions.entries()) {
      const q = summary.questions[k];
      const { mean, ...rest } = w;
      assert.deepEqual(
        {
          id: q.id,
          answered: q.answered,
          skipped: q.skipped,
          options: q.options,
          min: q.min,
          max: q.max,
          values: q.values,
        },
        rest,
        `${query}: question ${k}`,
      );
      assert.ok(
        mean === null ? q.mean === null : Math.abs(q.mean - mean) < 1e-9,
        `${query}: mean ${q.mean} vs ${mean}`,
      );
    }
    if (want.questions[2].answered > 0 && want.questions[2].values === null) wide++;
  }
  assert.ok(wide > 0, "some period has more than 20 distinct numbers");
});

// PGlite is one connection that runs one transaction at a time: nothing to stage there.
Deno.test({
  name: "summary: answers that count in one tally row at the same moment neither wait nor get lost",
  ignore: !PG_URL,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const owner = await registerUser(service);
    const form = await publishedQuestionnaire(service, owner, [{ title: "Note", type: "text" }]);
    const at = new Date(BASE + 5 * 60_000);
    const [earlier, first, second] = [1, 2, 3].map((i) => BASE / 1000 + i);
    await service.db.sql`
      insert into sessions (id, questionnaire_id, workspace_id, name, email, loaded_at,
                            started_at, total)
      select id, ${form.id}, ${owner.workspaceId}, 'V', 'v@example.com', ${at}, ${at}, 1
      from unnest(${[earlier, first, second]}::int8[]) as id`;
    const insert = (sql: typeof service.db.sql, id: number) =>
      sql`insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
          values (${id}, ${form.questions[0].id}, ${form.id}, 'same', ${at})`;
    // The hour's and the day's rows exist; the first answer then holds them until it commits,
    // and the second, on another connection, must not wait for it (a lock wait fails it
    // after 2 s).
    await insert(service.db.sql, earlier);
    await service.db.begin(async (tx) => {
      await insert(tx, first);
      await service.db.begin(async (other) => {
        await other`set local lock_timeout = '2s'`;
        await insert(other, second);
      });
    });
    const rows = await service.db.sql<{ hours: number; rows: number; n: number }>`
      select hours, count(*)::int as rows, sum(n)::int as n from answer_tallies
      where questionnaire_id = ${form.id} group by hours order by hours`;
    assert.deepEqual([...rows], [
      { hours: 0, rows: 2, n: 3 },
      { hours: 1, rows: 2, n: 3 },
      { hours: 24, rows: 2, n: 3 },
    ]);
    const res = await service.fetch(
      `/api/v1/questionnaires/${form.id}/summary?since=${new Date(BASE - DAY).toISOString()}`,
      { headers: owner.headers() },
    );
    // deno-lint-ignore no-explicit-any
    const summary = await body<any>(res);
    assert.equal(summary.questions[0].answered, 3);
  },
});

test("summary periods: close the service", async () => {
  await service.close();
});
