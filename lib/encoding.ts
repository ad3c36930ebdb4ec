// Bytes as text: base64, base64url (no padding), lower-case hex and percent-decoding, one implementation for
// keys, tokens, cursors, password hashes, sealed records and signatures; the SHA-256 digest of
// a text, the stored form of API keys and tokens (lib/http/credentials.ts) and, as hex, of
// request hashes; and the big-endian int8 of PostgreSQL's binary forms (int8send,
// timestamptz_send).

import { createHash } from "node:crypto";

/** Standard base64 with padding. */
export function base64(bytes: Uint8Array): string {
  return bytes.toBase64();
}

/** Decodes standard base64; throws on anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.fromBase64(text);
}

/** URL- and filename-safe base64 (RFC 4648 §5) without padding. */
export function base64url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

/** Lower-case hex, two digits a byte. */
export function hex(bytes: Uint8Array): string {
  return bytes.toHex();
}

/**
 * SHA-256 of a text (UTF-8). Synchronous node:crypto: it runs on every authenticated request,
 * and crypto.subtle's asynchronous digest cost a tenth of the service's CPU there.
 */
export function sha256(text: string): Uint8Array {
  return createHash("sha256").update(text).digest();
}

/** The same as hex. */
export function sha256Hex(text: string): string {
  return hex(sha256(text));
}

/** decodeURIComponent, or the text unchanged where it is not valid percent-encoding. */
export function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The big-endian 64-bit integer at byte `at` (as int8send and timestamptz_send write it), as a
 * number: exact for magnitudes below 2^53. Two 32-bit halves, cheaper than a BigInt each.
 */
export function readInt64(view: DataView, at: number): number {
  return view.getInt32(at) * 4_294_967_296 + view.getUint32(at + 4);
}
