// `admin import` loads in COPY batches of whole rows on both databases: a snapshot whose every
// line kind fills several batches keeps every row exactly, and the embedded database imports the
// captures of a year (issue 21: "missing data for column snapshot_seq" past about 4 MB).

import assert from "node:assert/strict";
import { BATCH_BYTES, importSnapshot } from "../../lib/ads/import.ts";
import { BASE, DAY, importLines } from "./_fixture.ts";
import { startTestService, test } from "../_server.ts";

const service = await startTestService();
const iso = (ms: number) => new Date(ms).toISOString();
const uuid = (i: number) => `7e57ba7c-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;

function streamOf(lines: unknown[]): ReadableStream<Uint8Array> {
  return new Blob([lines.map((line) => JSON.stringify(line) + "\n").join("")]).stream();
}

test("import: every line kind filling several batches keeps every row, name and instant", async () => {
  // Small batches: the same rule at any size, with every kind crossing many batch edges.
  const batchBytes = 16 * 1024;
  const stations = 600;
  const brands = 800;
  const occurrences = 3000;
  const captures = 2500;
  // Names with what COPY's text format escapes, and characters beyond ASCII.
  const stationName = (i: number) => `Rádio ${i}\t"tab" \\ back\nslash ${"x".repeat(i % 90)}`;
  const lines: unknown[] = [{ type: "snapshot", id: "batches-1", exported_at: iso(BASE) }];
  for (let i = 0; i < stations; i++) {
    lines.push({ type: "station", id: `bst-${i}`, name: stationName(i) });
  }
  for (let i = 0; i < brands; i++) {
    lines.push({ type: "brand", id: `bbr-${i}`, name: `Marca ${i} ${"y".repeat(i % 150)}` });
  }
  // Occurrences and captures interleaved, then every station renamed: the last name wins.
  for (let i = 0; i < Math.max(occurrences, captures); i++) {
    if (i < occurrences) {
      const start = BASE + i * 60_000;
      lines.push({
        type: "occurrence",
        id: uuid(i),
        station_id: `bst-${i % stations}`,
        ad_started_at: iso(start),
        ad_ended_at: new Date(start + 30_000).toISOString().replace("Z", "123+00:00"),
        duration_precision: "detected",
        review_state: i % 7 ? "confirmed" : "pending",
        brand_ids: [`bbr-${i % brands}`, `bbr-${(i * 7) % brands}`],
      });
    }
    if (i < captures) {
      const start = BASE + (i % 10) * DAY + i * 1000;
      lines.push({
        type: "capture",
        id: `bcap-${i}`,
        station_id: `bst-${i % stations}`,
        started_at: iso(start),
        ended_at: iso(start + 3_600_000 + i),
      });
    }
  }
  for (let i = 0; i < stations; i++) {
    lines.push({ type: "station", id: `bst-${i}`, name: `Renamed ${i}` });
  }
  const bytesOf = (type: string) =>
    lines.filter((l) => (l as { type: string }).type === type)
      .reduce((sum: number, l) => sum + JSON.stringify(l).length, 0);
  for (const type of ["station", "brand", "occurrence", "capture"]) {
    assert.ok(bytesOf(type) > 5 * batchBytes, `${type} lines cross the batch size 5 times`);
  }

  const result = await importSnapshot(service.db, streamOf(lines), {
    approve: false,
    batchBytes,
    progress: () => {},
  });
  assert.deepEqual(
    [result.occurrences, result.captures, result.stations, result.brands],
    [occurrences, captures, 2 * stations, brands],
  );

  const [counts] = await service.db.sql<Record<string, number>>`
    select (select count(*) from ads_occurrences where id::text like '7e57ba7c-%')::int8 as occ,
           (select count(*) from ads_captures where id like 'bcap-%')::int8 as cap,
           (select count(*) from ads_snapshot_names
             where kind = 'station' and id like 'bst-%')::int8 as st,
           (select count(*) from ads_snapshot_names where kind = 'brand' and id like 'bbr-%')::int8
             as br`;
  assert.deepEqual(counts, { occ: occurrences, cap: captures, st: stations, br: brands });
  const [renamed] = await service.db.sql<{ n: number }>`
    select count(*)::int8 as n from ads_snapshot_names
     where kind = 'station' and id like 'bst-%' and name = 'Renamed ' || substr(id, 5)`;
  assert.equal(renamed.n, stations, "the last name of each station wins across batches");
  const brandNames = await service.db.sql<{ id: string; name: string }>`
    select id, name from ads_snapshot_names where kind = 'brand' and id like 'bbr-%'`;
  for (const { id, name } of brandNames) {
    const i = Number(id.slice(4));
    assert.equal(name, `Marca ${i} ${"y".repeat(i % 150)}`);
  }

  const occurrenceRows = await service.db.sql<
    { id: string; station_id: string; ad_started_at: Date; duration_ms: number; state: string }
  >`
    select id::text, station_id, ad_started_at, duration_ms, review_state as state
      from ads_occurrences where id::text like '7e57ba7c-%' order by id`;
  occurrenceRows.forEach((row, i) => {
    assert.deepEqual(
      [row.id, row.station_id, row.ad_started_at.getTime(), row.duration_ms, row.state],
      [uuid(i), `bst-${i % stations}`, BASE + i * 60_000, 30_000, i % 7 ? "confirmed" : "pending"],
    );
  });
  const [micro] = await service.db.sql<{ n: number }>`
    select count(*)::int8 as n from ads_occurrences
     where id::text like '7e57ba7c-%'
       and (extract(epoch from ad_ended_at - ad_started_at) * 1000000)::int8 = 30000123`;
  assert.equal(micro.n, occurrences, "every end kept to the microsecond");

  const captureRows = await service.db.sql<
    { id: string; station_id: string; started_at: Date; ended_at: Date }
  >`
    select id, station_id, started_at, ended_at from ads_captures
     where id like 'bcap-%' order by substr(id, 6)::int`;
  captureRows.forEach((row, i) => {
    const start = BASE + (i % 10) * DAY + i * 1000;
    assert.deepEqual(
      [row.id, row.station_id, row.started_at.getTime(), row.ended_at.getTime()],
      [`bcap-${i}`, `bst-${i % stations}`, start, start + 3_600_000 + i],
    );
  });
});

test("import: a repeated capture id in a later batch is named by its line, nothing kept", async () => {
  const lines: unknown[] = [
    { type: "snapshot", id: "batches-dup", exported_at: iso(BASE) },
    { type: "station", id: "dst-1", name: "Dup" },
  ];
  for (let i = 0; i < 2000; i++) {
    lines.push({
      type: "capture",
      id: `DCap-${i % 1500}`,
      station_id: "dst-1",
      started_at: iso(BASE + i * 1000),
      ended_at: iso(BASE + i * 1000 + 500),
    });
  }
  const text = lines.map((line) => JSON.stringify(line) + "\n").join("");
  await assert.rejects(
    importSnapshot(service.db, new Blob([text]).stream(), {
      approve: false,
      batchBytes: 8 * 1024,
      progress: () => {},
      reread: () => Promise.resolve(new Blob([text]).stream()),
    }),
    /line 1503, field id: capture id DCap-0 is repeated/,
  );
  const [kept] = await service.db.sql<{ n: number }>`
    select (select count(*) from ads_captures where id like 'DCap-%') +
           (select count(*) from ads_snapshots where id = 'batches-dup')::int8 as n`;
  assert.equal(Number(kept.n), 0);
});

test("import: the captures of a year for 200 stations load through `admin import`", async () => {
  // 200 stations with a daily capture for a year and a half: several times the batch size.
  const lines: unknown[] = [{ type: "snapshot", id: "batches-year", exported_at: iso(BASE) }];
  for (let s = 0; s < 200; s++) lines.push({ type: "station", id: `yst-${s}`, name: `Y ${s}` });
  const days = 550;
  for (let d = 0; d < days; d++) {
    for (let s = 0; s < 200; s++) {
      const start = BASE - 600 * DAY + d * DAY + s * 1000;
      lines.push({
        type: "capture",
        id: `ycap-${s}-${d}`,
        station_id: `yst-${s}`,
        started_at: iso(start),
        ended_at: iso(start + 3_600_000),
      });
    }
  }
  const captureBytes = JSON.stringify(lines.at(-1)).length * 200 * days;
  assert.ok(captureBytes > 3 * BATCH_BYTES, `captures are ${captureBytes} bytes`);
  const res = await importLines(service, lines, false);
  assert.equal(res.status, 0, res.err.join("\n"));
  assert.match(res.out.join("\n"), new RegExp(`${200 * days} captures`));
  const [row] = await service.db.sql<{ n: number }>`
    select count(*)::int8 as n from ads_captures where id like 'ycap-%'`;
  assert.equal(row.n, 200 * days);
});

test("import: close", async () => {
  await service.close();
});
