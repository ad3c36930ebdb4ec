// A request body has its own deadline (issue 30, item 1): a client that sends a head and part
// of a body, then nothing, is answered 408 REQUEST_TIMEOUT with `Connection: close`, and its
// wait never counts as the database's. (Deno's server closes such a connection only when the
// client does: the proxy config of lib/http/nginx.conf bounds that, tests/http/connections_test.ts.) Before, fifty such connections (more than the pool) made
// every /api/ request of every client answer 500 or 503 until they went away.

import assert from "node:assert/strict";
import { body, startTestService, test } from "../_server.ts";
import { connectRaw, cutPost, readUntilClosed, send } from "../_raw_http.ts";
import { createQuestionnaire, registerUser } from "../forms/_forms.ts";

// Shorter than the body's deadline, so that bodies still arriving after it would already count
// as database stalls if they were taken for ones.
const DATABASE_TIMEOUT_MS = 500;
const BODY_TIMEOUT_MS = 2500;
const STALLED = 50;

const service = await startTestService({
  env: {
    DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS),
    REQUEST_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    RATE_LIMIT_PUBLIC_PER_MINUTE: "100000",
  },
});
const target = { hostname: "127.0.0.1", port: Number(new URL(service.url).port) };

test("body deadline: 50 stalled bodies answer 408, while other clients are answered within 1 s", async () => {
  const owner = await registerUser(service, { bearer: true });
  const stalled: Deno.Conn[] = [];
  try {
    for (let i = 0; i < STALLED; i++) {
      const conn = await connectRaw(target);
      stalled.push(conn);
      // Half declare their length, half are chunked: both framings stall the same way.
      await send(
        conn,
        i % 2
          ? cutPost("/api/v1/auth/register", 200, 20)
          : "POST /api/v1/auth/login HTTP/1.1\r\nHost: onda.test\r\n" +
            'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"ema',
      );
    }
    const outcomes = stalled.map((conn) => readUntilClosed(conn, BODY_TIMEOUT_MS + 5000, true));
    // Past the database deadline, while every stalled body still waits.
    await new Promise((resolve) => setTimeout(resolve, DATABASE_TIMEOUT_MS * 3));
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const created = await createQuestionnaire(service, owner);
      const listed = await service.fetch("/api/v1/questionnaires", {
        headers: { authorization: `Bearer ${owner.token}`, "x-workspace-id": owner.workspaceId },
      });
      assert.equal(listed.status, 200, await listed.clone().text());
      assert.ok(
        (await body<{ data: { id: string }[] }>(listed)).data.some((q) => q.id === created.id),
      );
      const ms = performance.now() - started;
      assert.ok(ms < 1000, `another client waited ${Math.round(ms)} ms`);
    }
    for (const outcome of await Promise.all(outcomes)) {
      assert.match(outcome.text, /^HTTP\/1\.1 408 /, outcome.text.slice(0, 200));
      const envelope = JSON.parse(outcome.text.slice(outcome.text.indexOf("\r\n\r\n") + 4));
      assert.equal(envelope.error.code, "REQUEST_TIMEOUT");
      assert.ok(outcome.ms >= BODY_TIMEOUT_MS - DATABASE_TIMEOUT_MS * 3 - 100, `${outcome.ms} ms`);
    }
    const timedOut = service.logs.filter((line) => line.status === 408);
    assert.equal(timedOut.length, STALLED);
    assert.ok(!service.logs.some((line) => Number(line.status) >= 500), "no 5xx was answered");
  } finally {
    for (const conn of stalled) {
      try {
        conn.close();
      } catch {
        // closed by the server already
      }
    }
  }
});

test("body deadline: a body shorter than its Content-Length on a kept-open connection is 408, never 500", async () => {
  const conn = await connectRaw(target);
  const outcome = await (async () => {
    try {
      await send(conn, cutPost("/api/v1/auth/register", 100, 9));
      return await readUntilClosed(conn, BODY_TIMEOUT_MS + 5000, true);
    } finally {
      try {
        conn.close();
      } catch {
        // closed already
      }
    }
  })();
  assert.match(outcome.text, /^HTTP\/1\.1 408 /);
  assert.match(outcome.text, /\r\nconnection: close\r\n/i);
});

test("body deadline: close the service", async () => {
  await service.close();
});
