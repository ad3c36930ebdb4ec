// The figure index (lib/ads/figure_index.ts): what a service holds after loading snapshot by
// snapshot equals a load from nothing, whatever the batch size the load reads in; it equals the
// approved occurrences counted here from the records; and it starts again from nothing when a
// snapshot it holds is no longer approved as it was (a database restored from a backup).

import assert from "node:assert/strict";
import { admin, BASE, DAY, importLines, seeded } from "./_fixture.ts";
import { startTestService, test } from "../_server.ts";
import { type FigureIndex, loadFigureIndex } from "../../lib/ads/figure_index.ts";

const service = await startTestService();
const rand = seeded(20261126);
const STATIONS = ["st-a", "st-b", "st-c"];
const BRANDS = ["br-1", "br-2", "br-3", "br-4", "br-5"];

interface Record {
  station: string;
  start: number;
  ms: number;
  human: boolean;
  brands: string[];
  confirmed: boolean;
}
const approved: Record[] = [];

/** Imports a snapshot of random occurrences over `days` days from `from`; approves it if told. */
async function snapshot(id: string, from: number, days: number, count: number, approve: boolean) {
  const records: Record[] = Array.from({ length: count }, () => {
    const brands = [
      ...new Set([rand.pick(BRANDS), ...(rand.next() < 0.3 ? [rand.pick(BRANDS)] : [])]),
    ]
      .sort();
    return {
      station: rand.pick(STATIONS),
      start: from + rand.int(days * 24 * 60) * 60_000,
      ms: 1000 * (5 + rand.int(60)),
      human: rand.next() < 0.3,
      brands,
      confirmed: rand.next() < 0.8,
    };
  });
  const result = await importLines(service, [
    { type: "snapshot", id, exported_at: new Date(BASE + 40 * DAY).toISOString() },
    ...STATIONS.map((s) => ({ type: "station", id: s, name: s })),
    ...BRANDS.map((b) => ({ type: "brand", id: b, name: b })),
    ...records.map((r) => ({
      type: "occurrence",
      id: crypto.randomUUID(),
      station_id: r.station,
      ad_started_at: new Date(r.start).toISOString(),
      ad_ended_at: new Date(r.start + r.ms).toISOString(),
      duration_precision: r.human ? "human_confirmed" : "detected",
      review_state: r.confirmed ? "confirmed" : "pending",
      brand_ids: r.brands,
    })),
  ], approve);
  assert.equal(result.status, 0, result.err.join("\n"));
  if (approve) approved.push(...records.filter((r) => r.confirmed));
  return records;
}

/** Every cell of an index as text, per station and day, the cells of a day in a fixed order. */
function cells(index: FigureIndex): string[] {
  const rows: string[] = [];
  for (const [station, f] of [...index.stations].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    for (let i = 0; i + 1 < f.dayStart.length; i++) {
      const day: string[] = [];
      for (let c = f.dayStart[i]; c < f.dayStart[i + 1]; c++) {
        const brand = f.brands[c];
        const brands = brand >= 0 ? [brand] : [
          ...index.setBrands.subarray(index.setStart[-1 - brand], index.setStart[-brand]),
        ];
        day.push(
          [
            brands.map((b) => index.brandIds[b]).join("+"),
            f.occurrences[c],
            f.durationMs[c],
            f.humanMs[c],
            f.snapshots[c],
          ]
            .join(" "),
        );
      }
      rows.push(...day.sort().map((cell) => `${station} ${f.firstDay + i} ${cell}`));
    }
  }
  return rows;
}

/** Every start of an index, per station, in its order, with the start's brands. */
function starts(index: FigureIndex): string[] {
  const rows: string[] = [];
  for (const [station, f] of [...index.stations].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    f.starts.forEach((start, i) => {
      const brand = f.startBrands[i];
      const brands = brand >= 0 ? [brand] : [
        ...index.setBrands.subarray(index.setStart[-1 - brand], index.setStart[-brand]),
      ];
      rows.push(`${station} ${start} ${brands.map((b) => index.brandIds[b]).join("+")}`);
    });
  }
  return rows;
}

/** The same starts, from the records of the approved snapshots (ties in any order). */
function expectedStarts(): string[] {
  return approved.map((r) => `${r.station} ${r.start * 1000} ${r.brands.join("+")}`).sort();
}

/** The same cells counted from the records of the approved snapshots, without the snapshot. */
function expectedTotals(): Map<string, number[]> {
  const totals = new Map<string, number[]>();
  for (const r of approved) {
    const key = `${r.station} ${Math.floor(r.start / DAY)} ${r.brands.join("+")}`;
    const t = totals.get(key) ?? [0, 0, 0];
    totals.set(key, [t[0] + 1, t[1] + r.ms, t[2] + (r.human ? r.ms : 0)]);
  }
  return totals;
}

function totalsOf(index: FigureIndex): Map<string, number[]> {
  const totals = new Map<string, number[]>();
  for (const row of cells(index)) {
    const [station, day, brands, n, ms, human] = row.split(" ");
    const key = `${station} ${day} ${brands}`;
    const t = totals.get(key) ?? [0, 0, 0];
    totals.set(key, [t[0] + Number(n), t[1] + Number(ms), t[2] + Number(human)]);
  }
  return totals;
}

test("figure index: loaded snapshot by snapshot, in batches of any size, it equals a load from nothing", async () => {
  await snapshot("fig-1", BASE, 10, 400, true);
  let held = await loadFigureIndex(service.db, null, 64);
  assert.deepEqual(totalsOf(held), expectedTotals());
  // Not approved: not loaded. Approved later, with days before, among and after the held ones.
  const later = await snapshot("fig-2", BASE + 5 * DAY, 12, 300, false);
  await snapshot("fig-3", BASE - 3 * DAY, 20, 300, true);
  held = await loadFigureIndex(service.db, held, 1);
  assert.deepEqual(totalsOf(held), expectedTotals());
  await admin(service, "snapshot", "approve", "fig-2");
  approved.push(...later.filter((r) => r.confirmed));
  const incremental = await loadFigureIndex(service.db, held, 200);
  assert.deepEqual(totalsOf(incremental), expectedTotals());
  assert.deepEqual([...starts(incremental)].sort(), expectedStarts());
  for (const station of incremental.stations.values()) {
    assert.ok(station.starts.every((t, i) => i === 0 || station.starts[i - 1] <= t), "in order");
  }
  for (const batch of [1, 28 * 5, 1 << 30]) {
    const whole = await loadFigureIndex(service.db, null, batch);
    assert.deepEqual(cells(incremental), cells(whole), `batch ${batch}`);
    assert.deepEqual(starts(incremental).sort(), starts(whole).sort(), `batch ${batch}`);
    assert.equal(incremental.version, whole.version);
  }
  assert.ok(incremental.stations.size === STATIONS.length);
});

test("figure index: its cells add up to the approved occurrences, counted from the records", async () => {
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int8 as n from ads_occurrences o join ads_snapshots s on s.seq = o.snapshot_seq
     where s.approved_at is not null and o.review_state = 'confirmed'`;
  const index = await loadFigureIndex(service.db, null);
  let occurrences = 0;
  for (const [n] of totalsOf(index).values()) occurrences += n;
  assert.equal(occurrences, row.n);
});

test("figure index: a held snapshot no longer approved as it was means a load from nothing", async () => {
  const held = await loadFigureIndex(service.db, null);
  // As a restore from a backup taken before fig-3's approval would leave it, and then a new
  // approval at another moment.
  await service.db.sql`update ads_snapshots set approved_at = approved_at + interval '1 second'
                        where id = 'fig-3'`;
  const next = await loadFigureIndex(service.db, held);
  assert.notEqual(next.stations.get("st-a"), held.stations.get("st-a"), "reloaded");
  assert.deepEqual(cells(next), cells(held));
  // And an index that holds every approved snapshot loads no cells again.
  const again = await loadFigureIndex(service.db, next);
  assert.equal(again.stations.get("st-a"), next.stations.get("st-a"));
});

test("figure index: brand sets added after a load are appended to it; a skipped id has no brands", async () => {
  await service.db.sql`
    insert into ads_brand_sets (brand_ids)
    select array['many-' || g] from generate_series(1, 2000) g`;
  const held = await loadFigureIndex(service.db, null);
  for (let round = 1; round <= 3; round++) {
    await service.db.sql`insert into ads_brand_sets (brand_ids)
                         values (array['added-' || ${crypto.randomUUID()}])`;
    const next = await loadFigureIndex(service.db, held);
    assert.equal(next.setStart.length, held.setStart.length + round);
    assert.deepEqual(next.setStart.subarray(0, held.setStart.length), held.setStart);
  }
  // A skipped id (a sequence may skip some) reads as a set without brands.
  const [{ id }] = await service.db.sql<{ id: number }>`
    insert into ads_brand_sets (id, brand_ids) values (
      (select max(id) + 2 from ads_brand_sets), array['after-a-gap']) returning id`;
  const next = await loadFigureIndex(service.db, held);
  assert.equal(next.setStart[id - 1], next.setStart[id], "the skipped id has no brands");
  assert.equal(next.setStart[id + 1] - next.setStart[id], 1);
});

test("figure index: close the service", async () => {
  await service.close();
});
