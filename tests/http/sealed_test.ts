// Sealing of credentials in Idempotency-Key records (lib/http/sealed.ts), without a database: a
// sealed part opens only in its record and part and under the same SECRET_KEY, an altered one
// does not open, and the request digest is keyed.

import assert from "node:assert/strict";
import { recordSealer } from "../../lib/http/sealed.ts";
import { test } from "../_server.ts";

const SECRET = "a-secret-key-of-at-least-32-characters";
const RECORD = ["public", "POST /api/v1/auth/register", crypto.randomUUID()];
const PARTS = { headers: ["Set-Cookie"], body: ["token"] };
const ANSWER = {
  headers: [["content-type", "application/json"], ["set-cookie", "service_token=onda_s_x"]] as [
    string,
    string,
  ][],
  text: JSON.stringify({ id: "t1", token: "onda_pat_secret", n: 1 }),
};

test("sealed: the listed parts are encrypted, others kept, and a replay gets the exact answer back", async () => {
  const sealer = await recordSealer(SECRET, PARTS, RECORD);
  const sealed = await sealer.seal(ANSWER);
  assert.equal(sealed.headers[0][1], "application/json");
  assert.match(sealed.headers[1][1], /^sealed:v1:/);
  const body = JSON.parse(sealed.text!);
  assert.match(body.token, /^sealed:v1:/);
  assert.deepEqual([body.id, body.n], ["t1", 1]);
  assert.ok(!JSON.stringify(sealed).includes("onda_"), "no credential in clear");
  assert.notEqual((await sealer.seal(ANSWER)).text, sealed.text, "a fresh IV each time");
  assert.deepEqual(await sealer.open(sealed), ANSWER);
});

test("sealed: a sealed part opens only in its own record and part, under the same SECRET_KEY", async () => {
  const sealed = await (await recordSealer(SECRET, PARTS, RECORD)).seal(ANSWER);
  const otherRecord = await recordSealer(SECRET, PARTS, [...RECORD.slice(0, 2), "other"]);
  await assert.rejects(otherRecord.open(sealed));
  const otherSecret = await recordSealer(SECRET + "!", PARTS, RECORD);
  await assert.rejects(otherSecret.open(sealed));
  // The cookie's ciphertext moved into the body's token field does not open there.
  const moved = { ...sealed, text: JSON.stringify({ id: "t1", token: sealed.headers[1][1] }) };
  await assert.rejects((await recordSealer(SECRET, PARTS, RECORD)).open(moved));
  // One altered character of the ciphertext (inside it, away from the base64 padding).
  const flip = (v: string) => v.slice(0, 20) + (v[20] === "A" ? "B" : "A") + v.slice(21);
  const altered = {
    ...sealed,
    headers: sealed.headers.map(([n, v]) => [n, n === "set-cookie" ? flip(v) : v]),
  } as typeof sealed;
  await assert.rejects((await recordSealer(SECRET, PARTS, RECORD)).open(altered));
});

test("sealed: the request digest is a keyed HMAC, not a plain SHA-256", async () => {
  const body = JSON.stringify({ email: "a@example.com", password: "correct horse" });
  const a = await (await recordSealer(SECRET, PARTS, RECORD)).digest(body);
  const b = await (await recordSealer(SECRET, PARTS, ["x", "y", "z"])).digest(body);
  assert.equal(a, b, "the same body has the same digest for a replay to match");
  assert.match(a, /^[0-9a-f]{64}$/);
  const other = await (await recordSealer(SECRET + "!", PARTS, RECORD)).digest(body);
  assert.notEqual(a, other, "another key, another digest");
  const plain = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  const plainHex = Array.from(new Uint8Array(plain), (x) => x.toString(16).padStart(2, "0"))
    .join("");
  assert.notEqual(a, plainHex);
});
