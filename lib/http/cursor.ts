// Opaque, sealed pagination cursors for keyset lists (forms-api.md §8, contract.md §3).
//
// A cursor is base64url(sealed payload) "." base64url(HMAC-SHA256). The payload holds the sort
// key of the last row served and when the cursor was issued, and is sealed with AES-GCM (IV,
// ciphertext and tag) so that it tells its holder nothing: the events feed's position is shared
// by every workspace, and read in clear it showed their activity. The HMAC covers the sealed
// payload, the list name and the list's filter (so does the GCM tag, as additional data), so a
// tampered cursor, or one from another list, filter or workspace, fails verification. The
// sealing key is derived from SECRET_KEY with HKDF for cursors alone. The payload is padded to a
// fixed size so that a cursor's length does not follow its contents either. Each page issues a
// fresh cursor, so expiry after 24 h counts inactivity, measured on app.clock().
//
// Usage in a list handler (the ORDER BY is the one `newestFirst` compares on):
//   const scope = { list: "webhooks", filter: { workspace: principal.workspaceId } };
//   return json(await listPage(app, scope, query, newestFirst, (after, fetch) => app.db.sql`
//     select ... where workspace_id = ${principal.workspaceId} ${after}
//     order by created_at desc, id desc limit ${fetch}`, toJson));
// The sort key must be unique and round-trip exactly through JSON (ids, ms-precision times as
// ISO strings), and the ORDER BY must match the comparison, so that concurrent inserts and
// deletes never skip or repeat a row that existed for the whole walk.

import { empty, frag, type Fragment } from "../db/db.ts";
import { ApiError } from "../errors.ts";
import type { AppContext } from "./router.ts";
import * as s from "./schema.ts";
import { base64url } from "../encoding.ts";

const CURSOR_TTL_MS = 24 * 3600 * 1000;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a cursor is bound to: the list and every filter that shapes it. */
export interface CursorScope {
  list: string;
  filter?: Record<string, unknown>;
}

/** The query parameters of every list: limit 1-100 (default 25) and the cursor. */
export const pageQuery = {
  limit: s.optional(s.int({ min: 1, max: 100, description: "Page size, 1 to 100." }), 25),
  cursor: s.optional(
    s.string({ min: 1, max: 2000, description: "next_cursor of the previous page (opaque)." }),
  ),
};

/** The list envelope of forms-api.md §2, for the OpenAPI document: a page of `item`s. */
export function listEnvelope(item: s.Schema<unknown>): s.Schema<unknown> {
  const page = s.object({
    data: s.array(item),
    next_cursor: s.nullable(
      s.string({
        description: "Opaque cursor of the next page; null on the last page.",
        example: "q7Hc2v0Lx9fPZ3kWmR8sT1uY4bN6eA5dG0hJ2kL7nQ9rS3tU1vX8zB4cD6fH0jK2mP5qR7sV9wY1" +
          ".c2lnbmF0dXJlIG9mIHRoZSBzZWFsZWQgcGF5bG9hZA",
      }),
    ),
    has_more: s.boolean(),
  });
  const name = s.componentName(item.json);
  return name ? s.named(`${name}Page`, page) : page;
}

const encoder = new TextEncoder();
const BASE64URL = { alphabet: "base64url" } as const;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Payloads are padded with spaces (which JSON ignores) to a multiple of this many bytes. */
const PAD_TO = 64;

/** The cursor key, derived from the service secret for cursors only. */
async function cursorKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveKey",
  ]);
  const hkdf = {
    name: "HKDF",
    hash: "SHA-256",
    salt: new Uint8Array(32),
    info: encoder.encode("onda cursor v1"),
  };
  return crypto.subtle.deriveKey(hkdf, base, { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
}

/**
 * The sealing and HMAC keys of a secret, made once and kept: making them for every cursor cost
 * a list page more than sealing and signing it. A few secrets at most (one per service, more in
 * tests); a key that failed to be made is not kept.
 */
const keysOfSecret = new Map<string, Promise<{ seal: CryptoKey; sign: CryptoKey }>>();

function cursorKeys(secret: string) {
  let keys = keysOfSecret.get(secret);
  if (!keys) {
    if (keysOfSecret.size >= 16) keysOfSecret.clear();
    const hmac = { name: "HMAC", hash: "SHA-256" };
    keys = Promise.all([
      cursorKey(secret),
      crypto.subtle.importKey("raw", encoder.encode(secret), hmac, false, ["sign", "verify"]),
    ]).then(([seal, sign]) => ({ seal, sign }));
    keysOfSecret.set(secret, keys);
    keys.catch(() => keysOfSecret.delete(secret));
  }
  return keys;
}

/** What a cursor is bound to: the list and its filter. */
function boundTo(scope: CursorScope) {
  return `${scope.list}\n${JSON.stringify(scope.filter ?? {})}`;
}

/** The HMAC key of cursors, and what it signs: the list, its filter and the sealed payload. */
async function signing(secret: string, scope: CursorScope, payload: string) {
  const { sign } = await cursorKeys(secret);
  return [sign, encoder.encode(`${boundTo(scope)}\n${payload}`)] as const;
}

export function badCursor(): ApiError {
  return new ApiError(400, "VALIDATION_FAILED", {
    message:
      "cursor is invalid, expired or belongs to another list; start again from the first page.",
    field: "cursor",
  });
}

export async function encodeCursor(app: AppContext, scope: CursorScope, position: unknown[]) {
  const text = JSON.stringify({ k: position, t: app.clock().getTime() });
  const plain = encoder.encode(text.padEnd(Math.ceil(text.length / PAD_TO) * PAD_TO, " "));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(boundTo(scope)) },
    (await cursorKeys(app.secretKey)).seal,
    plain,
  );
  const bytes = new Uint8Array(IV_BYTES + sealed.byteLength);
  bytes.set(iv);
  bytes.set(new Uint8Array(sealed), IV_BYTES);
  const payload = base64url(bytes);
  const signature = await crypto.subtle.sign(
    "HMAC",
    ...await signing(app.secretKey, scope, payload),
  );
  return `${payload}.${base64url(new Uint8Array(signature))}`;
}

/** The sort key of the last row served, or null when there is no cursor (first page). */
async function decodeCursor(app: AppContext, scope: CursorScope, cursor: string | undefined) {
  if (cursor === undefined) return null;
  const { key, issuedAt } = await verifyCursor(app, scope, cursor);
  // Sealed by this service, but still input: every list's sort key is an instant as
  // toISOString writes it and a UUID (see afterCursor), and nothing else reaches the query.
  const [at, id] = key;
  if (
    key.length !== 2 || typeof at !== "string" || typeof id !== "string" ||
    !ISO_INSTANT.test(at) || Number.isNaN(Date.parse(at)) ||
    new Date(at).toISOString() !== at || !UUID.test(id)
  ) {
    throw badCursor();
  }
  const age = app.clock().getTime() - issuedAt;
  if (age > CURSOR_TTL_MS || age < -CURSOR_TTL_MS) throw badCursor();
  return key;
}

/**
 * The payload of a cursor this service sealed for `scope`, unchecked otherwise: for a list whose
 * sort key or lifetime differs from the others' (the events feed); 400 when forged or foreign.
 */
export async function verifyCursor(
  app: AppContext,
  scope: CursorScope,
  cursor: string,
): Promise<{ key: unknown[]; issuedAt: number }> {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(cursor);
  if (!match) throw badCursor();
  let given: Uint8Array<ArrayBuffer>;
  let sealed: Uint8Array<ArrayBuffer>;
  try {
    given = Uint8Array.fromBase64(match[2], BASE64URL);
    sealed = Uint8Array.fromBase64(match[1], BASE64URL);
  } catch {
    throw badCursor();
  }
  // verify compares in constant time; nothing of the payload is opened before it passed.
  const [key, input] = await signing(app.secretKey, scope, match[1]);
  if (!await crypto.subtle.verify("HMAC", key, given, input)) throw badCursor();
  if (sealed.length < IV_BYTES + TAG_BYTES) throw badCursor();
  let parsed: { k?: unknown; t?: unknown };
  try {
    const plain = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: sealed.subarray(0, IV_BYTES),
        additionalData: encoder.encode(boundTo(scope)),
      },
      (await cursorKeys(app.secretKey)).seal,
      sealed.subarray(IV_BYTES),
    );
    parsed = JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed?.k) || typeof parsed.t !== "number") throw badCursor();
  return { key: parsed.k, issuedAt: parsed.t };
}

/** How a list is sorted: a timestamptz and a uuid column, and the direction. */
export interface ListOrder<R> {
  /** A constant pair such as frag`created_at, id`; the query's ORDER BY must match. */
  columns: Fragment;
  direction: "asc" | "desc";
  keyOf(row: R): [Date, string];
}

/** Newest first by (created_at, id), the order of most lists. */
export const newestFirst: ListOrder<{ created_at: Date; id: string }> = {
  columns: frag`created_at, id`,
  direction: "desc",
  keyOf: (row) => [row.created_at, row.id],
};

/**
 * One page of a keyset list. `read` gets the condition for the rows after the cursor (nothing
 * on the first page) and how many rows to fetch: one more than the page, which only says that
 * there is more. The cursor is bound to `scope`, so it cannot page another list or filter.
 */
export async function listPage<R, T>(
  app: AppContext,
  scope: CursorScope,
  page: { limit: number; cursor?: string },
  order: ListOrder<NoInfer<R>>,
  read: (after: Fragment, fetch: number) => Promise<R[]>,
  toJson: (row: R) => T,
): Promise<{ data: T[]; next_cursor: string | null; has_more: boolean }> {
  const after = await decodeCursor(app, scope, page.cursor);
  const rows = await read(afterCursor(after, order), page.limit + 1);
  const hasMore = rows.length > page.limit;
  const shown = hasMore ? rows.slice(0, page.limit) : rows;
  const key = hasMore ? order.keyOf(shown[shown.length - 1]) : null;
  return {
    data: shown.map(toJson),
    next_cursor: key ? await encodeCursor(app, scope, [key[0].toISOString(), key[1]]) : null,
    has_more: hasMore,
  };
}

// The rows after the cursor's sort key: `<` newest first, `>` oldest first.
function afterCursor(after: unknown[] | null, order: ListOrder<unknown>): Fragment {
  if (!after) return empty;
  const key = frag`(${after[0]}::timestamptz, ${after[1]}::uuid)`;
  return order.direction === "desc"
    ? frag`and (${order.columns}) < ${key}`
    : frag`and (${order.columns}) > ${key}`;
}
