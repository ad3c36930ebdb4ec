// Erasing what respondents gave: sessions with their answers, events and webhook deliveries
// (onda_erase_sessions in sql/009_responses.sql), and the record of each erasure, which keeps
// who, when and how many, never the address.

import type { Fragment, Sql } from "../db/db.ts";
import { hex } from "../encoding.ts";

const encoder = new TextEncoder();

/**
 * The keyed digest of an address erased in a workspace: HMAC-SHA256 under a key derived from
 * the service secret (never the raw secret, which also signs cursors), over the workspace and
 * the lower-cased address. Bound to the workspace, so two workspaces' records of one person
 * cannot be joined, and keyed, so the table cannot be searched with a list of addresses.
 */
export async function addressDigest(secretKey: string, workspaceId: string, email: string) {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secretKey), "HKDF", false, [
    "deriveKey",
  ]);
  const key = await crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(32),
      info: encoder.encode("onda erasure address v1"),
    },
    base,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
  const input = encoder.encode(`${workspaceId}\n${email.toLowerCase()}`);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", key, input)));
}

export interface ErasureRecord {
  id: string;
  sessions: number;
  created_at: Date;
}

/**
 * Erases the workspace's sessions that `selection` (a query of session ids) picks and records
 * the erasure, in the caller's transaction `tx`: all of it commits, or nothing.
 */
export async function eraseSessions(
  tx: Sql,
  who: { workspaceId: string; userId: string },
  kind: "respondent" | "session",
  selection: Fragment,
  digest: string | null,
  now: Date,
): Promise<ErasureRecord> {
  const [row] = await tx<ErasureRecord>`
    insert into erasures (workspace_id, requested_by, kind, email_digest, sessions, created_at)
    values (${who.workspaceId}, ${who.userId}, ${kind}, ${digest},
            onda_erase_sessions(${who.workspaceId}, array(${selection})), ${now})
    returning id, sessions, created_at`;
  return row;
}
