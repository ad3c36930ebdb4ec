// The database deadline of the forms API and of the other /api/ routes (DATABASE_TIMEOUT_MS):
// a slow database answers 500 INTERNAL at the deadline, and a write given up there is not
// committed afterwards, or, once sent, is replayed by its Idempotency-Key. The database here
// answers every statement at once but the test holds chosen answers back, so each case is
// exact on both databases; tests/forms/dbstall_test.ts stalls a real connection.

import assert from "node:assert/strict";
import { aroundQueries, type Db, type Sql } from "../../lib/db/db.ts";
import { compile } from "../../lib/db/template.ts";
import { body, startTestService, test, withRequestTimeouts } from "../_server.ts";
import { postSession, publishedQuestionnaire, registerUser, sessionBody } from "./_forms.ts";

const DEADLINE_MS = 1000;
/** Every request of the tests gives up after this long: a broken rule fails, never hangs. */
const REQUEST_TIMEOUT_MS = 5000;

/** Answers of statements whose text matches `pattern` wait for `release()`; they are sent at once. */
function heldAnswers() {
  let pattern: RegExp | null = null;
  let gate = Promise.withResolvers<void>();
  const pending: Promise<unknown>[] = [];
  const holding = (sql: Sql): Sql =>
    aroundQueries(sql, (query, strings, values) => {
      const answer = query(sql);
      // The whole text, fragments included: a statement may be composed (countedStatement).
      if (!pattern?.test(compile(strings, values).text)) return answer;
      answer.catch(() => {});
      const held = gate.promise.then(() => answer);
      pending.push(held.catch(() => {}));
      return held;
    });
  return {
    hold(what: RegExp) {
      pattern = what;
      gate = Promise.withResolvers<void>();
    },
    /** Lets the held answers through and waits until they, and their transactions, are done. */
    async release() {
      pattern = null;
      gate.resolve();
      while (pending.length) await pending.shift();
    },
    wrap: (db: Db): Db => ({
      ...db,
      sql: holding(db.sql),
      begin: (fn) => {
        const done = db.begin((tx) => fn(holding(tx)));
        pending.push(done.catch(() => {}));
        return done;
      },
    }),
  };
}

const held = heldAnswers();
const service = withRequestTimeouts(
  await startTestService({
    // The deadline under test is set below, after the setup: registering hashes a password,
    // which on a loaded machine (the suite's files run in parallel) can take longer than it.
    env: { DATABASE_TIMEOUT_MS: "60000", RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" },
    wrapDb: held.wrap,
  }),
  REQUEST_TIMEOUT_MS,
);
const owner = await registerUser(service, { bearer: true });
const form = await publishedQuestionnaire(service, owner);
service.app.config.databaseTimeoutMs = DEADLINE_MS;

async function timed(path: string, init: RequestInit = {}) {
  const t0 = performance.now();
  const res = await service.fetch(path, init);
  // deno-lint-ignore no-explicit-any
  const json = await body<any>(res);
  return { status: res.status, headers: res.headers, json, ms: performance.now() - t0 };
}

function assertGivenUp(res: Awaited<ReturnType<typeof timed>>, what: string) {
  assert.equal(res.status, 500, `${what}: ${JSON.stringify(res.json)}`);
  assert.equal(res.json.error.code, "INTERNAL");
  assert.ok(res.ms >= DEADLINE_MS - 50, `${what} answered in ${Math.round(res.ms)} ms`);
  assert.ok(res.ms < DEADLINE_MS + 1500, `${what} took ${Math.round(res.ms)} ms`);
  assert.doesNotMatch(JSON.stringify(res.json), /deadline|no answer within/);
}

function createToken(name: string, key?: string) {
  return timed("/api/v1/auth/tokens", {
    method: "POST",
    headers: {
      authorization: `Bearer ${owner.token}`,
      "content-type": "application/json",
      ...(key ? { "idempotency-key": key } : {}),
    },
    body: JSON.stringify({ name }),
  });
}

test("deadline: a transaction given up at the deadline rolls back instead of committing later", async () => {
  held.hold(/insert into auth_tokens/);
  try {
    assertGivenUp(await createToken("given-up"), "POST /auth/tokens");
  } finally {
    await held.release();
  }
  assert.equal(await tokens("given-up"), 0, "the token was committed after its 500");
  // The service answers normally again.
  assert.equal((await createToken("after")).status, 201);
});

test("deadline: a statement not sent by the deadline is never sent", async () => {
  // Login's first statement waits; the session it would open comes after.
  const before = await sessionTokens(owner.userId);
  held.hold(/delete from login_failures/);
  try {
    const res = await timed("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: owner.email, password: owner.password }),
    });
    assertGivenUp(res, "POST /auth/login");
  } finally {
    await held.release();
  }
  // Give the abandoned work every chance to go on to its writes.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await timed(`/api/v1/public/q/${form.slug}`)).status, 200);
  assert.equal(await sessionTokens(owner.userId), before, "a session was opened after its 500");
});

test("deadline: a single statement sent before the deadline commits, and its key replays it", async () => {
  held.hold(/onda_start_session/);
  const name = `sent-${crypto.randomUUID()}`;
  const key = crypto.randomUUID();
  const headers = { "idempotency-key": key };
  const payload = sessionBody({ name });
  try {
    const t0 = performance.now();
    const first = await postSession(service, form.slug, payload, headers);
    assert.equal(first.status, 500);
    await first.body?.cancel();
    assert.ok(performance.now() - t0 < DEADLINE_MS + 1500);
  } finally {
    await held.release();
  }
  const retry = await postSession(service, form.slug, payload, headers);
  assert.equal(retry.status, 201, await retry.clone().text());
  assert.equal(retry.headers.get("idempotent-replayed"), "true");
  await retry.body?.cancel();
  assert.equal(await sessions(name), 1);
});

test("deadline: a keyed creating POST whose write was sent runs to its end and is replayed, never written twice", async () => {
  // POST /exports writes in one statement, then reads to build its answer: stopped between the
  // two, its committed export would have no stored answer, and the retry would create another.
  held.hold(/insert into exports/);
  const key = crypto.randomUUID();
  const create = () =>
    timed("/api/v1/exports", {
      method: "POST",
      headers: owner.headers({ "idempotency-key": key }),
      body: JSON.stringify({ questionnaire_id: form.id, format: "csv" }),
    });
  try {
    assertGivenUp(await create(), "POST /exports");
  } finally {
    await held.release();
  }
  let retry = await create();
  for (let i = 0; retry.status === 409 && i < 50; i++) {
    await new Promise((r) => setTimeout(r, 20));
    retry = await create();
  }
  assert.equal(retry.status, 202, JSON.stringify(retry.json));
  assert.equal(retry.headers.get("idempotent-replayed"), "true");
  assert.equal(await exportsOf(form.id), 1, "the retry wrote a second export");
});

test("deadline: a keyed transaction given up is replayed by its key, with one token", async () => {
  held.hold(/insert into auth_tokens/);
  const key = crypto.randomUUID();
  try {
    assertGivenUp(await createToken("keyed", key), "POST /auth/tokens with a key");
  } finally {
    await held.release();
  }
  const retry = await createToken("keyed", key);
  assert.equal(retry.status, 201);
  assert.equal(retry.headers.get("idempotent-replayed"), "true");
  assert.equal(await tokens("keyed"), 1);
});

test("deadline: a download whose next batch the database does not answer ends broken", async () => {
  const created = await timed("/api/v1/exports", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ questionnaire_id: form.id, format: "csv" }),
  });
  assert.equal(created.status, 202);
  held.hold(/with batch as/);
  try {
    const res = await service.fetch(created.json.download_url, { headers: owner.headers() });
    assert.equal(res.status, 200);
    const t0 = performance.now();
    await assert.rejects(res.text(), (err: Error) => err.name !== "TimeoutError");
    const ms = performance.now() - t0;
    assert.ok(ms < DEADLINE_MS + 1500, `the download hung ${Math.round(ms)} ms`);
  } finally {
    await held.release();
  }
});

test("deadline: the document and unknown /api/ paths wait no longer than the deadline", async () => {
  held.hold(/from maintenance_window/);
  try {
    for (const path of ["/api/openapi", "/api/v1/no-such-thing"]) {
      assertGivenUp(await timed(path), `GET ${path}`);
    }
    // Outside /api/ nothing waits for the database.
    const embed = await service.fetch("/embed.js", { signal: AbortSignal.timeout(1000) });
    assert.equal(embed.status, 200);
    await embed.body?.cancel();
  } finally {
    await held.release();
  }
  assert.equal((await timed("/api/openapi")).status, 200);
});

test("deadline: close", async () => {
  await service.close();
});

async function tokens(name: string): Promise<number> {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from auth_tokens where name = ${name}`;
  return row.n;
}

async function sessionTokens(userId: string): Promise<number> {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from auth_tokens where user_id = ${userId} and kind = 'session'`;
  return row.n;
}

async function sessions(name: string): Promise<number> {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from sessions where name = ${name}`;
  return row.n;
}

async function exportsOf(questionnaireId: string): Promise<number> {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from exports where questionnaire_id = ${questionnaireId}`;
  return row.n;
}
