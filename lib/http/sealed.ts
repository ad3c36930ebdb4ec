// Credentials inside Idempotency-Key records (register's cookie, a new bearer token): the parts
// of a stored answer that carry one are encrypted with AES-GCM, and the request is digested
// with a keyed HMAC because its body may hold a password.
//
// Both keys are derived from the service's SECRET_KEY with HKDF (never the raw secret, which
// also signs cursors). A sealed value is bound to its record and part (additional data), so it
// opens only where it was written. It lives as long as its record: a replay within 24 h opens
// it; afterwards it is never opened again, and every sealed request deletes expired records
// (lib/http/idempotency.ts), so it does not linger. When SECRET_KEY is unset the generated key lives
// in the same database, so sealing then protects a leaked table or dump of idempotency_keys,
// not a full copy of the database: set SECRET_KEY to keep them apart.

import { base64, fromBase64, hex } from "../encoding.ts";

/** Which parts of a stored answer carry a credential: header names, top-level body fields. */
export interface SealedParts {
  headers?: string[];
  body?: string[];
}

/** The stored form of an answer: its headers and its body text. */
export interface StoredAnswer {
  headers: [string, string][];
  text: string | null;
}

export type RecordSealer = Awaited<ReturnType<typeof recordSealer>>;

const PREFIX = "sealed:v1:";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function derive(base: CryptoKey, info: string, algorithm: AesKeyGenParams | HmacKeyGenParams) {
  const usages: KeyUsage[] = algorithm.name === "AES-GCM" ? ["encrypt", "decrypt"] : ["sign"];
  const hkdf = {
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(32),
    info: encoder.encode(info),
  };
  return crypto.subtle.deriveKey(hkdf, base, algorithm, false, usages);
}

/**
 * The sealer of one Idempotency-Key record, identified by `record` (principal, route, key):
 * a sealed part opens only in the record and part it was sealed for.
 */
export async function recordSealer(secretKey: string, parts: SealedParts, record: string[]) {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secretKey), "HKDF", false, [
    "deriveKey",
  ]);
  const [aes, hmac] = await Promise.all([
    derive(base, "onda idempotency seal v1", { name: "AES-GCM", length: 256 }),
    derive(base, "onda idempotency digest v1", { name: "HMAC", hash: "SHA-256", length: 256 }),
  ]);
  const headerNames = new Set((parts.headers ?? []).map((name) => name.toLowerCase()));
  const fields = parts.body ?? [];
  const aad = (part: string) => encoder.encode(JSON.stringify([...record, part]));

  const sealValue = async (value: string, part: string) => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: aad(part) },
      aes,
      encoder.encode(value),
    );
    return PREFIX + base64(new Uint8Array([...iv, ...new Uint8Array(sealed)]));
  };
  const openValue = async (value: string, part: string) => {
    if (!value.startsWith(PREFIX)) throw new Error(`Stored ${part} is not sealed`);
    const bytes = fromBase64(value.slice(PREFIX.length));
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(0, 12), additionalData: aad(part) },
      aes,
      bytes.subarray(12),
    );
    return decoder.decode(plain);
  };

  // Every listed part that is present is transformed; an error answer has none of them.
  const transform = async (
    answer: StoredAnswer,
    apply: (value: string, part: string) => Promise<string>,
  ): Promise<StoredAnswer> => {
    const headers = await Promise.all(
      answer.headers.map(async ([name, value]): Promise<[string, string]> =>
        headerNames.has(name.toLowerCase())
          ? [name, await apply(value, `header:${name.toLowerCase()}`)]
          : [name, value]
      ),
    );
    let text = answer.text;
    const body = fields.length && text !== null ? parseObject(text) : null;
    if (body) {
      for (const field of fields) {
        if (typeof body[field] === "string") {
          body[field] = await apply(body[field] as string, `body:${field}`);
        }
      }
      // JSON.stringify of a parsed JSON.stringify output is the same text, so a replay's
      // body is byte for byte the original.
      text = JSON.stringify(body);
    }
    return { headers, text };
  };

  return {
    /** Keyed digest of the request (HMAC-SHA256, hex): the same body gives the same digest. */
    async digest(canonicalBody: string): Promise<string> {
      const mac = await crypto.subtle.sign("HMAC", hmac, encoder.encode(canonicalBody));
      return hex(new Uint8Array(mac));
    },
    /** The answer with its credential parts encrypted, for the record. */
    seal: (answer: StoredAnswer) => transform(answer, sealValue),
    /** The answer as it was sent; throws if a sealed part was altered or moved. */
    open: (answer: StoredAnswer) => transform(answer, openValue),
  };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
