// Bot protection of public session starts (issue 31): the form token that the public read of a
// protected questionnaire hands out, its check at session start, and the refusals.
//
// A token is "ft1." base64url(JSON payload) "." base64url(HMAC-SHA256 of the payload), under a
// key derived from SECRET_KEY with HKDF for this use alone (as lib/http/sealed.ts derives its
// own, so a cursor or a sealed record can never pass for a token). The payload: a random id
// (the key of single use, and the proof-of-work challenge), the questionnaire, when it was
// issued and expires, the questionnaire's minimum fill time and the puzzle's difficulty, so a
// token is checked by what it says however the settings have changed since.
//
// The proof of work is hashcash-style: a nonce (decimal digits) such that SHA-256 of the UTF-8
// text challenge + nonce starts with `difficulty` zero bits. Finding one costs about
// 2^difficulty digests; checking one costs one. Everything here is synchronous node:crypto, so
// a check costs no event-loop turn. What needs the database (protection required, the token's
// questionnaire, single use) is decided in the statement that starts the session
// (onda_start_session, sql/008_bot_protection.sql).

import { createHash, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { ApiError, OWN_CODES } from "../errors.ts";
import { base64url } from "../encoding.ts";

/**
 * Leading zero bits of the proof of work: a wait a person barely notices in a real browser,
 * as measured in bench/README.md ("Bot protection"); each step up doubles the visitor's work,
 * never the server's.
 */
export const POW_DIFFICULTY = 16;

/** A token is good this long after issue: a page left open longer fetches a new one. */
const TOKEN_TTL_MS = 2 * 3600 * 1000;

/** The minimum fill time of a questionnaire that does not set one. */
export const DEFAULT_MIN_FILL_SECONDS = 3;

const PREFIX = "ft1.";
const NONCE = /^[0-9]{1,16}$/;
const ID = /^[A-Za-z0-9_-]{22}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What a verified token says. */
export interface FormToken {
  /** Random; the single-use key and the proof-of-work challenge. */
  id: string;
  /** The questionnaire it was issued for. */
  form: string;
  issuedAt: number;
  expiresAt: number;
  minFillMs: number;
  difficulty: number;
}

/** What the public read of a protected questionnaire shows (form_token). */
export interface IssuedToken {
  token: string;
  challenge: string;
  difficulty: number;
  min_fill_seconds: number;
  expires_at: Date;
}

/** The key that signs form tokens, derived from SECRET_KEY once per service (lib/forms/wing.ts). */
export type FormTokenKey = Buffer & { readonly formTokenKey: unique symbol };

export function formTokenKey(secretKey: string): FormTokenKey {
  const key = hkdfSync("sha256", secretKey, new Uint8Array(32), "onda form token v1", 32);
  return Buffer.from(key) as FormTokenKey;
}

function sign(key: FormTokenKey, payload: string): Buffer {
  return createHmac("sha256", key).update(payload).digest();
}

/** A new token for the questionnaire `form` (its id and minimum fill time), issued at `now`. */
export function issueFormToken(
  key: FormTokenKey,
  form: { id: string; minFillSeconds: number },
  now: Date,
): IssuedToken {
  const id = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const issuedAt = now.getTime();
  const expiresAt = issuedAt + TOKEN_TTL_MS;
  const payload = base64url(new TextEncoder().encode(JSON.stringify({
    i: id,
    q: form.id,
    t: issuedAt,
    x: expiresAt,
    m: form.minFillSeconds * 1000,
    d: POW_DIFFICULTY,
  })));
  return {
    token: `${PREFIX}${payload}.${base64url(sign(key, payload))}`,
    challenge: id,
    difficulty: POW_DIFFICULTY,
    min_fill_seconds: form.minFillSeconds,
    expires_at: new Date(expiresAt),
  };
}

/** Whether SHA-256(challenge + nonce) starts with `difficulty` zero bits. */
export function proofHolds(challenge: string, nonce: string, difficulty: number): boolean {
  const digest = createHash("sha256").update(challenge + nonce).digest();
  let bits = difficulty;
  for (const byte of digest) {
    if (bits <= 0) return true;
    if (bits < 8) return byte >> (8 - bits) === 0;
    if (byte !== 0) return false;
    bits -= 8;
  }
  return bits <= 0;
}

/** The payload of a token this service signed, or null: malformed, forged or altered. */
function signedPayload(key: FormTokenKey, token: string): FormToken | null {
  if (!token.startsWith(PREFIX)) return null;
  const [payload, signature, ...rest] = token.slice(PREFIX.length).split(".");
  if (!payload || !signature || rest.length) return null;
  let given: Uint8Array;
  let fields: Record<string, unknown>;
  try {
    given = Uint8Array.fromBase64(signature, { alphabet: "base64url" });
    const expected = sign(key, payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    fields = JSON.parse(
      new TextDecoder().decode(Uint8Array.fromBase64(payload, { alphabet: "base64url" })),
    );
  } catch {
    return null;
  }
  const { i, q, t, x, m, d } = fields ?? {};
  // Signed by this service, but still checked: a token of an older format must not pass.
  if (
    typeof i !== "string" || !ID.test(i) || typeof q !== "string" || !UUID.test(q) ||
    ![t, x, m, d].every(Number.isSafeInteger)
  ) {
    return null;
  }
  return {
    id: i,
    form: q,
    issuedAt: t as number,
    expiresAt: x as number,
    minFillMs: m as number,
    difficulty: d as number,
  };
}

function refusal(code: keyof typeof OWN_CODES, options: {
  message: string;
  field: string;
  headers?: Record<string, string>;
}): ApiError {
  // A refusal of who asks, not of what they sent: never kept under an Idempotency-Key.
  return new ApiError(OWN_CODES[code], code, { ...options, replayable: false });
}

/**
 * The token `token` with the proof of work `nonce`, checked at `now`: signature, expiry, proof
 * of work, then the minimum fill time. Throws the refusal otherwise.
 */
export function verifyFormToken(
  key: FormTokenKey,
  token: string,
  nonce: string | undefined,
  now: Date,
): FormToken {
  const found = signedPayload(key, token);
  if (!found) {
    throw refusal("FORM_TOKEN_INVALID", {
      message: "form_token is not a form token of this service; read the questionnaire again.",
      field: "form_token",
    });
  }
  const at = now.getTime();
  if (at >= found.expiresAt) {
    throw refusal("FORM_TOKEN_EXPIRED", {
      message: "form_token has expired; read the questionnaire again for a new one.",
      field: "form_token",
    });
  }
  if (nonce === undefined || !NONCE.test(nonce) || !proofHolds(found.id, nonce, found.difficulty)) {
    throw refusal("PROOF_OF_WORK_INVALID", {
      message: "pow_nonce does not solve the form token's challenge: SHA-256 of challenge + " +
        `pow_nonce must start with ${found.difficulty} zero bits.`,
      field: "pow_nonce",
    });
  }
  const early = found.issuedAt + found.minFillMs - at;
  if (early > 0) {
    throw refusal("FILLED_TOO_FAST", {
      message: "The form was sent sooner after loading than a person fills it; retry after " +
        "Retry-After seconds.",
      field: "form_token",
      headers: { "Retry-After": String(Math.ceil(early / 1000)) },
    });
  }
  return found;
}

/** The refusal of a start that onda_start_session turned down for its token, by its outcome. */
export function tokenRefusal(outcome: "token_required" | "token_foreign" | "token_used"): ApiError {
  switch (outcome) {
    case "token_required":
      return refusal("FORM_TOKEN_REQUIRED", {
        message: "This questionnaire is protected against bots: send the form_token of its " +
          "public read and its pow_nonce.",
        field: "form_token",
      });
    case "token_foreign":
      return refusal("FORM_TOKEN_INVALID", {
        message: "form_token was issued for another questionnaire.",
        field: "form_token",
      });
    case "token_used":
      return refusal("FORM_TOKEN_USED", {
        message: "form_token has been used already; read the questionnaire again for a new one.",
        field: "form_token",
      });
  }
}

/**
 * The refusal of a start whose honeypot is filled. The embed's hidden field is never seen by a
 * person; a script that fills every field fills it. Refused openly like the other refusals
 * rather than answered with a fake session: a person whose browser filled it anyway sees why.
 */
export function honeypotFilled(): ApiError {
  return refusal("HONEYPOT_FILLED", {
    message: "The hidden field meant to stay empty was filled; leave it empty.",
    field: "honeypot",
  });
}
