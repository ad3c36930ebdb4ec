// The cache of the capture and figure indexes (lib/ads/versioned_cache.ts): one load per version,
// shared by the requests that wait for it, never older than the version a request read, and
// retried after a failure. The database is a stand-in whose version the test sets; loads finish
// when the test says so.

import assert from "node:assert/strict";
import { createVersionedCache } from "../../lib/ads/versioned_cache.ts";

interface PendingLoad {
  /** The version the database held when the load read it. */
  version: string;
  finish(): void;
  fail(): void;
}

function harness() {
  let version = "v1";
  const loads: PendingLoad[] = [];
  const cache = createVersionedCache(() =>
    new Promise<{ version: string }>((resolve, reject) => {
      const seen = version;
      loads.push({
        version: seen,
        finish: () => resolve({ version: seen }),
        fail: () => reject(new Error("connection lost")),
      });
    })
  );
  return {
    // A request reads the version (with its key), then asks for the data at it.
    cache: { current: () => cache.at(version) },
    loads,
    setVersion: (v: string) => version = v,
  };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("versioned cache: requests at one version share one load and then none", async () => {
  const { cache, loads } = harness();
  const a = cache.current();
  const b = cache.current();
  await settle();
  assert.equal(loads.length, 1);
  loads[0].finish();
  assert.equal((await a).version, "v1");
  assert.equal(await b, await a);
  assert.equal((await cache.current()).version, "v1");
  assert.equal(loads.length, 1);
});

Deno.test("versioned cache: a new version is loaded by the next request", async () => {
  const { cache, loads, setVersion } = harness();
  const first = cache.current();
  await settle();
  loads[0].finish();
  await first;
  setVersion("v2");
  const second = cache.current();
  await settle();
  assert.equal(loads.length, 2);
  loads[1].finish();
  assert.equal((await second).version, "v2");
});

Deno.test("versioned cache: a request never gets a load older than the version it read", async () => {
  const { cache, loads, setVersion } = harness();
  const early = cache.current();
  await settle();
  // The data changes while the first load is under way (it read v1): a request reading v2 must
  // not be served that load, but one started after it read v2.
  setVersion("v2");
  const late = cache.current();
  await settle();
  loads[0].finish();
  await settle();
  assert.equal(loads.length, 2);
  assert.equal(loads[1].version, "v2");
  loads[1].finish();
  assert.equal((await early).version, "v1");
  assert.equal((await late).version, "v2");
});

Deno.test("versioned cache: a failed load fails its requests and the next one loads again", async () => {
  const { cache, loads } = harness();
  const failing = cache.current();
  await settle();
  loads[0].fail();
  await assert.rejects(failing, /connection lost/);
  const next = cache.current();
  await settle();
  assert.equal(loads.length, 2);
  loads[1].finish();
  assert.equal((await next).version, "v1");
});
