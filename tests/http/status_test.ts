// GET /status and the maintenance window (contract.md §1), on the real pipeline.

import assert from "node:assert/strict";
import { runAdmin } from "../../admin.ts";
import { aroundQueries, type Db } from "../../lib/db/db.ts";
import { loadConfig } from "../../lib/config.ts";
import type { ReadReplica } from "../../lib/db/replica.ts";
import { body, startTestService, test } from "../_server.ts";
import { validate } from "../_json_schema.ts";

const service = await startTestService();

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAdmin(argv, {
    db: service.db,
    config: loadConfig({}),
    clock: service.clock,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { status, out, err };
}

test("status: healthy service answers 200 ok with version and database check", async () => {
  const res = await service.fetch("/status");
  assert.equal(res.status, 200);
  const data = await body(res);
  assert.equal(data.status, "ok");
  assert.match(String(data.version), /^\d+\.\d+\.\d+/);
  assert.deepEqual(data.checks, { database: "ok" });
});

test("status: maintenance on --until makes /status 503 maintenance and /api/ routes 503 DEGRADED", async () => {
  const until = new Date(service.clock().getTime() + 120_000).toISOString();
  const on = await admin("maintenance", "on", "--until", until);
  assert.equal(on.status, 0, on.err.join("\n"));
  try {
    const status = await service.fetch("/status");
    assert.equal(status.status, 503);
    const data = await body(status);
    assert.equal(data.status, "maintenance");
    assert.equal(new Date(String(data.until)).getTime(), new Date(until).getTime());
    const api = await service.fetch("/api/v1/anything");
    assert.equal(api.status, 503);
    const retry = Number(api.headers.get("retry-after"));
    assert.ok(retry > 0 && retry <= 120, `Retry-After ${retry}`);
    assert.equal((await body<{ error: { code: string } }>(api)).error.code, "DEGRADED");
    const embed = await service.fetch("/api/v1/public/q/any", {
      headers: { origin: "https://site.example" },
    });
    assert.equal(embed.status, 503);
    assert.equal(embed.headers.get("access-control-allow-origin"), "*", "embeds can show it");
    await embed.body?.cancel();
    const openapi = await service.fetch("/api/openapi");
    assert.equal(openapi.status, 503);
    await openapi.body?.cancel();
  } finally {
    assert.equal((await admin("maintenance", "off")).status, 0);
  }
  const after = await service.fetch("/status");
  assert.equal(after.status, 200);
  await after.body?.cancel();
});

test("status: a window without --until: until null, and Retry-After on /status and /api/", async () => {
  assert.equal((await admin("maintenance", "on")).status, 0);
  try {
    const status = await service.fetch("/status");
    assert.equal(status.status, 503);
    assert.match(status.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    const data = await body(status);
    assert.deepEqual([data.status, data.until], ["maintenance", null]);
    for (const [method, path] of [["GET", "/api/v1/workspace"], ["POST", "/api/auth/login"]]) {
      const res = await service.fetch(path, { method });
      assert.equal(res.status, 503, path);
      assert.match(res.headers.get("retry-after") ?? "", /^[1-9]\d*$/, path);
      assert.equal((await body<{ error: { code: string } }>(res)).error.code, "DEGRADED");
    }
  } finally {
    assert.equal((await admin("maintenance", "off")).status, 0);
  }
});

test("status: a maintenance window ends by itself at its until", async () => {
  const until = new Date(service.clock().getTime() + 60_000).toISOString();
  assert.equal((await admin("maintenance", "on", "--until", until)).status, 0);
  const during = await service.fetch("/status");
  assert.equal(during.status, 503);
  await during.body?.cancel();
  service.clock.advance(61_000);
  try {
    const after = await service.fetch("/status");
    assert.equal(after.status, 200);
    await after.body?.cancel();
  } finally {
    service.clock.set(new Date());
    await admin("maintenance", "off");
  }
});

test("status: maintenance command refuses bad input", async () => {
  assert.equal((await admin("maintenance", "on", "--until", "tomorrow")).status, 2);
  assert.equal((await admin("maintenance", "on", "--until", "2000-01-01T00:00:00Z")).status, 2);
  assert.equal((await admin("maintenance", "on", "--bogus", "1")).status, 2);
  const res = await service.fetch("/status");
  assert.equal(res.status, 200);
  await res.body?.cancel();
});

test("status: with a read replica, the answer and its checks.replica fit the document", async () => {
  const doc = await body(await service.fetch("/api/openapi"));
  const schema = { $ref: "#/components/schemas/Status" };
  const lag = { state: "ok", lag_seconds: 1.5, lag_bytes: 4096 } as const;
  service.app.replica = { status: () => Promise.resolve(lag) } as unknown as ReadReplica;
  try {
    const res = await service.fetch("/status");
    assert.equal(res.status, 200);
    const data = await body(res);
    assert.deepEqual(data.checks, { database: "ok", replica: lag });
    assert.deepEqual(validate(doc, schema, data), []);
    const down = { state: "unavailable", lag_seconds: null, lag_bytes: null };
    assert.deepEqual(
      validate(doc, schema, { ...data, checks: { database: "ok", replica: down } }),
      [],
    );
  } finally {
    service.app.replica = null;
  }
});

test("status: close the service", async () => {
  await service.close();
});

test("status: 503 degraded when the database does not answer within 2 s", async () => {
  let hang = false;
  const slow = await startTestService({
    wrapDb: (db: Db): Db => {
      const sql = aroundQueries(
        db.sql,
        (query) => hang ? new Promise(() => {}) : query(db.sql),
      );
      return { ...db, sql };
    },
  });
  try {
    hang = true;
    const started = performance.now();
    const res = await slow.fetch("/status");
    const elapsed = performance.now() - started;
    assert.equal(res.status, 503);
    const data = await body(res);
    assert.equal(data.status, "degraded");
    assert.deepEqual(data.checks, { database: "unavailable" });
    assert.ok(elapsed >= 1900 && elapsed < 3500, `answered after ${elapsed} ms`);
  } finally {
    hang = false;
    await slow.close();
  }
});
