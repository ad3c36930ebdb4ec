// Tenant isolation, randomised: thousands of random requests by accounts with overlapping and
// disjoint grants; every answer is compared with a reference computed here from the fixture.

import assert from "node:assert/strict";
import {
  BASE,
  DAY,
  expectedCoverage,
  expectedOccurrences,
  type Fixture,
  loadFixture,
  seeded,
} from "./_ads_fixture.ts";
import { body, startTestService, test } from "./_server.ts";

const SEED = Number(Deno.env.get("ADS_ISOLATION_SEED") ?? 20261122);
const REQUESTS = 1200;

const service = await startTestService({ env: { RATE_LIMIT_KEY_PER_MINUTE: "1000000" } });
const fx: Fixture = await loadFixture(service, 11);
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

test(`ads: tenant isolation holds for ${REQUESTS} random requests (seed ${SEED})`, async () => {
  const rand = seeded(SEED);
  const accounts = [...fx.grants.keys()];
  const stationIds = [...fx.stations.keys(), "st-999"];
  const brandIds = [...fx.brands.keys(), "br.999"];
  const counts = { ok: 0, notFound: 0, unprocessable: 0 };
  for (let i = 0; i < REQUESTS; i++) {
    const account = rand.pick(accounts);
    const grant = fx.grants.get(account)!;
    const key = fx.keys.get(account)!;
    const path = rand.pick([
      "whoami",
      "ads",
      "reports/summary",
      "coverage",
      "ads",
      "reports/summary",
    ]);
    // Periods straddle the grant's edges more often than chance would.
    const anchor = rand.pick([grant.since, grant.until, BASE + rand.int(22) * DAY]);
    const since = anchor - rand.int(72) * HOUR - rand.int(3600) * 1000 - rand.int(1000);
    const until = since + 1 + rand.int(33 * 24) * HOUR + rand.int(3600_000);
    const params = new URLSearchParams();
    if (path !== "whoami") {
      if (rand.next() < 0.9) params.set("since", iso(since));
      if (rand.next() < 0.9) params.set("until", iso(until));
      if (rand.next() < 0.3) params.set("station_id", rand.pick(stationIds));
      if (path !== "coverage" && rand.next() < 0.3) params.set("brand_id", rand.pick(brandIds));
      if (path === "ads") {
        params.set("limit", String(1 + rand.int(100)));
        params.set("offset", String(rand.int(4) === 0 ? rand.int(200) : 0));
      }
    }
    const label = `#${i} ${account} /${path}?${params}`;
    const res = await service.fetch(`/api/v1/${path}?${params}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    // deno-lint-ignore no-explicit-any
    const json = await body<any>(res);
    const text = JSON.stringify(json);
    // Nothing of another scope, whatever the status: no foreign station or brand id at all.
    for (const s of fx.stations.keys()) {
      if (!grant.stations.includes(s) && params.get("station_id") !== s) {
        assert.ok(!text.includes(`"${s}"`), `${label}: foreign station ${s}`);
      }
    }
    for (const b of fx.brands.keys()) {
      if (!grant.brands.includes(b) && params.get("brand_id") !== b) {
        assert.ok(!text.includes(`"${b}"`), `${label}: foreign brand ${b}`);
      }
    }
    if (path === "whoami") {
      assert.equal(res.status, 200, label);
      assert.deepEqual(json.data.scope.stations.map((s: { id: string }) => s.id), grant.stations);
      assert.deepEqual(json.data.scope.brands.map((b: { id: string }) => b.id), grant.brands);
      counts.ok++;
      continue;
    }

    // A default until is "now" on the server: read it back from meta when the server answered.
    const now = json.meta?.requested_period
      ? Date.parse(json.meta.requested_period.until)
      : service.clock().getTime();
    const reqUntil = params.has("until") ? Date.parse(params.get("until")!) : now;
    const reqSince = params.has("since") ? Date.parse(params.get("since")!) : reqUntil - 7 * DAY;
    if (reqSince >= reqUntil || reqUntil - reqSince > 31 * DAY) {
      assert.equal(res.status, 422, label);
      counts.unprocessable++;
      continue;
    }
    const station = params.get("station_id") ?? undefined;
    const brand = params.get("brand_id") ?? undefined;
    if (
      (station && !grant.stations.includes(station)) || (brand && !grant.brands.includes(brand))
    ) {
      assert.equal(res.status, 404, label);
      assert.equal(json.error.code, "NOT_FOUND");
      counts.notFound++;
      continue;
    }
    assert.equal(res.status, 200, `${label}: ${text.slice(0, 300)}`);
    counts.ok++;
    const from = Math.max(reqSince, grant.since);
    const to = Math.min(reqUntil, grant.until);
    const expected = from < to
      ? expectedOccurrences(fx, grant, reqSince, reqUntil, station, brand)
      : [];
    if (path === "ads") {
      const limit = Number(params.get("limit"));
      const offset = Number(params.get("offset"));
      assert.equal(json.meta.total, expected.length, label);
      assert.deepEqual(
        json.data.map((o: { id: string }) => o.id),
        expected.slice(offset, offset + limit).map((o) => o.id),
        label,
      );
      for (const o of json.data) {
        assert.ok(grant.stations.includes(o.station_id), label);
        for (const b of o.brands) assert.ok(grant.brands.includes(b.id), label);
      }
    } else if (path === "reports/summary") {
      const totals = json.data.totals;
      const seconds = (list: typeof expected) =>
        list.reduce((t, o) => t + (o.end - o.start), 0) / 1000;
      assert.equal(totals.occurrences, expected.length, label);
      assert.ok(Math.abs(totals.duration_seconds - seconds(expected)) < 1e-6, label);
      const human = expected.filter((o) => o.duration_precision === "human_confirmed");
      assert.ok(Math.abs(totals.human_confirmed_duration_seconds - seconds(human)) < 1e-6);
      for (const s of json.data.by_station) {
        assert.ok(grant.stations.includes(s.station_id), label);
        assert.equal(s.occurrences, expected.filter((o) => o.station_id === s.station_id).length);
      }
      const perBrand = new Map<string, number>();
      for (const o of expected) {
        for (const b of o.brand_ids) {
          if (grant.brands.includes(b)) perBrand.set(b, (perBrand.get(b) ?? 0) + 1);
        }
      }
      assert.deepEqual(
        json.data.by_brand.map((b: { brand_id: string; occurrences: number }) => [
          b.brand_id,
          b.occurrences,
        ]),
        [...perBrand].sort((a, b) => a[0] < b[0] ? -1 : 1),
        label,
      );
    } else {
      if (from >= to) {
        assert.deepEqual(json.data, [], label);
        continue;
      }
      const stations = station ? [station] : grant.stations;
      assert.deepEqual(json.data.map((s: { station_id: string }) => s.station_id), stations);
      for (const row of json.data) {
        const want = expectedCoverage(fx, row.station_id, from, to, 300_000);
        assert.equal(row.captures, want.captures, label);
        assert.ok(Math.abs(row.captured_seconds - want.captured_seconds) < 0.002, label);
        assert.equal(row.gaps.length, want.gaps.length, label);
      }
    }
  }
  // The random mix really exercised every branch.
  assert.ok(
    counts.ok > REQUESTS / 2 && counts.notFound > 50 && counts.unprocessable > 20,
    JSON.stringify(counts),
  );
});

test("ads isolation: close the service", async () => {
  await service.close();
});
