// The summary's by_brand (contract.md §2): every granted brand that occurs, once, in brand id
// order (by character code, as the OpenAPI document says; by_station too), an occurrence with two
// granted brands once under each, names written as JSON writes them. A window over two months and
// partial first and last days, so that each month's brands and the edges' are merged, with ids
// whose character-code order is not their alphabetical one and names that JSON must escape.

import assert from "node:assert/strict";
import { addAccount, DAY, importLines, NOW } from "./_fixture.ts";
import { body, startTestService, test } from "../_server.ts";

const service = await startTestService();
service.clock.set(NOW);
const iso = (ms: number) => new Date(ms).toISOString();

const BRANDS = [
  ["br.9", 'Quote " and \\ backslash'],
  ["br.10", "Line\u2028separator\ttab"],
  ["Zeta", "Émile 😀"],
  ["alpha", "</script>"],
  ["E-mile", "plain"],
  ["_hidden", "not granted"],
];
const GRANTED = BRANDS.map(([id]) => id).filter((id) => id !== "_hidden");
// Two months before NOW, from the 10th of the month before at 06:00 to 28 days later at 18:00.
const monthBefore = new Date(NOW);
monthBefore.setUTCMonth(monthBefore.getUTCMonth() - 1, 10);
const since = Date.UTC(monthBefore.getUTCFullYear(), monthBefore.getUTCMonth(), 10, 6);
const until = since + 28 * DAY + 12 * 3_600_000;

// Every 7 hours from a day before the window to a day after it, brand sets in turn.
const SETS = [["br.9"], ["br.10", "Zeta"], ["alpha"], ["E-mile", "_hidden"], ["_hidden"], ["Zeta"]];
const occurrences = Array.from({ length: Math.floor((until - since + 2 * DAY) / 25_200_000) }, (
  _,
  i,
) => ({
  start: since - DAY + i * 25_200_000 + 1000 * (i % 60),
  seconds: 10 + (i % 50),
  human: i % 3 === 0,
  brands: SETS[i % SETS.length],
}));

test("summary: by_brand lists each granted brand once, in id order, merged over months and edges", async () => {
  const lines: unknown[] = [
    { type: "snapshot", id: "brands", exported_at: iso(NOW.getTime() - DAY) },
    { type: "station", id: "st-b", name: "Radio B" },
    { type: "station", id: "ST-z", name: "Radio Z, silent" },
    ...BRANDS.map(([id, name]) => ({ type: "brand", id, name })),
    ...occurrences.map((o) => ({
      type: "occurrence",
      id: crypto.randomUUID(),
      station_id: "st-b",
      ad_started_at: iso(o.start),
      ad_ended_at: iso(o.start + o.seconds * 1000),
      duration_precision: o.human ? "human_confirmed" : "detected",
      review_state: "confirmed",
      brand_ids: o.brands,
    })),
  ];
  const imported = await importLines(service, lines, true);
  assert.equal(imported.status, 0, imported.err.join("\n"));
  const key = await addAccount(service, "brands", {
    stations: ["st-b", "ST-z"],
    brands: GRANTED,
    since: since - 10 * DAY,
    until: until + 10 * DAY,
  });
  const res = await service.fetch(
    `/api/v1/reports/summary?since=${iso(since)}&until=${iso(until)}`,
    { headers: { authorization: `Bearer ${key}` } },
  );
  // deno-lint-ignore no-explicit-any
  const json = await body<any>(res);
  assert.equal(res.status, 200, JSON.stringify(json));

  const inside = occurrences.filter((o) => o.start >= since && o.start < until);
  const expected = [...GRANTED].sort((a, b) => a < b ? -1 : a > b ? 1 : 0).map((id) => {
    const mine = inside.filter((o) => o.brands.includes(id));
    return {
      brand_id: id,
      brand_name: BRANDS.find(([b]) => b === id)![1],
      occurrences: mine.length,
      duration_seconds: mine.reduce((n, o) => n + o.seconds, 0),
      human_confirmed_duration_seconds: mine.reduce((n, o) => n + (o.human ? o.seconds : 0), 0),
    };
  });
  assert.ok(expected.every((b) => b.occurrences > 0), "every granted brand occurs");
  assert.deepEqual(json.data.by_brand, expected);
  // by_station in id order too, whatever the database's collation: "ST-z" before "st-b".
  assert.deepEqual(json.data.by_station.map((s: { station_id: string }) => s.station_id), [
    "ST-z",
    "st-b",
  ]);
  // Totals count an occurrence once, whatever its granted brands; one of hidden brands not at all.
  assert.equal(
    json.data.totals.occurrences,
    inside.filter((o) => o.brands.some((b) => GRANTED.includes(b))).length,
  );
});

test("brand and station lists are in id order by character code: whoami's scope, a row's brands", async () => {
  const key = await addAccount(service, "lists", {
    stations: ["st-b", "ST-z"],
    brands: GRANTED,
    since: since - 10 * DAY,
    until: until + 10 * DAY,
  });
  const headers = { authorization: `Bearer ${key}` };
  const byCode = (ids: string[]) => [...ids].sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
  // deno-lint-ignore no-explicit-any
  const whoami = await body<any>(await service.fetch("/api/v1/whoami", { headers }));
  assert.deepEqual(whoami.data.scope.stations.map((s: { id: string }) => s.id), ["ST-z", "st-b"]);
  assert.deepEqual(whoami.data.scope.brands.map((b: { id: string }) => b.id), byCode(GRANTED));
  // The set ["br.10", "Zeta"] shows both, "Zeta" first; ["E-mile", "_hidden"] shows "E-mile".
  const res = await service.fetch(
    `/api/v1/ads?since=${iso(since)}&until=${iso(since + 3 * DAY)}&limit=100`,
    { headers },
  );
  // deno-lint-ignore no-explicit-any
  const page = await body<any>(res);
  assert.equal(res.status, 200, JSON.stringify(page));
  const lists = new Set(
    page.data.map((o: { brands: { id: string }[] }) => o.brands.map((b) => b.id).join(" ")),
  );
  assert.deepEqual([...lists].sort(), ["E-mile", "Zeta", "Zeta br.10", "alpha", "br.9"]);
});

test("summary brands: close the service", async () => {
  await service.close();
});
