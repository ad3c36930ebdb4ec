// Database cut: the service reaches PostgreSQL through a TCP proxy; when the proxy drops, or
// holds every answer with the connections left open, the ads routes answer 503 UNAVAILABLE
// quickly, and they recover without a restart.

import assert from "node:assert/strict";
import { admin, BASE, DAY, importLines } from "./_fixture.ts";
import { body, test } from "../_server.ts";
import { serviceBehindProxy } from "../_tcp_proxy.ts";

const behind = await serviceBehindProxy({ ADS_DATABASE_TIMEOUT_MS: "1000" }, 0);
// No maintenance cache: the window is read on every request, so this also pins that a failed
// read of it does not mask the ads routes' 503.
const { service, proxy } = behind;
const { db, clock, logs } = service;
const config = service.app.config;

await importLines(service, [
  { type: "snapshot", id: "cut-1", exported_at: new Date(BASE + DAY).toISOString() },
  { type: "station", id: "st-1", name: "Radio 1" },
  { type: "brand", id: "br-1", name: "Brand 1" },
  {
    type: "occurrence",
    id: "6f1c1a52-2a51-4f43-9d43-3c4e7f0a8b11",
    station_id: "st-1",
    ad_started_at: new Date(BASE + 3600_000).toISOString(),
    ad_ended_at: new Date(BASE + 3630_000).toISOString(),
    duration_precision: "detected",
    review_state: "confirmed",
    brand_ids: ["br-1"],
  },
], true);
await admin(service, "account", "create", "cut", "--name", "Cut");
await admin(
  service,
  "grant",
  "cut",
  "--stations",
  "st-1",
  "--brands",
  "br-1",
  "--from",
  new Date(BASE).toISOString(),
  "--until",
  new Date(BASE + 10 * DAY).toISOString(),
);
const out = await admin(
  service,
  "key",
  "create",
  "cut",
  "--permissions",
  "ads:read,reports:read,coverage:read",
);
const key = out[out.length - 1];
clock.set(new Date(BASE + 5 * DAY));
const PATHS = ["/api/v1/whoami", "/api/v1/ads", "/api/v1/reports/summary", "/api/v1/coverage"];

async function call(path: string) {
  const t0 = performance.now();
  // A request that hangs fails the test instead of stalling the suite.
  const res = await service.fetch(path, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(5000),
  });
  // deno-lint-ignore no-explicit-any
  const json = await body<any>(res);
  return {
    status: res.status,
    headers: res.headers,
    json,
    ms: performance.now() - t0,
  };
}

test("ads: a lost database is 503 UNAVAILABLE within 2 s, and recovers without restart", async () => {
  for (const path of PATHS) assert.equal((await call(path)).status, 200, path);

  proxy.cut();
  try {
    for (let round = 0; round < 2; round++) {
      for (const path of PATHS) {
        const res = await call(path);
        assert.equal(res.status, 503, `${path} while cut`);
        assert.equal(res.json.error.code, "UNAVAILABLE");
        assert.ok(res.headers.get("retry-after"));
        assert.ok(res.ms < 2000, `${path} took ${Math.round(res.ms)} ms`);
        assert.ok(!JSON.stringify(res.json).includes("ECONN"), "no internals in the body");
      }
    }
  } finally {
    proxy.restore();
  }
  const deadline = performance.now() + 10_000;
  let recovered = false;
  while (!recovered && performance.now() < deadline) {
    recovered = (await call("/api/v1/ads")).status === 200;
    if (!recovered) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(recovered, "the service did not recover");
  for (const path of PATHS) {
    const res = await call(path);
    assert.equal(res.status, 200, `${path} after restore`);
  }
  const ads = await call("/api/v1/ads");
  assert.equal(ads.json.meta.total, 1);
});

test("ads: a database that stops answering is 503 UNAVAILABLE within 2 s, and recovers when it answers", async () => {
  for (const path of PATHS) assert.equal((await call(path)).status, 200, path);
  // Every connection of the pool open, as in a service that has been serving: a request that
  // had to open one would fail on its connect timeout (2 s) instead of waiting.
  await Promise.all(Array.from({ length: config.dbPoolMax }, () => db.sql`select pg_sleep(0.1)`));
  const logged = logs.length;
  proxy.stalled = true;
  const expectUnavailable = (res: Awaited<ReturnType<typeof call>>, path: string) => {
    assert.equal(res.status, 503, `${path} while stalled`);
    assert.equal(res.json.error.code, "UNAVAILABLE");
    assert.equal(res.headers.get("retry-after"), "5");
    assert.ok(!/given up|no answer within/.test(JSON.stringify(res.json)), "no internals");
  };
  try {
    // As many requests as the pool has connections each wait for the deadline (1 s)...
    for (const path of PATHS) {
      const res = await call(path);
      expectUnavailable(res, path);
      assert.ok(res.ms >= 900, `${path} answered in ${Math.round(res.ms)} ms, before the deadline`);
      assert.ok(res.ms < 2000, `${path} took ${Math.round(res.ms)} ms`);
    }
    // ...and, theirs still waiting, later ones answer at once without queueing more work.
    for (const path of PATHS) {
      const res = await call(path);
      expectUnavailable(res, path);
      assert.ok(res.ms < 500, `${path} waited ${Math.round(res.ms)} ms for a silent database`);
    }
  } finally {
    proxy.stalled = false;
  }
  const errors = logs.slice(logged).filter((l) => l.status === 503).map((l) => JSON.stringify(l));
  assert.equal(errors.length, 8, "each 503 is logged");
  assert.ok(errors.slice(0, 4).every((e) => e.includes("no answer within 1000 ms")), errors[0]);
  assert.ok(errors.slice(4).every((e) => e.includes("4 requests given up")), errors[4]);
  // The held answers arrive (the connections were never lost), and the given-up requests with
  // them; then requests are served again.
  const deadline = performance.now() + 2000;
  while ((await call("/api/v1/whoami")).status !== 200) {
    assert.ok(performance.now() < deadline, "the service did not recover within 2 s");
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const path of PATHS) assert.equal((await call(path)).status, 200, `${path} after`);
  assert.equal((await call("/api/v1/ads")).json.meta.total, 1);
});

test("ads dbcut: close", async () => {
  await behind.close();
});
