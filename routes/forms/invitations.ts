// Workspace invitations (lib/forms/invitations.ts): a workspace's admins list and revoke its
// pending ones; the invitee, holding the secret the inviter forwarded and signed in with the
// invited address, reads the invitation and accepts or declines it. POST
// /api/v1/workspace/members makes them (routes/forms/workspace.ts). The v1 routes of before the
// secret stay, deprecated, as v1 promises (forms-api.md §9), but open nothing without it.

import { type Role, ROLES, signedIn, user } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import {
  acceptInvitation,
  declineInvitation,
  heldBy,
  INVITATION_TTL_MS,
  invitationExample,
  invitationJson,
  invitationOut,
  type InvitationRow,
  invitationSecret,
  noInvitation,
  SECRET_EXAMPLE,
} from "../../lib/forms/invitations.ts";
import { json } from "../../lib/http/router.ts";
import { formsRoutes, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";
import { checkOwnerRule } from "./workspace.ts";
import { workspaceJson } from "./auth.ts";

/** The admins' routes answer the workspace's allowed origins; the invitee's, no other origin. */
const adminRoute = formsRoutes({ tag: "workspace", cors: "credentialed" });
const inviteeRoute = formsRoutes({ tag: "workspace" });

const secretRequest = s.named(
  "InvitationSecret",
  s.object({ secret: invitationSecret }, {
    example: { secret: SECRET_EXAMPLE },
  }),
);

const receivedJson = s.named(
  "InvitationPreview",
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

const SECRET_RULE = "Needs the invitation's secret (which the inviter was shown once and " +
  "forwards) and a user signed in with the invited address: a wrong secret, the right one " +
  "from another account, or one whose invitation expired (7 days after it was sent), was " +
  "revoked, replaced, accepted or declined, is 404 alike. The secret travels in the body, " +
  "never in the URL; a malformed one is 400. Any signed-in user, a member of no workspace " +
  "included (X-Workspace-Id is not read).";

export const routes = [
  adminRoute({
    method: "GET",
    path: "/api/v1/workspace/invitations",
    summary: "List pending invitations",
    description: "The workspace's invitations not yet accepted, declined, revoked or expired, " +
      `newest first. Each can be accepted for ${INVITATION_TTL_MS / 86_400_000} days after it ` +
      "was sent. Never their secrets: those are only in the answer that made each. Needs admin.",
    auth: user("admin"),
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

  adminRoute({
    method: "DELETE",
    path: "/api/v1/workspace/invitations/{id}",
    summary: "Revoke an invitation",
    description: "It can no longer be accepted, 204. Needs admin; an invitation to the owner " +
      "role needs an owner. Another workspace's invitation, or none: 404.",
    auth: user("admin"),
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

  inviteeRoute({
    method: "POST",
    path: "/api/v1/invitations/lookup",
    summary: "Read an invitation",
    description: "The invitation the secret opens: the inviting workspace, the role and until " +
      "when it can be accepted, 200, so that the person can see what they accept. " +
      "Nothing changes. There is no list of the invitations to one's address: addresses are " +
      "not verified, and such a list would show whoever registered the address first which " +
      "workspaces invited it (GET /api/v1/invitations, kept deprecated, answers an empty " +
      "list). " + SECRET_RULE,
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
      if (!row) throw noInvitation();
      return json({
        workspace: { id: row.workspace_id, name: row.workspace_name },
        role: row.role,
        created_at: row.created_at,
        expires_at: row.expires_at,
      });
    },
  }),

  inviteeRoute({
    method: "POST",
    path: "/api/v1/invitations/accept",
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
      answeredInTransaction(
        app.db,
        req,
        200,
        (tx) => acceptInvitation(tx, principal.userId, body.secret, app.clock()),
      ),
  }),

  inviteeRoute({
    method: "POST",
    path: "/api/v1/invitations/decline",
    summary: "Decline an invitation",
    description: "The invitation is removed, 204; the workspace can invite the address again. " +
      "Declining needs the secret too, so that whoever registered the address first cannot " +
      "withdraw an invitation meant for someone else. " + SECRET_RULE,
    auth: signedIn(),
    body: secretRequest,
    responses: { 204: { description: "Declined." } },
    errors: [404],
    handler: async ({ app, body, principal }) => {
      await declineInvitation(app.db.sql, principal.userId, body.secret, app.clock());
      return json(null, 204);
    },
  }),

  ...deprecatedRoutes(),
];

/**
 * The invitee's v1 routes of before the secret (spec 1.2.0), kept as v1 promises (forms-api.md
 * §9) but closed by the secret: the list is always empty, and accepting or declining by id needs
 * the invitation's secret as the routes above do (the same lib functions), else 404.
 */
function deprecatedRoutes() {
  const why = "Deprecated: it matched invitations by the signed-in user's address alone, and " +
    "addresses are not verified, so whoever registered an invited address first could see and " +
    "take the invitation. ";
  const legacyItem = s.named(
    "ReceivedInvitation",
    s.object({
      id: s.uuid(),
      workspace: s.object({ id: s.uuid(), name: s.string({ example: "Ana Lima's workspace" }) }),
      role: s.enumOf(ROLES),
      created_at: s.dateTime("When it was sent, or sent again."),
      expires_at: s.dateTime("Until when it can be accepted."),
    }, { description: "An invitation to the signed-in user's address (never listed now)." }),
  );
  // Optional, and its secret too, so that a request valid before the secret stays valid: it
  // only finds nothing.
  const legacyBody = s.optional(s.named(
    "LegacyInvitationSecret",
    s.object({ secret: s.optional(invitationSecret) }, {
      description: "Optional for compatibility, but without the secret nothing is found (404).",
      example: { secret: SECRET_EXAMPLE },
    }),
  ));
  const byId = "Without the secret, or with one that is not this invitation's, the answer is " +
    "the 404 of an unknown invitation. Use POST /api/v1/invitations/lookup, /accept and " +
    "/decline, which take the secret alone. " + SECRET_RULE;
  return [
    inviteeRoute({
      method: "GET",
      path: "/api/v1/invitations",
      summary: "List my invitations (deprecated)",
      description: why + "It answers an empty list now, whatever invitations exist: an " +
        "invitation is found with its secret, at POST /api/v1/invitations/lookup. The query " +
        "is checked as before. Any signed-in user (X-Workspace-Id is not read).",
      deprecated: true,
      auth: signedIn(),
      query: pageQuery,
      responses: {
        200: {
          description: "An empty page.",
          schema: listEnvelope(legacyItem),
          example: { data: [], next_cursor: null, has_more: false },
        },
      },
      handler: () => json({ data: [], next_cursor: null, has_more: false }),
    }),

    inviteeRoute({
      method: "POST",
      path: "/api/v1/invitations/{id}/accept",
      summary: "Accept an invitation by id (deprecated)",
      description: why + "Accepts as POST /api/v1/invitations/accept does, when the body's " +
        "secret is this invitation's: 200 with the workspace, 409 for a member already. " +
        "Accepts Idempotency-Key. " + byId,
      deprecated: true,
      auth: signedIn(),
      idempotent: true,
      // The request may hold the secret: its digest in the Idempotency-Key record is keyed.
      sealed: {},
      params: { id: s.uuid() },
      body: legacyBody,
      responses: { 200: { description: "A member now.", schema: workspaceJson } },
      errors: [404, 409],
      handler: ({ app, body, params, principal, req }) =>
        answeredInTransaction(app.db, req, 200, async (tx) => {
          if (!body?.secret) throw noInvitation();
          return await acceptInvitation(tx, principal.userId, body.secret, app.clock(), params.id);
        }),
    }),

    inviteeRoute({
      method: "POST",
      path: "/api/v1/invitations/{id}/decline",
      summary: "Decline an invitation by id (deprecated)",
      description: why + "Declines as POST /api/v1/invitations/decline does, when the body's " +
        "secret is this invitation's: 204. " + byId,
      deprecated: true,
      auth: signedIn(),
      params: { id: s.uuid() },
      body: legacyBody,
      responses: { 204: { description: "Declined." } },
      errors: [404],
      handler: async ({ app, body, params, principal }) => {
        if (!body?.secret) throw noInvitation();
        await declineInvitation(app.db.sql, principal.userId, body.secret, app.clock(), params.id);
        return json(null, 204);
      },
    }),
  ];
}
