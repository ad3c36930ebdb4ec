// The rules of ads-api.md §1-§8 and contract.md §2, one test (mostly a table) per rule,
// against a small fixture imported through the real admin commands.

import assert from "node:assert/strict";
import {
  admin,
  DAY,
  expectedCoverage,
  expectedOccurrences,
  type Fixture,
  grantTo,
  loadFixture,
  type Occ,
} from "./_fixture.ts";
import { body, startTestService, test } from "../_server.ts";
import {
  grantedBrandsSql,
  type Scope,
  scopedOccurrences,
  visibleSets,
} from "../../lib/ads/scope.ts";
import { createAdsCache } from "../../lib/ads/cache.ts";

const service = await startTestService();
const fx: Fixture = await loadFixture(service);
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

/** A fresh key, so each test has its own rate-limit window. */
async function keyFor(account: string, permissions = "ads:read,reports:read,coverage:read") {
  const out = await admin(service, "key", "create", account, "--permissions", permissions);
  return out[out.length - 1];
}

async function get(path: string, key: string | null, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...extra };
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await service.fetch(path, { headers });
  // deno-lint-ignore no-explicit-any
  return { status: res.status, headers: res.headers, json: await body<any>(res) };
}

const ENDPOINTS = ["/api/v1/whoami", "/api/v1/ads", "/api/v1/reports/summary", "/api/v1/coverage"];
const DATA_ENDPOINTS = ENDPOINTS.slice(1);
const acme = fx.grants.get("acme")!;

test("ads: every data response is compact JSON, exactly as JSON.stringify writes it", async () => {
  // The summary writes by_brand as text (routes/ads/reports.ts); nothing may differ from the
  // objects' own JSON, whichever path a request takes.
  const key = await keyFor("acme");
  const periods = [
    [acme.since + DAY - (acme.since % DAY), acme.since + 11 * DAY - (acme.since % DAY)],
    [acme.since + 5 * HOUR, acme.since + 9 * DAY + 7 * HOUR],
    [acme.since + 2 * HOUR, acme.since + 5 * HOUR],
  ];
  const filters = ["", `&station_id=${acme.stations[0]}`, `&brand_id=${acme.brands[0]}`];
  for (const path of DATA_ENDPOINTS) {
    for (const [since, until] of periods) {
      for (const filter of path.endsWith("coverage") ? filters.slice(0, 2) : filters) {
        const url = `${path}?since=${iso(since)}&until=${iso(until)}${filter}`;
        const res = await service.fetch(url, { headers: { authorization: `Bearer ${key}` } });
        const text = await res.text();
        assert.equal(res.status, 200, `${url}: ${text}`);
        assert.equal(text, JSON.stringify(JSON.parse(text)), url);
      }
    }
  }
});

test("summary: by_brand never uses the brands kept from a replaced grant", async () => {
  // The service keeps each grant's brand list by version: a summary after a new grant of other
  // brands and another period must count by that grant, not by the list kept from the old one.
  const beta = fx.grants.get("beta")!;
  const key = await keyFor("beta");
  const [since, until] = [beta.since + 6 * DAY, beta.since + 10 * DAY];
  const byBrand = async (grant: typeof beta) => {
    const res = await get(`/api/v1/reports/summary?since=${iso(since)}&until=${iso(until)}`, key);
    const counts = new Map<string, number>();
    for (const o of expectedOccurrences(fx, grant, since, until)) {
      for (const b of o.brand_ids) {
        if (grant.brands.includes(b)) counts.set(b, (counts.get(b) ?? 0) + 1);
      }
    }
    assert.deepEqual(
      res.json.data.by_brand.map((b: { brand_id: string; occurrences: number }) => [
        b.brand_id,
        b.occurrences,
      ]),
      [...counts].sort((a, b) => a[0] < b[0] ? -1 : 1),
    );
  };
  try {
    await byBrand(beta);
    await byBrand(beta); // now from the kept days
    const later = { ...beta, since, brands: beta.brands.slice(1) };
    await grantTo(service, "beta", later);
    await byBrand(later);
  } finally {
    await grantTo(service, "beta", beta);
  }
});

test("ads: missing, malformed, invalid or revoked key is 401 with WWW-Authenticate", async () => {
  const revoked = await keyFor("acme");
  const id = (await admin(service, "key", "list", "acme")).map((l) => l.split("\t"))
    .find((cols) => revoked.startsWith(cols[1]))![0];
  await admin(service, "key", "revoke", id);
  const valid = await keyFor("acme");
  const cases = [
    { name: "missing", headers: {} as Record<string, string> },
    { name: "basic scheme", headers: { authorization: `Basic ${btoa("a:b")}` } },
    { name: "empty bearer", headers: { authorization: "Bearer " } },
    { name: "wrong shape", headers: { authorization: "Bearer not-a-key" } },
    { name: "unknown key", headers: { authorization: `Bearer onda_ads_${"A".repeat(43)}` } },
    { name: "one char changed", headers: { authorization: `Bearer ${valid.slice(0, -1)}x` } },
    { name: "revoked", headers: { authorization: `Bearer ${revoked}` } },
  ];
  for (const path of ENDPOINTS) {
    for (const c of cases) {
      const res = await get(path, null, c.headers);
      assert.equal(res.status, 401, `${c.name} on ${path}`);
      assert.equal(res.json.error.code, "UNAUTHENTICATED");
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
      assert.equal(res.headers.get("x-ratelimit-limit"), null, "401s carry no limit headers");
    }
  }
});

test("ads: a key in the query string is 401 and never reaches a log line", async () => {
  const key = await keyFor("acme");
  for (const param of ["api_key", "key", "token", "access_token"]) {
    for (const path of ENDPOINTS) {
      // Even together with a valid header: the key in the URL is exposed and refused.
      const res = await get(`${path}?${param}=${key}`, key);
      assert.equal(res.status, 401, `${param} on ${path}`);
      assert.equal(res.json.error.code, "UNAUTHENTICATED");
      assert.ok(!JSON.stringify(res.json).includes(key));
    }
  }
  assert.ok(!JSON.stringify(service.logs).includes(key.slice(9)), "the key is in a log line");
  // Refused with 401, those requests did not count against the key's limit.
  const next = await get("/api/v1/whoami", key);
  assert.equal(next.headers.get("x-ratelimit-remaining"), "59");
});

test("ads: each route needs its permission (403), whoami only a valid key", async () => {
  const cases = [
    { permissions: "ads:read", allowed: ["/api/v1/whoami", "/api/v1/ads"] },
    { permissions: "reports:read", allowed: ["/api/v1/whoami", "/api/v1/reports/summary"] },
    { permissions: "coverage:read", allowed: ["/api/v1/whoami", "/api/v1/coverage"] },
    {
      permissions: "ads:read,coverage:read",
      allowed: ["/api/v1/whoami", "/api/v1/ads", "/api/v1/coverage"],
    },
  ];
  for (const c of cases) {
    const key = await keyFor("beta", c.permissions);
    for (const path of ENDPOINTS) {
      const res = await get(path, key);
      const allowed = c.allowed.includes(path);
      assert.equal(res.status, allowed ? 200 : 403, `${c.permissions} on ${path}`);
      if (!allowed) {
        assert.equal(res.json.error.code, "FORBIDDEN");
        assert.ok(res.headers.get("x-ratelimit-remaining"), "403 to a valid key has limit headers");
      }
    }
  }
});

test("ads: invalid filters are 422 naming the field", async () => {
  const key = await keyFor("acme");
  const cases = [
    { paths: DATA_ENDPOINTS, query: "since=2026-10-05T00:00:00", field: "since" },
    { paths: DATA_ENDPOINTS, query: "until=2026-10-05", field: "until" },
    { paths: DATA_ENDPOINTS, query: "since=yesterday", field: "since" },
    { paths: DATA_ENDPOINTS, query: "until=2026-02-30T00:00:00Z", field: "until" },
    {
      paths: DATA_ENDPOINTS,
      query: "since=2026-10-05T00:00:00Z&until=2026-10-05T00:00:00Z",
      field: "since",
    },
    {
      paths: DATA_ENDPOINTS,
      query: "since=2026-10-06T00:00:00Z&until=2026-10-05T00:00:00Z",
      field: "since",
    },
    {
      paths: DATA_ENDPOINTS,
      query: "since=2026-09-01T00:00:00Z&until=2026-10-02T00:00:00.001Z",
      field: "until",
    },
    { paths: DATA_ENDPOINTS, query: "station_id=bad%20id", field: "station_id" },
    { paths: DATA_ENDPOINTS, query: `station_id=${"x".repeat(65)}`, field: "station_id" },
    { paths: DATA_ENDPOINTS, query: "station_id=", field: "station_id" },
    { paths: DATA_ENDPOINTS, query: "colour=red", field: "colour" },
    { paths: DATA_ENDPOINTS, query: "station_id=st-1&station_id=st-2", field: "station_id" },
    { paths: ENDPOINTS.slice(1, 3), query: "brand_id=br%2F1", field: "brand_id" },
    { paths: ["/api/v1/ads"], query: "limit=0", field: "limit" },
    { paths: ["/api/v1/ads"], query: "limit=101", field: "limit" },
    { paths: ["/api/v1/ads"], query: "limit=ten", field: "limit" },
    { paths: ["/api/v1/ads"], query: "offset=-1", field: "offset" },
    { paths: ["/api/v1/ads"], query: "offset=100001", field: "offset" },
    { paths: ["/api/v1/reports/summary", "/api/v1/coverage"], query: "limit=10", field: "limit" },
    { paths: ["/api/v1/coverage"], query: "brand_id=br.1", field: "brand_id" },
    { paths: ["/api/v1/whoami"], query: "since=2026-10-05T00:00:00Z", field: "since" },
  ];
  for (const c of cases) {
    for (const path of c.paths) {
      const res = await get(`${path}?${c.query}`, key);
      assert.equal(res.status, 422, `${path}?${c.query}`);
      assert.equal(res.json.error.code, "UNPROCESSABLE");
      assert.equal(res.json.error.field, c.field, `${path}?${c.query}`);
    }
  }
  // The edges of each range are themselves valid.
  for (const query of ["limit=1", "limit=100", "offset=0", "offset=100000"]) {
    const res = await get(`/api/v1/ads?${query}`, key);
    assert.equal(res.status, 200, query);
    const [name, value] = query.split("=");
    assert.equal(res.json.meta[name], Number(value), query);
  }
  const thirtyOneDays = `since=2026-09-01T00:00:00Z&until=2026-10-02T00:00:00Z`;
  for (const path of DATA_ENDPOINTS) {
    assert.equal((await get(`${path}?${thirtyOneDays}`, key)).status, 200, path);
  }
});

test("ads: an id outside the scope and a nonexistent id are the same 404", async () => {
  const key = await keyFor("acme");
  const cases = [
    { paths: DATA_ENDPOINTS, param: "station_id", foreign: "st-4", missing: "st-999" },
    { paths: DATA_ENDPOINTS, param: "station_id", foreign: "st-6", missing: "nope" },
    // The longest id of the right shape is a 404, not a 422.
    {
      paths: DATA_ENDPOINTS,
      param: "station_id",
      foreign: "st-4",
      missing: "Az09._-".repeat(9) + "x",
    },
    { paths: ENDPOINTS.slice(1, 3), param: "brand_id", foreign: "br.5", missing: "br.999" },
    { paths: ENDPOINTS.slice(1, 3), param: "brand_id", foreign: "br.5", missing: "b".repeat(64) },
  ];
  for (const c of cases) {
    for (const path of c.paths) {
      const a = await get(`${path}?${c.param}=${c.foreign}`, key);
      const b = await get(`${path}?${c.param}=${c.missing}`, key);
      assert.equal(a.status, 404, `${path} ${c.foreign}`);
      assert.equal(b.status, 404, `${path} ${c.missing}`);
      assert.equal(a.json.error.code, "NOT_FOUND");
      delete a.json.error.trace_id;
      delete b.json.error.trace_id;
      assert.deepEqual(a.json, b.json);
      assert.equal(a.json.error.field, c.param);
    }
  }
  // The same id inside the scope is accepted.
  assert.equal((await get(`/api/v1/ads?station_id=st-1`, key)).status, 200);
});

test("ads: order of checks is 401, 403, 429, 422, 404", async () => {
  const bad = "station_id=st-4&limit=0";
  assert.equal((await get(`/api/v1/ads?${bad}`, "onda_ads_nope")).status, 401);
  const noPermission = await keyFor("acme", "coverage:read");
  assert.equal((await get(`/api/v1/ads?${bad}`, noPermission)).status, 403);
  const key = await keyFor("acme");
  const malformed = await get(`/api/v1/ads?${bad}`, key);
  assert.equal(malformed.status, 422);
  const missing = await get(`/api/v1/ads?station_id=st-4`, key);
  assert.equal(missing.status, 404);
  // Every answer to a valid key that passed its permission counts and says so.
  assert.equal(malformed.headers.get("x-ratelimit-remaining"), "59");
  assert.equal(missing.headers.get("x-ratelimit-remaining"), "58");
  assert.match(missing.headers.get("ratelimit") ?? "", /^"per-key";r=58;t=\d+$/);
  // Exhaust the limit, then a request that is also malformed.
  for (let i = 0; i < 58; i++) await get("/api/v1/whoami", key);
  const limited = await get(`/api/v1/ads?${bad}`, key);
  assert.equal(limited.status, 429);
  // The key without the permission exhausts its own limit on whoami (any valid key may call
  // it); a forbidden request is then still 403, not 429.
  for (let i = 0; i < 60; i++) await get("/api/v1/whoami", noPermission);
  assert.equal((await get("/api/v1/whoami", noPermission)).status, 429, "its limit is spent");
  const limitedForbidden = await get(`/api/v1/ads?${bad}`, noPermission);
  assert.equal(limitedForbidden.status, 403, "permission is checked before the limit");
});

test("ads: a brand_id the database cannot hold (NUL) is 422 with a key and 401 without", async () => {
  const key = await keyFor("acme");
  const forged = "onda_ads_" + "A".repeat(43);
  for (const path of DATA_ENDPOINTS.filter((p) => !p.endsWith("coverage"))) {
    for (const brand of ["%00", "br.1%00"]) {
      const withKey = await get(`${path}?brand_id=${brand}`, key);
      assert.equal(withKey.status, 422, `${path} ${brand}`);
      assert.equal(withKey.json.error.field, "brand_id");
      assert.equal((await get(`${path}?brand_id=${brand}`, forged)).status, 401, path);
    }
  }
  assert.equal((await get("/api/v1/whoami?brand_id=%00", forged)).status, 401);
});

test("ads: a request reads one version of the grant, never brands of a later one", async () => {
  // A grant replaced between a request's key lookup and its data query: the data query asks
  // for the version the lookup saw, and another version gives it no brands at all.
  const [{ version }] = await service.db.sql<{ version: string }>`
    select version::text from ads_grants where account_id = 'acme'`;
  const stale = { accountId: "acme", grantVersion: crypto.randomUUID() };
  const [row] = await service.db.sql<{ brands: string[] | null }>`
    select ${grantedBrandsSql(stale)} as brands`;
  assert.equal(row.brands, null, "another version reads no brands");
  const [fresh] = await service.db.sql<{ brands: string[] }>`
    select ${grantedBrandsSql({ accountId: "acme", grantVersion: version })} as brands`;
  assert.deepEqual(fresh.brands, [...acme.brands].sort());
  // And so the scoped occurrences, with or without a brand filter: the sets a version shows (as
  // the rule says through visibleSets), and what each row shows.
  const everySet = (await service.db.sql<{ id: number }>`select id from ads_brand_sets`)
    .map((row) => row.id);
  const rows = async (grantVersion: string, brandId: string | null, sets?: number[]) => {
    const scope: Scope = {
      requested: { since: new Date(acme.since), until: new Date(acme.until) },
      period: { since: new Date(acme.since), until: new Date(acme.until) },
      stations: acme.stations,
      stationId: null,
      brandId,
      accountId: "acme",
      grantVersion,
      empty: false,
    };
    const visible = visibleSets(service.db.sql, createAdsCache(1 << 20), scope);
    await visible.resolve([everySet]);
    const shownSets = everySet.filter((set) => visible.shown(set));
    const read = await service.db.sql<{ id: string; brand_set: number }>`
      select v.id, v.brand_set from (${
      scopedOccurrences(scope, new Date(acme.since), new Date(acme.until), sets ?? shownSets)
    }) v order by v.ad_started_at, v.id`;
    return read.map((row) => ({ id: row.id, brand_ids: visible.shown(row.brand_set) }));
  };
  assert.equal((await rows(stale.grantVersion, null)).length, 0, "a stale version");
  const all = await rows(version, null);
  assert.equal(
    (await rows(stale.grantVersion, null, everySet)).length,
    0,
    "a stale version gives no row even with sets it does not show",
  );
  assert.deepEqual(
    all.map((r) => r.id),
    expectedOccurrences(fx, acme, acme.since, acme.until).map((o) => o.id),
  );
  const brand = all[0].brand_ids![0];
  assert.equal((await rows(stale.grantVersion, brand, everySet)).length, 0, "nor with a brand");
  const withBrand = all.filter((r) => r.brand_ids!.includes(brand));
  assert.ok(withBrand.length < all.length, "the fixture has rows without that brand");
  assert.deepEqual(
    (await rows(version, brand)).map((r) => r.id),
    withBrand.map((r) => r.id),
    "the brand filter keeps exactly the rows carrying the brand",
  );
});

test("ads: rate limit is 60 per rolling minute per key, with headers and Retry-After", async () => {
  const key = await keyFor("gamma");
  const other = await keyFor("gamma");
  let last: Awaited<ReturnType<typeof get>> | null = null;
  for (let i = 1; i <= 60; i++) {
    last = await get("/api/v1/whoami", key);
    assert.equal(last.status, 200, `request ${i}`);
    assert.equal(last.headers.get("x-ratelimit-limit"), "60");
    assert.equal(last.headers.get("x-ratelimit-remaining"), String(60 - i));
    assert.equal(last.headers.get("ratelimit-policy"), '"per-key";q=60;w=60');
    assert.match(last.headers.get("ratelimit") ?? "", new RegExp(`^"per-key";r=${60 - i};t=\\d+$`));
    const reset = Number(last.headers.get("x-ratelimit-reset"));
    assert.ok(
      reset * 1000 > service.clock().getTime() &&
        reset * 1000 <= service.clock().getTime() + 61_000,
    );
    // RateLimit's t is the seconds until that reset, not another count or an instant.
    const t = Number(/;t=(\d+)$/.exec(last.headers.get("ratelimit") ?? "")?.[1]);
    const toReset = reset - Math.floor(service.clock().getTime() / 1000);
    assert.ok(t >= 1 && t <= 60 && Math.abs(t - toReset) <= 1, `t=${t}, reset in ${toReset} s`);
  }
  const refused = await get("/api/v1/ads", key);
  assert.equal(refused.status, 429);
  assert.equal(refused.json.error.code, "RATE_LIMITED");
  const retry = Number(refused.headers.get("retry-after"));
  assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
  assert.equal(refused.headers.get("x-ratelimit-remaining"), "0");
  // Per key: another key of the same account is unaffected.
  assert.equal((await get("/api/v1/whoami", other)).status, 200);
  // Rolling window: once the oldest requests are a minute old, requests pass again.
  service.clock.advance(61_000);
  assert.equal((await get("/api/v1/whoami", key)).status, 200);
  service.clock.advance(-61_000);
});

test("ads: revocation takes effect on the very next request", async () => {
  const key = await keyFor("beta");
  assert.equal((await get("/api/v1/ads", key)).status, 200);
  const id = (await admin(service, "key", "list", "beta")).map((l) => l.split("\t"))
    .find((cols) => key.startsWith(cols[1]) && cols[4] === "-")![0];
  await admin(service, "key", "revoke", id);
  const res = await get("/api/v1/ads", key);
  assert.equal(res.status, 401);
  assert.equal(res.json.error.code, "UNAUTHENTICATED");
});

test("ads: until is exclusive and since inclusive", async () => {
  const key = await keyFor("beta");
  const beta = fx.grants.get("beta")!;
  const edge = expectedOccurrences(fx, beta, beta.since, beta.until)[10];
  const before = await get(
    `/api/v1/ads?since=${iso(edge.start - DAY)}&until=${iso(edge.start)}&limit=100`,
    key,
  );
  const from = await get(
    `/api/v1/ads?since=${iso(edge.start)}&until=${iso(edge.start + DAY)}&limit=100`,
    key,
  );
  assert.equal(before.status, 200);
  assert.ok(!before.json.data.some((o: { id: string }) => o.id === edge.id), "until included");
  assert.ok(from.json.data.some((o: { id: string }) => o.id === edge.id), "since excluded");
  const summary = await get(
    `/api/v1/reports/summary?since=${iso(edge.start - DAY)}&until=${iso(edge.start)}`,
    key,
  );
  assert.equal(
    summary.json.data.totals.occurrences,
    expectedOccurrences(fx, beta, edge.start - DAY, edge.start).length,
  );
});

test("ads: default period is the 7 days before now, within the grant", async () => {
  const key = await keyFor("beta");
  const beta = fx.grants.get("beta")!;
  for (const path of DATA_ENDPOINTS) {
    const res = await get(path, key);
    assert.equal(res.status, 200);
    const { requested_period, period } = res.json.meta;
    const until = Date.parse(requested_period.until);
    assert.ok(Math.abs(until - service.clock().getTime()) < 5000, "until defaults to now");
    assert.equal(Date.parse(requested_period.since), until - 7 * DAY);
    assert.equal(Date.parse(period.since), Math.max(until - 7 * DAY, beta.since));
  }
  const res = await get("/api/v1/ads?limit=100", await keyFor("beta"));
  const since = Date.parse(res.json.meta.requested_period.since);
  const until = Date.parse(res.json.meta.requested_period.until);
  assert.deepEqual(
    res.json.data.map((o: { id: string }) => o.id),
    expectedOccurrences(fx, beta, since, until).slice(0, 100).map((o) => o.id),
  );
  // Only until given: since = until - 7 days.
  const onlyUntil = await get(`/api/v1/ads?until=${iso(beta.since + 10 * DAY)}`, key);
  assert.equal(
    onlyUntil.json.meta.requested_period.since,
    iso(beta.since + 3 * DAY).replace(".000", ""),
  );
});

test("ads: one request covers at most 31 days", async () => {
  const key = await keyFor("beta");
  const since = fx.grants.get("beta")!.since;
  const ok = await get(`/api/v1/ads?since=${iso(since)}&until=${iso(since + 31 * DAY)}`, key);
  assert.equal(ok.status, 200);
  for (const path of DATA_ENDPOINTS) {
    const res = await get(`${path}?since=${iso(since)}&until=${iso(since + 31 * DAY + 1)}`, key);
    assert.equal(res.status, 422, path);
    assert.equal(res.json.error.field, "until");
  }
  // since alone, more than 31 days before now.
  const old = await get(`/api/v1/ads?since=${iso(service.clock().getTime() - 40 * DAY)}`, key);
  assert.equal(old.status, 422);
  assert.equal(old.json.error.field, "until");
});

test("ads: the grant clamps the period and meta shows requested and effective", async () => {
  const key = await keyFor("acme");
  const since = acme.since - 3 * DAY;
  const until = acme.since + 2 * DAY;
  for (const path of DATA_ENDPOINTS) {
    const res = await get(`${path}?since=${iso(since)}&until=${iso(until)}`, key);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.meta.requested_period, {
      since: iso(since).replace(".000", ""),
      until: iso(until).replace(".000", ""),
    });
    assert.deepEqual(res.json.meta.period, {
      since: iso(acme.since).replace(".000", ""),
      until: iso(until).replace(".000", ""),
    });
  }
  const res = await get(`/api/v1/ads?since=${iso(since)}&until=${iso(until)}&limit=100`, key);
  const expected = expectedOccurrences(fx, acme, since, until);
  assert.ok(expected.length > 0);
  assert.equal(res.json.meta.total, expected.length);
  for (const o of res.json.data) assert.ok(Date.parse(o.ad_started_at) >= acme.since);
  // The upper edge too.
  const late = await get(
    `/api/v1/ads?since=${iso(acme.until - DAY)}&until=${iso(acme.until + 5 * DAY)}&limit=100`,
    key,
  );
  for (const o of late.json.data) assert.ok(Date.parse(o.ad_started_at) < acme.until);
  assert.equal(late.json.meta.period.until, iso(acme.until).replace(".000", ""));
});

test("ads: a period outside the grant gives an empty result, never data outside", async () => {
  const key = await keyFor("gamma");
  const gamma = fx.grants.get("gamma")!;
  const q = `since=${iso(gamma.since - 8 * DAY)}&until=${iso(gamma.since)}`;
  const ads = await get(`/api/v1/ads?${q}`, key);
  assert.equal(ads.status, 200);
  assert.deepEqual(ads.json.data, []);
  assert.equal(ads.json.meta.total, 0);
  assert.equal(ads.json.meta.period, null);
  assert.ok(ads.json.meta.requested_period);
  const summary = await get(`/api/v1/reports/summary?${q}`, key);
  assert.equal(summary.json.data.totals.occurrences, 0);
  assert.equal(summary.json.meta.period, null);
  const coverage = await get(`/api/v1/coverage?${q}`, key);
  assert.deepEqual(coverage.json.data, []);
  assert.equal(coverage.json.meta.period, null);
});

test("ads: only confirmed occurrences of approved snapshots are served", async () => {
  const key = await keyFor("beta");
  const beta = fx.grants.get("beta")!;
  const hidden = new Set(
    fx.occurrences.filter((o) =>
      o.review_state !== "confirmed" || !fx.snapshots.get(o.snapshot)!.approved
    ).map((o) => o.id),
  );
  let seen = 0;
  for (let t = beta.since; t < BASE_END(); t += 10 * DAY) {
    for (let offset = 0;; offset += 100) {
      const res = await get(
        `/api/v1/ads?since=${iso(t)}&until=${iso(t + 10 * DAY)}&limit=100&offset=${offset}`,
        key,
      );
      for (const o of res.json.data) {
        assert.ok(!hidden.has(o.id), `${o.id} is not servable`);
        assert.equal(o.review_state, "confirmed");
        seen++;
      }
      if (!res.json.meta.has_more) break;
    }
  }
  assert.equal(seen, expectedOccurrences(fx, beta, beta.since, BASE_END()).length);
  assert.ok(seen > 0);
});

function BASE_END() {
  return Math.max(...fx.occurrences.map((o) => o.start)) + 1;
}

test("ads: brands lists only granted brands; no granted brand means invisible", async () => {
  const key = await keyFor("acme");
  const q = `since=${iso(acme.since)}&until=${iso(acme.until)}`;
  const ids = new Set<string>();
  for (let offset = 0;; offset += 100) {
    const res = await get(`/api/v1/ads?${q}&limit=100&offset=${offset}`, key);
    for (const o of res.json.data) {
      ids.add(o.id);
      assert.ok(o.brands.length > 0);
      for (const b of o.brands) assert.ok(acme.brands.includes(b.id), `brand ${b.id} shown`);
      const source = fx.occurrences.find((x) => x.id === o.id)!;
      assert.deepEqual(
        o.brands.map((b: { id: string }) => b.id),
        source.brand_ids.filter((b) => acme.brands.includes(b)).sort(),
      );
      assert.equal(o.brands[0].name, fx.brands.get(o.brands[0].id));
    }
    if (!res.json.meta.has_more) break;
  }
  const invisible = fx.occurrences.filter((o) =>
    acme.stations.includes(o.station_id) && o.start >= acme.since && o.start < acme.until &&
    !o.brand_ids.some((b) => acme.brands.includes(b))
  );
  assert.ok(invisible.length > 0, "the fixture has occurrences without a granted brand");
  for (const o of invisible) assert.ok(!ids.has(o.id));
  const mixed = fx.occurrences.filter((o) =>
    ids.has(o.id) && o.brand_ids.some((b) => !acme.brands.includes(b))
  );
  assert.ok(mixed.length > 0, "the fixture has occurrences with one granted brand of two");
});

test("ads: ordered by ad_started_at then id, paging neither skips nor repeats", async () => {
  const key = await keyFor("beta");
  const beta = fx.grants.get("beta")!;
  const since = beta.since + 3 * DAY;
  const until = since + 12 * DAY;
  const expected = expectedOccurrences(fx, beta, since, until);
  /** Every id of the pages of 7, checking each page's meta against the expected rows. */
  const pages = async (since: number, until: number, filter: string, expected: Occ[]) => {
    const got: string[] = [];
    for (let offset = 0;; offset += 7) {
      const res = await get(
        `/api/v1/ads?since=${iso(since)}&until=${iso(until)}&limit=7&offset=${offset}${filter}`,
        key,
      );
      got.push(...res.json.data.map((o: { id: string }) => o.id));
      assert.equal(res.json.meta.total, expected.length);
      assert.equal(res.json.meta.limit, 7);
      assert.equal(res.json.meta.offset, offset);
      assert.equal(res.json.meta.has_more, offset + 7 < expected.length);
      if (!res.json.meta.has_more) return got;
    }
  };
  assert.deepEqual(await pages(since, until, "", expected), expected.map((o) => o.id));
  // A station's page is read from another index (the station's, by time only: rows starting
  // together are sorted by id in the query), so page through one that has such a tie too.
  const tie =
    beta.stations.flatMap((station) =>
      expectedOccurrences(fx, beta, beta.since, beta.since + 31 * DAY)
        .filter((o, i, rows) =>
          o.station_id === station &&
          rows.some((p, j) => j !== i && p.station_id === station && p.start === o.start)
        )
        .map((o) => ({ station, start: o.start }))
    )[0];
  assert.ok(tie, "the fixture has two occurrences starting together at a granted station");
  const tieSince = Math.max(beta.since, tie.start - 5 * DAY);
  const station = expectedOccurrences(fx, beta, tieSince, tieSince + 12 * DAY)
    .filter((o) => o.station_id === tie.station);
  assert.deepEqual(
    await pages(tieSince, tieSince + 12 * DAY, `&station_id=${tie.station}`, station),
    station.map((o) => o.id),
  );
  // A page past the end is empty and still tells the total, with or without a filter.
  for (const filter of ["", `&station_id=${beta.stations[0]}`]) {
    const past = await get(
      `/api/v1/ads?since=${iso(since)}&until=${iso(until)}&offset=${expected.length}${filter}`,
      key,
    );
    assert.deepEqual(past.json.data, []);
    assert.equal(
      past.json.meta.total,
      filter ? expected.filter((o) => o.station_id === beta.stations[0]).length : expected.length,
    );
    assert.equal(past.json.meta.has_more, false);
  }
});

test("ads: limit defaults to 50 and offset to 0", async () => {
  const key = await keyFor("beta");
  const beta = fx.grants.get("beta")!;
  const since = beta.since;
  const until = since + 31 * DAY;
  const expected = expectedOccurrences(fx, beta, since, until);
  assert.ok(expected.length > 50, `fixture needs more than 50 rows, has ${expected.length}`);
  const res = await get(`/api/v1/ads?since=${iso(since)}&until=${iso(until)}`, key);
  assert.equal(res.json.meta.limit, 50);
  assert.equal(res.json.meta.offset, 0);
  assert.deepEqual(
    res.json.data.map((o: { id: string }) => o.id),
    expected.slice(0, 50).map((o) => o.id),
  );
});

test("ads: each envelope carries the fields contract.md names, and summary no paging", async () => {
  const key = await keyFor("beta");
  const keys = (o: object) => Object.keys(o).sort();
  const ads = await get("/api/v1/ads", key);
  assert.deepEqual(keys(ads.json), ["data", "meta"]);
  const paging = ["has_more", "limit", "offset", "total"];
  const common = ["notice", "period", "requested_period", "snapshot_exported_at"];
  assert.deepEqual(keys(ads.json.meta), [...paging, ...common].sort());
  const summary = await get("/api/v1/reports/summary", key);
  assert.deepEqual(keys(summary.json.data), ["by_brand", "by_day", "by_station", "totals"]);
  assert.deepEqual(keys(summary.json.data.totals), [
    "duration_seconds",
    "human_confirmed_duration_seconds",
    "occurrences",
  ]);
  assert.deepEqual(keys(summary.json.meta), common, "as /ads without paging");
  const coverage = await get("/api/v1/coverage", key);
  for (const field of ["period", "limits", "provenance", "notice"]) {
    assert.ok(field in coverage.json.meta, `coverage meta.${field}`);
  }
  for (const field of paging) assert.ok(!(field in coverage.json.meta), `no ${field}`);
});

test("ads: occurrence fields are UTC with Z and the duration is end minus start", async () => {
  const key = await keyFor("beta");
  const res = await get("/api/v1/ads?limit=100", key);
  assert.ok(res.json.data.length > 0);
  for (const o of res.json.data) {
    const source = fx.occurrences.find((x) => x.id === o.id)!;
    assert.match(o.ad_started_at, /Z$/);
    assert.match(o.ad_ended_at, /Z$/);
    assert.equal(Date.parse(o.ad_started_at), source.start);
    assert.equal(Date.parse(o.ad_ended_at), source.end);
    assert.equal(o.duration_seconds, (source.end - source.start) / 1000);
    assert.equal(o.duration_precision, source.duration_precision);
    assert.equal(o.station_name, fx.stations.get(o.station_id));
    assert.deepEqual(Object.keys(o).sort(), [
      "ad_ended_at",
      "ad_started_at",
      "brands",
      "duration_precision",
      "duration_seconds",
      "id",
      "review_state",
      "station_id",
      "station_name",
    ]);
  }
});

test("ads: snapshot_exported_at is the newest approved snapshot in the account's scope", async () => {
  for (const account of ["acme", "beta", "gamma"]) {
    const grant = fx.grants.get(account)!;
    const key = await keyFor(account);
    const contributing = expectedOccurrences(fx, grant, grant.since, grant.until)
      .map((o) => fx.snapshots.get(o.snapshot)!.exportedAt);
    const expected = contributing.length
      ? iso(Math.max(...contributing)).replace(".000", "")
      : null;
    for (const path of DATA_ENDPOINTS) {
      const res = await get(path, key);
      assert.equal(res.json.meta.snapshot_exported_at, expected, `${account} ${path}`);
    }
  }
});

test("ads: an account without a grant sees nothing, and no snapshot", async () => {
  // ads-api.md §1: an account without permissions does not get all sources or brands.
  await admin(service, "account", "create", "bare", "--name", "Account bare");
  const key = await keyFor("bare");
  const whoami = await get("/api/v1/whoami", key);
  assert.equal(whoami.status, 200);
  assert.deepEqual(whoami.json.data.scope, { stations: [], brands: [], period: null });
  const everything = `since=${iso(acme.since)}&until=${iso(acme.since + 31 * DAY)}`;
  for (const query of ["", everything]) {
    const ads = await get(`/api/v1/ads?${query}`, key);
    assert.equal(ads.status, 200);
    assert.deepEqual(ads.json.data, []);
    assert.equal(ads.json.meta.total, 0);
    const summary = await get(`/api/v1/reports/summary?${query}`, key);
    assert.equal(summary.status, 200);
    assert.equal(summary.json.data.totals.occurrences, 0);
    assert.deepEqual(summary.json.data.by_station, []);
    assert.deepEqual(summary.json.data.by_brand, []);
    const coverage = await get(`/api/v1/coverage?${query}`, key);
    assert.equal(coverage.status, 200);
    assert.deepEqual(coverage.json.data, []);
    for (const res of [ads, summary, coverage]) {
      assert.equal(res.json.meta.period, null);
      assert.equal(res.json.meta.snapshot_exported_at, null);
    }
  }
  // Ids that exist in another account's scope are the same 404 as for anyone outside it.
  for (const [name, id] of [["station_id", acme.stations[0]], ["brand_id", acme.brands[0]]]) {
    const res = await get(`/api/v1/ads?${name}=${id}`, key);
    assert.equal(res.status, 404, `${name}=${id}`);
  }
});

test("ads: the notice says an empty result does not prove that no ad aired", async () => {
  const key = await keyFor("gamma");
  for (const path of DATA_ENDPOINTS) {
    const res = await get(`${path}?since=2020-01-01T00:00:00Z&until=2020-01-02T00:00:00Z`, key);
    assert.equal(res.status, 200);
    assert.match(res.json.meta.notice, /does not prove/);
  }
  const coverage = await get("/api/v1/coverage", key);
  assert.match(coverage.json.meta.notice, /only captures linked to the data granted/);
  assert.match(coverage.json.meta.notice, /does not measure continuous operation/);
});

test("whoami: account, key, permissions, scope and limits", async () => {
  const created = await admin(
    service,
    "key",
    "create",
    "acme",
    "--permissions",
    "ads:read",
    "--label",
    "whoami probe",
  );
  const key = created[created.length - 1];
  const res = await get("/api/v1/whoami", key);
  assert.equal(res.status, 200);
  const data = res.json.data;
  assert.deepEqual(data.account, { id: "acme", name: "Account acme" });
  assert.ok(key.startsWith(data.key.prefix) && data.key.prefix.length < 20);
  // The key as `key list` shows it: id, prefix, label, created_at.
  const listed = (await admin(service, "key", "list", "acme")).map((l) => l.split("\t"))
    .find((cols) => cols[0] === data.key.id)!;
  assert.ok(listed, `key ${data.key.id} is listed`);
  assert.deepEqual(
    [listed[1], listed[2], Date.parse(listed[3])],
    [data.key.prefix, "whoami probe", Date.parse(data.key.created_at)],
  );
  assert.match(data.key.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  assert.deepEqual(data.permissions, ["ads:read"]);
  assert.deepEqual(
    data.scope.stations,
    acme.stations.map((id) => ({ id, name: fx.stations.get(id) })),
  );
  assert.deepEqual(data.scope.brands, acme.brands.map((id) => ({ id, name: fx.brands.get(id) })));
  assert.deepEqual(data.scope.period, {
    since: iso(acme.since).replace(".000", ""),
    until: iso(acme.until).replace(".000", ""),
  });
  assert.deepEqual(data.limits, {
    requests_per_minute: 60,
    default_period_days: 7,
    max_period_days: 31,
    limit: { min: 1, max: 100, default: 50 },
    offset: { min: 0, max: 100000, default: 0 },
  });
  assert.ok(!JSON.stringify(res.json).includes(key.slice(13)), "the key is never echoed");
});

test("summary: totals equal the sum over /ads pages for the same filters", async () => {
  const key = await keyFor("beta");
  const beta = fx.grants.get("beta")!;
  const filters = [
    `since=${iso(beta.since + 1)}&until=${iso(beta.since + 20 * DAY - 7)}`,
    `since=${iso(beta.since + 4 * DAY + 3 * HOUR)}&until=${
      iso(beta.since + 9 * DAY)
    }&station_id=st-3`,
    `since=${iso(beta.since)}&until=${iso(beta.since + 25 * DAY)}&brand_id=br.5`,
    `since=${iso(beta.since + 2 * DAY + 1)}&until=${iso(beta.since + 2 * DAY + 20 * HOUR)}`,
  ];
  for (const q of filters) {
    let occurrences = 0;
    let duration = 0;
    let human = 0;
    const perBrand = new Map<string, number>();
    for (let offset = 0;; offset += 100) {
      const res = await get(`/api/v1/ads?${q}&limit=100&offset=${offset}`, key);
      for (const o of res.json.data) {
        occurrences++;
        duration += o.duration_seconds;
        if (o.duration_precision === "human_confirmed") human += o.duration_seconds;
        for (const b of o.brands) perBrand.set(b.id, (perBrand.get(b.id) ?? 0) + 1);
      }
      if (!res.json.meta.has_more) break;
    }
    const summary = await get(`/api/v1/reports/summary?${q}`, key);
    assert.equal(summary.status, 200);
    const totals = summary.json.data.totals;
    assert.equal(totals.occurrences, occurrences, q);
    assert.ok(Math.abs(totals.duration_seconds - duration) < 1e-6, q);
    assert.ok(Math.abs(totals.human_confirmed_duration_seconds - human) < 1e-6, q);
    assert.deepEqual(
      Object.fromEntries(
        summary.json.data.by_brand.map((b: { brand_id: string; occurrences: number }) => [
          b.brand_id,
          b.occurrences,
        ]),
      ),
      Object.fromEntries([...perBrand].sort()),
    );
  }
});

test("summary: an occurrence with two granted brands counts once in totals, once per brand", async () => {
  const key = await keyFor("beta");
  const beta = fx.grants.get("beta")!;
  const both = expectedOccurrences(fx, beta, beta.since, beta.until)
    .find((o) => o.brand_ids.filter((b) => beta.brands.includes(b)).length === 2)!;
  assert.ok(both, "the fixture has such an occurrence");
  const q = `since=${iso(both.start)}&until=${iso(both.start + 1)}&station_id=${both.station_id}`;
  const res = await get(`/api/v1/reports/summary?${q}`, key);
  const same = expectedOccurrences(fx, beta, both.start, both.start + 1, both.station_id);
  assert.equal(res.json.data.totals.occurrences, same.length);
  assert.equal(res.json.data.by_brand.length, 2);
  for (const b of res.json.data.by_brand) assert.equal(b.occurrences, 1);
  assert.equal(
    res.json.data.by_station.find((s: { station_id: string }) => s.station_id === both.station_id)
      .occurrences,
    1,
  );
});

test("coverage: only granted captures, clipped to the period, with gaps per station", async () => {
  const key = await keyFor("acme");
  const periods = [
    [acme.since - 2 * DAY, acme.since + 5 * DAY + 17 * 60_000],
    [acme.since + 3 * DAY + 1234, acme.since + 4 * DAY],
    [acme.until - 3 * DAY, acme.until + DAY],
  ];
  for (const [since, until] of periods) {
    const res = await get(`/api/v1/coverage?since=${iso(since)}&until=${iso(until)}`, key);
    assert.equal(res.status, 200);
    const from = Math.max(since, acme.since);
    const to = Math.min(until, acme.until);
    assert.deepEqual(res.json.data.map((s: { station_id: string }) => s.station_id), acme.stations);
    for (const row of res.json.data) {
      const want = expectedCoverage(fx, row.station_id, from, to, 300_000);
      assert.equal(row.captures, want.captures, row.station_id);
      assert.ok(Math.abs(row.captured_seconds - want.captured_seconds) < 0.002, row.station_id);
      assert.equal(row.period_seconds, (to - from) / 1000);
      assert.ok(Math.abs(row.coverage_ratio - want.captured_seconds * 1000 / (to - from)) < 1e-5);
      assert.equal(row.first_capture_at && Date.parse(row.first_capture_at), want.first);
      assert.equal(row.last_capture_at && Date.parse(row.last_capture_at), want.last);
      assert.deepEqual(
        row.gaps.map((
          g: { since: string; until: string },
        ) => [Date.parse(g.since), Date.parse(g.until)]),
        want.gaps,
        row.station_id,
      );
      assert.ok(want.captures > 0);
    }
    const used = new Set(
      fx.captures.filter((c) =>
        acme.stations.includes(c.station_id) && fx.snapshots.get(c.snapshot)!.approved &&
        c.start < to && c.end > from
      ).map((c) => c.snapshot),
    );
    assert.deepEqual(
      res.json.meta.provenance.map((p: { snapshot_id: string }) => p.snapshot_id),
      [...used].sort(),
    );
    assert.equal(res.json.meta.limits.gap_threshold_seconds, 300);
  }
  const one = await get(`/api/v1/coverage?station_id=st-2`, key);
  assert.deepEqual(one.json.data.map((s: { station_id: string }) => s.station_id), ["st-2"]);
});

test("summary: daily pre-aggregates with raw edges equal the raw answer", async () => {
  const beta = fx.grants.get("beta")!;
  const key = await keyFor("beta");
  const periods = [
    [beta.since, beta.since + 20 * DAY], // whole days only
    [beta.since + 1, beta.since + 20 * DAY - 1], // both edges partial
    [beta.since + 5 * HOUR, beta.since + 6 * HOUR], // inside one day
    [beta.since + 23 * HOUR, beta.since + 25 * HOUR], // across one midnight, no whole day
    [beta.since + 2 * DAY, beta.since + 9 * DAY + 7 * HOUR + 4321],
  ];
  const sum = (list: Occ[]) => list.reduce((t, o) => t + (o.end - o.start), 0) / 1000;
  const human = (list: Occ[]) =>
    sum(list.filter((o) => o.duration_precision === "human_confirmed"));
  const ms = (seconds: number) => Math.round(seconds * 1000);
  /** Every figure of a breakdown entry, durations in whole milliseconds. */
  const figures = (
    f: { occurrences: number; duration_seconds: number; human_confirmed_duration_seconds: number },
  ) => [f.occurrences, ms(f.duration_seconds), ms(f.human_confirmed_duration_seconds)];
  const expected = (list: Occ[]) => [list.length, ms(sum(list)), ms(human(list))];
  // Without filters and with a station filter, whole days from the figure index, edges raw.
  for (const station of [undefined, beta.stations[0]]) {
    for (const [since, until] of periods) {
      const filter = station ? `&station_id=${station}` : "";
      const res = await get(
        `/api/v1/reports/summary?since=${iso(since)}&until=${iso(until)}${filter}`,
        key,
      );
      const rows = expectedOccurrences(fx, beta, since, until, station);
      const what = `${iso(since)} to ${iso(until)}${filter}`;
      const data = res.json.data;
      assert.deepEqual(figures(data.totals), expected(rows), what);
      for (const s of data.by_station) {
        assert.deepEqual(
          figures(s),
          expected(rows.filter((o) => o.station_id === s.station_id)),
          `${what} ${s.station_id}`,
        );
      }
      for (const d of data.by_day) {
        const day = rows.filter((o) => new Date(o.start).toISOString().slice(0, 10) === d.date);
        assert.equal(d.occurrences, day.length, d.date);
        assert.ok(Math.abs(d.duration_seconds - sum(day)) < 1e-6);
      }
      assert.equal(
        data.by_day.reduce((t: number, d: { occurrences: number }) => t + d.occurrences, 0),
        rows.length,
      );
      // by_brand: every figure of every granted brand that occurs, in brand id order.
      const perBrand = new Map<string, Occ[]>();
      for (const o of rows) {
        for (const b of o.brand_ids.filter((b) => beta.brands.includes(b))) {
          perBrand.set(b, [...perBrand.get(b) ?? [], o]);
        }
      }
      assert.deepEqual(
        data.by_brand.map((b: Parameters<typeof figures>[0] & { brand_id: string }) => [
          b.brand_id,
          ...figures(b),
        ]),
        [...perBrand].sort((a, b) => a[0] < b[0] ? -1 : 1).map(([id, list]) => [
          id,
          ...expected(list),
        ]),
        `by_brand ${what}`,
      );
    }
  }
});

test("summary: approving a snapshot or replacing a grant updates every figure", async () => {
  // Runs last: it approves snap-b and changes beta's grant.
  const key = await keyFor("beta");
  const summaryMatches = async (grant: typeof acme) => {
    for (
      const [since, until] of [[grant.since, grant.since + 20 * DAY], [
        grant.since + 7,
        grant.since + 9 * DAY,
      ]]
    ) {
      const res = await get(`/api/v1/reports/summary?since=${iso(since)}&until=${iso(until)}`, key);
      const rows = expectedOccurrences(fx, grant, since, until);
      assert.equal(res.json.data.totals.occurrences, rows.length);
      const perBrand = new Map<string, number>();
      for (const o of rows) {
        for (const b of o.brand_ids) {
          if (grant.brands.includes(b)) perBrand.set(b, (perBrand.get(b) ?? 0) + 1);
        }
      }
      assert.deepEqual(
        res.json.data.by_brand.map((
          b: { brand_id: string; occurrences: number },
        ) => [b.brand_id, b.occurrences]),
        [...perBrand].sort((a, b) => a[0] < b[0] ? -1 : 1),
      );
      const ads = await get(`/api/v1/ads?since=${iso(since)}&until=${iso(until)}`, key);
      assert.equal(ads.json.meta.total, rows.length);
      // Every page lists the new scope's occurrences and their granted brands, no others.
      const listed: [string, string[]][] = [];
      for (let offset = 0;; offset += 100) {
        const page = await get(
          `/api/v1/ads?since=${iso(since)}&until=${iso(until)}&limit=100&offset=${offset}`,
          key,
        );
        for (const o of page.json.data as { id: string; brands: { id: string }[] }[]) {
          listed.push([o.id, o.brands.map((b) => b.id)]);
        }
        if (!page.json.meta.has_more) break;
      }
      assert.deepEqual(
        listed,
        rows.map((o) => [o.id, o.brand_ids.filter((b) => grant.brands.includes(b)).sort()]),
      );
      // snapshot_exported_at must follow approvals and new grants.
      const contributing = expectedOccurrences(fx, grant, grant.since, grant.until)
        .map((o) => fx.snapshots.get(o.snapshot)!.exportedAt);
      const newest = contributing.length
        ? iso(Math.max(...contributing)).replace(".000", "")
        : null;
      assert.equal(res.json.meta.snapshot_exported_at, newest);
      assert.equal(ads.json.meta.snapshot_exported_at, newest);
    }
  };
  const beta = fx.grants.get("beta")!;
  await summaryMatches(beta);
  await admin(service, "snapshot", "approve", "snap-b");
  fx.snapshots.get("snap-b")!.approved = true;
  await summaryMatches(beta);
  const narrower = { ...beta, stations: ["st-4", "st-5"], brands: ["br.5", "br.6", "br.7"] };
  await grantTo(service, "beta", narrower);
  await summaryMatches(narrower);
  // Wider again, with other brands and a period shifted by a day and a quarter.
  const wider = {
    ...beta,
    stations: ["st-2", "st-3", "st-4", "st-5", "st-6"],
    brands: ["br.1", "br.2", "br.5", "br.8"],
    since: beta.since + DAY + 6 * HOUR,
    until: beta.until - 3 * DAY,
  };
  await grantTo(service, "beta", wider);
  await summaryMatches(wider);
});

test("ads: close the service", async () => {
  await service.close();
});
