// Workspace invitations (lib/forms/invitations.ts): a workspace's admins list and revoke its
// pending ones; the invitee, signed in with the invited address, lists theirs and accepts or
// declines. POST /api/v1/workspace/members makes them (routes/forms/workspace.ts).

import { type Role, ROLES, signedIn, user } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import {
  INVITATION_TTL_MS,
  invitationExample,
  invitationJson,
  invitationOut,
  type InvitationRow,
} from "../../lib/forms/invitations.ts";
import { json } from "../../lib/http/router.ts";
import { conflict, defineFormsRoute, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";
import { checkOwnerRule } from "./workspace.ts";
import { workspaceJson } from "./auth.ts";

const receivedJson = s.named(
  "ReceivedInvitation",
  s.object({
    id: s.uuid(),
    workspace: s.object({ id: s.uuid(), name: s.string({ example: "Ana Lima's workspace" }) }),
    role: s.enumOf(ROLES),
    created_at: s.dateTime("When it was sent, or sent again."),
    expires_at: s.dateTime("Until when it can be accepted."),
  }, { description: "An invitation to the signed-in user's address." }),
);

interface ReceivedRow {
  id: string;
  workspace_id: string;
  workspace_name: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}

const NO_INVITATION = "No pending invitation with this id for your address (it may have " +
  "expired, been revoked, accepted or declined).";

export const routes = [
  defineFormsRoute({
    method: "GET",
    path: "/api/v1/workspace/invitations",
    tag: "workspace",
    summary: "List pending invitations",
    description: "The workspace's invitations not yet accepted, declined, revoked or expired, " +
      `newest first. Each can be accepted for ${INVITATION_TTL_MS / 86_400_000} days after it ` +
      "was sent. Needs admin.",
    auth: user("admin"),
    cors: "credentialed",
    query: pageQuery,
    responses: {
      200: {
        description: "A page.",
        schema: listEnvelope(invitationJson),
        example: { data: [invitationExample], next_cursor: null, has_more: false },
      },
    },
    handler: async ({ app, query, principal }) => {
      const scope = { list: "invitations", filter: { workspace: principal.workspaceId } };
      const page = await listPage(
        app,
        scope,
        query,
        newestFirst,
        (after, fetch) =>
          app.db.sql<InvitationRow>`
          select id, email, role, created_at, expires_at from invitations
          where workspace_id = ${principal.workspaceId} and expires_at > ${app.clock()} ${after}
          order by created_at desc, id desc limit ${fetch}`,
        invitationOut,
      );
      return json(page);
    },
  }),

  defineFormsRoute({
    method: "DELETE",
    path: "/api/v1/workspace/invitations/{id}",
    tag: "workspace",
    summary: "Revoke an invitation",
    description: "It can no longer be accepted, 204. Needs admin; an invitation to the owner " +
      "role needs an owner. Another workspace's invitation, or none: 404.",
    auth: user("admin"),
    cors: "credentialed",
    params: { id: s.uuid() },
    responses: { 204: { description: "Revoked." } },
    handler: async ({ app, params, principal }) => {
      await app.db.begin(async (tx) => {
        const [row] = await tx<{ role: Role }>`
          select role from invitations
          where id = ${params.id} and workspace_id = ${principal.workspaceId}
            and expires_at > ${app.clock()}
          for update`;
        if (!row) throw notFound("No such invitation.");
        checkOwnerRule(principal, row.role);
        await tx`delete from invitations where id = ${params.id}`;
      });
      return json(null, 204);
    },
  }),

  defineFormsRoute({
    method: "GET",
    path: "/api/v1/invitations",
    tag: "workspace",
    summary: "List my invitations",
    description: "Pending invitations to the signed-in user's e-mail address, from any " +
      "workspace, newest first: accept or decline each. Any signed-in user, a member of no " +
      "workspace included (X-Workspace-Id is not read).",
    auth: signedIn(),
    query: pageQuery,
    responses: {
      200: {
        description: "A page.",
        schema: listEnvelope(receivedJson),
        example: {
          data: [{
            id: invitationExample.id,
            workspace: { id: "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c", name: "Radio Sul research" },
            role: invitationExample.role,
            created_at: invitationExample.created_at,
            expires_at: invitationExample.expires_at,
          }],
          next_cursor: null,
          has_more: false,
        },
      },
    },
    handler: async ({ app, query, principal }) => {
      const scope = { list: "received invitations", filter: { user: principal.userId } };
      const page = await listPage(
        app,
        scope,
        query,
        newestFirst,
        (after, fetch) =>
          app.db.sql<ReceivedRow>`
          select i.id, i.workspace_id, w.name as workspace_name, i.role, i.created_at,
                 i.expires_at
          from users u
          join invitations i on lower(i.email) = lower(u.email)
          join workspaces w on w.id = i.workspace_id
          where u.id = ${principal.userId} and i.expires_at > ${app.clock()} ${after}
          order by i.created_at desc, i.id desc limit ${fetch}`,
        (r) => ({
          id: r.id,
          workspace: { id: r.workspace_id, name: r.workspace_name },
          role: r.role,
          created_at: r.created_at,
          expires_at: r.expires_at,
        }),
      );
      return json(page);
    },
  }),

  defineFormsRoute({
    method: "POST",
    path: "/api/v1/invitations/{id}/accept",
    tag: "workspace",
    summary: "Accept an invitation",
    description: "Makes the signed-in user a member of the inviting workspace with the " +
      "invitation's role, and answers that workspace as login lists it, 200. Send " +
      "X-Workspace-Id with its id to work in it. Not pending for your address (expired, " +
      "revoked, declined, another address's): 404. A member already: 409, and the invitation " +
      "stays to decline. Accepts Idempotency-Key: a retry replays the answer.",
    auth: signedIn(),
    idempotent: true,
    params: { id: s.uuid() },
    responses: { 200: { description: "A member now.", schema: workspaceJson } },
    errors: [409],
    handler: ({ app, params, principal, req }) =>
      answeredInTransaction(app.db, req, 200, async (tx) => {
        const now = app.clock();
        const [taken] = await tx<{ workspace_id: string; role: Role }>`
          delete from invitations i using users u
          where i.id = ${params.id} and u.id = ${principal.userId}
            and lower(i.email) = lower(u.email) and i.expires_at > ${now}
          returning i.workspace_id, i.role`;
        if (!taken) throw notFound(NO_INVITATION);
        const [joined] = await tx<{ id: string; name: string; role: Role; plan: string }>`
          with added as (
            insert into memberships (workspace_id, user_id, role, created_at)
            values (${taken.workspace_id}, ${principal.userId}, ${taken.role}, ${now})
            on conflict do nothing
            returning workspace_id, role
          )
          select w.id, w.name, a.role, w.plan from added a join workspaces w on w.id = a.workspace_id`;
        // The rollback keeps the invitation.
        if (!joined) throw conflict("You are a member of this workspace already.");
        return joined;
      }),
  }),

  defineFormsRoute({
    method: "POST",
    path: "/api/v1/invitations/{id}/decline",
    tag: "workspace",
    summary: "Decline an invitation",
    description: "The invitation is removed, 204; the workspace can invite the address again. " +
      "Not pending for your address: 404.",
    auth: signedIn(),
    params: { id: s.uuid() },
    responses: { 204: { description: "Declined." } },
    handler: async ({ app, params, principal }) => {
      const rows = await app.db.sql`
        delete from invitations i using users u
        where i.id = ${params.id} and u.id = ${principal.userId}
          and lower(i.email) = lower(u.email) and i.expires_at > ${app.clock()}
        returning i.id`;
      if (!rows.length) throw notFound(NO_INVITATION);
      return json(null, 204);
    },
  }),
];
