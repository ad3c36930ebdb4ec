// Secrets that authenticate a caller (ads API keys, forms tokens and login sessions): how one is
// made, the digest stored instead of it, and the condition that finds a live one by its digest.
// What a credential may do (permissions, roles, lifetime) is each wing's.

import { base64url, sha256 } from "../encoding.ts";
import { frag, type Fragment } from "../db/db.ts";

/**
 * A new secret: `prefix` (recognisable in logs, leaks and secret scanners), then 32 random bytes
 * as 43 base64url characters. It exists only in the answer that hands it out.
 */
export function newSecret(prefix: string): string {
  return prefix + base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * What the database keeps instead of a secret (a `bytea` column named `digest`, unique): its
 * SHA-256, so a database leak does not leak usable credentials. No salt or slow hash: a secret
 * holds 256 random bits, not a guessable password.
 */
export function secretDigest(secret: string): Uint8Array {
  return sha256(secret);
}

/**
 * The where-clause condition that finds the credential `secret` names in the table aliased
 * `table` (columns `digest` and `revoked_at`), unless it is revoked. A revocation holds from the
 * very next request: nothing caches a credential's validity.
 */
export function liveCredential(table: Fragment, secret: string): Fragment {
  return frag`${credentialNamed(table, secret)} and ${table}.revoked_at is null`;
}

/**
 * The same, revoked or not: for a copy that may lag behind a revocation (a read replica), read
 * beside the primary's liveCredential, which alone decides.
 *
 * The digest's unique index finds the row and the database compares the digest. No
 * constant-time comparison is needed: that comparison's timing can only tell how many leading
 * bytes of a SHA-256 digest matched, and nobody can choose a digest's bytes without its secret.
 */
export function credentialNamed(table: Fragment, secret: string): Fragment {
  return frag`${table}.digest = ${secretDigest(secret)}`;
}
