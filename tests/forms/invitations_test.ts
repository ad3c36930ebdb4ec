// The invitation secret (issue 30, item 5; routes/forms/invitations.ts): addresses are never
// verified, so whoever registers an invited address first must learn nothing of the invitation
// and be unable to take it. Only the secret, answered once to the inviter, with a user signed in
// with the address, reads, accepts or declines it; it is kept as a digest, works once, expires
// with the invitation, and reaches no log line.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import { registerUser, type TestUser } from "./_forms.ts";
import { openDb } from "../../lib/db/db.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { secretDigest } from "../../lib/http/credentials.ts";
import { migrations } from "../../sql/migrations.ts";
import { freshDatabase } from "../_server.ts";

const service = await startTestService();

const SECRET = /^onda_inv_[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

type Invitation = {
  id: string;
  email: string;
  role: string;
  created_at: string;
  expires_at: string;
  secret: string;
};

function invite(as: TestUser, email: string, role: string, extra: Record<string, string> = {}) {
  return service.fetch("/api/v1/workspace/members", {
    method: "POST",
    headers: as.headers(extra),
    body: JSON.stringify({ email, role }),
  });
}

async function invited(as: TestUser, email: string, role: string): Promise<Invitation> {
  const res = await invite(as, email, role);
  assert.equal(res.status, 202, await res.clone().text());
  return await body<Invitation>(res);
}

function respond(as: TestUser, action: "lookup" | "accept" | "decline", secret: unknown) {
  return service.fetch(`/api/v1/invitations/${action}`, {
    method: "POST",
    headers: as.headers(),
    body: JSON.stringify({ secret }),
  });
}

/** A secret of the right form that no invitation has. */
function randomSecret(): string {
  return "onda_inv_" + crypto.getRandomValues(new Uint8Array(32)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

/** An owner whose workspace and own name are recognisable in any answer. */
async function inviter() {
  const tag = crypto.randomUUID().slice(0, 8);
  const owner = await registerUser(service, { name: `Ina Inviter ${tag}` });
  const workspaceName = `Secret Plans ${tag}`;
  const renamed = await service.fetch("/api/v1/workspace", {
    method: "PATCH",
    headers: owner.headers(),
    body: JSON.stringify({ name: workspaceName }),
  });
  assert.equal(renamed.status, 200);
  await renamed.body?.cancel();
  return { owner, workspaceName };
}

async function roleIn(workspaceId: string, userId: string): Promise<string | null> {
  const [row] = await service.db.sql<{ role: string }>`
    select role from memberships where workspace_id = ${workspaceId} and user_id = ${userId}`;
  return row?.role ?? null;
}

async function pendingIds(workspaceId: string): Promise<string[]> {
  const rows = await service.db.sql<{ id: string }>`
    select id from invitations where workspace_id = ${workspaceId} and expires_at > now()`;
  return rows.map((r) => r.id);
}

/** Status, header names and body of an error, without its trace id (each request has its own). */
async function errorShape(res: Response) {
  const data = await body<{ error: Record<string, unknown> }>(res);
  assert.equal(typeof data.error?.trace_id, "string", JSON.stringify(data));
  delete data.error.trace_id;
  const headers = [...res.headers.keys()].filter((h) => h !== "x-trace-id" && h !== "date");
  return { status: res.status, headers: headers.sort(), body: data };
}

for (const role of ["editor", "owner"]) {
  test(`invitations: whoever registers the invited address first sees nothing of an ${role} invitation and cannot take or decline it without the secret`, async () => {
    const { owner, workspaceName } = await inviter();
    const email = `ana-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invitation = await invited(owner, email, role);
    // The squatter registers the address before the person meant: nobody verifies it.
    const squatter = await registerUser(service, { email });
    const post = (path: string, payload?: unknown) =>
      service.fetch(path, {
        method: "POST",
        headers: squatter.headers(),
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
    const attempts = [
      // What the invitee's routes were before the secret: a list by address, then the id.
      await service.fetch("/api/v1/invitations", { headers: squatter.headers() }),
      await post(`/api/v1/invitations/${invitation.id}/accept`),
      await post(`/api/v1/invitations/${invitation.id}/decline`),
      // The routes of the secret, without it: none, another one, or the id in its place.
      ...await Promise.all(
        ["lookup", "accept", "decline"].flatMap((action) => [
          post(`/api/v1/invitations/${action}`, {}),
          post(`/api/v1/invitations/${action}`, { secret: randomSecret() }),
          post(`/api/v1/invitations/${action}`, { secret: invitation.id }),
        ]),
      ),
    ];
    const revealing = [workspaceName, owner.name, owner.email, owner.workspaceId, owner.userId];
    for (const res of attempts) {
      const text = await res.text();
      // The deprecated list answers, empty (deprecated_v1 tests below); the rest refuse.
      const list = new URL(res.url).pathname === "/api/v1/invitations";
      if (list) assert.deepEqual([res.status, JSON.parse(text).data], [200, []], text);
      else assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.url}: ${text}`);
      for (const secret of revealing) {
        assert.ok(!text.includes(secret), `${res.url} answered ${secret}: ${text}`);
      }
    }
    assert.equal(await roleIn(owner.workspaceId, squatter.userId), null, "the squatter joined");
    assert.deepEqual(await pendingIds(owner.workspaceId), [invitation.id], "still pending");
  });
}

test("invitations: the invited person accepts with the secret, signed in with the address; the secret or the address alone is not enough", async () => {
  const { owner, workspaceName } = await inviter();
  const person = await registerUser(service);
  const { secret } = await invited(owner, person.email, "editor");
  assert.match(secret, SECRET);
  // The secret forwarded to, or read by, someone with another address: 404.
  const stranger = await registerUser(service);
  for (const action of ["lookup", "accept", "decline"] as const) {
    const res = await respond(stranger, action, secret);
    assert.equal(res.status, 404, `${action}: ${await res.clone().text()}`);
    await res.body?.cancel();
    const wrong = await respond(person, action, randomSecret());
    assert.equal(wrong.status, 404, `${action}: ${await wrong.clone().text()}`);
    await wrong.body?.cancel();
  }
  // Both: the person reads what they are invited to, then accepts.
  const read = await respond(person, "lookup", secret);
  assert.equal(read.status, 200);
  const seen = await body<{ workspace: { id: string; name: string }; role: string }>(read);
  assert.deepEqual(seen.workspace, { id: owner.workspaceId, name: workspaceName });
  assert.equal(seen.role, "editor");
  const accepted = await respond(person, "accept", secret);
  assert.equal(accepted.status, 200, await accepted.clone().text());
  assert.equal((await body<{ id: string }>(accepted)).id, owner.workspaceId);
  assert.equal(await roleIn(owner.workspaceId, person.userId), "editor");
  assert.equal(await roleIn(owner.workspaceId, stranger.userId), null);
});

test("invitations: an owner invitation is accepted only with its secret, by the invited address", async () => {
  const { owner } = await inviter();
  const person = await registerUser(service);
  const invitation = await invited(owner, person.email, "owner");
  const admin = await registerUser(service);
  const refused = [
    // The old way: the id, by the address alone.
    await service.fetch(`/api/v1/invitations/${invitation.id}/accept`, {
      method: "POST",
      headers: person.headers(),
    }),
    await respond(person, "accept", randomSecret()),
    await respond(admin, "accept", invitation.secret),
  ];
  for (const res of refused) {
    assert.equal(res.status, 404, `${res.url}: ${await res.clone().text()}`);
    await res.body?.cancel();
  }
  assert.equal(await roleIn(owner.workspaceId, person.userId), null);
  const accepted = await respond(person, "accept", invitation.secret);
  assert.equal(accepted.status, 200);
  assert.equal((await body<{ role: string }>(accepted)).role, "owner");
  assert.equal(await roleIn(owner.workspaceId, person.userId), "owner");
});

test("invitations: a wrong secret answers 404 with the same body as an invitation that does not exist", async () => {
  const { owner } = await inviter();
  const person = await registerUser(service);
  const other = await registerUser(service);
  const stranger = await registerUser(service);
  const mine = await invited(owner, person.email, "viewer");
  const others = await invited(owner, other.email, "viewer");
  // Replaced: inviting again gives the address a new secret, and the old one opens nothing.
  const replaced = mine.secret;
  const current = await invited(owner, person.email, "viewer");
  const wrong: [string, TestUser, string][] = [
    ["an unknown secret", person, randomSecret()],
    ["the secret with one character changed", person, flipLast(current.secret)],
    ["another address's invitation's secret", person, others.secret],
    ["the right secret from another account", stranger, current.secret],
    ["a replaced secret", person, replaced],
  ];
  for (const action of ["lookup", "accept", "decline"] as const) {
    const expected = await errorShape(await respond(stranger, action, randomSecret()));
    assert.equal(expected.status, 404);
    assert.equal(expected.body.error.code, "NOT_FOUND");
    for (const [what, as, secret] of wrong) {
      assert.deepEqual(await errorShape(await respond(as, action, secret)), expected, what);
    }
  }
  // None of that touched them: the right secret, from the invited address, still works.
  assert.equal((await respond(other, "decline", others.secret)).status, 204);
  const accepted = await respond(person, "accept", current.secret);
  assert.equal(accepted.status, 200);
  await accepted.body?.cancel();
});

function flipLast(secret: string): string {
  return secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
}

test("invitations: a secret accepts once", async () => {
  const { owner } = await inviter();
  const person = await registerUser(service);
  const { secret } = await invited(owner, person.email, "editor");
  const first = await respond(person, "accept", secret);
  assert.equal(first.status, 200);
  await first.body?.cancel();
  const again = await respond(person, "accept", secret);
  assert.equal(again.status, 404, await again.clone().text());
  await again.body?.cancel();
  // Removed from the workspace, the person cannot come back with the spent secret.
  const removed = await service.fetch(`/api/v1/workspace/members/${person.userId}`, {
    method: "DELETE",
    headers: owner.headers(),
  });
  assert.equal(removed.status, 204);
  for (const action of ["lookup", "accept", "decline"] as const) {
    const res = await respond(person, action, secret);
    assert.equal(res.status, 404, `${action}: ${await res.clone().text()}`);
    await res.body?.cancel();
  }
  assert.equal(await roleIn(owner.workspaceId, person.userId), null);
  const [{ n }] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from invitations where secret_digest = ${secretDigest(secret)}`;
  assert.equal(n, 0, "the spent secret's invitation is gone");
});

test("invitations: a secret expires with its invitation after 7 days", async () => {
  const { owner } = await inviter();
  const person = await registerUser(service);
  const { secret, expires_at } = await invited(owner, person.email, "editor");
  try {
    service.clock.set(new Date(Date.parse(expires_at) - 60_000));
    const before = await respond(person, "lookup", secret);
    assert.equal(before.status, 200, "a minute before expiry it still opens");
    await before.body?.cancel();
    service.clock.set(new Date(Date.parse(expires_at) + 1000));
    for (const action of ["lookup", "decline", "accept"] as const) {
      const res = await respond(person, action, secret);
      assert.equal(res.status, 404, `${action}: ${await res.clone().text()}`);
      await res.body?.cancel();
    }
  } finally {
    service.clock.set(new Date());
  }
  assert.equal(await roleIn(owner.workspaceId, person.userId), null);
  assert.equal(
    Date.parse(expires_at) - Date.parse((await pendingCreated(owner.workspaceId))!),
    7 * DAY_MS,
  );
});

async function pendingCreated(workspaceId: string): Promise<string | null> {
  const [row] = await service.db.sql<{ created_at: Date }>`
    select created_at from invitations where workspace_id = ${workspaceId}`;
  return row ? row.created_at.toISOString() : null;
}

test("members: inviting answers the same fields, and a new secret, for a registered, an unregistered and another workspace's member's address", async () => {
  const { owner } = await inviter();
  const registered = await registerUser(service, { name: "Registered Rita" });
  const elsewhere = await registerUser(service, { name: "Elsewhere Ed" });
  const { owner: otherOwner } = await inviter();
  // A member of another workspace, made without the routes under test.
  await service.db.sql`
    insert into memberships (workspace_id, user_id, role, created_at)
    values (${otherOwner.workspaceId}, ${elsewhere.userId}, 'editor', now())`;
  // An address another workspace invited, not yet accepted, and one nobody has.
  const pendingElsewhere = `p-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const other = await invite(otherOwner, pendingElsewhere, "viewer");
  assert.equal(other.status, 202);
  await other.body?.cancel();
  const unregistered = `n-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const shapes = [];
  const secrets = new Set<string>();
  for (const email of [registered.email, unregistered, elsewhere.email, pendingElsewhere]) {
    const res = await invite(owner, email, "editor");
    const text = await res.text();
    assert.equal(res.status, 202, text);
    for (const user of [registered, elsewhere]) {
      assert.ok(!text.includes(user.userId) && !text.includes(user.name), text);
    }
    const answer = JSON.parse(text);
    assert.match(answer.secret, SECRET);
    secrets.add(answer.secret);
    shapes.push({
      status: res.status,
      headers: [...res.headers.keys()].filter((h) => h !== "date").sort(),
      fields: Object.entries(answer).map(([key, value]) => [key, typeof value]),
      email: answer.email === email,
    });
  }
  for (const shape of shapes.slice(1)) assert.deepEqual(shape, shapes[0]);
  assert.deepEqual(shapes[0].fields.map(([key]) => key), [
    "id",
    "email",
    "role",
    "created_at",
    "expires_at",
    "secret",
  ]);
  assert.equal(secrets.size, 4, "a secret of its own each");
});

test("invitations: the secret is kept only as its digest, and the Idempotency-Key record keeps it sealed", async () => {
  const { owner } = await inviter();
  const person = await registerUser(service);
  const key = { "idempotency-key": crypto.randomUUID() };
  const first = await invite(owner, person.email, "editor", key);
  assert.equal(first.status, 202);
  const { id, secret } = await body<Invitation>(first);
  const random = secret.slice("onda_inv_".length);
  const [stored] = await service.db.sql<{ row: string; digest: Uint8Array }>`
    select to_jsonb(i)::text as row, i.secret_digest as digest from invitations i
    where i.id = ${id}`;
  assert.ok(!stored.row.includes(random), "the invitation row holds the secret");
  assert.deepEqual(new Uint8Array(stored.digest), new Uint8Array(secretDigest(secret)));
  const records = await service.db.sql<{ row: string }>`
    select to_jsonb(k)::text as row from idempotency_keys k`;
  assert.ok(records.length > 0);
  for (const record of records) {
    assert.ok(!record.row.includes(random), "an Idempotency-Key record holds the secret");
  }
  // The replay answers the same secret, opened from the sealed record, and it works.
  const replay = await invite(owner, person.email, "editor", key);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  assert.equal((await body<Invitation>(replay)).secret, secret);
  const accepted = await respond(person, "accept", secret);
  assert.equal(accepted.status, 200);
  await accepted.body?.cancel();
});

test("invitations: the secret reaches no log line", async () => {
  const { owner } = await inviter();
  const person = await registerUser(service);
  const before = service.logs.length;
  const key = { "idempotency-key": crypto.randomUUID() };
  const first = await invite(owner, person.email, "editor", key);
  const { secret } = await body<Invitation>(first);
  const sent = [
    await invite(owner, person.email, "editor", key),
    await respond(person, "lookup", secret),
    await respond(person, "lookup", secret + "x"),
    await respond(owner, "accept", secret),
    await respond(person, "decline", flipLast(secret)),
    await service.fetch("/api/v1/invitations/accept", {
      method: "POST",
      headers: person.headers(key),
      body: JSON.stringify({ secret }),
    }),
    await service.fetch("/api/v1/invitations/accept", {
      method: "POST",
      headers: person.headers(key),
      body: JSON.stringify({ secret }),
    }),
  ];
  assert.deepEqual(sent.map((r) => r.status), [202, 200, 400, 404, 404, 200, 200]);
  await Promise.all(sent.map((r) => r.body?.cancel()));
  const lines = service.logs.slice(before);
  assert.ok(lines.length >= sent.length + 1);
  const printed = lines.map((line) => JSON.stringify(line)).join("\n");
  assert.ok(!printed.includes(secret.slice("onda_inv_".length, -1)), "a secret was logged");
});

test("invitations: those made before secrets existed (migration 011) cannot be accepted: the migration removes them", async () => {
  const database = await freshDatabase();
  const db = await openDb({ databaseUrl: database.url, dataDir: "memory://" });
  try {
    const at = migrations.findIndex((m) => m.name === "011_invitation_secrets.sql");
    assert.ok(at > 0);
    await migrate(db, migrations.slice(0, at));
    const [workspace] = await db.sql<{ id: string }>`
      insert into workspaces (name, signing_secret) values ('Old', 'whsec_old') returning id`;
    await db.sql`
      insert into invitations (workspace_id, email, role, created_at, expires_at)
      values (${workspace.id}, 'old@example.com', 'owner', now(), now() + interval '7 days')`;
    await migrate(db, migrations);
    const left = await db.sql`select id from invitations`;
    assert.equal(left.length, 0, "an invitation without a secret is left to accept");
    const [column] = await db.sql<{ is_nullable: string }>`
      select is_nullable from information_schema.columns
      where table_name = 'invitations' and column_name = 'secret_digest'`;
    assert.equal(column.is_nullable, "NO", "an invitation can be made without a secret");
  } finally {
    await db.close();
    await database.drop();
  }
});

// The invitee's v1 routes of before the secret (spec 1.2.0) stay, as v1 promises (forms-api.md
// §9), deprecated and closed by the secret.

/** POST to a deprecated by-id route: `payload` undefined sends no body, as clients of 1.2.0 did. */
function legacy(as: TestUser, id: string, action: "accept" | "decline", payload?: unknown) {
  const headers = as.headers();
  if (payload === undefined) delete (headers as Record<string, string>)["content-type"];
  return service.fetch(`/api/v1/invitations/${id}/${action}`, {
    method: "POST",
    headers,
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
}

test("invitations: the deprecated GET /api/v1/invitations answers an empty list even to an invited address", async () => {
  const { owner } = await inviter();
  const person = await registerUser(service);
  await invited(owner, person.email, "editor");
  const res = await service.fetch("/api/v1/invitations?limit=5", { headers: person.headers() });
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual(await body(res), { data: [], next_cursor: null, has_more: false });
  // Its rules stay: signed in, and the page query checked.
  const anonymous = await service.fetch("/api/v1/invitations");
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  const bad = await service.fetch("/api/v1/invitations?limit=0", { headers: person.headers() });
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
});

for (const action of ["accept", "decline"] as const) {
  test(`invitations: the deprecated POST /api/v1/invitations/{id}/${action} without the invitation's secret is the 404 of an unknown invitation, and with it ${action}s`, async () => {
    const { owner } = await inviter();
    const { owner: otherOwner } = await inviter();
    const person = await registerUser(service);
    const stranger = await registerUser(service);
    const mine = await invited(owner, person.email, "editor");
    const otherOfMine = await invited(otherOwner, person.email, "viewer");
    const expected = await errorShape(
      await legacy(person, crypto.randomUUID(), action, { secret: mine.secret }),
    );
    assert.equal(expected.status, 404);
    assert.equal(expected.body.error.code, "NOT_FOUND");
    const refused: [string, Promise<Response>][] = [
      ["no body, as before the secret", legacy(person, mine.id, action)],
      [
        "no body with a JSON Content-Type",
        service.fetch(`/api/v1/invitations/${mine.id}/${action}`, {
          method: "POST",
          headers: person.headers(),
        }),
      ],
      [
        "an empty body sent chunked",
        service.fetch(`/api/v1/invitations/${mine.id}/${action}`, {
          method: "POST",
          headers: person.headers(),
          body: new ReadableStream({ start: (c) => c.close() }),
        }),
      ],
      ["an empty object", legacy(person, mine.id, action, {})],
      ["an unknown secret", legacy(person, mine.id, action, { secret: randomSecret() })],
      [
        "another invitation's secret",
        legacy(person, mine.id, action, { secret: otherOfMine.secret }),
      ],
      [
        "the secret from another account",
        legacy(stranger, mine.id, action, { secret: mine.secret }),
      ],
    ];
    for (const [what, res] of refused) {
      assert.deepEqual(await errorShape(await res), expected, what);
    }
    assert.deepEqual(await pendingIds(owner.workspaceId), [mine.id], "still pending");
    const done = await legacy(person, mine.id, action, { secret: mine.secret });
    if (action === "accept") {
      assert.equal(done.status, 200, await done.clone().text());
      assert.deepEqual(
        (({ id, role }) => ({ id, role }))(await body<{ id: string; role: string }>(done)),
        { id: owner.workspaceId, role: "editor" },
      );
      assert.equal(await roleIn(owner.workspaceId, person.userId), "editor");
    } else {
      assert.equal(done.status, 204, await done.clone().text());
      await done.body?.cancel();
      assert.equal(await roleIn(owner.workspaceId, person.userId), null);
    }
    assert.deepEqual(await pendingIds(owner.workspaceId), [], "spent");
    // The other invitation was not touched by the wrong id.
    assert.deepEqual(await pendingIds(otherOwner.workspaceId), [otherOfMine.id]);
    assert.equal(await roleIn(otherOwner.workspaceId, person.userId), null);
  });
}

test("invitations: close the service", async () => {
  await service.close();
});
