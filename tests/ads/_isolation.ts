// Tenant isolation, randomised: thousands of random requests by two dozen accounts with
// overlapping and disjoint grants (periods with mid-day edges, grants of ids not imported, of no
// brand that occurs); every answer, every total and aggregate, is compared with a reference
// computed here from the fixture's records.

import assert from "node:assert/strict";
import {
  addAccount,
  BASE,
  DAY,
  expectedCoverage,
  expectedOccurrences,
  type Fixture,
  type Grant,
  loadFixture,
  type Occ,
  seeded,
} from "./_fixture.ts";
import { body, startTestService, test } from "../_server.ts";
import type { AdsApp } from "../../lib/ads/wing.ts";

const SEED = Number(Deno.env.get("ADS_ISOLATION_SEED") ?? 20261122);
const REQUESTS = 2000;
const ACCOUNTS = 24;

/**
 * The randomised isolation check, run by isolation_test.ts with the default cache and by
 * isolation_evicting_test.ts with one so small that every request evicts what it read.
 */
export async function isolationTests(name: string, env: Record<string, string>) {
  const service = await startTestService({ env: { RATE_LIMIT_KEY_PER_MINUTE: "1000000", ...env } });
  const fx: Fixture = await loadFixture(service, 11);
  const cache = (service.app as AdsApp).ads.cache;
  const iso = (ms: number) => new Date(ms).toISOString();
  const HOUR = 3_600_000;

  /**
   * More accounts beside the fixture's three: random subsets of the stations and brands (so grants
   * overlap, nest and miss each other), now and then an id never imported or only one brand, and
   * periods whose edges fall at any hour of the data's days.
   */
  async function addAccounts(count: number) {
    const rand = seeded(SEED ^ 0x5eed);
    const stations = [...fx.stations.keys()];
    const brands = [...fx.brands.keys()];
    const subset = (ids: string[], extra: string) => {
      const picked = ids.filter(() => rand.next() < 0.45);
      if (rand.next() < 0.15) picked.push(extra);
      return [...new Set(picked.length ? picked : [rand.pick(ids)])].sort();
    };
    for (let i = fx.grants.size; i < count; i++) {
      const account = `acct-${i}`;
      const since = BASE - 2 * DAY + rand.int(18 * 24) * HOUR + rand.int(60) * 60_000;
      const grant: Grant = {
        stations: subset(stations, "st-404"),
        brands: rand.next() < 0.1 ? [rand.pick(brands)] : subset(brands, "br.404"),
        since,
        until: since + HOUR + rand.int(26 * 24) * HOUR,
      };
      fx.grants.set(account, grant);
      fx.keys.set(account, await addAccount(service, account, grant));
    }
  }
  await addAccounts(ACCOUNTS);

  /** Occurrences, duration and human-confirmed duration of a list, durations in whole ms. */
  function figures(list: Occ[]) {
    let durationMs = 0;
    let humanMs = 0;
    for (const o of list) {
      durationMs += o.end - o.start;
      if (o.duration_precision === "human_confirmed") humanMs += o.end - o.start;
    }
    return [list.length, durationMs, humanMs];
  }

  /** The same of a summary entry. */
  function served(
    f: { occurrences: number; duration_seconds: number; human_confirmed_duration_seconds?: number },
  ) {
    const ms = (seconds: number | undefined) =>
      seconds === undefined ? undefined : Math.round(seconds * 1000);
    return [f.occurrences, ms(f.duration_seconds), ms(f.human_confirmed_duration_seconds)]
      .filter((x) => x !== undefined);
  }

  /** exported_at of the newest approved snapshot with a visible occurrence in the whole grant. */
  function newestSnapshot(grant: Grant): string | null {
    const exported = expectedOccurrences(fx, grant, grant.since, grant.until)
      .map((o) => fx.snapshots.get(o.snapshot)!.exportedAt);
    return exported.length ? iso(Math.max(...exported)).replace(".000Z", "Z") : null;
  }

  test(`ads: tenant isolation holds for ${REQUESTS} random requests (seed ${SEED})${name}`, async () => {
    const evictions: number[] = [];
    const rand = seeded(SEED);
    const accounts = [...fx.grants.keys()];
    // Ids of no account, and ids some grants name but that were never imported.
    const stationIds = [...fx.stations.keys(), "st-999", "st-404"];
    const brandIds = [...fx.brands.keys(), "br.999", "br.404"];
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
      const evicted = cache.evictions();
      const res = await service.fetch(`/api/v1/${path}?${params}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      // deno-lint-ignore no-explicit-any
      const json = await body<any>(res);
      const text = JSON.stringify(json);
      // A request whose period meets the grant reads blocks of the data.
      if (res.status === 200 && json.meta?.period) evictions.push(cache.evictions() - evicted);
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
        const known = (ids: string[], names: Map<string, string>) =>
          ids.filter((id) => names.has(id));
        assert.deepEqual(
          json.data.scope.stations.map((s: { id: string }) => s.id),
          known(grant.stations, fx.stations),
        );
        assert.deepEqual(
          json.data.scope.brands.map((b: { id: string }) => b.id),
          known(grant.brands, fx.brands),
        );
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
      const inScope = (id: string | undefined, granted: string[], known: Map<string, string>) =>
        id === undefined || (granted.includes(id) && known.has(id));
      if (
        !inScope(station, grant.stations, fx.stations) || !inScope(brand, grant.brands, fx.brands)
      ) {
        assert.equal(res.status, 404, label);
        assert.equal(json.error.code, "NOT_FOUND");
        counts.notFound++;
        continue;
      }
      assert.equal(res.status, 200, `${label}: ${text.slice(0, 300)}`);
      counts.ok++;
      assert.equal(json.meta.snapshot_exported_at, newestSnapshot(grant), `${label}: snapshot`);
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
          json.data.map((o: { id: string; brands: { id: string }[] }) => [
            o.id,
            o.brands.map((b) => b.id),
          ]),
          expected.slice(offset, offset + limit).map((o) => [
            o.id,
            o.brand_ids.filter((b) => grant.brands.includes(b)).sort(),
          ]),
          label,
        );
        for (const o of json.data) {
          assert.ok(grant.stations.includes(o.station_id), label);
          for (const b of o.brands) assert.ok(grant.brands.includes(b.id), label);
        }
      } else if (path === "reports/summary") {
        assert.deepEqual(served(json.data.totals), figures(expected), `${label}: totals`);
        const stations = station ? [station] : grant.stations.filter((id) => fx.stations.has(id));
        assert.deepEqual(
          json.data.by_station.map((s: { station_id: string }) => s.station_id),
          from < to ? stations : [],
          `${label}: by_station lists`,
        );
        for (const s of json.data.by_station) {
          const own = expected.filter((o) => o.station_id === s.station_id);
          assert.deepEqual(served(s), figures(own), `${label}: by_station ${s.station_id}`);
        }
        const perBrand = new Map<string, Occ[]>();
        for (const o of expected) {
          for (const b of o.brand_ids) {
            if (grant.brands.includes(b)) perBrand.set(b, [...(perBrand.get(b) ?? []), o]);
          }
        }
        assert.deepEqual(
          json.data.by_brand.map((b: { brand_id: string }) => [b.brand_id, ...served(b as never)]),
          [...perBrand].sort((a, b) => a[0] < b[0] ? -1 : 1).map(([id, l]) => [id, ...figures(l)]),
          `${label}: by_brand`,
        );
        for (const d of json.data.by_day) {
          const day = Date.parse(d.date + "T00:00:00Z");
          const own = expected.filter((o) => o.start >= day && o.start < day + DAY);
          assert.deepEqual(served(d), figures(own).slice(0, 2), `${label}: by_day ${d.date}`);
        }
        const days = json.data.by_day.reduce(
          (n: number, d: { occurrences: number }) => n + d.occurrences,
          0,
        );
        assert.equal(days, expected.length, `${label}: by_day adds up`);
      } else {
        if (from >= to) {
          assert.deepEqual(json.data, [], label);
          continue;
        }
        const stations = station ? [station] : grant.stations.filter((id) => fx.stations.has(id));
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
    if (env.ADS_CACHE_MB) {
      assert.ok(evictions.every((n) => n > 0), "every request that read data evicted entries");
    }
  });

  test(`ads isolation${name}: close the service`, async () => {
    await service.close();
  });
}
