// Three instances behind a real load balancer (Debian's nginx, round robin) on a PostgreSQL
// primary with a streaming standby as their read replica (DATABASE_READ_URL), all started here
// and stopped at the end: limits, cursors, the maintenance window and webhooks hold for the
// deployment whichever instance answers; the ads API reads the replica, true to what it has
// replayed, and keeps answering when it stops. PostgreSQL only, and skipped (by name) where
// the PostgreSQL 15 server binaries or nginx are missing; CI installs both (.ci/run).

import assert from "node:assert/strict";
import postgres from "postgres";
import { runAdmin } from "../../admin.ts";
import { loadConfig } from "../../lib/config.ts";
import { type Service, startService } from "../../lib/server.ts";
import { body, test, type TestService } from "../_server.ts";
import { type Balancer, NGINX, startBalancer } from "../_balancer.ts";
import { PG_SERVER_BINARIES, type PgCluster, startPrimaryAndStandby } from "../_pg_cluster.ts";
import { createQuestionnaire, registerUser } from "../forms/_forms.ts";
import {
  completeSession,
  hookedWorkspace,
  type Receiver,
  startReceiver,
} from "../webhooks/_webhooks.ts";

const INSTANCES = 3;
const DAY = 86_400_000;

if (!PG_SERVER_BINARIES || !NGINX) {
  Deno.test({
    name: "instances: SKIPPED, needs the PostgreSQL 15 server binaries and nginx (see .ci/run)",
    ignore: true,
    fn() {},
  });
} else {
  await instancesTests();
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function instancesTests() {
  let cluster: PgCluster | null = null;
  let balancer: Balancer | null = null;
  let receiver: Receiver | null = null;
  const services: Service[] = [];
  const logs: Record<string, unknown>[][] = [];
  const stopAll = async () => {
    await balancer?.stop();
    for (const service of services) await service.shutdown().catch(() => {});
    await receiver?.close();
    await cluster?.stop();
  };

  let config: ReturnType<typeof loadConfig>;
  try {
    cluster = await startPrimaryAndStandby();
    const admin = postgres(cluster.primary.url("postgres"), { max: 1, onnotice: () => {} });
    await admin.unsafe("create database onda");
    await admin.end();
    receiver = startReceiver();
    config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: cluster.primary.url("onda"),
      DATABASE_READ_URL: cluster.standby.url("onda"),
      TRUST_PROXY: "1",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
      DB_POOL_MAX: "4",
    });
    for (let i = 0; i < INSTANCES; i++) {
      const lines: Record<string, unknown>[] = [];
      logs.push(lines);
      // The default maintenance cache (1 s): the delay the README documents.
      services.push(
        await startService({ config, log: (line) => lines.push(line), startWorkers: true }),
      );
    }
    balancer = await startBalancer(services.map((s) => `127.0.0.1:${s.port}`));
  } catch (err) {
    await stopAll();
    throw err;
  }
  const url = balancer.url;
  const through = {
    fetch: (path: string, init?: RequestInit) => fetch(url + path, init),
  } as TestService;
  const direct = services.map((s) =>
    ({ fetch: (path: string, init?: RequestInit) => fetch(s.url + path, init) }) as TestService
  );
  const primary = services[0].app.db;
  const standby = postgres(cluster.standby.url("onda"), { max: 1, onnotice: () => {} });

  async function admin(...argv: string[]): Promise<string> {
    const out: string[] = [];
    const err: string[] = [];
    const status = await runAdmin(argv, {
      db: primary,
      config,
      clock: () => new Date(),
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    assert.equal(status, 0, `admin ${argv.join(" ")}: ${err.join("\n")}`);
    return out.at(-1) ?? "";
  }

  /** How many requests of `route` each instance answered with `status` since `marks`. */
  const answered = (route: string, status: number, marks: number[] = logs.map(() => 0)) =>
    logs.map((lines, i) =>
      lines.slice(marks[i]).filter((l) => l.route === route && l.status === status).length
    );
  const marks = () => logs.map((lines) => lines.length);

  async function get(path: string, headers: Record<string, string> = {}) {
    const res = await through.fetch(path, { headers });
    return { status: res.status, headers: res.headers, json: await body<Json>(res) };
  }

  test("instances: the 61st ads request of a key within a minute is 429 whichever instance answers", async () => {
    await admin("account", "create", "acme", "--name", "Acme");
    const key = await admin("key", "create", "acme", "--permissions", "ads:read");
    const headers = { authorization: `Bearer ${key}` };
    const before = marks();
    for (let i = 0; i < 60; i++) {
      const res = await get("/api/v1/ads", headers);
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.headers.get("x-ratelimit-remaining"), String(59 - i));
    }
    for (let i = 0; i < INSTANCES; i++) {
      const res = await get("/api/v1/ads", headers);
      assert.equal(res.status, 429);
      assert.equal(res.json.error.code, "RATE_LIMITED");
      assert.ok(Number(res.headers.get("retry-after")) >= 1);
    }
    const ok = answered("/api/v1/ads", 200, before);
    const refused = answered("/api/v1/ads", 429, before);
    assert.ok(ok.every((n) => n > 0), `every instance answered some of the 60: ${ok}`);
    assert.ok(refused.every((n) => n === 1), `each instance refused the next: ${refused}`);
  });

  test("instances: a cursor issued by one instance is accepted by another", async () => {
    const user = await registerUser(through);
    for (let i = 0; i < 5; i++) {
      await createQuestionnaire(through, user, undefined, { title: `Q${i}` });
    }
    const page = async (service: TestService, cursor: string | null) => {
      const query = `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await service.fetch(`/api/v1/questionnaires?${query}`, {
        headers: user.headers(),
      });
      assert.equal(res.status, 200, await res.clone().text());
      return await body<{ data: { id: string }[]; next_cursor: string | null }>(res);
    };
    // Instance by instance, then through the balancer.
    const first = await page(direct[0], null);
    const second = await page(direct[1], first.next_cursor);
    const third = await page(direct[2], second.next_cursor);
    const ids = [...first.data, ...second.data, ...third.data].map((q) => q.id);
    assert.equal(new Set(ids).size, 5);
    assert.equal(third.next_cursor, null);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: { data: { id: string }[]; next_cursor: string | null } = await page(
        through,
        cursor,
      );
      seen.push(...next.data.map((q) => q.id));
      cursor = next.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, ids);
  });

  test("instances: a maintenance window set once is seen by every instance within a second", async () => {
    const user = await registerUser(through);
    await admin("maintenance", "on");
    try {
      await new Promise((r) => setTimeout(r, 1100));
      const before = marks();
      for (let i = 0; i < 2 * INSTANCES; i++) {
        const res = await get("/api/v1/workspace", user.headers());
        assert.equal(res.status, 503);
        assert.equal(res.json.error.code, "DEGRADED");
      }
      const degraded = answered("/api/v1/workspace", 503, before);
      assert.ok(degraded.every((n) => n > 0), `every instance in maintenance: ${degraded}`);
    } finally {
      await admin("maintenance", "off");
    }
    await new Promise((r) => setTimeout(r, 1100));
    for (let i = 0; i < INSTANCES; i++) {
      assert.equal((await get("/api/v1/workspace", user.headers())).status, 200);
    }
  });

  test("instances: webhooks are delivered exactly once while every instance delivers", async () => {
    const hooked = await hookedWorkspace(through, receiver!.url);
    const sessions = 6;
    for (let i = 0; i < sessions; i++) await completeSession(through, hooked.form);
    const total = sessions * (2 + hooked.form.questions.length);
    await receiver!.waitFor((r) => r.length >= total, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    const ids = receiver!.received.map((r) => r.headers.get("webhook-id"));
    assert.equal(ids.length, total, "a delivery was sent twice");
    assert.equal(new Set(ids).size, total);
  });

  // An approved snapshot of a few occurrences in the last days, on a granted station.
  const exportedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - DAY).toISOString()
    .replace(".000Z", "Z");
  let radioKeys: string[] = [];

  test("instances: an approval is visible on the replica once replayed, /status shows the lag meanwhile, and key checks stay on the primary", async () => {
    const start = Date.now() - 2 * DAY;
    const lines: unknown[] = [
      { type: "snapshot", id: "snap-1", exported_at: exportedAt },
      { type: "station", id: "st-1", name: "Radio 1" },
      { type: "brand", id: "br.1", name: "Brand 1" },
    ];
    for (let i = 0; i < 5; i++) {
      const at = start + i * 3_600_000;
      lines.push({
        type: "occurrence",
        id: crypto.randomUUID(),
        station_id: "st-1",
        ad_started_at: new Date(at).toISOString(),
        ad_ended_at: new Date(at + 30_000).toISOString(),
        duration_precision: "detected",
        review_state: "confirmed",
        brand_ids: ["br.1"],
      });
    }
    const path = await Deno.makeTempFile({ suffix: ".ndjson" });
    try {
      await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      await admin("import", path);
    } finally {
      await Deno.remove(path);
    }
    await admin("account", "create", "radio", "--name", "Radio");
    await admin(
      "grant",
      "radio",
      "--stations=st-1",
      "--brands=br.1",
      "--from",
      new Date(Date.now() - 30 * DAY).toISOString(),
      "--until",
      new Date(Date.now() + 30 * DAY).toISOString(),
    );
    radioKeys = [
      await admin("key", "create", "radio", "--permissions", "ads:read"),
      await admin("key", "create", "radio", "--permissions", "ads:read"),
    ];
    const revokedLater = await admin("key", "create", "radio", "--permissions", "ads:read");
    let fresh = "";
    const [{ id: revokedId }] = await primary.sql<{ id: string }>`
      select id from ads_api_keys order by created_at desc, id limit 1`;
    const headers = { authorization: `Bearer ${radioKeys[0]}` };
    const status = async () => {
      const res = await get("/status");
      assert.equal(res.status, 200, JSON.stringify(res.json));
      return res.json.checks.replica;
    };
    const caughtUp = async () => {
      for (let i = 0; i < 100; i++) {
        const replica = await status();
        if (replica.lag_bytes === 0) return replica;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail("the replica did not catch up within 10 s");
    };
    assert.deepEqual(await caughtUp(), { state: "ok", lag_seconds: 0, lag_bytes: 0 });
    const pending = await get("/api/v1/ads", headers);
    assert.equal(pending.status, 200);
    assert.equal(pending.json.meta.total, 0, "nothing approved yet");

    await standby`select pg_wal_replay_pause()`;
    try {
      await admin("snapshot", "approve", "snap-1");
      await new Promise((r) => setTimeout(r, 200));
      const lagging = await status();
      assert.equal(lagging.state, "ok");
      assert.ok(lagging.lag_bytes > 0, JSON.stringify(lagging));
      assert.ok(lagging.lag_seconds > 0, JSON.stringify(lagging));
      // Every instance answers what the replica has replayed: not yet the approval.
      for (let i = 0; i < INSTANCES; i++) {
        const res = await get("/api/v1/ads", headers);
        assert.equal(res.status, 200);
        assert.equal(res.json.meta.total, 0);
        assert.equal(res.json.meta.snapshot_exported_at, null);
      }
      const [{ approved }] = await primary.sql<{ approved: number }>`
        select count(*)::int as approved from ads_snapshots where approved_at is not null`;
      assert.equal(approved, 1, "the primary has it");
      // The key check is the primary's: a revocation holds at once, however late the replica.
      const before = await get("/api/v1/ads", { authorization: `Bearer ${revokedLater}` });
      assert.equal(before.status, 200);
      await admin("key", "revoke", revokedId);
      for (let i = 0; i < INSTANCES; i++) {
        const res = await get("/api/v1/ads", { authorization: `Bearer ${revokedLater}` });
        assert.equal(res.status, 401, "revoked on the primary, not yet on the replica");
      }
      // A key the replica has not replayed yet: after a second's wait for it, 503 with
      // Retry-After.
      fresh = await admin("key", "create", "radio", "--permissions", "ads:read");
      const res = await get("/api/v1/ads", { authorization: `Bearer ${fresh}` });
      assert.equal(res.status, 503);
      assert.equal(res.json.error.code, "UNAVAILABLE");
      assert.equal(res.headers.get("retry-after"), "1");
    } finally {
      await standby`select pg_wal_replay_resume()`;
    }
    await caughtUp();
    for (let i = 0; i < INSTANCES; i++) {
      const res = await get("/api/v1/ads", i ? headers : { authorization: `Bearer ${fresh}` });
      assert.equal(res.status, 200);
      assert.equal(res.json.meta.total, 5);
      assert.equal(res.json.meta.snapshot_exported_at, exportedAt);
    }
  });

  test("instances: stopping the replica leaves the service answering from the primary", async () => {
    await standby.end();
    await cluster!.standby.stop();
    const headers = { authorization: `Bearer ${radioKeys[1]}` };
    for (let i = 0; i < 2 * INSTANCES; i++) {
      const res = await get("/api/v1/ads", headers);
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.json.meta.total, 5);
      assert.equal(res.json.meta.snapshot_exported_at, exportedAt);
    }
    const res = await get("/status");
    assert.equal(res.status, 200);
    assert.equal(res.json.status, "ok");
    assert.deepEqual(res.json.checks.replica, {
      state: "unavailable",
      lag_seconds: null,
      lag_bytes: null,
    });
  });

  test("instances: stop the balancer, the instances and the servers", async () => {
    await standby.end();
    await stopAll();
  });
}
