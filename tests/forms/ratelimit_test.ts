// Forms rate limits (contract.md §3): per client address on public routes, per user on
// authenticated routes; 429 RATE_LIMITED with Retry-After, reset by the rolling window.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import {
  answer,
  postSession,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  validAnswerFor,
} from "./_forms.ts";

const service = await startTestService({
  env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "5", RATE_LIMIT_USER_PER_MINUTE: "4", TRUST_PROXY: "1" },
});

test("ratelimit: public routes allow RATE_LIMIT_PUBLIC_PER_MINUTE per address, then 429 with Retry-After", async () => {
  const from = (address: string) =>
    service.fetch("/api/v1/public/q/nothing-here", { headers: { "x-forwarded-for": address } });
  for (let i = 0; i < 5; i++) {
    const res = await from("198.51.100.10");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  }
  const limited = await from("198.51.100.10");
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get("retry-after")) >= 1);
  assert.equal((await body<{ error: { code: string } }>(limited)).error.code, "RATE_LIMITED");
  assert.equal(limited.headers.get("access-control-allow-origin"), "*");
  const other = await from("198.51.100.11");
  assert.equal(other.status, 404, "another address has its own budget");
  await other.body?.cancel();
  service.clock.advance(61_000);
  const later = await from("198.51.100.10");
  assert.equal(later.status, 404, "the window rolls on");
  await later.body?.cancel();
});

test("ratelimit: behind a trusted proxy the address is the one it appended, not what the client sent", async () => {
  // An appending proxy keeps the client's own X-Forwarded-For in front of the real address.
  const via = (forged: string) =>
    service.fetch("/api/v1/public/q/nothing-here", {
      headers: { "x-forwarded-for": `${forged}, 198.51.100.99` },
    });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await via(`203.0.113.${i + 1}`);
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [404, 404, 404, 404, 404, 429]);
});

test("ratelimit: a public client on IPv6 is counted per /64", async () => {
  const from = (address: string) =>
    service.fetch("/api/v1/public/q/nothing-here", { headers: { "x-forwarded-for": address } });
  for (let i = 0; i < 5; i++) {
    const res = await from(`2001:db8:5:5::${(i + 1).toString(16)}`);
    assert.equal(res.status, 404);
    await res.body?.cancel();
  }
  const limited = await from("2001:db8:5:5:abcd::1");
  assert.equal(limited.status, 429, "a new address of the same /64 shares its budget");
  await limited.body?.cancel();
  const other = await from("2001:db8:5:6::1");
  assert.equal(other.status, 404);
  await other.body?.cancel();
});

test("ratelimit: a public answer refused by the limit stores nothing and leaves its Idempotency-Key free", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const from = { "x-forwarded-for": "198.51.100.77" };
  const started = await postSession(service, form.slug, sessionBody(), from); // 1
  assert.equal(started.status, 201);
  const { sessionId } = await body<{ sessionId: number }>(started);
  const [first, second, third] = form.questions;
  for (const q of [first, second]) { // 2, 3
    const res = await answer(service, form.slug, sessionId, q.id, validAnswerFor(q), from);
    assert.equal(res.status, 201);
    await res.body?.cancel();
  }
  for (let i = 0; i < 2; i++) { // 4, 5
    const res = await service.fetch(`/api/v1/public/q/${form.slug}`, { headers: from });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  }
  const key = crypto.randomUUID();
  const send = () =>
    answer(service, form.slug, sessionId, third.id, validAnswerFor(third), {
      ...from,
      "idempotency-key": key,
    });
  const refused = await send();
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  await refused.body?.cancel();
  const [stored] = await service.db.sql<{ answers: number; keys: number }>`
    select (select count(*)::int from answers where session_id = ${sessionId}) as answers,
           (select count(*)::int from idempotency_keys where key = ${key}) as keys`;
  assert.deepEqual(stored, { answers: 2, keys: 0 });
  service.clock.advance(61_000);
  const later = await send();
  assert.equal(later.status, 201, "the same request runs once the window allows it");
  assert.equal(later.headers.get("idempotent-replayed"), null);
  await later.body?.cancel();
});

test("ratelimit: a public request refused by its own statement (a replayed Idempotency-Key) still counts", async () => {
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const headers = { "x-forwarded-for": "198.51.100.88", "idempotency-key": crypto.randomUUID() };
  const payload = sessionBody();
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await postSession(service, form.slug, payload, headers);
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [201, 201, 201, 201, 201, 429], "replays are requests too");
});

test("ratelimit: public answers refused for a full month (422) still count", async () => {
  service.clock.advance(61_000); // registering counts on the loopback address too
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const from = { "x-forwarded-for": "198.51.100.89" };
  const started = await postSession(service, form.slug, sessionBody(), from); // 1
  assert.equal(started.status, 201);
  const { sessionId } = await body<{ sessionId: number }>(started);
  // The free plan's default month (1,000 answers) is used up.
  const month = service.clock().toISOString().slice(0, 8) + "01";
  await service.db.sql`insert into plan_usage (workspace_id, month, answers)
                       values (${owner.workspaceId}, ${month}::date, 1000)`;
  const q = form.questions[0];
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) { // 2 to 5, then over the limit
    const res = await answer(service, form.slug, sessionId, q.id, validAnswerFor(q), from);
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [422, 422, 422, 422, 429]);
});

test("ratelimit: public requests refused as invalid (400) still count", async () => {
  service.clock.advance(61_000); // registering counts on the loopback address too
  const owner = await registerUser(service);
  const form = await publishedQuestionnaire(service, owner);
  const from = { "x-forwarded-for": "198.51.100.90" };
  const statuses: number[] = [];
  const stale = sessionBody({ loaded_at: 0 }); // refused by the handler
  const nameless = sessionBody({ name: "" }); // refused by the body's schema
  for (const payload of [stale, nameless, stale, nameless, stale, nameless]) {
    const res = await postSession(service, form.slug, payload, from);
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429]);
});

test("ratelimit: authenticated routes allow RATE_LIMIT_USER_PER_MINUTE per user, then 429", async () => {
  const user = await registerUser(service, { bearer: true }); // the token call counts once
  const call = () =>
    service.fetch("/api/v1/workspace", { headers: { authorization: `Bearer ${user.token}` } });
  for (let i = 0; i < 3; i++) {
    const res = await call();
    assert.equal(res.status, 200);
    await res.body?.cancel();
  }
  const limited = await call();
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get("retry-after")) >= 1);
  assert.equal((await body<{ error: { code: string } }>(limited)).error.code, "RATE_LIMITED");
  const cookie = await service.fetch("/api/v1/workspace", { headers: user.headers() });
  assert.equal(cookie.status, 429, "counted per user, whatever the credential");
  await cookie.body?.cancel();
  const other = await registerUser(service);
  const fresh = await service.fetch("/api/v1/workspace", { headers: other.headers() });
  assert.equal(fresh.status, 200);
  await fresh.body?.cancel();
});

test("ratelimit: a 429 to an allowed origin keeps the workspace CORS headers", async () => {
  const user = await registerUser(service);
  const origin = "https://limited.example";
  const patch = await service.fetch("/api/v1/workspace", {
    method: "PATCH",
    headers: user.headers(),
    body: JSON.stringify({ allowed_origins: [origin] }),
  });
  assert.equal(patch.status, 200);
  await patch.body?.cancel();
  let res: Response;
  do {
    res = await service.fetch("/api/v1/workspace", { headers: user.headers({ origin }) });
    await res.body?.cancel();
  } while (res.status === 200);
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("access-control-allow-origin"), origin);
  assert.match(res.headers.get("vary") ?? "", /Origin/);
});

test("ratelimit: close the service", async () => {
  await service.close();
});
