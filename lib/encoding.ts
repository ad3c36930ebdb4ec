// Bytes as text: base64, base64url (no padding), hex and percent-decoding, one implementation for
// keys, tokens, cursors, password hashes, sealed records, signatures and bytea's text form; the
// SHA-256 digest of a text, the stored form of API keys and tokens (lib/http/credentials.ts) and,
// as hex, of request hashes; and the big-endian int8 of PostgreSQL's binary forms (int8send,
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

/** The value of each ASCII hexadecimal digit, either case; -1 for every other byte. */
const HEX_DIGITS = new Int8Array(256).fill(-1);
for (const [i, c] of [..."0123456789abcdef"].entries()) {
  HEX_DIGITS[c.charCodeAt(0)] = HEX_DIGITS[c.toUpperCase().charCodeAt(0)] = i;
}

/** The value of the hexadecimal digit with character code `code`, or -1. */
export function hexDigit(code: number): number {
  return code < 256 ? HEX_DIGITS[code] : -1;
}

/**
 * The bytes that ASCII hex digits stand for (bytea's text form after its \x), decoded with no
 * string in between; throws on anything but pairs of digits.
 */
export function fromHexDigits(digits: Uint8Array): Uint8Array<ArrayBuffer> {
  if (digits.length % 2) throw new Error("an odd number of hex digits");
  const bytes = new Uint8Array(digits.length / 2);
  let bad = 0;
  for (let i = 0, j = 0; i < bytes.length; i++, j += 2) {
    const high = HEX_DIGITS[digits[j]], low = HEX_DIGITS[digits[j + 1]];
    bad |= high | low;
    bytes[i] = (high << 4) | low;
  }
  if (bad < 0) throw new Error("a character that is not a hex digit");
  return bytes;
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
