// Forms API accounts: register, login, logout, bearer tokens, 401 vs 403, roles and the
// workspace of a request, members, CSRF, login limiter, and secrets kept out of the logs.

import assert from "node:assert/strict";
import { secretDigest } from "../../lib/http/credentials.ts";
import { body, startTestService, test } from "../_server.ts";
import { cookieFrom, createQuestionnaire, registerUser, type TestUser } from "./_forms.ts";
import { joinByInvitation } from "./_workspace.ts";

const service = await startTestService({ env: { TRUST_PROXY: "1" } });
const owner = await registerUser(service, { bearer: true });

function login(email: string, password: string, address = "198.51.100.1") {
  return service.fetch("/api/v1/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ email, password }),
  });
}

function addMember(admin: TestUser, member: TestUser, role: string) {
  return joinByInvitation(service, admin, member, role);
}

test("auth: register sets an HttpOnly SameSite=Lax Path=/ cookie and answers 201", async () => {
  const email = `r${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await service.fetch("/api/v1/auth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "correct horse battery", name: "Reg" }),
  });
  assert.equal(res.status, 201);
  const cookie = res.headers.get("set-cookie") ?? "";
  assert.match(cookie, /^service_token=onda_s_[A-Za-z0-9_-]{40,};/);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.match(cookie, /Path=\//);
  assert.doesNotMatch(cookie, /Secure/, "no Secure flag on an http base URL");
  const data = await body<{ user: { email: string }; workspaces: { role: string }[] }>(res);
  assert.equal(data.user.email, email);
  assert.deepEqual(data.workspaces.map((w) => w.role), ["owner"]);
  const again = await service.fetch("/api/v1/auth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: email.toUpperCase(), password: "another password", name: "X" }),
  });
  assert.equal(again.status, 409);
  assert.equal((await body<{ error: { field: string } }>(again)).error.field, "email");
});

test("auth: the cookie is Secure when the public base URL is https", async () => {
  const secure = await startTestService({ env: { PUBLIC_BASE_URL: "https://forms.example" } });
  try {
    const res = await secure.fetch("/api/v1/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "s@example.com", password: "long enough pw", name: "S" }),
    });
    assert.equal(res.status, 201);
    await res.body?.cancel();
    assert.match(res.headers.get("set-cookie") ?? "", /; Secure/);
  } finally {
    await secure.close();
  }
});

test("auth: passwords are PBKDF2-SHA256, >= 600000 iterations, salted, parameters stored", async () => {
  const rows = await service.db.sql<{ password_hash: string }>`
    select password_hash from users where id = ${owner.userId}`;
  const match = /^pbkdf2-sha256\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(
    rows[0].password_hash,
  );
  assert.ok(match, rows[0].password_hash.slice(0, 20));
  assert.ok(Number(match[1]) >= 600_000);
  assert.ok(!rows[0].password_hash.includes(owner.password));
  // Same password, another user: another salt, another hash.
  const twin = await registerUser(service, { password: owner.password });
  const [other] = await service.db.sql<{ password_hash: string }>`
    select password_hash from users where id = ${twin.userId}`;
  assert.notEqual(other.password_hash.split("$")[2], match[2]);
  assert.notEqual(other.password_hash, rows[0].password_hash);
});

test("auth: login sets the cookie and answers {user, workspaces}", async () => {
  const res = await login(owner.email, owner.password);
  assert.equal(res.status, 200);
  const cookie = cookieFrom(res);
  const data = await body<{ user: { id: string }; workspaces: { id: string; plan: string }[] }>(
    res,
  );
  assert.equal(data.user.id, owner.userId);
  assert.deepEqual(data.workspaces.map((w) => [w.id, w.plan]), [[owner.workspaceId, "free"]]);
  const me = await service.fetch("/api/v1/workspace", { headers: { cookie } });
  assert.equal(me.status, 200);
  assert.equal((await body<{ id: string }>(me)).id, owner.workspaceId);
});

test("auth: login answers the same, in the same time, for an unknown e-mail", async () => {
  const wrong = [];
  const unknown = [];
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    const a = await login(owner.email, "not the password", "198.51.100.7");
    wrong.push(performance.now() - t);
    t = performance.now();
    const b = await login(`nobody${i}@example.com`, "not the password", "198.51.100.7");
    unknown.push(performance.now() - t);
    assert.equal(a.status, 401);
    assert.equal(b.status, 401);
    const [ea, eb] = [
      await body<{ error: Record<string, unknown> }>(a),
      await body<
        { error: Record<string, unknown> }
      >(b),
    ];
    assert.deepEqual(
      { ...ea.error, trace_id: null },
      { ...eb.error, trace_id: null },
    );
    assert.equal(ea.error.code, "UNAUTHENTICATED");
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[1];
  const ratio = median(unknown) / median(wrong);
  assert.ok(
    ratio > 0.33 && ratio < 3,
    `unknown ${median(unknown)} ms vs wrong ${median(wrong)} ms`,
  );
});

test("auth: repeated failed logins per e-mail are 429 with Retry-After", async () => {
  const email = "target@example.com";
  for (let i = 0; i < 10; i++) {
    const res = await login(email, "guess" + i, `203.0.113.${i + 1}`);
    assert.equal(res.status, 401);
    await res.body?.cancel();
  }
  const blocked = await login(email, "guess", "203.0.113.99");
  assert.equal(blocked.status, 429);
  assert.ok(Number(blocked.headers.get("retry-after")) > 0);
  assert.equal((await body<{ error: { code: string } }>(blocked)).error.code, "RATE_LIMITED");
  // Another e-mail from the same address is not blocked by this e-mail's failures.
  const other = await login("someone-else@example.com", "guess", "203.0.113.99");
  assert.equal(other.status, 401);
  await other.body?.cancel();
});

test("auth: parallel failed logins cannot pass the per-e-mail limit together", async () => {
  const email = `burst${crypto.randomUUID().slice(0, 8)}@example.com`;
  const guesses = await Promise.all(
    Array.from({ length: 16 }, (_, i) => login(email, `guess-${i}`, `198.51.100.${100 + i}`)),
  );
  const statuses = guesses.map((r) => r.status);
  await Promise.all(guesses.map((r) => r.body?.cancel()));
  // Never more checked guesses than the limit; under a burst the count may refuse a few more
  // (an attempt counts the ones recorded beside it), which errs on the safe side.
  const checked = statuses.filter((s) => s === 401).length;
  assert.ok(checked >= 1 && checked <= 10, statuses.join(","));
  assert.equal(statuses.filter((s) => s === 429).length, 16 - checked, statuses.join(","));
});

test("auth: a workspace's allowed origins cannot mint tokens for its members (CSRF/CORS)", async () => {
  // An attacker's workspace trusts the attacker's origin and adds the victim as a viewer.
  const attacker = await registerUser(service);
  const victim = await registerUser(service);
  const evil = "https://evil.example";
  const patch = await service.fetch("/api/v1/workspace", {
    method: "PATCH",
    headers: attacker.headers(),
    body: JSON.stringify({ allowed_origins: [evil] }),
  });
  assert.equal(patch.status, 200);
  await patch.body?.cancel();
  await addMember(attacker, victim, "viewer");
  const mint = await service.fetch("/api/v1/auth/tokens", {
    method: "POST",
    headers: victim.headers({ origin: evil, "x-workspace-id": attacker.workspaceId }),
    body: JSON.stringify({ name: "stolen" }),
  });
  assert.equal(mint.status, 403);
  assert.equal(mint.headers.get("access-control-allow-origin"), null);
  await mint.body?.cancel();
  const list = await service.fetch("/api/v1/auth/tokens", {
    headers: victim.headers({ origin: evil, "x-workspace-id": attacker.workspaceId }),
  });
  assert.equal(list.headers.get("access-control-allow-origin"), null);
  await list.body?.cancel();
  const preflight = await service.fetch("/api/v1/auth/tokens", {
    method: "OPTIONS",
    headers: { origin: evil, "access-control-request-method": "POST" },
  });
  assert.equal(preflight.headers.get("access-control-allow-origin"), null);
  await preflight.body?.cancel();
  // The workspace's own resources still honour its origins.
  const own = await service.fetch("/api/v1/questionnaires", {
    headers: victim.headers({ origin: evil, "x-workspace-id": attacker.workspaceId }),
  });
  assert.equal(own.headers.get("access-control-allow-origin"), evil);
  await own.body?.cancel();
});

test("auth: repeated failed logins per address are 429", async () => {
  const address = "192.0.2.200";
  const now = new Date();
  // 50 failures recorded from one address (as 50 earlier attempts would), with other e-mails.
  for (let i = 0; i < 50; i++) {
    await service.db
      .sql`insert into login_failures (key, at, attempt)
        values (${`addr:${address}`}, ${now}, ${crypto.randomUUID()})`;
  }
  const res = await login(owner.email, owner.password, address);
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get("retry-after")) > 0);
  await res.body?.cancel();
  const elsewhere = await login(owner.email, owner.password, "192.0.2.201");
  assert.equal(elsewhere.status, 200);
  await elsewhere.body?.cancel();
});

test("auth: failed logins from one IPv6 /64 count together, and old ones are pruned", async () => {
  const now = new Date();
  const old = new Date(now.getTime() - 16 * 60_000);
  // 50 failures from other addresses of the /64, and stale rows of a flood of other keys.
  for (let i = 0; i < 50; i++) {
    await service.db.sql`insert into login_failures (key, at, attempt)
      values ('addr:2001:db8:aa:bb::/64', ${now}, ${crypto.randomUUID()}),
             (${`addr:flood-${i}`}, ${old}, ${crypto.randomUUID()})`;
  }
  const res = await login(owner.email, owner.password, "2001:db8:aa:bb:1:2:3:4");
  assert.equal(res.status, 429);
  await res.body?.cancel();
  const [{ stale }] = await service.db.sql<{ stale: number }>`
    select count(*)::int as stale from login_failures where key like 'addr:flood-%'`;
  assert.equal(stale, 0, "rows older than the window are gone, whatever their key");
  const otherPrefix = await login(owner.email, owner.password, "2001:db8:aa:bc::1");
  assert.equal(otherPrefix.status, 200);
  await otherPrefix.body?.cancel();
});

test("auth: obeying a failed login's Retry-After, the same login is not refused again", async () => {
  // Issue 30, item 6: Retry-After came from the oldest failure of the address or the e-mail,
  // so an address's older failures with other e-mails, or more failures than the limit (a
  // burst), made it short and the retry met 429 again.
  const address = "198.51.100.77";
  const email = `late${crypto.randomUUID().slice(0, 8)}@example.com`;
  const crowded = "192.0.2.177";
  const obeyed = async (address: string, email: string) => {
    const refused = await login(email, "guess", address);
    assert.equal(refused.status, 429);
    await refused.body?.cancel();
    const seconds = Number(refused.headers.get("retry-after"));
    assert.ok(Number.isInteger(seconds) && seconds >= 1, String(seconds));
    service.clock.advance(seconds * 1000);
    const retry = await login(email, "guess", address);
    assert.equal(retry.status, 401, `refused again after Retry-After ${seconds} s`);
    await retry.body?.cancel();
  };
  try {
    for (let i = 0; i < 3; i++) {
      const res = await login(`other${i}-${email}`, "guess", address);
      assert.equal(res.status, 401);
      await res.body?.cancel();
    }
    service.clock.advance(5 * 60_000);
    for (let i = 0; i < 10; i++) {
      const res = await login(email, `guess-${i}`, address);
      assert.equal(res.status, 401);
      await res.body?.cancel();
      service.clock.advance(10_000);
    }
    await obeyed(address, email);
    // More failures kept than the limit (as a parallel burst leaves): the oldest one leaving
    // the window is not enough.
    const now = service.clock().getTime();
    for (let i = 0; i < 55; i++) {
      await service.db.sql`insert into login_failures (key, at, attempt)
        values (${`addr:${crowded}`}, ${new Date(
        now - 600_000 + i * 1000,
      )}, ${crypto.randomUUID()})`;
    }
    await obeyed(crowded, `crowd${crypto.randomUUID().slice(0, 8)}@example.com`);
  } finally {
    service.clock.set(new Date());
  }
});

test("auth: no credential or a bad token is 401 UNAUTHENTICATED", async () => {
  const cases: Record<string, string>[] = [
    {},
    { cookie: "service_token=onda_s_forged" },
    { authorization: "Bearer onda_pat_forged" },
    { authorization: "Basic abc" },
  ];
  for (const headers of cases) {
    const res = await service.fetch("/api/v1/questionnaires", { headers });
    assert.equal(res.status, 401, JSON.stringify(headers));
    assert.equal((await body<{ error: { code: string } }>(res)).error.code, "UNAUTHENTICATED");
  }
});

test("auth: bearer tokens work wherever the cookie does, are listed without value and revocable", async () => {
  const bearer = { authorization: `Bearer ${owner.token}` };
  const res = await service.fetch("/api/v1/questionnaires", { headers: bearer });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const made = await service.fetch("/api/v1/auth/tokens", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ name: "ci" }),
  });
  assert.equal(made.status, 201);
  const token = await body<{ id: string; name: string; token: string; created_at: string }>(made);
  assert.match(token.token, /^onda_pat_/);
  assert.match(token.created_at, /Z$/);
  const stored = await service.db.sql`select digest from auth_tokens where id = ${token.id}`;
  assert.deepEqual(
    new Uint8Array(stored[0].digest),
    new Uint8Array(secretDigest(token.token)),
    "its digest only",
  );
  const list = await service.fetch("/api/v1/auth/tokens", { headers: owner.headers() });
  const listed = await body<{ data: Record<string, unknown>[] }>(list);
  assert.ok(listed.data.some((t) => t.id === token.id && !("token" in t)));
  const revoke = await service.fetch(`/api/v1/auth/tokens/${token.id}`, {
    method: "DELETE",
    headers: owner.headers(),
  });
  assert.equal(revoke.status, 204);
  const after = await service.fetch("/api/v1/workspace", {
    headers: { authorization: `Bearer ${token.token}` },
  });
  assert.equal(after.status, 401);
  await after.body?.cancel();
});

test("auth: logout revokes the cookie's session", async () => {
  const res = await login(owner.email, owner.password);
  const cookie = cookieFrom(res);
  await res.body?.cancel();
  const out = await service.fetch("/api/v1/auth/logout", { method: "POST", headers: { cookie } });
  assert.equal(out.status, 204);
  assert.match(out.headers.get("set-cookie") ?? "", /service_token=;.*Max-Age=0/);
  const after = await service.fetch("/api/v1/workspace", { headers: { cookie } });
  assert.equal(after.status, 401);
  await after.body?.cancel();
});

test("auth: an expired login session is 401", async () => {
  const res = await login(owner.email, owner.password);
  const cookie = cookieFrom(res);
  await res.body?.cancel();
  service.clock.advance(15 * 24 * 3600 * 1000);
  try {
    const after = await service.fetch("/api/v1/workspace", { headers: { cookie } });
    assert.equal(after.status, 401);
    await after.body?.cancel();
  } finally {
    service.clock.set(new Date());
  }
});

test("roles: viewer reads but cannot write (403 FORBIDDEN); editor writes; admin manages members", async () => {
  const viewer = await registerUser(service);
  await addMember(owner, viewer, "viewer");
  const as = (u: TestUser) => ({ ...u.headers(), "x-workspace-id": owner.workspaceId });
  const read = await service.fetch("/api/v1/questionnaires", { headers: as(viewer) });
  assert.equal(read.status, 200);
  await read.body?.cancel();
  const write = await service.fetch("/api/v1/questionnaires", {
    method: "POST",
    headers: as(viewer),
    body: JSON.stringify({ title: "Nope", questions: [] }),
  });
  assert.equal(write.status, 403);
  assert.equal((await body<{ error: { code: string } }>(write)).error.code, "FORBIDDEN");
  // Promote to editor: writing works; managing members does not.
  const promote = await service.fetch(`/api/v1/workspace/members/${viewer.userId}`, {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ role: "editor" }),
  });
  assert.equal(promote.status, 200);
  await promote.body?.cancel();
  const created = await service.fetch("/api/v1/questionnaires", {
    method: "POST",
    headers: as(viewer),
    body: JSON.stringify({ title: "Yes", questions: [] }),
  });
  assert.equal(created.status, 201);
  await created.body?.cancel();
  const manage = await service.fetch("/api/v1/workspace", {
    method: "PATCH",
    headers: as(viewer),
    body: JSON.stringify({ name: "Mine now" }),
  });
  assert.equal(manage.status, 403);
  await manage.body?.cancel();
  // An admin cannot grant owner; the last owner cannot be demoted.
  const makeAdmin = await service.fetch(`/api/v1/workspace/members/${viewer.userId}`, {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ role: "admin" }),
  });
  assert.equal(makeAdmin.status, 200);
  await makeAdmin.body?.cancel();
  const grab = await service.fetch(`/api/v1/workspace/members/${viewer.userId}`, {
    method: "PATCH",
    headers: as(viewer),
    body: JSON.stringify({ role: "owner" }),
  });
  assert.equal(grab.status, 403);
  await grab.body?.cancel();
  const demote = await service.fetch(`/api/v1/workspace/members/${owner.userId}`, {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ role: "admin" }),
  });
  assert.equal(demote.status, 409);
  await demote.body?.cancel();
  const members = await service.fetch("/api/v1/workspace/members", { headers: owner.headers() });
  const list = await body<{ data: { user_id: string; role: string }[] }>(members);
  assert.deepEqual(
    list.data.map((m) => [m.user_id, m.role]),
    [[owner.userId, "owner"], [viewer.userId, "admin"]],
  );
  const remove = await service.fetch(`/api/v1/workspace/members/${viewer.userId}`, {
    method: "DELETE",
    headers: owner.headers(),
  });
  assert.equal(remove.status, 204);
  const gone = await service.fetch("/api/v1/questionnaires", { headers: as(viewer) });
  assert.equal(gone.status, 404, "no longer a member: the workspace does not exist for them");
  await gone.body?.cancel();
});

test("workspace: X-Workspace-Id selects the workspace; the default is the user's first", async () => {
  const second = await registerUser(service);
  await addMember(second, owner, "editor");
  const mine = await service.fetch("/api/v1/workspace", { headers: { cookie: owner.cookie } });
  assert.equal((await body<{ id: string }>(mine)).id, owner.workspaceId);
  const theirs = await service.fetch("/api/v1/workspace", {
    headers: { cookie: owner.cookie, "x-workspace-id": second.workspaceId },
  });
  const data = await body<{ id: string; role: string }>(theirs);
  assert.deepEqual([data.id, data.role], [second.workspaceId, "editor"]);
  const stranger = await registerUser(service);
  for (const id of [stranger.workspaceId, "not-a-uuid"]) {
    const res = await service.fetch("/api/v1/workspace", {
      headers: { cookie: owner.cookie, "x-workspace-id": id },
    });
    assert.equal(res.status, 404, id);
    await res.body?.cancel();
  }
});

test("workspace: GET/PATCH shows and changes name, allowed origins, plan and usage", async () => {
  const res = await service.fetch("/api/v1/workspace", {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ name: "Acme", allowed_origins: ["https://app.acme.example"] }),
  });
  assert.equal(res.status, 200);
  const data = await body<Record<string, unknown>>(res);
  assert.equal(data.name, "Acme");
  assert.deepEqual(data.allowed_origins, ["https://app.acme.example"]);
  assert.deepEqual(Object.keys(data.usage as object).sort(), ["answers", "answers_limit", "month"]);
  const bad = await service.fetch("/api/v1/workspace", {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ allowed_origins: ["https://acme.example/path"] }),
  });
  assert.equal(bad.status, 400);
  assert.equal((await body<{ error: { field: string } }>(bad)).error.field, "allowed_origins[0]");
});

test("csrf: a cookie-authenticated write from a foreign Origin is 403; own, allowed or no Origin pass", async () => {
  const user = await registerUser(service);
  await service.fetch("/api/v1/workspace", {
    method: "PATCH",
    headers: user.headers(),
    body: JSON.stringify({ allowed_origins: ["https://allowed.example"] }),
  }).then((r) => r.body?.cancel());
  const post = (origin: string | null, headers = user.headers()) =>
    service.fetch("/api/v1/questionnaires", {
      method: "POST",
      headers: origin ? { ...headers, origin } : headers,
      body: JSON.stringify({ title: "CSRF", questions: [] }),
    });
  const evil = await post("https://evil.example");
  assert.equal(evil.status, 403);
  assert.equal((await body<{ error: { code: string } }>(evil)).error.code, "FORBIDDEN");
  assert.equal(
    await service.db.sql`select 1 from questionnaires where title = 'CSRF'`.then((r) => r.length),
    0,
  );
  const own = new URL(service.app.config.publicBaseUrl).origin;
  for (const origin of [own, "https://allowed.example", null]) {
    const res = await post(origin);
    assert.equal(res.status, 201, String(origin));
    await res.body?.cancel();
  }
  // A bearer token is not sent by browsers on their own: no CSRF check.
  const bearer = await registerUser(service, { bearer: true });
  const viaBearer = await post("https://evil.example", {
    "content-type": "application/json",
    authorization: `Bearer ${bearer.token}`,
  });
  assert.equal(viaBearer.status, 201);
  await viaBearer.body?.cancel();
});

test("cross-workspace: another user can neither read, change nor detect questionnaires (404)", async () => {
  const q = await createQuestionnaire(service, owner);
  const intruder = await registerUser(service);
  const missing = crypto.randomUUID();
  for (const id of [q.id, missing]) {
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/v1/questionnaires/${id}`],
      ["PATCH", `/api/v1/questionnaires/${id}`, { title: "x" }],
      ["POST", `/api/v1/questionnaires/${id}/publish`],
      ["POST", `/api/v1/questionnaires/${id}/close`],
      ["DELETE", `/api/v1/questionnaires/${id}`],
    ];
    for (const [method, path, payload] of calls) {
      const res = await service.fetch(path, {
        method,
        headers: intruder.headers(),
        body: payload ? JSON.stringify(payload) : undefined,
      });
      const data = await body<{ error: { code: string; message: string } }>(res);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(data.error.code, "NOT_FOUND");
      assert.equal(data.error.message, "No such questionnaire.", "same answer as a missing id");
    }
  }
  const list = await service.fetch("/api/v1/questionnaires", { headers: intruder.headers() });
  assert.deepEqual((await body<{ data: unknown[] }>(list)).data, []);
  const [row] = await service.db.sql`select title, state from questionnaires where id = ${q.id}`;
  assert.deepEqual([row.title, row.state], [q.title, "draft"]);
});

test("cross-workspace: another user can neither read, change nor detect webhooks (404)", async () => {
  const made = await service.fetch("/api/v1/webhooks", {
    method: "POST",
    headers: owner.headers(),
    body: JSON.stringify({ url: "http://127.0.0.1:9/hook" }),
  });
  assert.equal(made.status, 201, await made.clone().text());
  const hook = await body<{ id: string }>(made);
  const intruder = await registerUser(service);
  for (const id of [hook.id, crypto.randomUUID()]) {
    const calls: [string, string][] = [
      ["GET", `/api/v1/webhooks/${id}/deliveries`],
      ["POST", `/api/v1/webhooks/${id}/test`],
      ["DELETE", `/api/v1/webhooks/${id}`],
    ];
    for (const [method, path] of calls) {
      const res = await service.fetch(path, { method, headers: intruder.headers() });
      assert.equal(res.status, 404, `${method} ${path}`);
      await res.body?.cancel();
    }
  }
  const list = await service.fetch("/api/v1/webhooks", { headers: intruder.headers() });
  assert.deepEqual((await body<{ data: unknown[] }>(list)).data, []);
  const still = await service.db.sql`select 1 from webhooks where id = ${hook.id}`;
  assert.equal(still.length, 1);
});

test("logging: passwords, cookies, bearer tokens and Idempotency-Keys never reach a log line", async () => {
  const password = `secret-pw-${crypto.randomUUID()}`;
  const user = await registerUser(service, { password, bearer: true });
  const res = await login(user.email, password);
  const cookie = cookieFrom(res);
  await res.body?.cancel();
  const key = crypto.randomUUID();
  const created = await service.fetch("/api/v1/questionnaires?x=1", {
    method: "POST",
    headers: { ...user.headers({ "idempotency-key": key }), cookie },
    body: JSON.stringify({ title: "Logged", questions: [] }),
  });
  await created.body?.cancel();
  const viaBearer = await service.fetch("/api/v1/workspace", {
    headers: { authorization: `Bearer ${user.token}` },
  });
  await viaBearer.body?.cancel();
  const text = service.logs.map((line) => JSON.stringify(line)).join("\n");
  const secrets = [password, cookie.split("=")[1], user.cookie.split("=")[1], user.token!, key];
  for (const secret of secrets) assert.ok(!text.includes(secret), "a secret reached the log");
  assert.ok(service.logs.some((l) => l.route === "/api/v1/auth/login"));
});

test("auth: close the service", async () => {
  await service.close();
});
