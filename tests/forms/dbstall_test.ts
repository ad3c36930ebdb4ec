// A stalled database under the forms API: the service reaches PostgreSQL through a TCP proxy
// that holds every answer with the connections left open. Public sessions, answers, login and
// the authenticated API answer 500 INTERNAL at DATABASE_TIMEOUT_MS; a write given up there
// either never commits or, sent before, is replayed by its Idempotency-Key; the service
// answers normally once the database does.

import assert from "node:assert/strict";
import { body, test, withRequestTimeouts } from "../_server.ts";
import { serviceBehindProxy } from "../_tcp_proxy.ts";
import {
  answer,
  postSession,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  startSession,
} from "./_forms.ts";

// Wide enough apart that a loaded machine (the suite's files run in parallel) still tells a
// request that waited for the deadline from one answered at once.
const DEADLINE_MS = 2000;
/** Every request of the test gives up after this long: a broken rule fails, never hangs. */
const REQUEST_TIMEOUT_MS = 8000;
// The deadline under test applies from the stall on: the setup and the checks after it hash
// passwords (register, login), which on a loaded machine can take longer than it.
const RELAXED_MS = 60_000;
const behind = await serviceBehindProxy({
  DATABASE_TIMEOUT_MS: String(RELAXED_MS),
  RATE_LIMIT_PUBLIC_PER_MINUTE: "100000",
}, 3_600_000);
// The maintenance window is read before the stall and kept, as in production between its reads:
// each request's own statements are what the stall holds, writes included.
const { proxy } = behind;
const service = withRequestTimeouts(behind.service, REQUEST_TIMEOUT_MS);
const { db, logs } = service;
const config = service.app.config;

const owner = await registerUser(service, { bearer: true });
const form = await publishedQuestionnaire(service, owner);
const second = form.questions[1];
// Answering puts a question in the service's cache, so an answer's one statement is its write.
const warm = await startSession(service, form.slug);
assert.equal((await answer(service, form.slug, warm, second.id, "5")).status, 201);
const sessionId = await startSession(service, form.slug);

async function timed(response: Promise<Response>) {
  const t0 = performance.now();
  const res = await response;
  // deno-lint-ignore no-explicit-any
  const json = await body<any>(res);
  return { status: res.status, headers: res.headers, json, ms: performance.now() - t0 };
}

const bearer = { authorization: `Bearer ${owner.token}` };
const listQuestionnaires = () =>
  timed(service.fetch("/api/v1/questionnaires", { headers: bearer }));
const login = () =>
  timed(service.fetch("/api/v1/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: owner.email, password: owner.password }),
  }));
const createToken = (name: string) =>
  timed(service.fetch("/api/v1/auth/tokens", {
    method: "POST",
    headers: { ...bearer, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  }));

async function count(what: "sessions" | "answers" | "logins" | "tokens"): Promise<number> {
  const [row] = what === "sessions"
    ? await db.sql<{ n: number }>`
        select count(*)::int as n from sessions where questionnaire_id = ${form.id}`
    : what === "answers"
    ? await db.sql<{ n: number }>`
        select count(*)::int as n from answers where session_id = ${sessionId}`
    : await db.sql<{ n: number }>`
        select count(*)::int as n from auth_tokens
        where user_id = ${owner.userId} and kind = ${what === "logins" ? "session" : "api"}`;
  return row.n;
}

test("forms: a database that stops answering is 500 INTERNAL at the deadline; given-up writes are not committed, or are replayed by their key", async () => {
  const before = {
    sessions: await count("sessions"),
    answers: await count("answers"),
    logins: await count("logins"),
    tokens: await count("tokens"),
  };
  // Every connection of the pool open, as in a service that has been serving.
  await Promise.all(Array.from({ length: config.dbPoolMax }, () => db.sql`select pg_sleep(0.1)`));
  const sessionKey = { "idempotency-key": crypto.randomUUID() };
  const sessionPayload = sessionBody({ name: "During the stall" });
  const answerKey = { "idempotency-key": crypto.randomUUID() };
  const expectInternal = (res: Awaited<ReturnType<typeof timed>>, what: string) => {
    assert.equal(res.status, 500, `${what}: ${JSON.stringify(res.json)}`);
    assert.deepEqual(Object.keys(res.json.error), ["code", "message", "field", "trace_id"]);
    assert.equal(res.json.error.code, "INTERNAL");
    assert.equal(res.json.error.trace_id, res.headers.get("x-trace-id"));
    assert.doesNotMatch(JSON.stringify(res.json), /given up|no answer within|ECONN/);
  };
  const logged = logs.length;
  config.databaseTimeoutMs = DEADLINE_MS;
  proxy.stalled = true;
  try {
    // As many requests as the pool has connections each wait for the deadline...
    const waited = [
      ["POST sessions", () => timed(postSession(service, form.slug, sessionPayload, sessionKey))],
      [
        "POST answers",
        () => timed(answer(service, form.slug, sessionId, second.id, "4", answerKey)),
      ],
      ["POST login", login],
      ["GET questionnaires", listQuestionnaires],
    ] as const;
    for (const [what, call] of waited) {
      const res = await call();
      expectInternal(res, what);
      assert.ok(res.ms >= DEADLINE_MS - 100, `${what} answered in ${Math.round(res.ms)} ms`);
      assert.ok(res.ms < DEADLINE_MS + 2500, `${what} took ${Math.round(res.ms)} ms`);
    }
    // ...and, theirs still waiting, later ones answer at once, writes and reads alike.
    for (
      const [what, call] of [
        ["POST tokens", () => createToken("during the stall")],
        ["GET questionnaires", listQuestionnaires],
      ] as const
    ) {
      const res = await call();
      expectInternal(res, what);
      assert.ok(
        res.ms < DEADLINE_MS / 2,
        `${what} waited ${Math.round(res.ms)} ms for a silent database`,
      );
    }
  } finally {
    proxy.stalled = false;
    config.databaseTimeoutMs = RELAXED_MS;
  }
  const errors = logs.slice(logged).filter((l) => l.status === 500).map((l) => JSON.stringify(l));
  assert.equal(errors.length, 6, "each 500 is logged");
  assert.ok(
    errors.slice(0, 4).every((e) => e.includes(`no answer within ${DEADLINE_MS} ms`)),
    errors[0],
  );
  assert.ok(errors.slice(4).every((e) => e.includes("4 requests given up")), errors[4]);

  const deadline = performance.now() + 15_000;
  while ((await listQuestionnaires()).status !== 200) {
    assert.ok(performance.now() < deadline, "the service did not recover within 15 s");
    await new Promise((r) => setTimeout(r, 50));
  }
  // The session and the answer had their one statement sent, with its key's record: it
  // committed, and the retry replays it.
  const session = await timed(postSession(service, form.slug, sessionPayload, sessionKey));
  assert.equal(session.status, 201, JSON.stringify(session.json));
  assert.equal(session.headers.get("idempotent-replayed"), "true");
  assert.equal(await count("sessions"), before.sessions + 1);
  const answered = await timed(answer(service, form.slug, sessionId, second.id, "4", answerKey));
  assert.equal(answered.status, 201, JSON.stringify(answered.json));
  assert.equal(answered.headers.get("idempotent-replayed"), "true");
  assert.equal(await count("answers"), before.answers + 1);

  // Everything answers normally again; the given-up login's session and the refused token,
  // not sent by the deadline, never were.
  assert.equal((await login()).status, 200);
  assert.equal((await createToken("after the stall")).status, 201);
  assert.equal(await count("logins"), before.logins + 1, "login opened a session after its 500");
  assert.equal(await count("tokens"), before.tokens + 1, "a token was created after its 500");
  assert.equal((await timed(postSession(service, form.slug))).status, 201);
});

test("forms dbstall: close", async () => {
  await behind.close();
});
