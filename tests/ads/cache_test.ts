// What an instance keeps of the ads data is a cache of the database: a grant changed by SQL alone
// shows at once, a restarted instance answers at once and exactly, and the cache keeps to its
// bound (ADS_CACHE_MB).

import assert from "node:assert/strict";
import {
  DAY,
  expectedOccurrences,
  type Fixture,
  type Grant,
  loadFixture,
  type Occ,
} from "./_fixture.ts";
import { body, startTestService, test } from "../_server.ts";
import { startService } from "../../lib/server.ts";
import { allRoutes } from "../../routes/index.ts";
import { aroundQueries, type Db, type Sql } from "../../lib/db/db.ts";
import { compile } from "../../lib/db/template.ts";
import { type AdsApp, atOneDataVersion } from "../../lib/ads/wing.ts";
import { DataMoved, monthOf, readBlocks } from "../../lib/ads/blocks.ts";
import { createAdsCache } from "../../lib/ads/cache.ts";
import type { AdsPrincipal } from "../../lib/ads/apikey.ts";
import { ApiError } from "../../lib/errors.ts";

const CACHE_MB = 0.25;
const service = await startTestService({
  env: { RATE_LIMIT_KEY_PER_MINUTE: "1000000", ADS_CACHE_MB: String(CACHE_MB) },
});
const fx: Fixture = await loadFixture(service, 5);
const iso = (ms: number) => new Date(ms).toISOString();
// deno-lint-ignore no-explicit-any
type Json = any;

async function get(base: string, path: string, key: string): Promise<Json> {
  const res = await fetch(base + path, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(30_000),
  });
  const json = await body<Json>(res);
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** What the three data routes answer for the grant's first 20 days, figures and ids. */
async function answers(base: string, account: string) {
  const grant = fx.grants.get(account)!;
  const key = fx.keys.get(account)!;
  const period = `since=${iso(grant.since)}&until=${iso(grant.since + 20 * DAY)}`;
  const pages = [];
  for (let offset = 0;; offset += 100) {
    const page = await get(base, `/api/v1/ads?${period}&limit=100&offset=${offset}`, key);
    pages.push(page);
    if (!page.meta.has_more) break;
  }
  return {
    total: pages[0].meta.total,
    ids: pages.flatMap((p) => p.data.map((o: Json) => [o.id, o.brands.map((b: Json) => b.id)])),
    summary: (await get(base, `/api/v1/reports/summary?${period}`, key)).data,
    coverage: (await get(base, `/api/v1/coverage?${period}`, key)).data,
  };
}

function figures(list: Occ[]) {
  let ms = 0;
  for (const o of list) ms += o.end - o.start;
  return [list.length, ms / 1000];
}

test("ads: a grant changed by SQL alone changes pages, totals and summaries alike", async () => {
  const account = "acme";
  const grant = fx.grants.get(account)!;
  const key = fx.keys.get(account)!;
  // Read once, so that what the instance keeps of the old grant would answer if it were used.
  await answers(service.url, account);
  const changed: Grant = { ...grant, brands: grant.brands.slice(0, 1) };
  await service.db.sql`
    update ads_grants set brand_ids = ${changed.brands}::text[] where account_id = ${account}`;
  const period = `since=${iso(grant.since)}&until=${iso(grant.since + 20 * DAY)}`;
  const expected = expectedOccurrences(fx, changed, grant.since, grant.since + 20 * DAY);
  assert.ok(
    expected.length < expectedOccurrences(fx, grant, grant.since, grant.since + 20 * DAY).length,
    "the change hides occurrences",
  );
  const now = await answers(service.url, account);
  assert.equal(now.total, expected.length, "total");
  assert.deepEqual(
    now.ids,
    expected.map((o) => [o.id, o.brand_ids.filter((b) => changed.brands.includes(b)).sort()]),
    "pages",
  );
  assert.deepEqual(
    [now.summary.totals.occurrences, now.summary.totals.duration_seconds],
    figures(expected),
    "summary totals",
  );
  assert.deepEqual(now.summary.by_brand.map((b: Json) => b.brand_id), changed.brands, "by_brand");
  const who = await get(service.url, "/api/v1/whoami", key);
  assert.deepEqual(who.data.scope.brands.map((b: Json) => b.id), changed.brands, "whoami");
  // And back: the figures follow again.
  await service.db.sql`
    update ads_grants set brand_ids = ${grant.brands}::text[] where account_id = ${account}`;
  const back = await get(service.url, `/api/v1/reports/summary?${period}`, key);
  assert.equal(
    back.data.totals.occurrences,
    expectedOccurrences(fx, grant, grant.since, grant.since + 20 * DAY).length,
  );
});

test("ads: a restarted instance answers at once and exactly as before, loading nothing at start", async () => {
  const before = await answers(service.url, "beta");
  // A second instance on the same database, as after a restart: its cache starts empty.
  const shared: Db = { ...service.db, close: () => Promise.resolve() };
  const started = performance.now();
  const second = await startService({
    config: service.app.config,
    db: shared,
    clock: service.clock,
    log: () => {},
    routes: allRoutes,
    startWorkers: false,
  });
  try {
    assert.equal((second.app as AdsApp).ads.cache.held(), 0, "nothing loaded at start");
    const key = fx.keys.get("beta")!;
    const res = await fetch(`${second.url}/api/v1/ads`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await res.body?.cancel();
    assert.equal(res.status, 200);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 2, `first /ads answered ${seconds.toFixed(2)} s after the start`);
    assert.deepEqual(await answers(second.url, "beta"), before);
  } finally {
    await second.shutdown();
  }
});

test("coverage: a window asked again is answered from its kept runs, without reading capture blocks", async () => {
  let captureReads = 0;
  const counting = (sql: Sql): Sql =>
    aroundQueries(sql, (query, strings, values) => {
      if (/ads_capture_parts/.test(compile(strings, values).text)) captureReads++;
      return query(sql);
    });
  const shared: Db = {
    ...service.db,
    sql: counting(service.db.sql),
    keptPlans: counting(service.db.keptPlans),
    close: () => Promise.resolve(),
  };
  const second = await startService({
    config: { ...service.app.config, adsCacheMb: 16 },
    db: shared,
    clock: service.clock,
    log: () => {},
    routes: allRoutes,
    startWorkers: false,
  });
  // Capture blocks read from the cache count too: kept runs need none.
  const { cache } = (second.app as AdsApp).ads;
  const cached = cache.get;
  cache.get = <T>(key: string) => {
    if (key.startsWith("captures|")) captureReads++;
    return cached<T>(key);
  };
  try {
    const grant = fx.grants.get("acme")!;
    const path = `/api/v1/coverage?since=${iso(grant.since)}&until=${iso(grant.since + 20 * DAY)}`;
    const first = await get(second.url, path, fx.keys.get("acme")!);
    assert.ok(captureReads > 0, "the first answer read capture blocks");
    assert.ok(first.data.some((s: Json) => s.captures > 0), "captures counted");
    captureReads = 0;
    assert.deepEqual(await get(second.url, path, fx.keys.get("acme")!), first);
    assert.equal(captureReads, 0, "the second read none");
  } finally {
    await second.shutdown();
  }
});

test("ads: the cache never holds more than ADS_CACHE_MB", () => {
  const cache = (service.app as AdsApp).ads.cache;
  assert.ok(cache.held() > 0, "it holds something after the requests above");
  assert.ok(cache.held() <= CACHE_MB * 1024 * 1024, `${cache.held()} bytes held`);
});

test("ads: data that moves under a request is read again at the new version, else 503", async () => {
  const principal = { dataVersion: "v1" } as AdsPrincipal;
  const seen: string[] = [];
  // Moved once: the whole read runs again at the version the database gave, never a mix.
  const answer = await atOneDataVersion(principal, (version) => {
    seen.push(version);
    if (version === "v1") throw new DataMoved("v2");
    return Promise.resolve(`figures at ${version}`);
  });
  assert.deepEqual([answer, seen], ["figures at v2", ["v1", "v2"]]);
  // Moving on every read: 503 UNAVAILABLE with Retry-After, no figures at all.
  let reads = 0;
  const refused = await atOneDataVersion(principal, (version) => {
    reads++;
    throw new DataMoved(`${version}+`);
  }).catch((err) => err);
  assert.ok(refused instanceof ApiError);
  assert.deepEqual([refused.status, refused.code], [503, "UNAVAILABLE"]);
  assert.ok(Number(refused.headers["Retry-After"]) >= 1);
  assert.ok(reads > 1 && reads < 10, `${reads} reads`);
});

test("ads: blocks read many per request, in several statements, equal blocks read one by one", async () => {
  // More keys than one statement reads (PARTS_PER_STATEMENT), of every kind, some without parts.
  const [{ version }] = await service.db.sql<{ version: string }>`
    select version::text from ads_data_version`;
  const stations = [...fx.stations.keys(), "st-none"];
  const base = Math.floor(fx.grants.get("acme")!.since / DAY) - 1;
  const units = {
    records: Array.from({ length: 23 }, (_, d) => base + d),
    cells: [monthOf(base * DAY) - 1, monthOf(base * DAY), monthOf(base * DAY) + 1],
    captures: [monthOf(base * DAY) - 1, monthOf(base * DAY), monthOf(base * DAY) + 1],
  };
  for (const kind of ["records", "cells", "captures"] as const) {
    const keys = stations.flatMap((station) => units[kind].map((unit) => ({ station, unit })));
    assert.ok(keys.length > 16, `${kind}: ${keys.length} keys`);
    const together = await readBlocks(service.db.sql, createAdsCache(1 << 24), kind, version, keys);
    const alone = [];
    for (const key of keys) {
      alone.push(
        ...await readBlocks(service.db.sql, createAdsCache(1 << 24), kind, version, [key]),
      );
    }
    assert.deepEqual(together, alone, kind);
    assert.ok(together.some((block) => Object.values(block)[0].length > 0), `${kind}: data`);
  }
});

test("ads: kept blocks whose snapshots did not change are kept across a new data version, in every statement", async () => {
  const version = async () =>
    (await service.db.sql<{ version: string }>`select version::text from ads_data_version`)[0]
      .version;
  const base = Math.floor(fx.grants.get("acme")!.since / DAY);
  const keys = [...fx.stations.keys()].flatMap((station) =>
    Array.from({ length: 9 }, (_, d) => ({ station, unit: base + d }))
  );
  assert.ok(keys.length > 32, `${keys.length} keys: three statements at least`);
  const cache = createAdsCache(1 << 24);
  const before = await readBlocks(service.db.sql, cache, "records", await version(), keys);
  assert.ok(before.filter((block) => block.starts.length > 0).length > 16, "blocks with data");
  // A new data version that changes none of these parts (what an approval elsewhere does).
  await service.db.sql`update ads_data_version set version = gen_random_uuid()`;
  const after = await readBlocks(service.db.sql, cache, "records", await version(), keys);
  after.forEach((block, i) => {
    if (before[i].starts.length) assert.equal(block, before[i], `key ${i}: the block kept`);
  });
  // And what is kept is what a new read gives.
  const fresh = await readBlocks(
    service.db.sql,
    createAdsCache(1 << 24),
    "records",
    await version(),
    keys,
  );
  assert.deepEqual(after, fresh);
});

test("ads cache: keeps to its bound, lets entries not read go first, oldest first, keeps an entry in use", () => {
  const cache = createAdsCache(1000);
  for (let i = 0; i < 10; i++) cache.set(`e${i}`, i, 100);
  assert.equal(cache.held(), 1000);
  // e0 is the oldest put, but used: e1 goes first.
  assert.equal(cache.get("e0"), 0);
  cache.set("e10", 10, 100);
  assert.deepEqual([cache.get("e1"), cache.get("e0"), cache.held()], [undefined, 0, 1000]);
  // An entry used between every put stays however many are put; the others go in put order.
  for (let i = 11; i < 40; i++) {
    assert.equal(cache.get("e0"), 0, `e0 after e${i - 1}`);
    cache.set(`e${i}`, i, 100);
    assert.ok(cache.held() <= 1000);
  }
  const kept = Array.from({ length: 40 }, (_, i) => `e${i}`).filter((k) =>
    cache.get(k) !== undefined
  );
  assert.deepEqual(kept, ["e0", ...Array.from({ length: 9 }, (_, i) => `e${31 + i}`)]);
  // Entries of any size: one read is spared, even when the entry put needs more than half.
  const sized = createAdsCache(10_000);
  for (let i = 0; i < 20; i++) sized.set(`s${i}`, i, 10);
  sized.set("blockA", "A", 4000);
  for (let i = 0; i < 5; i++) sized.set(`t${i}`, i, 10);
  assert.equal(sized.get("blockA"), "A");
  sized.set("blockB", "B", 6000);
  assert.deepEqual([sized.get("blockA"), sized.get("blockB"), sized.get("t4"), sized.held()], [
    "A",
    "B",
    undefined,
    10_000,
  ]);
  // The entry put stays even when all the others were read: they are spared once, then let go.
  sized.set("blockC", "C", 7000);
  assert.deepEqual([sized.get("blockC"), sized.held() <= 10_000], ["C", true]);
  // A value larger than the whole bound is not kept, and nothing is let go for it.
  const evictions = cache.evictions();
  cache.set("huge", "x", 1001);
  assert.deepEqual([cache.get("huge"), cache.held(), cache.evictions()], [
    undefined,
    1000,
    evictions + 1,
  ]);
});

test("ads cache: close the service", async () => {
  await service.close();
});
