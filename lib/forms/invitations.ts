// Workspace invitations: what an admin's "add a member" makes instead of a membership, so that
// nobody is put in a workspace without consent and the answer tells nothing of who has an
// account (issue 30, item 5). The invitee, signed in with the invited address, accepts (the
// membership is made then, with the invitation's role) or declines; admins list and revoke.

import type { Sql } from "../db/db.ts";
import { type Role, ROLES } from "./auth.ts";
import * as s from "../http/schema.ts";

/** How long an invitation can be accepted; inviting the address again renews it. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}

/**
 * Invites `email` to the workspace with `role`, or renews its pending invitation there (new role
 * and expiry, same id). Nothing here depends on whether the address has an account.
 */
export async function invite(
  tx: Sql,
  workspaceId: string,
  invitedBy: string,
  email: string,
  role: Role,
  now: Date,
): Promise<InvitationRow> {
  const expires = new Date(now.getTime() + INVITATION_TTL_MS);
  // Expired invitations are of no use: each new one clears its workspace's.
  await tx`delete from invitations where workspace_id = ${workspaceId} and expires_at <= ${now}`;
  const [row] = await tx<InvitationRow>`
    insert into invitations (workspace_id, email, role, invited_by, created_at, expires_at)
    values (${workspaceId}, ${email}, ${role}, ${invitedBy}, ${now}, ${expires})
    on conflict (workspace_id, lower(email)) do update
      set email = excluded.email, role = excluded.role, invited_by = excluded.invited_by,
          created_at = excluded.created_at, expires_at = excluded.expires_at
    returning id, email, role, created_at, expires_at`;
  return row;
}

/** An invitation as its workspace's admins see it. */
export const invitationJson = s.named(
  "Invitation",
  s.object({
    id: s.uuid(),
    email: s.email(),
    role: s.enumOf(ROLES),
    created_at: s.dateTime("When the address was invited, or invited again."),
    expires_at: s.dateTime("Until when it can be accepted."),
  }, {
    description: "A pending invitation: it says nothing of whether the address has an account.",
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
