// Workspace members (routes/forms/workspace.ts) and invitations (routes/forms/invitations.ts):
// inviting by e-mail (the same answer for any address, a member's 409), accepting, declining,
// expiry and revocation, the owner protections (only an owner touches an owner; the last owner
// stays), admin-only management, and another workspace's members and invitations as 404. The
// rules of the invitation secret are in invitations_test.ts.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import { registerUser, type TestUser } from "./_forms.ts";
import { addMember, joinByInvitation } from "./_workspace.ts";

const service = await startTestService();

type Err = { error: { code: string; field: string | null } };
type Member = { user_id: string; role: string };

function addByEmail(as: TestUser, email: string, role: string) {
  return service.fetch("/api/v1/workspace/members", {
    method: "POST",
    headers: as.headers(),
    body: JSON.stringify({ email, role }),
  });
}

function changeRole(as: TestUser, userId: string, role: string) {
  return service.fetch(`/api/v1/workspace/members/${userId}`, {
    method: "PATCH",
    headers: as.headers(),
    body: JSON.stringify({ role }),
  });
}

function remove(as: TestUser, userId: string) {
  return service.fetch(`/api/v1/workspace/members/${userId}`, {
    method: "DELETE",
    headers: as.headers(),
  });
}

/** The workspace's members as [user_id, role], read from the database. */
async function members(workspaceId: string): Promise<[string, string][]> {
  const rows = await service.db.sql<Member>`
    select user_id, role from memberships where workspace_id = ${workspaceId}
    order by created_at, user_id`;
  return rows.map((r) => [r.user_id, r.role]);
}

async function expectError(res: Response, status: number, code: string, field?: string | null) {
  assert.equal(res.status, status, `${res.url}: ${await res.clone().text()}`);
  const data = await body<Err>(res);
  assert.equal(data.error.code, code);
  if (field !== undefined) assert.equal(data.error.field, field);
}

test("members: the list pages with a cursor, oldest first, each member once", async () => {
  const owner = await registerUser(service);
  const added = [];
  for (const role of ["viewer", "editor", "admin"] as const) {
    added.push((await addMember(service, owner, role)).userId);
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const res = await service.fetch(`/api/v1/workspace/members?limit=1${query}`, {
      headers: owner.headers(),
    });
    assert.equal(res.status, 200);
    const data = await body<{ data: Member[]; next_cursor: string | null; has_more: boolean }>(
      res,
    );
    seen.push(...data.data.map((m) => m.user_id));
    cursor = data.next_cursor;
    assert.equal(data.has_more, cursor !== null);
    if (!cursor) break;
  }
  assert.deepEqual(seen, [owner.userId, ...added], "in the order they joined, none twice");
});

type Invitation = {
  id: string;
  email: string;
  role: string;
  created_at: string;
  expires_at: string;
  secret: string;
};
type Received = { workspace: { id: string; name: string }; role: string };

/** The invitation `secret` opens for `as`, or null where it opens none (404). */
async function received(as: TestUser, secret: string): Promise<Received | null> {
  const res = await respond(as, secret, "lookup");
  if (res.status === 404) {
    await res.body?.cancel();
    return null;
  }
  assert.equal(res.status, 200);
  return await body<Received>(res);
}

function respond(as: TestUser, secret: string, answer: "lookup" | "accept" | "decline") {
  return service.fetch(`/api/v1/invitations/${answer}`, {
    method: "POST",
    headers: as.headers(),
    body: JSON.stringify({ secret }),
  });
}

async function pending(as: TestUser): Promise<Invitation[]> {
  const res = await service.fetch("/api/v1/workspace/invitations", { headers: as.headers() });
  assert.equal(res.status, 200);
  return (await body<{ data: Invitation[] }>(res)).data;
}

test("members: inviting answers alike for a registered and an unknown address, names nobody, adds nobody", async () => {
  // Issue 30, item 5: adding answered the user's id and name, 404 for an unknown address, and
  // put any registered person in the workspace without asking.
  const owner = await registerUser(service);
  const someone = await registerUser(service, { name: "Someone Real" });
  const before = await members(owner.workspaceId);
  const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const answers = [];
  for (const email of [someone.email, unknown]) {
    const res = await addByEmail(owner, email, "editor");
    const text = await res.text();
    assert.equal(res.status, 202, text);
    assert.ok(!text.includes(someone.userId) && !text.includes("Someone Real"), text);
    const invitation = JSON.parse(text);
    assert.deepEqual(
      Object.keys(invitation),
      ["id", "email", "role", "created_at", "expires_at", "secret"],
    );
    assert.deepEqual([invitation.email, invitation.role], [email, "editor"]);
    answers.push({ status: res.status, headers: [...res.headers.keys()].sort() });
  }
  assert.deepEqual(answers[0], answers[1], "the same answer whether or not the address is known");
  assert.deepEqual(await members(owner.workspaceId), before, "nobody joined without consent");
});

test("invitations: the invitee reads it with its secret and accepts (the role applies then) or declines", async () => {
  const owner = await registerUser(service);
  const invitee = await registerUser(service);
  const invited = await addByEmail(owner, invitee.email.toUpperCase(), "editor");
  assert.equal(invited.status, 202);
  const { id, secret } = await body<Invitation>(invited);
  const mine = await received(invitee, secret);
  assert.deepEqual([mine?.workspace.id, mine?.role], [owner.workspaceId, "editor"]);
  assert.equal(await received(owner, secret), null, "only the invited address reads it");
  // Someone else cannot accept or decline it, even holding the secret.
  const stranger = await registerUser(service);
  await expectError(await respond(stranger, secret, "accept"), 404, "NOT_FOUND");
  await expectError(await respond(stranger, secret, "decline"), 404, "NOT_FOUND");
  // Inviting again renews it with the new role and a new secret; the role applies on acceptance.
  const again = await body<Invitation>(await addByEmail(owner, invitee.email, "viewer"));
  assert.equal(again.id, id);
  assert.notEqual(again.secret, secret);
  await expectError(await respond(invitee, secret, "accept"), 404, "NOT_FOUND");
  const accepted = await respond(invitee, again.secret, "accept");
  assert.equal(accepted.status, 200);
  const workspace = await body<{ id: string; role: string }>(accepted);
  assert.deepEqual([workspace.id, workspace.role], [owner.workspaceId, "viewer"]);
  assert.deepEqual((await members(owner.workspaceId)).at(-1), [invitee.userId, "viewer"]);
  const asMember = await service.fetch("/api/v1/workspace", {
    headers: invitee.headers({ "x-workspace-id": owner.workspaceId }),
  });
  assert.equal((await body<{ role: string }>(asMember)).role, "viewer");
  assert.equal(await received(invitee, again.secret), null);
  await expectError(await respond(invitee, again.secret, "accept"), 404, "NOT_FOUND");
  // Declined: removed, nothing joined.
  const other = await registerUser(service);
  const declined = await body<Invitation>(await addByEmail(owner, other.email, "admin"));
  const res = await respond(other, declined.secret, "decline");
  assert.equal(res.status, 204);
  assert.equal(await received(other, declined.secret), null);
  assert.ok(!(await members(owner.workspaceId)).some(([user]) => user === other.userId));
  assert.deepEqual(await pending(owner), []);
});

test("invitations: an address registered after it was invited accepts with the secret", async () => {
  const owner = await registerUser(service);
  const email = `later-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const invited = await addByEmail(owner, email, "editor");
  assert.equal(invited.status, 202);
  const { secret } = await body<Invitation>(invited);
  const later = await registerUser(service, { email });
  assert.equal((await respond(later, secret, "accept")).status, 200);
  assert.deepEqual((await members(owner.workspaceId)).at(-1), [later.userId, "editor"]);
});

test("invitations: a user left in no workspace still reads and accepts them", async () => {
  const a = await registerUser(service);
  const b = await addMember(service, a, "owner");
  assert.equal((await remove(b, a.userId)).status, 204);
  const [{ n }] = await service.db.sql<{ n: number }>`
    select count(*)::int as n from memberships where user_id = ${a.userId}`;
  assert.equal(n, 0);
  const { secret } = await body<Invitation>(await addByEmail(b, a.email, "editor"));
  assert.equal((await received(a, secret))?.role, "editor");
  assert.equal((await respond(a, secret, "accept")).status, 200);
  assert.deepEqual((await members(a.workspaceId)).at(-1), [a.userId, "editor"]);
});

test("invitations: they expire after 7 days, and admins list and revoke them", async () => {
  const owner = await registerUser(service);
  const admin = await addMember(service, owner, "admin");
  const editor = await addMember(service, owner, "editor");
  const a = await registerUser(service);
  const b = await registerUser(service);
  const c = await registerUser(service);
  const ofA = await body<Invitation>(await addByEmail(admin, a.email, "viewer"));
  const ofB = await body<Invitation>(await addByEmail(owner, b.email, "owner"));
  const listed = await pending(admin);
  assert.deepEqual(listed.map((i) => i.id).sort(), [ofA.id, ofB.id].sort());
  assert.ok(listed.every((i) => !("secret" in i)), "the list shows no secret");
  for (const as of [editor]) {
    const res = await service.fetch("/api/v1/workspace/invitations", { headers: as.headers() });
    await expectError(res, 403, "FORBIDDEN");
  }
  const revoke = (as: TestUser, id: string) =>
    service.fetch(`/api/v1/workspace/invitations/${id}`, {
      method: "DELETE",
      headers: as.headers(),
    });
  // Another workspace's admin: 404; an admin revoking an invitation to owner: 403.
  const outsider = await registerUser(service);
  await expectError(await revoke(outsider, ofA.id), 404, "NOT_FOUND");
  await expectError(await revoke(editor, ofA.id), 403, "FORBIDDEN");
  await expectError(await revoke(admin, ofB.id), 403, "FORBIDDEN");
  assert.equal((await revoke(admin, ofA.id)).status, 204);
  await expectError(await respond(a, ofA.secret, "accept"), 404, "NOT_FOUND");
  await expectError(await revoke(admin, ofA.id), 404, "NOT_FOUND");
  // Expiry, on the service's clock.
  const ofC = await body<Invitation>(await addByEmail(owner, c.email, "editor"));
  assert.equal(
    new Date(ofC.expires_at).getTime() - new Date(ofC.created_at).getTime(),
    7 * 86_400_000,
  );
  service.clock.advance(7 * 86_400_000 + 1000);
  try {
    assert.equal(await received(c, ofC.secret), null);
    assert.deepEqual(await pending(owner), []);
    await expectError(await respond(c, ofC.secret, "accept"), 404, "NOT_FOUND");
    await expectError(await respond(b, ofB.secret, "accept"), 404, "NOT_FOUND");
    // Inviting again gives a new one to accept.
    const renewed = await body<Invitation>(await addByEmail(owner, c.email, "editor"));
    assert.equal((await respond(c, renewed.secret, "accept")).status, 200);
  } finally {
    service.clock.set(new Date());
  }
  assert.ok(
    !(await members(owner.workspaceId)).some(([user]) => [a.userId, b.userId].includes(user)),
  );
});

test("members: adding a member again is 409 (field email), whatever the e-mail's case", async () => {
  const owner = await registerUser(service);
  const editor = await addMember(service, owner, "editor");
  for (const email of [editor.email, editor.email.toUpperCase()]) {
    await expectError(await addByEmail(owner, email, "viewer"), 409, "CONFLICT", "email");
  }
  await expectError(await addByEmail(owner, owner.email, "viewer"), 409, "CONFLICT", "email");
  assert.deepEqual(await members(owner.workspaceId), [
    [owner.userId, "owner"],
    [editor.userId, "editor"],
  ]);
});

test("members: the last owner can be neither demoted nor removed (409 field role)", async () => {
  const owner = await registerUser(service);
  for (const role of ["admin", "editor", "viewer"]) {
    await expectError(await changeRole(owner, owner.userId, role), 409, "CONFLICT", "role");
  }
  await expectError(await remove(owner, owner.userId), 409, "CONFLICT", "role");
  // With a second owner, the first may step down; then the second is the last one.
  const second = await addMember(service, owner, "owner");
  const demoted = await changeRole(owner, owner.userId, "admin");
  assert.equal(demoted.status, 200);
  assert.equal((await body<Member>(demoted)).role, "admin");
  await expectError(await changeRole(second, second.userId, "viewer"), 409, "CONFLICT", "role");
  await expectError(await remove(second, second.userId), 409, "CONFLICT", "role");
  assert.deepEqual(await members(owner.workspaceId), [
    [owner.userId, "admin"],
    [second.userId, "owner"],
  ]);
});

test("members: only an owner may add, promote to, demote or remove an owner (admin 403)", async () => {
  const owner = await registerUser(service);
  const coOwner = await addMember(service, owner, "owner");
  const admin = await addMember(service, owner, "admin");
  const editor = await addMember(service, owner, "editor");
  const stranger = await registerUser(service);
  const before = await members(owner.workspaceId);
  await expectError(await addByEmail(admin, stranger.email, "owner"), 403, "FORBIDDEN");
  // Nor replace an owner's pending invitation to the owner role by inviting the address again.
  const invited = `o${crypto.randomUUID().slice(0, 8)}@example.com`;
  const byOwnerInvite = await addByEmail(owner, invited, "owner");
  assert.equal(byOwnerInvite.status, 202);
  await byOwnerInvite.body?.cancel();
  await expectError(await addByEmail(admin, invited, "viewer"), 403, "FORBIDDEN");
  const [kept] = await service.db.sql<{ role: string }>`
    select role from invitations where workspace_id = ${owner.workspaceId} and email = ${invited}`;
  assert.equal(kept.role, "owner");
  await expectError(await changeRole(admin, editor.userId, "owner"), 403, "FORBIDDEN");
  await expectError(await changeRole(admin, coOwner.userId, "admin"), 403, "FORBIDDEN");
  await expectError(await remove(admin, coOwner.userId), 403, "FORBIDDEN");
  assert.deepEqual(await members(owner.workspaceId), before);
  // An admin manages everyone else.
  const changed = await changeRole(admin, editor.userId, "viewer");
  assert.equal(changed.status, 200);
  await changed.body?.cancel();
  await joinByInvitation(service, admin, stranger, "editor");
  const removed = await remove(admin, editor.userId);
  assert.equal(removed.status, 204);
  // An owner may change or remove another owner.
  const byOwner = await remove(owner, coOwner.userId);
  assert.equal(byOwner.status, 204);
  assert.deepEqual(await members(owner.workspaceId), [
    [owner.userId, "owner"],
    [admin.userId, "admin"],
    [stranger.userId, "editor"],
  ]);
});

test("members: editors and viewers cannot add, change or remove members (403); viewers list them", async () => {
  const owner = await registerUser(service);
  const editor = await addMember(service, owner, "editor");
  const viewer = await addMember(service, owner, "viewer");
  const stranger = await registerUser(service);
  const before = await members(owner.workspaceId);
  for (const as of [editor, viewer]) {
    await expectError(await addByEmail(as, stranger.email, "viewer"), 403, "FORBIDDEN");
    await expectError(await changeRole(as, viewer.userId, "editor"), 403, "FORBIDDEN");
    await expectError(await changeRole(as, as.userId, "admin"), 403, "FORBIDDEN");
    await expectError(await remove(as, viewer.userId), 403, "FORBIDDEN");
  }
  assert.deepEqual(await members(owner.workspaceId), before);
  const list = await service.fetch("/api/v1/workspace/members", { headers: viewer.headers() });
  assert.equal(list.status, 200);
  const page = await body<{ data: Member[] }>(list);
  assert.deepEqual(page.data.map((m) => [m.user_id, m.role]), before);
});

test("members: another workspace's member, or an unknown id, is 404 on change and removal", async () => {
  const owner = await registerUser(service);
  const other = await registerUser(service);
  const otherEditor = await addMember(service, other, "editor");
  const unknown = crypto.randomUUID();
  for (const userId of [other.userId, otherEditor.userId, unknown]) {
    await expectError(await changeRole(owner, userId, "viewer"), 404, "NOT_FOUND");
    await expectError(await remove(owner, userId), 404, "NOT_FOUND");
  }
  assert.deepEqual(await members(other.workspaceId), [
    [other.userId, "owner"],
    [otherEditor.userId, "editor"],
  ]);
  assert.deepEqual(await members(owner.workspaceId), [[owner.userId, "owner"]]);
});

test("members: two owners demoting or removing each other at once leave one owner", async () => {
  const a = await registerUser(service);
  const b = await addMember(service, a, "owner");
  // Repeated, since a race shows only when the two requests overlap.
  for (let round = 0; round < 8; round++) {
    for (const step of ["demote", "remove"] as const) {
      const act = (as: TestUser, target: TestUser) =>
        step === "demote" ? changeRole(as, target.userId, "admin") : remove(as, target.userId);
      const statuses = await Promise.all([act(a, b), act(b, a)].map(async (pending) => {
        const res = await pending;
        await res.body?.cancel();
        return res.status;
      }));
      // The loser is refused by the last-owner rule (409), or, when the winner committed
      // before its authentication, as a mere admin (403) or a non-member (404).
      const context = `round ${round}, ${step}: ${statuses}`;
      assert.equal(statuses.filter((s) => s === 200 || s === 204).length, 1, context);
      assert.ok(statuses.every((s) => [200, 204, 403, 404, 409].includes(s)), context);
      const owners = (await members(a.workspaceId)).filter(([, role]) => role === "owner");
      assert.equal(owners.length, 1, context);
      // The remaining owner makes the other one an owner again for the next step.
      const [winner, loser] = owners[0][0] === a.userId ? [a, b] : [b, a];
      if (step === "demote") {
        const restored = await changeRole(winner, loser.userId, "owner");
        assert.equal(restored.status, 200, context);
        await restored.body?.cancel();
      } else {
        await joinByInvitation(service, winner, loser, "owner");
      }
    }
  }
});

test("members: close the service", async () => {
  await service.close();
});
