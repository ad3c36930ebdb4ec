// Idempotency-Key on creating POSTs (authenticated and public): UUID v4 or 400, replay with
// Idempotent-Replayed and no second side effect, another body 422, in flight 409, 24 h window,
// scoped by principal and route, the 50-request race, and the sealed records of register and
// token creation.

import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config.ts";
import { openDb } from "../../lib/db/db.ts";
import { startService } from "../../lib/server.ts";
import { type AuthRule, json, routeDefiner, serviceRules } from "../../lib/http/router.ts";
import { publicAccess, user as signedIn } from "../../lib/forms/auth.ts";
import {
  body,
  freshDatabase,
  PG_FALLBACK_URL,
  retriedAfterCrash,
  startTestService,
  test,
} from "../_server.ts";
import {
  answer,
  cookieFrom,
  postSession,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  startSession,
} from "./_forms.ts";

const service = await startTestService({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
const user = await registerUser(service);
const form = await publishedQuestionnaire(service, user);

function create(key: string | null, title = "Idem", who = user) {
  return service.fetch("/api/v1/questionnaires", {
    method: "POST",
    headers: who.headers(key ? { "idempotency-key": key } : {}),
    body: JSON.stringify({ title, questions: [] }),
  });
}

async function count(title: string) {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from questionnaires where title = ${title}`;
  return row.n;
}

test("idempotency: a key that is not a UUID v4 is 400 (field Idempotency-Key)", async () => {
  for (const key of ["abc", "00000000-0000-1000-8000-000000000000", crypto.randomUUID() + "x"]) {
    const res = await create(key, "BadKey");
    assert.equal(res.status, 400, key);
    const data = await body<{ error: { code: string; field: string } }>(res);
    assert.deepEqual([data.error.code, data.error.field], ["VALIDATION_FAILED", "Idempotency-Key"]);
  }
  const pub = await postSession(service, form.slug, sessionBody(), { "idempotency-key": "nope" });
  assert.equal(pub.status, 400);
  await pub.body?.cancel();
  assert.equal(await count("BadKey"), 0);
});

test("idempotency: same key, principal and route replays status, headers and body once", async () => {
  const key = crypto.randomUUID();
  const first = await create(key, "Replay");
  assert.equal(first.status, 201);
  assert.equal(first.headers.get("idempotent-replayed"), null);
  const original = await first.text();
  const second = await create(key, "Replay");
  assert.equal(second.status, 201);
  assert.equal(second.headers.get("idempotent-replayed"), "true");
  assert.equal(second.headers.get("content-type"), first.headers.get("content-type"));
  assert.equal(await second.text(), original);
  assert.equal(await count("Replay"), 1, "no second side effect");
  const without = await create(null, "Replay");
  assert.equal(without.status, 201, "without a key every request runs");
  await without.body?.cancel();
  assert.equal(await count("Replay"), 2);
});

test("idempotency: public creating POSTs replay without a second session or event", async () => {
  const key = crypto.randomUUID();
  const payload = sessionBody();
  const a = await postSession(service, form.slug, payload, { "idempotency-key": key });
  const b = await postSession(service, form.slug, payload, { "idempotency-key": key });
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  assert.equal(b.headers.get("idempotent-replayed"), "true");
  const [ida, idb] = [await body<{ sessionId: number }>(a), await body<{ sessionId: number }>(b)];
  assert.equal(ida.sessionId, idb.sessionId);
  const sessions = await service.db.sql`select 1 from sessions where questionnaire_id = ${form.id}`;
  assert.equal(sessions.length, 1);
  const answerKey = crypto.randomUUID();
  const q = form.questions[0];
  const r1 = await answer(service, form.slug, ida.sessionId, q.id, "hi", {
    "idempotency-key": answerKey,
  });
  const r2 = await answer(service, form.slug, ida.sessionId, q.id, "hi", {
    "idempotency-key": answerKey,
  });
  assert.equal(r1.status, 201);
  assert.equal(r2.status, 201, "a retried answer is replayed, not a 409 duplicate");
  assert.equal(r2.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(await body(r2), await body(r1));
  const events = await service.db.sql`
    select type from outbox_events where (data->>'session_id')::bigint = ${ida.sessionId}`;
  assert.deepEqual(events.map((e) => e.type).sort(), ["answer.submitted", "session.started"]);
});

test("idempotency: the same key with another body is 422 (field Idempotency-Key)", async () => {
  const key = crypto.randomUUID();
  await create(key, "BodyA").then((r) => r.body?.cancel());
  const res = await create(key, "BodyB");
  assert.equal(res.status, 422);
  const data = await body<{ error: { code: string; field: string } }>(res);
  assert.deepEqual([data.error.code, data.error.field], ["UNPROCESSABLE", "Idempotency-Key"]);
  assert.equal(await count("BodyB"), 0);
});

test("idempotency: keys are scoped by principal and route", async () => {
  const key = crypto.randomUUID();
  const other = await registerUser(service);
  const mine = await create(key, "Scoped");
  const theirs = await create(key, "Scoped", other);
  assert.equal(mine.status, 201);
  assert.equal(theirs.status, 201);
  assert.equal(theirs.headers.get("idempotent-replayed"), null, "another principal runs anew");
  await mine.body?.cancel();
  await theirs.body?.cancel();
  assert.equal(await count("Scoped"), 2);
  const session = await postSession(service, form.slug, sessionBody(), { "idempotency-key": key });
  assert.equal(session.status, 201, "another route runs anew");
  assert.equal(session.headers.get("idempotent-replayed"), null);
  await session.body?.cancel();
});

test("idempotency: one user's key sent to two keyed routes runs each anew", async () => {
  // Issue 30, item 7: only another principal or a public route was tried with the same key.
  const key = { "idempotency-key": crypto.randomUUID() };
  const owner = await registerUser(service);
  const questionnaire = await publishedQuestionnaire(service, owner);
  const invitee = `k${crypto.randomUUID().slice(0, 8)}@example.com`;
  const sends = [
    ["/api/v1/questionnaires", { title: "Two routes", questions: [] }, 201],
    ["/api/v1/auth/tokens", { name: "two routes" }, 201],
    ["/api/v1/exports", { questionnaire_id: questionnaire.id, format: "csv" }, 202],
    ["/api/v1/workspace/members", { email: invitee, role: "viewer" }, 202],
  ] as const;
  for (const [path, payload, status] of sends) {
    const res = await service.fetch(path, {
      method: "POST",
      headers: owner.headers(key),
      body: JSON.stringify(payload),
    });
    assert.equal(res.status, status, `${path}: ${await res.clone().text()}`);
    assert.equal(res.headers.get("idempotent-replayed"), null, `${path} ran anew`);
    await res.body?.cancel();
  }
  const sql = service.db.sql;
  const [made] = await sql<{ q: number; t: number; e: number; i: number }>`
    select (select count(*)::int from questionnaires where title = 'Two routes') as q,
           (select count(*)::int from auth_tokens where name = 'two routes') as t,
           (select count(*)::int from exports where questionnaire_id = ${questionnaire.id}) as e,
           (select count(*)::int from invitations where email = ${invitee}) as i`;
  assert.deepEqual(made, { q: 1, t: 1, e: 1, i: 1 });
  // And each replays its own answer.
  const again = await service.fetch("/api/v1/questionnaires", {
    method: "POST",
    headers: owner.headers(key),
    body: JSON.stringify(sends[0][1]),
  });
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  await again.body?.cancel();
});

test("idempotency: one key on two resources of one route pattern runs each anew", async () => {
  // Sessions of two questionnaires, answers to two sessions: the same key, body and caller each
  // time, only the path parameter differs. (Invitations are accepted by a secret in the body
  // now, on one path: two of them with one key are two bodies, 422.)
  const key = { "idempotency-key": crypto.randomUUID() };
  const second = await publishedQuestionnaire(service, user);
  const payload = sessionBody({ name: "One key, two forms" });
  const started: number[] = [];
  for (const slug of [form.slug, second.slug]) {
    const res = await postSession(service, slug, payload, key);
    assert.equal(res.status, 201, slug);
    assert.equal(res.headers.get("idempotent-replayed"), null, slug);
    started.push((await body<{ sessionId: number }>(res)).sessionId);
  }
  assert.notEqual(started[0], started[1]);
  const both = [await startSession(service, form.slug), await startSession(service, form.slug)];
  const q = form.questions[0];
  for (const sessionId of both) {
    const res = await answer(service, form.slug, sessionId, q.id, "same", key);
    assert.equal(res.status, 201, String(sessionId));
    assert.equal(res.headers.get("idempotent-replayed"), null, String(sessionId));
    await res.body?.cancel();
  }
  const [{ n }] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from answers where session_id = any(${both}::bigint[])`;
  assert.equal(n, 2);
});

test("idempotency: a key is remembered for 24 hours", async () => {
  const key = crypto.randomUUID();
  await create(key, "Window").then((r) => r.body?.cancel());
  service.clock.advance(23 * 3600 * 1000);
  try {
    const within = await create(key, "Window");
    assert.equal(within.headers.get("idempotent-replayed"), "true");
    await within.body?.cancel();
    service.clock.advance(2 * 3600 * 1000);
    const after = await create(key, "Window");
    assert.equal(after.status, 201);
    assert.equal(after.headers.get("idempotent-replayed"), null);
    await after.body?.cancel();
    assert.equal(await count("Window"), 2);
  } finally {
    service.clock.set(new Date());
  }
});

test("idempotency: a 4xx answer is stored and replayed", async () => {
  const sid = await startSession(service, form.slug);
  const key = crypto.randomUUID();
  const bad = await answer(service, form.slug, sid, form.questions[1].id, "9", {
    "idempotency-key": key,
  });
  assert.equal(bad.status, 400);
  const again = await answer(service, form.slug, sid, form.questions[1].id, "9", {
    "idempotency-key": key,
  });
  assert.equal(again.status, 400);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  const replayed = await body<{ error: { trace_id: string } }>(again);
  assert.deepEqual(replayed, await body(bad));
  assert.equal(again.headers.get("x-trace-id"), replayed.error.trace_id, "header and body agree");
});

test("idempotency: while the first request is still running, a repeat is 409", async () => {
  const key = crypto.randomUUID();
  const payload = sessionBody({ name: "InFlight" });
  // The claim row of a first request that has not finished (status null), as another
  // instance would hold it; the digest is that of the parsed body, in schema order.
  const parsed = { name: payload.name, email: payload.email, loaded_at: payload.loaded_at };
  const digest = Array.from(
    new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(parsed))),
    ),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  await service.db.sql`
    insert into idempotency_keys (principal, route, key, request_hash, created_at)
    values ('public', ${`POST /api/v1/public/q/${form.slug}/sessions`}, ${key}, ${digest},
            ${service.clock()})`;
  const res = await postSession(service, form.slug, payload, { "idempotency-key": key });
  assert.equal(res.status, 409);
  const data = await body<{ error: { code: string; field: string } }>(res);
  assert.deepEqual([data.error.code, data.error.field], ["CONFLICT", "Idempotency-Key"]);
  const rows = await service.db.sql`select 1 from sessions where name = 'InFlight'`;
  assert.equal(rows.length, 0);
});

test("idempotency: 50 concurrent POSTs with one key make one row and one event; others replay or 409", async () => {
  const key = crypto.randomUUID();
  const payload = JSON.stringify(sessionBody({ name: "Racer" }));
  const responses = await Promise.all(
    Array.from({ length: 50 }, () =>
      service.fetch(`/api/v1/public/q/${form.slug}/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: payload,
      }).then(async (res) => ({
        status: res.status,
        replayed: res.headers.get("idempotent-replayed"),
        data: await body<{ sessionId?: number; error?: { code: string } }>(res),
      }))),
  );
  const originals = responses.filter((r) => r.status === 201 && r.replayed === null);
  const replays = responses.filter((r) => r.status === 201 && r.replayed === "true");
  const conflicts = responses.filter((r) => r.status === 409);
  assert.equal(originals.length, 1, JSON.stringify(responses.map((r) => r.status)));
  assert.equal(originals.length + replays.length + conflicts.length, 50);
  for (const r of replays) assert.equal(r.data.sessionId, originals[0].data.sessionId);
  for (const r of conflicts) assert.equal(r.data.error?.code, "CONFLICT");
  const rows = await service.db.sql`select id from sessions where name = 'Racer'`;
  assert.equal(rows.length, 1);
  const events = await service.db.sql`
    select 1 from outbox_events where type = 'session.started' and data->'respondent'->>'name' = 'Racer'`;
  assert.equal(events.length, 1);
});

test("idempotency: two instances on one PostgreSQL database agree on a key", async () => {
  const database = await freshDatabase(PG_FALLBACK_URL);
  const instance = async () => {
    const env = {
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: database.url!,
      RATE_LIMIT_PUBLIC_PER_MINUTE: "100000",
    };
    const db = await openDb({ databaseUrl: database.url, dataDir: "memory://", poolMax: 4 });
    return await startService({ config: loadConfig(env), db, log: () => {}, startWorkers: false });
  };
  const a = await instance();
  const b = await instance();
  try {
    const as = {
      ...service,
      fetch: (path: string, init?: RequestInit) => fetch(a.url + path, init),
    };
    const owner = await registerUser(as);
    const q = await publishedQuestionnaire(as, owner);
    const key = crypto.randomUUID();
    const payload = JSON.stringify(sessionBody({ name: "Twin" }));
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) =>
          fetch(`${i % 2 ? a.url : b.url}/api/v1/public/q/${q.slug}/sessions`, {
            method: "POST",
            headers: { "content-type": "application/json", "idempotency-key": key },
            body: payload,
          }).then(async (res) => ({ status: res.status, text: await res.text() })),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    assert.equal(new Set(created.map((r) => r.text)).size, 1, "one original answer");
    assert.ok(results.every((r) => r.status === 201 || r.status === 409));
    const replay = await fetch(`${b.url}/api/v1/public/q/${q.slug}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": key },
      body: payload,
    });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal(await replay.text(), created[0].text);
    const rows = await a.app.db.sql`select 1 from sessions where name = 'Twin'`;
    assert.equal(rows.length, 1);
  } finally {
    await a.shutdown();
    await b.shutdown();
    await database.drop();
  }
});

test("idempotency: a crash after the handler's commit never makes a second session or answer", async () => {
  // The crash is simulated between the handler's commit and the answer leaving the service:
  // the client sees a failure and retries. The key's record committed with the handler's
  // writes, so the retry replays the first answer instead of running again.
  const key = crypto.randomUUID();
  const payload = sessionBody({ name: "Crashed" });
  const retry = await retriedAfterCrash(
    service,
    () => postSession(service, form.slug, payload, { "idempotency-key": key }),
  );
  assert.equal(retry.status, 201);
  assert.equal(retry.headers.get("idempotent-replayed"), "true");
  const { sessionId } = await body<{ sessionId: number }>(retry);
  const rows = await service.db.sql<{ id: number }>`
    select id from sessions where name = 'Crashed'`;
  assert.deepEqual(rows.map((r) => Number(r.id)), [sessionId]);
  const started = await service.db.sql`
    select 1 from outbox_events where type = 'session.started'
      and data->'respondent'->>'name' = 'Crashed'`;
  assert.equal(started.length, 1);

  const answerKey = crypto.randomUUID();
  const q = form.questions[0];
  const again = await retriedAfterCrash(
    service,
    () => answer(service, form.slug, sessionId, q.id, "once", { "idempotency-key": answerKey }),
  );
  assert.equal(again.status, 201, "the retry replays the committed answer");
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  const answers = await service.db.sql`select 1 from answers where session_id = ${sessionId}`;
  assert.equal(answers.length, 1);

  // An authenticated creating POST (a claim, then its answer stored in the handler's
  // transaction) replays too.
  const createKey = crypto.randomUUID();
  const retried = await retriedAfterCrash(service, () => create(createKey, "CrashedQ"));
  assert.equal(retried.status, 201);
  assert.equal(retried.headers.get("idempotent-replayed"), "true");
  await retried.body?.cancel();
  assert.equal(await count("CrashedQ"), 1, "never a second questionnaire");
});

// Register and token creation answer a credential: their records keep it sealed (AES-GCM) and
// their requests as a keyed digest, and a replay still answers it as it was first sent.

function register(key: string | null, payload: Record<string, string>) {
  return service.fetch("/api/v1/auth/register", {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
    body: JSON.stringify(payload),
  });
}

function newToken(key: string | null, name: string, who = user) {
  return service.fetch("/api/v1/auth/tokens", {
    method: "POST",
    headers: who.headers(key ? { "idempotency-key": key } : {}),
    body: JSON.stringify({ name }),
  });
}

function account(tag: string) {
  const email = `${tag}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  return { email, password: `pw-${crypto.randomUUID()}`, name: tag };
}

async function users(email: string) {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from users where email = ${email}`;
  return row.n;
}

async function tokens(name: string) {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from auth_tokens where name = ${name} and kind = 'api'`;
  return row.n;
}

async function record(route: string, key: string) {
  const [row] = await service.db.sql<
    { request_hash: string; headers: [string, string][]; body: string | null }
  >`select request_hash, headers, body from idempotency_keys where route = ${route} and key = ${key}`;
  return row;
}

async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

test("idempotency: a replayed register answers the same status, body and Set-Cookie and creates one user", async () => {
  const key = crypto.randomUUID();
  const payload = account("reg-replay");
  const first = await register(key, payload);
  assert.equal(first.status, 201);
  assert.equal(first.headers.get("idempotent-replayed"), null);
  const second = await register(key, payload);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get("idempotent-replayed"), "true");
  const cookie = first.headers.get("set-cookie");
  assert.match(cookie ?? "", /^service_token=onda_s_/);
  assert.equal(second.headers.get("set-cookie"), cookie);
  assert.equal(await second.text(), await first.text());
  assert.equal(await users(payload.email), 1, "no second user");
  const [workspaces] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from memberships m join users u on u.id = m.user_id
    where u.email = ${payload.email}`;
  assert.equal(workspaces.n, 1, "no second workspace");
  // The replayed cookie is the live session of the account.
  const me = await service.fetch("/api/v1/workspace", {
    headers: { cookie: cookieFrom(second) },
  });
  assert.equal(me.status, 200);
  await me.body?.cancel();
});

test("idempotency: a replayed token creation answers the same token and creates one token row", async () => {
  const key = crypto.randomUUID();
  const first = await newToken(key, "replayed-token");
  const second = await newToken(key, "replayed-token");
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get("idempotent-replayed"), "true");
  const original = await body<{ id: string; token: string }>(first);
  const replayed = await body<{ id: string; token: string }>(second);
  assert.deepEqual(replayed, original);
  assert.match(original.token, /^onda_pat_/);
  assert.equal(await tokens("replayed-token"), 1, "no second token");
  const works = await service.fetch("/api/v1/questionnaires", {
    headers: { authorization: `Bearer ${replayed.token}` },
  });
  assert.equal(works.status, 200, "the replayed token is the live one");
  await works.body?.cancel();
});

test("idempotency: the records of register and token creation hold no cookie, token or password in clear", async () => {
  const regKey = crypto.randomUUID();
  const payload = account("reg-sealed");
  const registered = await register(regKey, payload);
  assert.equal(registered.status, 201);
  await registered.body?.cancel();
  const sessionToken = cookieFrom(registered).slice("service_token=".length);
  const tokenKey = crypto.randomUUID();
  const made = await newToken(tokenKey, "sealed-token");
  assert.equal(made.status, 201);
  const { token } = await body<{ token: string }>(made);

  const reg = await record("POST /api/v1/auth/register", regKey);
  const tok = await record("POST /api/v1/auth/tokens", tokenKey);
  const regText = JSON.stringify(reg);
  assert.ok(!regText.includes(sessionToken), "no session token in the register record");
  assert.ok(!regText.includes(payload.password), "no password in the register record");
  const setCookie = reg.headers.find(([name]) => name === "set-cookie");
  assert.match(setCookie?.[1] ?? "", /^sealed:v1:/, "the cookie is stored sealed");
  assert.ok(!JSON.stringify(tok).includes(token), "no bearer token in the token record");
  assert.match(JSON.parse(tok.body!).token, /^sealed:v1:/, "the token is stored sealed");
  // The request digest is keyed: a plain SHA-256 of the body would let anyone holding the
  // table test password guesses at SHA-256 speed.
  const parsed = { email: payload.email, password: payload.password, name: payload.name };
  assert.notEqual(reg.request_hash, await sha256Hex(JSON.stringify(parsed)));
  assert.match(reg.request_hash, /^[0-9a-f]{64}$/);
});

test("idempotency: a sealed answer that no longer opens is 422, never a 500 or a second token", async () => {
  const key = crypto.randomUUID();
  const made = await newToken(key, "tampered-token");
  assert.equal(made.status, 201);
  await made.body?.cancel();
  const stored = await record("POST /api/v1/auth/tokens", key);
  const sealed: string = JSON.parse(stored.body!).token;
  // A character in the middle: its six bits are all data (the last ones before the padding
  // may carry bits that decoding ignores, so changing them could change nothing).
  const at = Math.floor(sealed.length / 2);
  const flipped = sealed.slice(0, at) + (sealed[at] === "A" ? "Q" : "A") + sealed.slice(at + 1);
  await service.db.sql`
    update idempotency_keys set body = ${stored.body!.replace(sealed, flipped)}
     where route = 'POST /api/v1/auth/tokens' and key = ${key}`;
  const [{ before }] = await service.db.sql<{ before: number }>`
    select count(*)::int as before from auth_tokens`;
  const again = await newToken(key, "tampered-token");
  assert.equal(again.status, 422);
  const data = await body<{ error: { field: string } }>(again);
  assert.equal(data.error.field, "Idempotency-Key");
  const [{ after }] = await service.db.sql<{ after: number }>`
    select count(*)::int as after from auth_tokens`;
  assert.equal(after, before, "no second token");
});

test("idempotency: register and token creation: another body is 422, a key that is not a UUID v4 is 400", async () => {
  const key = crypto.randomUUID();
  const payload = account("reg-other");
  await register(key, payload).then((r) => r.body?.cancel());
  const other = await register(key, { ...payload, password: "another password" });
  assert.equal(other.status, 422);
  const data = await body<{ error: { code: string; field: string } }>(other);
  assert.deepEqual([data.error.code, data.error.field], ["UNPROCESSABLE", "Idempotency-Key"]);
  const elsewhere = account("reg-other");
  const renamed = await register(key, elsewhere);
  assert.equal(renamed.status, 422);
  await renamed.body?.cancel();
  assert.equal(await users(elsewhere.email), 0);

  const tokenKey = crypto.randomUUID();
  await newToken(tokenKey, "token-a").then((r) => r.body?.cancel());
  const tokenOther = await newToken(tokenKey, "token-b");
  assert.equal(tokenOther.status, 422);
  await tokenOther.body?.cancel();
  assert.equal(await tokens("token-b"), 0);

  for (const bad of ["abc", "00000000-0000-1000-8000-000000000000"]) {
    const badRegister = account("reg-badkey");
    const r = await register(bad, badRegister);
    assert.equal(r.status, 400, bad);
    const err = await body<{ error: { code: string; field: string } }>(r);
    assert.deepEqual([err.error.code, err.error.field], ["VALIDATION_FAILED", "Idempotency-Key"]);
    assert.equal(await users(badRegister.email), 0);
    const t = await newToken(bad, "token-badkey");
    assert.equal(t.status, 400, bad);
    await t.body?.cancel();
  }
  assert.equal(await tokens("token-badkey"), 0);
});

test("idempotency: a crash after register's or token creation's commit: the retry replays, nothing twice", async () => {
  const key = crypto.randomUUID();
  const payload = account("reg-crash");
  const retry = await retriedAfterCrash(service, () => register(key, payload));
  assert.equal(retry.status, 201, "the account's answer committed with it");
  assert.equal(retry.headers.get("idempotent-replayed"), "true");
  await retry.body?.cancel();
  assert.equal(await users(payload.email), 1);

  const tokenKey = crypto.randomUUID();
  const again = await retriedAfterCrash(service, () => newToken(tokenKey, "crash-token"));
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  await again.body?.cancel();
  assert.equal(await tokens("crash-token"), 1);
});

test("idempotency: a crash after a keyed member invitation, checkout or export committed: the retry replays it, nothing is done twice", async () => {
  // As for the webhooks: the crash falls between the handler's commit and its answer leaving
  // the service, and the client retries with the same Idempotency-Key. The key's record must
  // have committed with the write, or the retry is 409 for a minute and then does it again.
  const owner = await registerUser(service);
  const invited = await registerUser(service);
  const questionnaire = await publishedQuestionnaire(service, owner);
  const sql = service.db.sql;
  const ws = owner.workspaceId;
  const cases = [
    {
      path: "/api/v1/workspace/members",
      payload: { email: invited.email, role: "editor" },
      status: 202,
      location: null,
      count: () =>
        sql<{ n: number }>`
        select count(*)::int as n from invitations where workspace_id = ${ws}`,
    },
    {
      path: "/api/v1/billing/checkout",
      payload: { plan: "pro", interval: "month" },
      status: 201,
      location: "/api/v1/billing/checkouts/",
      count: () =>
        sql<{ n: number }>`
        select count(*)::int as n from billing_checkouts where workspace_id = ${ws}`,
    },
    {
      path: "/api/v1/exports",
      payload: { questionnaire_id: questionnaire.id, format: "csv" },
      status: 202,
      location: "/api/v1/exports/",
      count: () =>
        sql<{ n: number }>`
        select count(*)::int as n from exports where workspace_id = ${ws}`,
    },
  ];
  for (const c of cases) {
    const key = crypto.randomUUID();
    const send = () =>
      service.fetch(c.path, {
        method: "POST",
        headers: owner.headers({ "idempotency-key": key }),
        body: JSON.stringify(c.payload),
      });
    const [before] = await c.count();
    const retry = await retriedAfterCrash(service, send);
    assert.equal(retry.status, c.status, `${c.path}: the retry replays the committed answer`);
    assert.equal(retry.headers.get("idempotent-replayed"), "true", c.path);
    // The replay is the whole answer: a created resource's Location included.
    const { id } = await body<{ id?: string }>(retry);
    assert.equal(retry.headers.get("location"), c.location && c.location + id, c.path);
    const [after] = await c.count();
    assert.equal(after.n, before.n + 1, `${c.path}: done once`);
  }
});

test("idempotency: a sealed record expires with its key: after 24 h it is neither replayed nor kept", async () => {
  const key = crypto.randomUUID();
  const first = await newToken(key, "expiring-token");
  const { token } = await body<{ token: string }>(first);
  service.clock.advance(24 * 3600 * 1000 + 1000);
  try {
    // Any sealed request clears expired records.
    const other = await newToken(crypto.randomUUID(), "pruning-token");
    assert.equal(other.status, 201);
    await other.body?.cancel();
    assert.equal(await record("POST /api/v1/auth/tokens", key), undefined, "record deleted");
    const after = await newToken(key, "expiring-token");
    assert.equal(after.status, 201);
    assert.equal(after.headers.get("idempotent-replayed"), null);
    assert.notEqual((await body<{ token: string }>(after)).token, token);
    assert.equal(await tokens("expiring-token"), 2);
  } finally {
    service.clock.set(new Date());
  }
});

test("idempotency: a record lapses after 24 h, or still unfinished after a minute; not a moment before", async () => {
  // The one definition every path asks (onda_idempotency_lapsed, sql/013_idempotency_lapse.sql).
  const now = new Date("2026-11-20T08:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const cases: [string, Date, number | null, boolean][] = [
    ["finished, just made", ago(0), 201, false],
    ["finished, 24 h old", ago(24 * 3600_000), 201, false],
    ["finished, past 24 h", ago(24 * 3600_000 + 1), 201, true],
    ["a stored 4xx, past 24 h", ago(24 * 3600_000 + 1), 400, true],
    ["unfinished, a minute old", ago(60_000), null, false],
    ["unfinished, past a minute", ago(60_000 + 1), null, true],
    ["unfinished, past 24 h", ago(24 * 3600_000 + 1), null, true],
  ];
  for (const [name, created, status, lapsed] of cases) {
    const [row] = await service.db.sql<{ lapsed: boolean }>`
      select onda_idempotency_lapsed(${created}::timestamptz, ${status}::integer,
                                     ${now}::timestamptz) as lapsed`;
    assert.equal(row.lapsed, lapsed, name);
  }
});

/** Turns the record of `key` back into an unfinished claim, as a crashed instance leaves it. */
async function unfinish(key: string) {
  const rows = await service.db.sql`
    update idempotency_keys set status = null, headers = null, body = null
    where key = ${key} returning 1`;
  assert.equal(rows.length, 1);
}

test("idempotency: a claim left unfinished is 409 for a minute, then a retry takes it over", async () => {
  // Both modes: a claimed route (questionnaires) and a transactional one (a visitor's session,
  // whose record is taken over inside its statement, onda_keep_idempotency).
  const key = crypto.randomUUID();
  await create(key, "Abandoned").then((r) => r.body?.cancel());
  await unfinish(key);
  const sessionKey = crypto.randomUUID();
  const payload = sessionBody({ name: "AbandonedStart" });
  const first = await postSession(service, form.slug, payload, { "idempotency-key": sessionKey });
  assert.equal(first.status, 201);
  await first.body?.cancel();
  await unfinish(sessionKey);
  const again = () =>
    Promise.all([
      create(key, "Abandoned"),
      postSession(service, form.slug, payload, { "idempotency-key": sessionKey }),
    ]);
  try {
    service.clock.advance(59_000);
    for (const res of await again()) {
      assert.equal(res.status, 409, res.url);
      const data = await body<{ error: { code: string; field: string } }>(res);
      assert.deepEqual([data.error.code, data.error.field], ["CONFLICT", "Idempotency-Key"]);
    }
    service.clock.advance(2_000);
    for (const res of await again()) {
      assert.equal(res.status, 201, res.url);
      assert.equal(res.headers.get("idempotent-replayed"), null, res.url);
      await res.body?.cancel();
    }
    assert.equal(await count("Abandoned"), 2, "the retry ran afresh");
    const sessions = await service.db.sql`select 1 from sessions where name = 'AbandonedStart'`;
    assert.equal(sessions.length, 2);
  } finally {
    service.clock.set(new Date());
  }
});

test("idempotency: a visitor's key is remembered for 24 hours too", async () => {
  const key = crypto.randomUUID();
  const send = (payload: Record<string, unknown>) =>
    postSession(service, form.slug, payload, { "idempotency-key": key });
  const payload = sessionBody({ name: "WindowStart" });
  const first = await send(payload);
  assert.equal(first.status, 201);
  await first.body?.cancel();
  try {
    service.clock.advance(23 * 3600 * 1000);
    const within = await send(payload);
    assert.equal(within.headers.get("idempotent-replayed"), "true");
    await within.body?.cancel();
    service.clock.advance(2 * 3600 * 1000);
    // Loaded on the moved clock (a form loaded 25 h ago is refused); while the first record
    // held the key this other body would be 422.
    const later = sessionBody({ name: "WindowStart", loaded_at: service.clock().getTime() });
    const after = await send(later);
    assert.equal(after.status, 201, await after.clone().text());
    assert.equal(after.headers.get("idempotent-replayed"), null);
    await after.body?.cancel();
  } finally {
    service.clock.set(new Date());
  }
});

test("idempotency: a keyed route whose auth tells callers apart must scope their keys, or it is refused", () => {
  const define = routeDefiner(serviceRules);
  const route = <P>(auth: AuthRule<P>) => () =>
    define({
      method: "POST",
      path: "/api/v1/probe",
      tag: "probe",
      summary: "Probe",
      description: "Probe.",
      auth,
      idempotent: true,
      responses: { 201: { description: "Created." } },
      handler: () => json({}, 201),
    });
  // Without a scope one user's key would replay another user's answer.
  assert.throws(route({ ...signedIn("viewer"), idempotencyScope: undefined }), /idempotencyScope/);
  route(signedIn("viewer"))();
  route(publicAccess())(); // visitors share one namespace on purpose
});

test("idempotency: close the service", async () => {
  await service.close();
});
