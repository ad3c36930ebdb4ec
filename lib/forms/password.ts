// Password hashing: PBKDF2-SHA256 through Web Crypto, salted, with its parameters stored in
// the hash string ("pbkdf2-sha256$iterations$salt$hash") so the cost can rise later.

import { base64, fromBase64 } from "../encoding.ts";

export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

async function derive(password: string, salt: Uint8Array, iterations: number) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${base64(salt)}$${base64(hash)}`;
}

// An unknown e-mail is checked against this decoy at the same cost, so a failed login takes
// the same time whether or not the account exists. No password matches it: the result for a
// missing account is false whatever the derivation gives.
const DECOY =
  `pbkdf2-sha256$${PBKDF2_ITERATIONS}$c2VydmljZS1kZWNveS1zYWx0$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

/**
 * Verifies `password` against a stored hash, or against the decoy when `stored` is null
 * (unknown e-mail; always false). Comparison is constant-time.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const target = stored ?? DECOY;
  const parts = target.split("$");
  if (parts.length !== 4 || parts[0] !== "pbkdf2-sha256") return false;
  const iterations = Number(parts[1]);
  if (!Number.isSafeInteger(iterations) || iterations < 1) return false;
  const expected = fromBase64(parts[3]);
  const actual = await derive(password, fromBase64(parts[2]), iterations);
  let diff = actual.length ^ expected.length;
  for (let i = 0; i < Math.min(actual.length, expected.length); i++) {
    diff |= actual[i] ^ expected[i];
  }
  return diff === 0 && stored !== null;
}
