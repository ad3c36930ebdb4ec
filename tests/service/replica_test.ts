// The ads API on a PostgreSQL primary with a streaming standby as its read replica
// (DATABASE_READ_URL), one instance and no load balancer: a key revoked on the primary is
// refused at once while reads go to a replica that has not replayed the revocation, and a
// replica that accepts connections but never answers (reached through a TCP proxy that stops
// forwarding) is marked down like an unreachable one, the primary answering within the
// deadline. PostgreSQL only, and skipped (by name) where the PostgreSQL 15 server binaries are
// missing (.ci/run installs them).

import assert from "node:assert/strict";
import postgres from "postgres";
import { loadConfig } from "../../lib/config.ts";
import { type Service, startService } from "../../lib/server.ts";
import { body, test, testClock, type TestService } from "../_server.ts";
import { PG_SERVER_BINARIES, type PgCluster, startPrimaryAndStandby } from "../_pg_cluster.ts";
import { startTcpProxy, type TcpProxy } from "../_tcp_proxy.ts";
import { admin, importLines } from "../ads/_fixture.ts";

const DAY = 86_400_000;
const DEADLINE_MS = 2000;

if (!PG_SERVER_BINARIES) {
  Deno.test({
    name: "replica: SKIPPED, needs the PostgreSQL 15 server binaries (see .ci/run)",
    ignore: true,
    fn() {},
  });
} else {
  await replicaTests();
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function replicaTests() {
  let cluster: PgCluster | null = null;
  let proxy: TcpProxy | null = null;
  let started: Service | null = null;
  let standby: postgres.Sql | null = null;
  const stopAll = async () => {
    if (proxy) proxy.stalled = false;
    await started?.shutdown().catch(() => {});
    proxy?.close();
    await standby?.end({ timeout: 1 }).catch(() => {});
    await cluster?.stop();
  };
  let service: TestService;
  try {
    cluster = await startPrimaryAndStandby();
    const sql = postgres(cluster.primary.url("postgres"), { max: 1, onnotice: () => {} });
    await sql.unsafe("create database onda");
    await sql.end();
    proxy = startTcpProxy("127.0.0.1", cluster.standby.port);
    const clock = testClock();
    started = await startService({
      config: loadConfig({
        PORT: "0",
        HOST: "127.0.0.1",
        DATABASE_URL: cluster.primary.url("onda"),
        DATABASE_READ_URL: `postgres://postgres@127.0.0.1:${proxy.port}/onda`,
        ADS_DATABASE_TIMEOUT_MS: String(DEADLINE_MS),
        DB_POOL_MAX: "4",
      }),
      clock,
      log: () => {},
      maintenanceCacheMs: 0,
      startWorkers: false,
    });
    const url = started.url;
    // What the fixture's admin helpers need of a test service.
    service = {
      ...started,
      db: started.app.db,
      clock,
      logs: [],
      fetch: (path: string, init?: RequestInit) => fetch(url + path, init),
    } as unknown as TestService;
    standby = postgres(cluster.standby.url("onda"), { max: 1, onnotice: () => {} });
  } catch (err) {
    await stopAll();
    throw err;
  }

  async function get(path: string, key: string) {
    const t0 = performance.now();
    const res = await service.fetch(path, {
      headers: { authorization: `Bearer ${key}` },
      // A request that hangs fails the test instead of stalling the suite.
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, json: await body<Json>(res), ms: performance.now() - t0 };
  }

  async function replicaState() {
    const res = await service.fetch("/status", { signal: AbortSignal.timeout(10_000) });
    return (await body<Json>(res)).checks.replica;
  }

  async function caughtUp() {
    const deadline = performance.now() + 15_000;
    for (;;) {
      const replica = await replicaState();
      if (replica.state === "ok" && replica.lag_bytes === 0) return;
      assert.ok(performance.now() < deadline, `the replica did not catch up: ${replica}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const snapshot = (id: string, at: number, occurrences: number) => [
    { type: "snapshot", id, exported_at: new Date(at).toISOString() },
    { type: "station", id: "st-1", name: "Radio 1" },
    { type: "brand", id: "br-1", name: "Brand 1" },
    ...Array.from({ length: occurrences }, (_, i) => ({
      type: "occurrence",
      id: crypto.randomUUID(),
      station_id: "st-1",
      ad_started_at: new Date(at - DAY + i * 3_600_000).toISOString(),
      ad_ended_at: new Date(at - DAY + i * 3_600_000 + 30_000).toISOString(),
      duration_precision: "detected",
      review_state: "confirmed",
      brand_ids: ["br-1"],
    })),
  ];
  const now = Math.floor(Date.now() / 1000) * 1000;
  const keys: string[] = [];
  const newKey = async () =>
    (await admin(service, "key", "create", "radio", "--permissions", "ads:read")).at(-1)!;

  test("replica: a key revoked on the primary is refused at once while reads go to a replica that has not replayed it", async () => {
    assert.equal((await importLines(service, snapshot("snap-1", now - DAY, 3), true)).status, 0);
    await admin(service, "account", "create", "radio", "--name", "Radio");
    await admin(
      service,
      "grant",
      "radio",
      "--stations=st-1",
      "--brands=br-1",
      "--from",
      new Date(now - 20 * DAY).toISOString(),
      "--until",
      new Date(now + 20 * DAY).toISOString(),
    );
    keys.push(await newKey(), await newKey());
    await caughtUp();
    assert.equal((await get("/api/v1/ads", keys[0])).json.meta.total, 3);
    await standby!`select pg_wal_replay_pause()`;
    try {
      // Reads are the replica's: a snapshot approved on the primary is not served yet...
      const imported = await importLines(service, snapshot("snap-2", now - DAY / 2, 5), true);
      assert.equal(imported.status, 0);
      const stale = await get("/api/v1/ads", keys[0]);
      assert.equal(stale.status, 200);
      assert.equal(stale.json.meta.total, 3, "what the replica has replayed");
      // ...while the key check is the primary's: the revocation holds at once.
      const [{ id }] = await service.db.sql<{ id: string }>`
        select id from ads_api_keys order by created_at desc, id limit 1`;
      await admin(service, "key", "revoke", id);
      const [replayed] = await standby!<{ revoked_at: Date | null }[]>`
        select revoked_at from ads_api_keys where id = ${id}`;
      assert.equal(replayed.revoked_at, null, "the replica has not replayed the revocation");
      const refused = await get("/api/v1/ads", keys[1]);
      assert.equal(refused.status, 401, JSON.stringify(refused.json));
      assert.equal(refused.json.error.code, "UNAUTHENTICATED");
      assert.equal((await get("/api/v1/ads", keys[0])).status, 200, "other keys still read");
    } finally {
      await standby!`select pg_wal_replay_resume()`;
    }
    await caughtUp();
    assert.equal((await get("/api/v1/ads", keys[0])).json.meta.total, 8);
    assert.equal((await get("/api/v1/ads", keys[1])).status, 401);
  });

  test("replica: one that accepts connections but never answers is marked down, and the primary answers within the deadline", async () => {
    await caughtUp();
    assert.equal((await get("/api/v1/ads", keys[0])).status, 200);
    proxy!.stalled = true;
    try {
      // The first read waits for the replica, finds it silent, and is answered by the primary.
      const first = await get("/api/v1/ads", keys[0]);
      assert.equal(first.status, 200, JSON.stringify(first.json));
      assert.equal(first.json.meta.total, 8);
      assert.ok(first.ms < DEADLINE_MS, `answered in ${Math.round(first.ms)} ms`);
      // Marked down: the next one goes to the primary without waiting for the replica (finding
      // it silent takes twice a quarter of the deadline).
      const next = await get("/api/v1/ads", keys[0]);
      assert.equal(next.status, 200);
      assert.ok(next.ms < DEADLINE_MS * 0.4, `waited ${Math.round(next.ms)} ms for the replica`);
      assert.equal((await replicaState()).state, "unavailable");
    } finally {
      proxy!.stalled = false;
    }
    // Answering again: back in use.
    const deadline = performance.now() + 10_000;
    while ((await replicaState()).state !== "ok") {
      assert.ok(performance.now() < deadline, "the replica was not used again");
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal((await get("/api/v1/ads", keys[0])).json.meta.total, 8);
  });

  test("replica: stop the service and the servers", async () => {
    await stopAll();
  });
}
