// Rate limits that hold across instances: two services on one PostgreSQL database count every
// limit together (RATE_LIMIT_SCOPE=deployment, the default), with the headers of the shared
// count; RATE_LIMIT_SCOPE=instance counts in each instance's memory, as documented. PostgreSQL
// only: the embedded database is one process.

import assert from "node:assert/strict";
import { runAdmin } from "../../admin.ts";
import { loadConfig } from "../../lib/config.ts";
import { type Service, startService } from "../../lib/server.ts";
import { body, freshDatabase, PG_FALLBACK_URL, test, type TestService } from "../_server.ts";
import { registerUser } from "../forms/_forms.ts";

/** Two instances on one fresh database; `run` gets them, and everything is stopped after. */
async function withInstances(
  env: Record<string, string>,
  run: (a: TestService, b: TestService, admin: (...argv: string[]) => Promise<string>) => Promise<
    void
  >,
) {
  const database = await freshDatabase(PG_FALLBACK_URL);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    TRUST_PROXY: "1",
    ...env,
    DATABASE_URL: database.url!,
  });
  const services: Service[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      services.push(
        await startService({ config, log: () => {}, startWorkers: false, maintenanceCacheMs: 0 }),
      );
    }
    const [a, b] = services.map((s) =>
      ({ fetch: (path: string, init?: RequestInit) => fetch(s.url + path, init) }) as TestService
    );
    const admin = async (...argv: string[]) => {
      const out: string[] = [];
      const status = await runAdmin(argv, {
        db: services[0].app.db,
        config,
        clock: () => new Date(),
        out: (line) => out.push(line),
        err: () => {},
      });
      assert.equal(status, 0, argv.join(" "));
      return out.at(-1) ?? "";
    };
    await run(a, b, admin);
  } finally {
    for (const service of services) await service.shutdown();
    await database.drop();
  }
}

test("limits: the ads limit per key holds across instances, with the shared count's headers", async () => {
  await withInstances({ RATE_LIMIT_KEY_PER_MINUTE: "6" }, async (a, b, admin) => {
    await admin("account", "create", "acme", "--name", "Acme");
    const key = await admin("key", "create", "acme", "--permissions", "ads:read");
    const headers = { authorization: `Bearer ${key}` };
    for (let i = 0; i < 6; i++) {
      const res = await (i % 2 ? b : a).fetch("/api/v1/whoami", { headers });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("x-ratelimit-remaining"), String(5 - i));
      assert.match(res.headers.get("ratelimit") ?? "", new RegExp(`^"per-key";r=${5 - i};t=`));
      await res.body?.cancel();
    }
    for (const instance of [a, b]) {
      const refused = await instance.fetch("/api/v1/ads", { headers });
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get("retry-after")) >= 1);
      assert.equal(refused.headers.get("x-ratelimit-remaining"), "0");
      assert.equal((await body<{ error: { code: string } }>(refused)).error.code, "RATE_LIMITED");
    }
    const invalid = await a.fetch("/api/v1/whoami", {
      headers: { authorization: `Bearer onda_ads_${"x".repeat(43)}` },
    });
    assert.equal(invalid.status, 401, "an invalid key is not counted, nor limited");
    await invalid.body?.cancel();
  });
});

test("limits: the per-user forms limit holds across instances", async () => {
  await withInstances({ RATE_LIMIT_USER_PER_MINUTE: "5" }, async (a, b) => {
    const user = await registerUser(a, { bearer: true }); // the token call counts once
    const call = (instance: TestService) =>
      instance.fetch("/api/v1/workspace", { headers: { authorization: `Bearer ${user.token}` } });
    for (let i = 0; i < 4; i++) {
      const res = await call(i % 2 ? a : b);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("x-ratelimit-remaining"), String(3 - i));
      await res.body?.cancel();
    }
    for (const instance of [a, b]) {
      const refused = await call(instance);
      assert.equal(refused.status, 429);
      await refused.body?.cancel();
    }
  });
});

test("limits: the public limit per address holds across instances, an IPv6 /64 counted once", async () => {
  await withInstances({ RATE_LIMIT_PUBLIC_PER_MINUTE: "4" }, async (a, b) => {
    const from = (instance: TestService, address: string) =>
      instance.fetch("/api/v1/public/q/nothing-here", {
        headers: { "x-forwarded-for": address },
      });
    // Four addresses of one /64, through both instances: one budget of four.
    for (let i = 0; i < 4; i++) {
      const res = await from(i % 2 ? b : a, `2001:db8:7:7::${i + 1}`);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    }
    const refused = await from(a, "2001:db8:7:7:ffff::1");
    assert.equal(refused.status, 429);
    await refused.body?.cancel();
    const otherPrefix = await from(b, "2001:db8:7:8::1");
    assert.equal(otherPrefix.status, 404, "another /64 has its own budget");
    await otherPrefix.body?.cancel();
  });
});

test("limits: RATE_LIMIT_SCOPE=instance counts in each instance's memory", async () => {
  await withInstances(
    { RATE_LIMIT_SCOPE: "instance", RATE_LIMIT_KEY_PER_MINUTE: "2" },
    async (a, b, admin) => {
      await admin("account", "create", "acme", "--name", "Acme");
      const key = await admin("key", "create", "acme", "--permissions", "ads:read");
      const statuses: number[] = [];
      for (const instance of [a, a, a, b, b, b]) {
        const res = await instance.fetch("/api/v1/whoami", {
          headers: { authorization: `Bearer ${key}` },
        });
        statuses.push(res.status);
        await res.body?.cancel();
      }
      assert.deepEqual(statuses, [200, 200, 429, 200, 200, 429]);
    },
  );
});
