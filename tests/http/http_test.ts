// The shared HTTP conventions of contract.md §1, exercised through the real pipeline.

import assert from "node:assert/strict";
import { ApiError } from "../../lib/errors.ts";
import { json, noAuth } from "../../lib/http/router.ts";
import { defineAdsRoute } from "../../lib/ads/wing.ts";
import { defineFormsRoute } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";
import { body, startTestService, test } from "../_server.ts";

// Probe routes mounted beside the real ones, so the pipeline's body, error and query rules
// can be tested independently of any one resource.
const probes = [
  defineFormsRoute({
    method: "POST",
    path: "/api/v1/probe/echo",
    tag: "probe",
    summary: "echo",
    auth: noAuth,
    body: s.object({ name: s.string({ min: 1 }), count: s.optional(s.int({ min: 0, max: 10 })) }),
    responses: { 200: { description: "echo" } },
    handler: ({ body }) => json(body),
  }),
  defineFormsRoute({
    method: "GET",
    path: "/api/v1/probe/items/{id}",
    tag: "probe",
    summary: "item",
    auth: noAuth,
    params: { id: s.int({ min: 1 }) },
    query: { limit: s.optional(s.int({ min: 1, max: 100 }), 25) },
    responses: { 200: { description: "item" } },
    handler: ({ params, query }) => json({ id: params.id, limit: query.limit }),
  }),
  defineAdsRoute({
    method: "GET",
    path: "/api/v1/probe/ads-filter",
    tag: "probe",
    summary: "ads-style query",
    auth: noAuth,
    query: { limit: s.optional(s.int({ min: 1, max: 100 }), 50) },
    responses: { 200: { description: "ok" } },
    handler: ({ query }) => json({ limit: query.limit }),
  }),
  defineFormsRoute({
    method: "GET",
    path: "/api/v1/probe/crash",
    tag: "probe",
    summary: "crash",
    auth: noAuth,
    responses: { 200: { description: "never" } },
    handler: () => {
      throw new Error("select secret_column from /srv/onda/private.ts failed");
    },
  }),
  defineFormsRoute({
    method: "GET",
    path: "/api/v1/probe/conflict",
    tag: "probe",
    summary: "conflict",
    auth: noAuth,
    responses: { 200: { description: "never" } },
    handler: () => {
      throw new ApiError(409, "CONFLICT", { message: "Already done.", field: "state" });
    },
  }),
];

const service = await startTestService({ extraRoutes: probes });

/** POSTs `body` as JSON to the echo probe. */
function postEcho(body: BodyInit) {
  const headers = { "content-type": "application/json" };
  return service.fetch("/api/v1/probe/echo", { method: "POST", headers, body });
}

test("http: unknown route is 404 NOT_FOUND in the envelope", async () => {
  const res = await service.fetch("/api/v1/nothing-here");
  assert.equal(res.status, 404);
  const data = await body(res);
  assert.deepEqual(Object.keys(data.error as object).sort(), [
    "code",
    "field",
    "message",
    "trace_id",
  ]);
  assert.equal((data.error as { code: string }).code, "NOT_FOUND");
  assert.equal((data.error as { field: unknown }).field, null, "no single field is at fault");
});

test("http: an error under /api/v1/public/ is readable from any origin", async () => {
  const res = await service.fetch("/api/v1/public/no-such-thing", {
    headers: { origin: "https://site.example" },
  });
  assert.equal(res.status, 404);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  await res.body?.cancel();
});

test("http: wrong method is 405 with an Allow header", async () => {
  const res = await service.fetch("/status", { method: "DELETE" });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get("allow"), "GET");
  const data = await body<{ error: { code: string; field: unknown } }>(res);
  assert.equal(data.error.code, "METHOD_NOT_ALLOWED");
  assert.equal(data.error.field, null);
});

test("http: X-Trace-Id is on every response and equals error.trace_id", async () => {
  const ok = await service.fetch("/status");
  await ok.body?.cancel();
  assert.match(ok.headers.get("x-trace-id") ?? "", /^[0-9a-f]{32}$/);
  const res = await service.fetch("/api/v1/nothing-here");
  const data = await body<{ error: { trace_id: string } }>(res);
  assert.equal(data.error.trace_id, res.headers.get("x-trace-id"));
});

test("http: a valid traceparent supplies the trace id; an invalid one is ignored", async () => {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const res = await service.fetch("/api/v1/nothing-here", {
    headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
  });
  assert.equal(res.headers.get("x-trace-id"), traceId);
  assert.equal((await body<{ error: { trace_id: string } }>(res)).error.trace_id, traceId);
  const bad = await service.fetch("/status", {
    headers: { traceparent: `00-${"0".repeat(32)}-00f067aa0ba902b7-01` },
  });
  await bad.body?.cancel();
  assert.notEqual(bad.headers.get("x-trace-id"), "0".repeat(32));
  // Version ff is invalid, in either case; the header is otherwise read case-insensitively.
  for (const version of ["ff", "FF", " ff"]) {
    const res = await service.fetch("/status", {
      headers: { traceparent: `${version}-${traceId}-00f067aa0ba902b7-01` },
    });
    await res.body?.cancel();
    assert.notEqual(res.headers.get("x-trace-id"), traceId, `version ${version}`);
  }
});

test("http: every /api/v1/ response carries X-API-Version: v1", async () => {
  for (const path of ["/api/v1/probe/items/3", "/api/v1/nothing-here", "/api/v1/probe/crash"]) {
    const res = await service.fetch(path);
    await res.body?.cancel();
    assert.equal(res.headers.get("x-api-version"), "v1", path);
  }
  const status = await service.fetch("/status");
  await status.body?.cancel();
  assert.equal(status.headers.get("x-api-version"), null);
});

test("http: malformed JSON is 400 VALIDATION_FAILED", async () => {
  const res = await postEcho('{"name": ');
  assert.equal(res.status, 400);
  const data = await body<{ error: { code: string; field: string } }>(res);
  assert.equal(data.error.code, "VALIDATION_FAILED");
  assert.equal(data.error.field, "body");
});

test("http: a body that is not UTF-8 is 400 VALIDATION_FAILED, never replaced characters", async () => {
  const bytes = new TextEncoder().encode('{"name": "ab"}');
  bytes[11] = 0xff; // inside the string: lenient decoding would store U+FFFD
  const res = await postEcho(bytes);
  assert.equal(res.status, 400);
  const data = await body<{ error: { code: string; field: string } }>(res);
  assert.deepEqual([data.error.code, data.error.field], ["VALIDATION_FAILED", "body"]);
});

test("http: a wrong type is 400 naming the field", async () => {
  const cases = [
    { payload: { name: 5 }, field: "name" },
    { payload: {}, field: "name" },
    { payload: { name: "x", count: "3" }, field: "count" },
    { payload: { name: "x", count: 11 }, field: "count" },
    { payload: { name: "x", extra: 1 }, field: "extra" },
    { payload: [1], field: "body" },
  ];
  for (const { payload, field } of cases) {
    const res = await postEcho(JSON.stringify(payload));
    assert.equal(res.status, 400, JSON.stringify(payload));
    const data = await body<{ error: { code: string; field: string } }>(res);
    assert.equal(data.error.code, "VALIDATION_FAILED");
    assert.equal(data.error.field, field, JSON.stringify(payload));
  }
});

test("http: a body that is not application/json is 415", async () => {
  const res = await service.fetch("/api/v1/probe/echo", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: '{"name":"x"}',
  });
  assert.equal(res.status, 415);
  assert.equal((await body<{ error: { code: string } }>(res)).error.code, "UNSUPPORTED_MEDIA_TYPE");
});

test("http: a body over 64 KiB is 413, declared or streamed", async () => {
  const big = JSON.stringify({ name: "x".repeat(70 * 1024) });
  const declared = await postEcho(big);
  assert.equal(declared.status, 413);
  assert.equal((await body<{ error: { code: string } }>(declared)).error.code, "PAYLOAD_TOO_LARGE");
  // No Content-Length: an endless stream is cut at the limit, not read into memory.
  let sent = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent > 10 * 1024 * 1024) return controller.close();
      sent += 16 * 1024;
      controller.enqueue(new Uint8Array(16 * 1024).fill(32));
    },
  });
  const streamed = await postEcho(endless);
  assert.equal(streamed.status, 413);
  await streamed.body?.cancel();
  assert.ok(sent < 10 * 1024 * 1024, `server read ${sent} bytes before answering`);
});

test("http: a body of exactly 64 KiB is read; one byte more is 413, declared or streamed", async () => {
  const bodyOf = (size: number) => {
    const text = JSON.stringify({ name: "x".repeat(size - '{"name":""}'.length) });
    assert.equal(text.length, size);
    return new TextEncoder().encode(text);
  };
  const streamOf = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        // In pieces, as a client without Content-Length sends them.
        for (let at = 0; at < bytes.length; at += 4096) {
          controller.enqueue(bytes.slice(at, at + 4096));
        }
        controller.close();
      },
    });
  for (const [size, status] of [[64 * 1024, 200], [64 * 1024 + 1, 413]]) {
    for (const streamed of [false, true]) {
      const bytes = bodyOf(size);
      const res = await postEcho(streamed ? streamOf(bytes) : bytes);
      assert.equal(res.status, status, `${size} bytes${streamed ? ", streamed" : ""}`);
      await res.body?.cancel();
    }
  }
});

test("http: a 500 never shows a stack, SQL or a path; the log line has the detail", async () => {
  const res = await service.fetch("/api/v1/probe/crash");
  assert.equal(res.status, 500);
  const text = await res.text();
  assert.doesNotMatch(text, /secret_column|private\.ts|\/srv|at |stack/);
  const data = JSON.parse(text);
  assert.equal(data.error.code, "INTERNAL");
  const line = service.logs.find((l) => l.trace_id === data.error.trace_id);
  assert.ok(line, "log line with the same trace id");
  assert.match(JSON.stringify(line), /secret_column/);
});

test("http: an ApiError keeps its status, code and field", async () => {
  const res = await service.fetch("/api/v1/probe/conflict");
  assert.equal(res.status, 409);
  const data = await body<{ error: { code: string; field: string; message: string } }>(res);
  assert.deepEqual([data.error.code, data.error.field, data.error.message], [
    "CONFLICT",
    "state",
    "Already done.",
  ]);
});

test("http: unknown and repeated query parameters are rejected by name", async () => {
  const unknown = await service.fetch("/api/v1/probe/items/3?limt=5");
  assert.equal(unknown.status, 400);
  assert.equal((await body<{ error: { field: string } }>(unknown)).error.field, "limt");
  const repeated = await service.fetch("/api/v1/probe/items/3?limit=5&limit=6");
  assert.equal(repeated.status, 400);
  assert.equal((await body<{ error: { field: string } }>(repeated)).error.field, "limit");
  const ok = await service.fetch("/api/v1/probe/items/3?limit=5");
  assert.deepEqual(await body(ok), { id: 3, limit: 5 });
});

test("http: invalid filters on the ads API are 422 UNPROCESSABLE", async () => {
  const res = await service.fetch("/api/v1/probe/ads-filter?limit=0");
  assert.equal(res.status, 422);
  const data = await body<{ error: { code: string; field: string } }>(res);
  assert.deepEqual([data.error.code, data.error.field], ["UNPROCESSABLE", "limit"]);
});

test("http: a path parameter of the wrong shape is 404", async () => {
  const res = await service.fetch("/api/v1/probe/items/abc");
  assert.equal(res.status, 404);
  await res.body?.cancel();
});

test("http: deprecated unprefixed alias answers as its v1 twin with Deprecation, Sunset, Link", async () => {
  const res = await service.fetch("/api/probe/items/3?limit=7");
  assert.equal(res.status, 200);
  assert.deepEqual(await body(res), { id: 3, limit: 7 });
  assert.equal(res.headers.get("deprecation"), "true");
  assert.equal(res.headers.get("sunset"), "Thu, 31 Dec 2026 23:59:59 GMT");
  assert.equal(
    res.headers.get("link"),
    '</api/v1/probe/items/3?limit=7>; rel="successor-version"; type="application/json"',
  );
  const v1 = await service.fetch("/api/v1/probe/items/3?limit=7");
  await v1.body?.cancel();
  assert.equal(v1.headers.get("deprecation"), null);
});

test("http: the alias Link header never repeats a credential from the query", async () => {
  const res = await service.fetch("/api/probe/items/3?limit=7&api_key=onda_ads_leak&token=t0k3n");
  await res.body?.cancel();
  const link = res.headers.get("link") ?? "";
  assert.equal(
    link,
    '</api/v1/probe/items/3?limit=7>; rel="successor-version"; type="application/json"',
  );
  assert.doesNotMatch(link, /onda_ads_leak|t0k3n/);
  // Whatever the name's case, a secret-like name, or a value shaped like a key or a token (issue
  // 19, item 7); a list's cursor stays.
  const key = "onda_ads_" + "x".repeat(43);
  for (
    const query of [
      `API_KEY=${key}`,
      `Access_Token=abc`,
      `client_secret=abc`,
      `q=${key}`,
      "x=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl",
    ]
  ) {
    const alias = await service.fetch(`/api/probe/items/3?limit=7&${query}`);
    await alias.body?.cancel();
    assert.equal(
      alias.headers.get("link"),
      '</api/v1/probe/items/3?limit=7>; rel="successor-version"; type="application/json"',
      query,
    );
  }
  const cursor = "eyJrIjpbXX0." + "a".repeat(43);
  const paged = await service.fetch(`/api/probe/items/3?cursor=${cursor}`);
  await paged.body?.cancel();
  assert.match(paged.headers.get("link") ?? "", new RegExp(`\\?cursor=${cursor}>`));
});

test("http: after the sunset moment the alias is 404 with the Link header", async () => {
  service.clock.set("2026-12-31T23:59:58Z");
  const atSunset = await service.fetch("/api/probe/items/3");
  assert.equal(atSunset.status, 200);
  await atSunset.body?.cancel();
  service.clock.set("2027-01-01T00:00:00Z");
  try {
    const after = await service.fetch("/api/probe/items/3");
    assert.equal(after.status, 404);
    assert.equal(
      after.headers.get("link"),
      '</api/v1/probe/items/3>; rel="successor-version"; type="application/json"',
    );
    assert.equal((await body<{ error: { code: string } }>(after)).error.code, "NOT_FOUND");
    const v1 = await service.fetch("/api/v1/probe/items/3");
    assert.equal(v1.status, 200);
    await v1.body?.cancel();
  } finally {
    service.clock.set(new Date());
  }
});

test("http: /api/openapi is not an alias", async () => {
  const res = await service.fetch("/api/openapi");
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal(res.headers.get("deprecation"), null);
});

test("http: a body that stops before its declared length is 400, never 500", async () => {
  // Issue 19, item 4: a client that closes its sending side mid-body.
  const port = Number(new URL(service.url).port);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = "POST /api/v1/auth/register HTTP/1.1\r\nHost: x\r\n" +
    "Content-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n";
  await conn.write(new TextEncoder().encode(head + '{"name":'));
  await conn.closeWrite();
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    chunks.push(buffer.slice(0, n));
  }
  conn.close();
  const response = new TextDecoder().decode(
    chunks.reduce((all, c) => new Uint8Array([...all, ...c]), new Uint8Array()),
  );
  // Either an answer of 400, or no answer at all: never a 500.
  assert.doesNotMatch(response, /^HTTP\/1\.1 5/);
  if (response) assert.match(response, /^HTTP\/1\.1 400/);
});

test("http: close the service", async () => {
  await service.close();
});
