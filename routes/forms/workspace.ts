// The workspace of the request: its settings (name, allowed origins), plan usage and members
// with their roles (contract.md §3); members join by invitation (routes/forms/invitations.ts).

import { type Role, ROLES, user, type UserPrincipal } from "../../lib/forms/auth.ts";
import { listEnvelope, type ListOrder, listPage, pageQuery } from "../../lib/http/cursor.ts";
import { frag, type Sql } from "../../lib/db/db.ts";
import { ApiError } from "../../lib/errors.ts";
import {
  answersPerMonth,
  answersThisMonth,
  monthOf,
  type Plan,
  PLANS,
} from "../../lib/forms/plan.ts";
import { type AppContext, json } from "../../lib/http/router.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import { conflict, formsRoutes, notFound } from "../../lib/forms/wing.ts";
import {
  invitationOut,
  invite,
  newInvitationExample,
  newInvitationJson,
} from "../../lib/forms/invitations.ts";
import * as s from "../../lib/http/schema.ts";

/** The workspace and its members, from the origins it allows. */
const workspaceRoute = formsRoutes({ tag: "workspace", cors: "credentialed" });

const role = s.enumOf(ROLES);

// An origin is scheme://host[:port], exactly what a browser sends in Origin.
const origin = s.string({
  min: 1,
  max: 300,
  pattern: /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/,
  patternHint: "an origin like https://example.com (scheme, host, optional port; no path)",
  example: "https://www.example.com",
});

const workspaceJson = s.named(
  "Workspace",
  s.object({
    id: s.uuid(),
    name: s.string({ example: "Ana Lima's workspace" }),
    role,
    allowed_origins: s.array(s.string({ example: "https://www.example.com" })),
    plan: s.enumOf(PLANS),
    usage: s.object({
      month: s.date("First day of the calendar month (UTC)."),
      answers: s.int({ min: 0, example: 120 }),
      answers_limit: s.nullable(s.int({ min: 0, description: "null = unlimited.", example: 1000 })),
    }),
  }),
);
const memberJson = s.named(
  "Member",
  s.object({
    user_id: s.uuid(),
    email: s.email(),
    name: s.string({ example: "Ana Lima" }),
    role,
    created_at: s.dateTime(),
  }),
);

interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: Date;
}

/** Only an owner may grant, change or remove the owner role. */
export function checkOwnerRule(principal: UserPrincipal, ...roles: (Role | null)[]) {
  if (roles.includes("owner") && principal.role !== "owner") {
    throw new ApiError(403, "FORBIDDEN", {
      message: "Only an owner can grant, change or remove an owner.",
    });
  }
}

/**
 * Locks the member `userId` and every owner of the workspace, in one statement and in user_id
 * order: two owners demoting or removing each other at once then wait for one another instead
 * of deadlocking (each locking its target first, then the owners, did), and the owners read
 * here stay owners until commit. Then checks that the member's role may become `role` (null:
 * the member is removed): only an owner touches an owner, and a workspace keeps an owner.
 */
async function lockMemberChange(
  tx: Sql,
  principal: UserPrincipal,
  userId: string,
  role: Role | null,
) {
  const rows = await tx<{ user_id: string; role: Role }>`
    select user_id, role from memberships
    where workspace_id = ${principal.workspaceId} and (user_id = ${userId} or role = 'owner')
    order by user_id for update`;
  const current = rows.find((r) => r.user_id === userId);
  if (!current) throw notFound("No such member.");
  checkOwnerRule(principal, current.role, role);
  const otherOwner = rows.some((r) => r.role === "owner" && r.user_id !== userId);
  if (current.role === "owner" && role !== "owner" && !otherOwner) {
    throw conflict("A workspace must keep at least one owner.", "role");
  }
}

/** The workspace as GET and PATCH answer it, with this month's usage against the plan. */
type WorkspaceRow = { id: string; name: string; plan: Plan; allowed_origins: string[] };

async function workspaceOut(app: AppContext, role: Role, row: WorkspaceRow) {
  const now = app.clock();
  // The fields in the order 1.0 answered them, for clients that compare answers as text.
  return {
    id: row.id,
    name: row.name,
    role,
    allowed_origins: row.allowed_origins,
    plan: row.plan,
    usage: {
      month: monthOf(now),
      answers: await answersThisMonth(app.db.sql, row.id, now),
      answers_limit: answersPerMonth(app.config, row.plan),
    },
  };
}

export const routes = [
  workspaceRoute({
    method: "GET",
    path: "/api/v1/workspace",
    summary: "The current workspace",
    description: "The workspace of X-Workspace-Id (or the user's first): the caller's role, " +
      "allowed CORS origins, plan and this month's answer usage.",
    auth: user("viewer"),
    responses: { 200: { description: "The workspace.", schema: workspaceJson } },
    handler: async ({ app, principal }) => {
      const [row] = await app.db.sql<WorkspaceRow>`
        select id, name, plan, allowed_origins from workspaces where id = ${principal.workspaceId}`;
      return json(await workspaceOut(app, principal.role, row));
    },
  }),

  workspaceRoute({
    method: "PATCH",
    path: "/api/v1/workspace",
    summary: "Change the workspace",
    description: "Renames the workspace and/or replaces its allowed CORS origins (at most 50; " +
      "browsers on these origins may call the API with the cookie). Needs admin.",
    auth: user("admin"),
    body: s.named(
      "WorkspaceChange",
      s.object({
        name: s.optional(s.string({ min: 1, max: 200, example: "Customer research" })),
        allowed_origins: s.optional(s.array(origin, { max: 50 })),
      }),
    ),
    responses: { 200: { description: "The workspace.", schema: workspaceJson } },
    handler: async ({ app, body, principal }) => {
      const origins = body.allowed_origins ? [...new Set(body.allowed_origins)] : null;
      const [row] = await app.db.sql<WorkspaceRow>`
        update workspaces
        set name = coalesce(${body.name ?? null}, name),
            allowed_origins = coalesce(${origins}::text[], allowed_origins)
        where id = ${principal.workspaceId}
        returning id, name, plan, allowed_origins`;
      return json(await workspaceOut(app, principal.role, row));
    },
  }),

  workspaceRoute({
    method: "GET",
    path: "/api/v1/workspace/members",
    summary: "List members",
    description: "Members of the workspace with their roles, oldest first.",
    auth: user("viewer"),
    query: pageQuery,
    responses: { 200: { description: "A page.", schema: listEnvelope(memberJson) } },
    handler: async ({ app, query, principal }) => {
      const scope = { list: "members", filter: { workspace: principal.workspaceId } };
      const order: ListOrder<MemberRow> = {
        columns: frag`m.created_at, m.user_id`,
        direction: "asc",
        keyOf: (r) => [r.created_at, r.user_id],
      };
      const page = await listPage(app, scope, query, order, (after, fetch) =>
        app.db.sql<MemberRow>`
          select m.user_id, u.email, u.name, m.role, m.created_at
          from memberships m join users u on u.id = m.user_id
          where m.workspace_id = ${principal.workspaceId} ${after}
          order by m.created_at, m.user_id limit ${fetch}`, (r) => r);
      return json(page);
    },
  }),

  workspaceRoute({
    method: "POST",
    path: "/api/v1/workspace/members",
    summary: "Invite a member",
    description: "Invites an e-mail address with a role, 202 with the invitation and its " +
      "secret: nobody is added without consent. The secret is in this answer only (a replay " +
      "with the same Idempotency-Key gives it again within 24 h; the stored answer keeps it " +
      "encrypted): forward it to the person yourself, Onda sends no e-mail. Signed in with " +
      "the invited address, they read the invitation with it at POST " +
      "/api/v1/invitations/lookup, then accept it (the membership is made then, with this " +
      "role) or decline it. Addresses are not verified, so the secret is what shows that the " +
      "person you meant holds the account: someone else who registered the address sees " +
      "nothing of the invitation and cannot accept it without the secret. The answer has the " +
      "same fields whether or not the address has an account, and names no user: an " +
      "invitation to an address nobody has yet waits for someone to register it. An " +
      "invitation can be accepted for 7 days (expires_at); inviting the address again renews " +
      "its pending invitation (same id, new role, expiry and secret; the old secret stops " +
      "working). The address of a member of this workspace already: 409 (field email), as " +
      "the member list shows. Admins list and revoke invitations at " +
      "/api/v1/workspace/invitations. Needs admin; only an owner may invite an owner.",
    auth: user("admin"),
    idempotent: true,
    sealed: { body: ["secret"] },
    body: s.named("NewMember", s.object({ email: s.email(), role })),
    responses: {
      202: {
        description: "Invited: forward the secret to the person.",
        schema: newInvitationJson,
        example: newInvitationExample,
      },
    },
    errors: [409],
    handler: ({ app, body, principal, req }) => {
      checkOwnerRule(principal, body.role);
      // The Idempotency-Key's answer commits with the invitation.
      return answeredInTransaction(app.db, req, 202, async (tx) => {
        // Only a member's address is refused: the admin can list the members anyway, and whether
        // anyone else has an account is not told.
        const [member] = await tx`
          select 1 from memberships m join users u on u.id = m.user_id
          where m.workspace_id = ${principal.workspaceId} and lower(u.email) = lower(${body.email})`;
        if (member) throw conflict("This address is a member's already.", "email");
        // Inviting again replaces the pending invitation: an owner's invitation to the owner role
        // is an owner's to replace.
        const [pending] = await tx<{ role: Role }>`
          select role from invitations
          where workspace_id = ${principal.workspaceId} and lower(email) = lower(${body.email})
            and expires_at > ${app.clock()}
          for update`;
        checkOwnerRule(principal, pending?.role ?? null);
        const made = await invite(
          tx,
          principal.workspaceId,
          principal.userId,
          body.email,
          body.role,
          app.clock(),
        );
        return { ...invitationOut(made), secret: made.secret };
      });
    },
  }),

  workspaceRoute({
    method: "PATCH",
    path: "/api/v1/workspace/members/{userId}",
    summary: "Change a member's role",
    description: "Needs admin; only an owner may grant or take away the owner role; the last " +
      "owner cannot be demoted (409).",
    auth: user("admin"),
    params: { userId: s.uuid() },
    body: s.named("RoleChange", s.object({ role })),
    responses: { 200: { description: "Changed.", schema: memberJson } },
    errors: [409],
    handler: async ({ app, body, params, principal }) => {
      const row = await app.db.begin(async (tx) => {
        await lockMemberChange(tx, principal, params.userId, body.role);
        const [changed] = await tx<MemberRow>`
          update memberships m set role = ${body.role} from users u
          where m.workspace_id = ${principal.workspaceId} and m.user_id = ${params.userId}
            and u.id = m.user_id
          returning m.user_id, u.email, u.name, m.role, m.created_at`;
        return changed;
      });
      return json(row);
    },
  }),

  workspaceRoute({
    method: "DELETE",
    path: "/api/v1/workspace/members/{userId}",
    summary: "Remove a member",
    description: "Needs admin (an owner to remove an owner); the last owner cannot be removed " +
      "(409). 204.",
    auth: user("admin"),
    params: { userId: s.uuid() },
    responses: { 204: { description: "Removed." } },
    errors: [409],
    handler: async ({ app, params, principal }) => {
      await app.db.begin(async (tx) => {
        await lockMemberChange(tx, principal, params.userId, null);
        await tx`delete from memberships
                 where workspace_id = ${principal.workspaceId} and user_id = ${params.userId}`;
      });
      return json(null, 204);
    },
  }),
];
