// Workspace members (routes/forms/workspace.ts): adding by e-mail (unknown 404, duplicate 409), the
// owner protections (only an owner touches an owner; the last owner stays), admin-only
// management, and another workspace's members as 404.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import { registerUser, type TestUser } from "./_forms.ts";
import { addMember } from "./_workspace.ts";

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

test("members: adding an e-mail no user has is 404 (field email) and adds nothing", async () => {
  const owner = await registerUser(service);
  const before = await members(owner.workspaceId);
  await expectError(
    await addByEmail(owner, "nobody-here@example.com", "editor"),
    404,
    "NOT_FOUND",
    "email",
  );
  assert.deepEqual(await members(owner.workspaceId), before);
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
  await expectError(await changeRole(admin, editor.userId, "owner"), 403, "FORBIDDEN");
  await expectError(await changeRole(admin, coOwner.userId, "admin"), 403, "FORBIDDEN");
  await expectError(await remove(admin, coOwner.userId), 403, "FORBIDDEN");
  assert.deepEqual(await members(owner.workspaceId), before);
  // An admin manages everyone else.
  const changed = await changeRole(admin, editor.userId, "viewer");
  assert.equal(changed.status, 200);
  await changed.body?.cancel();
  const added = await addByEmail(admin, stranger.email, "editor");
  assert.equal(added.status, 201);
  const member = await body<Member>(added);
  assert.deepEqual([member.user_id, member.role], [stranger.userId, "editor"]);
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
      const restored = step === "demote"
        ? await changeRole(winner, loser.userId, "owner")
        : await addByEmail(winner, loser.email, "owner");
      assert.ok(restored.status === 200 || restored.status === 201, context);
      await restored.body?.cancel();
    }
  }
});

test("members: close the service", async () => {
  await service.close();
});
