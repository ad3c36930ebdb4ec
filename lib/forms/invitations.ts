// Workspace invitations: what an admin's "add a member" makes instead of a membership, so that
// nobody is put in a workspace without consent and the answer tells nothing of who has an
// account (issue 30, item 5). Addresses are never verified, so the address alone proves nothing:
// whoever registered an invited address first could take the invitation. Each invitation
// therefore has a secret, answered once to the inviter, who forwards it to the person; reading,
// accepting or declining the invitation needs the secret and a user signed in with the address.
// Admins list and revoke invitations.

import { empty, frag, type Fragment, type Sql } from "../db/db.ts";
import { type Role, ROLES } from "./auth.ts";
import { conflict, notFound } from "./wing.ts";
import * as s from "../http/schema.ts";
import { newSecret, secretDigest } from "../http/credentials.ts";

/** How long an invitation can be accepted; inviting the address again renews it. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/** Recognisable in logs, leaks and secret scanners, as tokens are; 32 random bytes follow. */
const SECRET_PREFIX = "onda_inv_";

/** A secret as the document shows it. */
export const SECRET_EXAMPLE = "onda_inv_Xb3kq9Zt0VvR7yH2mN5pL8sD4fG6jK1wE0aQzC9uT_o";

/** An invitation secret as the API takes it: a wrong one is 404, a malformed one 400. */
export const invitationSecret = s.string({
  pattern: /^onda_inv_[A-Za-z0-9_-]{43}$/,
  patternHint: "the secret of the invitation, onda_inv_ and 43 base64url characters",
  description: "The invitation's secret, as POST /api/v1/workspace/members answered it to " +
    "the inviter once.",
  example: SECRET_EXAMPLE,
});

export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}

/**
 * Invites `email` to the workspace with `role`, or renews its pending invitation there (new role,
 * expiry and secret, same id: the previous secret no longer works). Answers the secret, which
 * exists only in this answer. Nothing here depends on whether the address has an account.
 */
export async function invite(
  tx: Sql,
  workspaceId: string,
  invitedBy: string,
  email: string,
  role: Role,
  now: Date,
): Promise<InvitationRow & { secret: string }> {
  const expires = new Date(now.getTime() + INVITATION_TTL_MS);
  const secret = newSecret(SECRET_PREFIX);
  // Expired invitations are of no use: each new one clears its workspace's.
  await tx`delete from invitations where workspace_id = ${workspaceId} and expires_at <= ${now}`;
  const [row] = await tx<InvitationRow>`
    insert into invitations
      (workspace_id, email, role, invited_by, created_at, expires_at, secret_digest)
    values
      (${workspaceId}, ${email}, ${role}, ${invitedBy}, ${now}, ${expires}, ${secretDigest(secret)})
    on conflict (workspace_id, lower(email)) do update
      set email = excluded.email, role = excluded.role, invited_by = excluded.invited_by,
          created_at = excluded.created_at, expires_at = excluded.expires_at,
          secret_digest = excluded.secret_digest
    returning id, email, role, created_at, expires_at`;
  return { ...row, secret };
}

const invitationShape = {
  id: s.uuid(),
  email: s.email(),
  role: s.enumOf(ROLES),
  created_at: s.dateTime("When the address was invited, or invited again."),
  expires_at: s.dateTime("Until when it can be accepted."),
};

/** An invitation as its workspace's admins see it: never its secret. */
export const invitationJson = s.named(
  "Invitation",
  s.object(invitationShape, {
    description: "A pending invitation: it says nothing of whether the address has an account.",
  }),
);

/** The answer that creates an invitation: the only one that holds its secret. */
export const newInvitationJson = s.named(
  "NewInvitation",
  s.object({
    ...invitationShape,
    secret: s.string({
      description: "Shown in this answer only, once; only its SHA-256 digest is kept. Forward " +
        "it to the person yourself (Onda sends no e-mail), by a channel you trust to reach " +
        "them: they accept with it while signed in with the invited address. Anyone who " +
        "reads it and controls an account with that address can join, so treat it as a " +
        "password. Lost: invite the address again for a new secret (the old one stops " +
        "working).",
      example: SECRET_EXAMPLE,
    }),
  }, {
    description: "The invitation just made or renewed, with the secret that accepts it. The " +
      "same fields for any address, whether or not it has an account.",
  }),
);

/** An invitation as the document shows it: pending for its 7 days. */
export const invitationExample = {
  id: "9b2f6c1e-4d7a-4e3b-8c5f-1a2b3c4d5e6f",
  email: "ana@example.com",
  role: "editor",
  created_at: "2026-11-20T08:15:30Z",
  expires_at: "2026-11-27T08:15:30Z",
};

/** The answer that made it, as the document shows it. */
export const newInvitationExample = { ...invitationExample, secret: SECRET_EXAMPLE };

/** The fields of invitationJson, in its order. */
export function invitationOut(row: InvitationRow) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

// One answer for every way a secret can fail (missing, unknown, another address's, expired,
// revoked, accepted, declined or replaced), so that neither a squatter holding the address nor
// someone holding the secret learns which half was wrong.
const NO_INVITATION = "No pending invitation to your address has this secret (it may be " +
  "missing, wrong, for another address, expired, revoked, replaced, accepted or declined).";

/** The 404 of a secret that opens no invitation, whatever the reason. */
export function noInvitation() {
  return notFound(NO_INVITATION);
}

/**
 * The pending invitation `i` that `secret` opens for the signed-in user `userId`: both the
 * secret and the user's address must match. Found by the secret's digest through its unique
 * index. `id`: the deprecated by-id routes also need the secret to be that invitation's.
 */
export function heldBy(userId: string, secret: string, now: Date, id?: string): Fragment {
  const byId = id === undefined ? empty : frag`and i.id = ${id}`;
  return frag`i.secret_digest = ${secretDigest(secret)} and i.expires_at > ${now}
    and lower(i.email) = (select lower(u.email) from users u where u.id = ${userId}) ${byId}`;
}

/**
 * Spends the invitation `secret` opens (heldBy) and makes `userId` a member with its role, in
 * `tx`: the workspace as login lists it. None: 404; a member already: 409, and the rollback
 * keeps the invitation.
 */
export async function acceptInvitation(
  tx: Sql,
  userId: string,
  secret: string,
  now: Date,
  id?: string,
) {
  const [taken] = await tx<{ workspace_id: string; role: Role }>`
    delete from invitations i where ${heldBy(userId, secret, now, id)}
    returning i.workspace_id, i.role`;
  if (!taken) throw noInvitation();
  const [joined] = await tx<{ id: string; name: string; role: Role; plan: string }>`
    with added as (
      insert into memberships (workspace_id, user_id, role, created_at)
      values (${taken.workspace_id}, ${userId}, ${taken.role}, ${now})
      on conflict do nothing
      returning workspace_id, role
    )
    select w.id, w.name, a.role, w.plan from added a join workspaces w on w.id = a.workspace_id`;
  if (!joined) throw conflict("You are a member of this workspace already.");
  return joined;
}

/** Removes the invitation `secret` opens (heldBy); none: 404. */
export async function declineInvitation(
  sql: Sql,
  userId: string,
  secret: string,
  now: Date,
  id?: string,
): Promise<void> {
  const rows = await sql`
    delete from invitations i where ${heldBy(userId, secret, now, id)} returning i.id`;
  if (!rows.length) throw noInvitation();
}
