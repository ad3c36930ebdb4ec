// Workspace invitations (lib/forms/invitations.ts): a workspace's admins list and revoke its
// pending ones; the invitee, holding the secret the inviter forwarded and signed in with the
// invited address, reads the invitation and accepts or declines it. POST
// /api/v1/workspace/members makes them (routes/forms/workspace.ts).

import { type Role, ROLES, signedIn, user } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import {
  INVITATION_TTL_MS,
  invitationExample,
  invitationJson,
  invitationOut,
  type InvitationRow,
  invitationSecret,
  SECRET_EXAMPLE,
  secretDigest,
} from "../../lib/forms/invitations.ts";
import { frag, type Fragment } from "../../lib/db/db.ts";
import { json } from "../../lib/http/router.ts";
import { conflict, defineFormsRoute, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";
import { checkOwnerRule } from "./workspace.ts";
import { workspaceJson } from "./auth.ts";

const secretRequest = s.named(
  "InvitationSecret",
  s.object({ secret: invitationSecret }, {
    example: { secret: SECRET_EXAMPLE },
  }),
);

const receivedJson = s.named(
  "ReceivedInvitation",
  s.object({
    workspace: s.object({ id: s.uuid(), name: s.string({ example: "Radio Sul research" }) }),
    role: s.enumOf(ROLES),
    created_at: s.dateTime("When it was sent, or sent again."),
    expires_at: s.dateTime("Until when it can be accepted."),
  }, {
    description: "The invitation that the secret opens, to the signed-in user's address: " +
      "which workspace, with which role, until when.",
  }),
);

interface ReceivedRow {
  workspace_id: string;
  workspace_name: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}

// One answer for every way a secret can fail (unknown, another address's, expired, revoked,
// accepted, declined or replaced), so that neither a squatter holding the address nor someone
// holding the secret learns which half was wrong.
const NO_INVITATION = "No pending invitation to your address has this secret (it may be " +
  "wrong, for another address, expired, revoked, replaced, accepted or declined).";

/**
 * The pending invitation `i` that `secret` opens for the signed-in user `userId`: both the
 * secret and the user's address must match (lib/forms/invitations.ts). Found by the secret's
 * digest through its unique index.
 */
function heldBy(userId: string, secret: string, now: Date): Fragment {
  return frag`i.secret_digest = ${secretDigest(secret)} and i.expires_at > ${now}
    and lower(i.email) = (select lower(u.email) from users u where u.id = ${userId})`;
}

const SECRET_RULE = "Needs the invitation's secret (which the inviter was shown once and " +
  "forwards) and a user signed in with the invited address: a wrong secret, the right one " +
  "from another account, or one whose invitation expired (7 days after it was sent), was " +
  "revoked, replaced, accepted or declined, is 404 alike. The secret travels in the body, " +
  "never in the URL; a malformed one is 400. Any signed-in user, a member of no workspace " +
  "included (X-Workspace-Id is not read).";

export const routes = [
  defineFormsRoute({
    method: "GET",
    path: "/api/v1/workspace/invitations",
    tag: "workspace",
    summary: "List pending invitations",
    description: "The workspace's invitations not yet accepted, declined, revoked or expired, " +
      `newest first. Each can be accepted for ${INVITATION_TTL_MS / 86_400_000} days after it ` +
      "was sent. Never their secrets: those are only in the answer that made each. Needs admin.",
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
    method: "POST",
    path: "/api/v1/invitations/lookup",
    tag: "workspace",
    summary: "Read an invitation",
    description: "The invitation the secret opens: the inviting workspace, the role and until " +
      "when it can be accepted, 200, so that the person can see what they accept. " +
      "Nothing changes. There is no list of the invitations to one's address: addresses are " +
      "not verified, and such a list would show whoever registered the address first which " +
      "workspaces invited it. The list (GET /api/v1/invitations) and accepting or declining " +
      "by id (/api/v1/invitations/{id}/accept, /decline) are gone for that reason: they " +
      "matched an invitation by the address alone, and answer 404. " + SECRET_RULE,
    auth: signedIn(),
    body: secretRequest,
    responses: {
      200: {
        description: "The invitation.",
        schema: receivedJson,
        example: {
          workspace: { id: "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c", name: "Radio Sul research" },
          role: invitationExample.role,
          created_at: invitationExample.created_at,
          expires_at: invitationExample.expires_at,
        },
      },
    },
    errors: [404],
    handler: async ({ app, body, principal }) => {
      const [row] = await app.db.sql<ReceivedRow>`
        select i.workspace_id, w.name as workspace_name, i.role, i.created_at, i.expires_at
        from invitations i join workspaces w on w.id = i.workspace_id
        where ${heldBy(principal.userId, body.secret, app.clock())}`;
      if (!row) throw notFound(NO_INVITATION);
      return json({
        workspace: { id: row.workspace_id, name: row.workspace_name },
        role: row.role,
        created_at: row.created_at,
        expires_at: row.expires_at,
      });
    },
  }),

  defineFormsRoute({
    method: "POST",
    path: "/api/v1/invitations/accept",
    tag: "workspace",
    summary: "Accept an invitation",
    description: "Makes the signed-in user a member of the inviting workspace with the " +
      "invitation's role, and answers that workspace as login lists it, 200. Send " +
      "X-Workspace-Id with its id to work in it. The secret is spent: it accepts once. A " +
      "member already: 409, and the invitation stays to decline. Accepts Idempotency-Key: a " +
      "retry replays the answer (the stored request digest is keyed, as the secret is in " +
      "it). " + SECRET_RULE,
    auth: signedIn(),
    idempotent: true,
    // No credential in the answer, but the request holds the secret: its digest in the
    // Idempotency-Key record is keyed, as for the sealed routes.
    sealed: {},
    body: secretRequest,
    responses: { 200: { description: "A member now.", schema: workspaceJson } },
    errors: [404, 409],
    handler: ({ app, body, principal, req }) =>
      answeredInTransaction(app.db, req, 200, async (tx) => {
        const now = app.clock();
        const [taken] = await tx<{ workspace_id: string; role: Role }>`
          delete from invitations i where ${heldBy(principal.userId, body.secret, now)}
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
    path: "/api/v1/invitations/decline",
    tag: "workspace",
    summary: "Decline an invitation",
    description: "The invitation is removed, 204; the workspace can invite the address again. " +
      "Declining needs the secret too, so that whoever registered the address first cannot " +
      "withdraw an invitation meant for someone else. " + SECRET_RULE,
    auth: signedIn(),
    body: secretRequest,
    responses: { 204: { description: "Declined." } },
    errors: [404],
    handler: async ({ app, body, principal }) => {
      const rows = await app.db.sql`
        delete from invitations i where ${heldBy(principal.userId, body.secret, app.clock())}
        returning i.id`;
      if (!rows.length) throw notFound(NO_INVITATION);
      return json(null, 204);
    },
  }),
];
