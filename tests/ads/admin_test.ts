// The ads admin commands of contract.md §4: accounts, grants, keys, streaming import, approval.

import assert from "node:assert/strict";
import { secretDigest } from "../../lib/http/credentials.ts";
import { adminRun, BASE, DAY, importLines } from "./_fixture.ts";
import { body, freshDatabase, PG_FALLBACK_URL, startTestService, test } from "../_server.ts";

const service = await startTestService();
const iso = (ms: number) => new Date(ms).toISOString();

const run = (...argv: string[]) => adminRun(service, ...argv);

async function counts() {
  const [row] = await service.db.sql<Record<string, number>>`
    select (select count(*) from ads_snapshots)::int8 as snapshots,
           (select count(*) from ads_occurrences)::int8 as occurrences,
           (select count(*) from ads_captures)::int8 as captures,
           (select count(*) from ads_stations)::int8 as stations,
           (select count(*) from ads_brands)::int8 as brands,
           (select count(*) from ads_snapshot_names)::int8 as names,
           (select count(*) from ads_cell_parts)::int8 as daily`;
  return row;
}

/** A new account granted these stations and brands over the fixture's ten days, and its key. */
async function accountWithKey(
  account: string,
  stations: string,
  brands: string,
  permissions: string,
) {
  await run("account", "create", account, "--name", account);
  await run(
    "grant",
    account,
    `--stations=${stations}`,
    `--brands=${brands}`,
    "--from",
    iso(BASE),
    "--until",
    iso(BASE + 10 * DAY),
  );
  return (await run("key", "create", account, "--permissions", permissions)).out.at(-1)!;
}

const snapshot = (id: string) => ({ type: "snapshot", id, exported_at: iso(BASE + DAY) });
const station = { type: "station", id: "st-1", name: 'Radio\tOne \\ "quoted"' };
const brand = { type: "brand", id: "br-1", name: "Brand One" };
const brand2 = { type: "brand", id: "br-2", name: "Brand Two" };
const occurrence = (id: string, extra: Record<string, unknown> = {}) => ({
  type: "occurrence",
  id,
  station_id: "st-1",
  ad_started_at: iso(BASE + 3600_000),
  ad_ended_at: iso(BASE + 3630_000),
  duration_precision: "detected",
  review_state: "confirmed",
  brand_ids: ["br-1"],
  ...extra,
});
const capture = (id: string, extra: Record<string, unknown> = {}) => ({
  type: "capture",
  id,
  station_id: "st-1",
  started_at: iso(BASE),
  ended_at: iso(BASE + 7200_000),
  ...extra,
});
const U1 = "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f01";
const U2 = "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f02";

test("admin: account create refuses a duplicate and a malformed id", async () => {
  assert.equal((await run("account", "create", "acct-1", "--name", "One")).status, 0);
  const again = await run("account", "create", "acct-1", "--name", "One");
  assert.equal(again.status, 1);
  assert.match(again.err, /already exists/);
  assert.equal((await run("account", "create", "bad id!", "--name", "X")).status, 2);
  assert.equal((await run("account", "create", "acct-2")).status, 2, "--name is required");
});

test("admin: grant replaces the account's grant and checks its arguments", async () => {
  const args = (stations: string, from: number, until: number) => [
    "grant",
    "acct-1",
    `--stations=${stations}`,
    "--brands=br-1",
    "--from",
    iso(from),
    "--until",
    iso(until),
  ];
  assert.equal((await run(...args("st-1,st-2", BASE, BASE + DAY))).status, 0);
  assert.equal((await run(...args("st-3", BASE + DAY, BASE + 2 * DAY))).status, 0);
  const [grant] = await service.db.sql`select * from ads_grants where account_id = 'acct-1'`;
  assert.deepEqual(grant.station_ids, ["st-3"]);
  assert.equal(grant.period_since.getTime(), BASE + DAY);
  assert.equal((await run(...args("st-1", BASE + DAY, BASE))).status, 2, "until before from");
  assert.equal((await run("grant", "acct-1", "--stations=st-1", "--brands=br-1")).status, 2);
  const unknown = await run(
    "grant",
    "nobody",
    "--stations=st-1",
    "--brands=b",
    "--from",
    iso(BASE),
    "--until",
    iso(BASE + DAY),
  );
  assert.equal(unknown.status, 1);
  assert.equal((await run(...args("st 1", BASE, BASE + DAY))).status, 2, "malformed id");
});

test("admin: key create prints the key alone on the last line and stores only its digest", async () => {
  const res = await run(
    "key",
    "create",
    "acct-1",
    "--permissions",
    "ads:read,coverage:read",
    "--label",
    "ci",
  );
  assert.equal(res.status, 0);
  const key = res.out[res.out.length - 1];
  assert.match(key, /^onda_ads_[A-Za-z0-9_-]{43}$/);
  const rows = await service.db.sql`select * from ads_api_keys`;
  assert.equal(rows.length, 1);
  assert.deepEqual(new Uint8Array(rows[0].digest), new Uint8Array(secretDigest(key)));
  assert.ok(!JSON.stringify(rows).includes(key.slice(13)), "the key itself is stored");
  assert.deepEqual(rows[0].permissions, ["ads:read", "coverage:read"]);
  const bad = await run("key", "create", "acct-1", "--permissions", "ads:write");
  assert.equal(bad.status, 2);
  assert.equal((await run("key", "create", "nobody", "--permissions", "ads:read")).status, 1);
});

test("admin: key list shows id, prefix, label, created_at, revoked_at; revoke sets the last", async () => {
  const list = await run("key", "list", "acct-1");
  assert.equal(list.out.length, 1);
  const [id, prefix, label, created, revoked] = list.out[0].split("\t");
  assert.match(prefix, /^onda_ads_/);
  assert.equal(label, "ci");
  assert.ok(!Number.isNaN(Date.parse(created)));
  assert.equal(revoked, "-");
  assert.equal((await run("key", "revoke", id)).status, 0);
  const after = (await run("key", "list", "acct-1")).out[0].split("\t");
  assert.ok(!Number.isNaN(Date.parse(after[4])));
  assert.equal((await run("key", "revoke", "0b6d7a36-7c52-4f0e-9a55-000000000000")).status, 1);
  assert.equal((await run("key", "revoke", "not-a-uuid")).status, 2);
});

test("admin: a bad import line is reported with its number and field, nothing is kept", async () => {
  const good = [snapshot("bad-x"), station, brand, occurrence(U1), capture("c-1")];
  const cases: { name: string; lines: unknown[]; line: number; field: RegExp }[] = [
    { name: "not JSON", lines: [...good, "{oops"], line: 6, field: /not valid JSON/ },
    { name: "unknown type", lines: [...good, { type: "spot" }], line: 6, field: /field type/ },
    {
      name: "unknown field",
      lines: [...good, { ...occurrence(U2), colour: 1 }],
      line: 6,
      field: /field colour/,
    },
    // Read and converted in one pass (lib/db/copy_binary.ts): every way a text can miss the shape.
    ...[
      "123",
      "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f0g",
      "xb6d7a36-7c52-4f0e-9a55-5d2b0c3e1f02",
      "0b6d7a367-c52-4f0e-9a55-5d2b0c3e1f02",
      "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f0\u0660",
      "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f022",
      "{0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f0}",
    ].map((id) => ({
      name: `bad uuid ${id}`,
      lines: [...good, occurrence(id)],
      line: 6,
      field: /field id/,
    })),
    {
      name: "unknown station",
      lines: [...good, occurrence(U2, { station_id: "st-9" })],
      line: 6,
      field: /field station_id/,
    },
    {
      name: "no time zone",
      lines: [...good, occurrence(U2, { ad_started_at: "2026-10-01T01:00:00" })],
      line: 6,
      field: /field ad_started_at/,
    },
    // Dates Date.parse accepts (rolling them over) and PostgreSQL refuses.
    ...["2026-02-29T10:00:00Z", "2026-04-31T10:00:00Z", "0000-01-01T00:00:00Z"].map((date) => ({
      name: `no such date ${date}`,
      lines: [...good, occurrence(U2, { ad_started_at: date })],
      line: 6,
      field: /field ad_started_at/,
    })),
    {
      name: "offset beyond 15:59",
      lines: [...good, occurrence(U2, { ad_ended_at: "2026-10-01T20:00:00+16:00" })],
      line: 6,
      field: /field ad_ended_at/,
    },
    {
      name: "end before start",
      lines: [...good, occurrence(U2, { ad_ended_at: iso(BASE) })],
      line: 6,
      field: /field ad_ended_at/,
    },
    {
      name: "precision",
      lines: [...good, occurrence(U2, { duration_precision: "exact" })],
      line: 6,
      field: /field duration_precision/,
    },
    {
      name: "state",
      lines: [...good, occurrence(U2, { review_state: "approved" })],
      line: 6,
      field: /field review_state/,
    },
    {
      name: "no brands",
      lines: [...good, occurrence(U2, { brand_ids: [] })],
      line: 6,
      field: /field brand_ids/,
    },
    {
      name: "unknown brand",
      lines: [...good, occurrence(U2, { brand_ids: ["br-9"] })],
      line: 6,
      field: /field brand_ids/,
    },
    {
      name: "capture end",
      lines: [...good, capture("c-2", { ended_at: iso(BASE - 1) })],
      line: 6,
      field: /field ended_at/,
    },
    { name: "second snapshot", lines: [...good, snapshot("again")], line: 6, field: /field type/ },
    { name: "first line", lines: [station, snapshot("late")], line: 1, field: /field type/ },
    {
      name: "station name",
      lines: [snapshot("bad-y"), { type: "station", id: "st-2", name: "" }],
      line: 2,
      field: /field name/,
    },
  ];
  const before = await counts();
  for (const c of cases) {
    const res = await importLines(service, c.lines, true);
    assert.equal(res.status, 1, c.name);
    assert.match(res.err.join("\n"), new RegExp(`line ${c.line}\\b`), c.name);
    assert.match(res.err.join("\n"), c.field, `${c.name}: ${res.err}`);
    assert.deepEqual(await counts(), before, `${c.name}: something was kept`);
  }
  // A repeated occurrence id surfaces from the bulk load; still nothing is kept.
  const repeated = await importLines(service, [...good, occurrence(U1)], true);
  assert.equal(repeated.status, 1);
  assert.match(repeated.err.join("\n"), new RegExp(`line 6, field id: occurrence id ${U1}`));
  assert.deepEqual(await counts(), before);
});

test("admin: import streams with progress, --approve serves it, a snapshot id imports once", async () => {
  const lines = [
    snapshot("snap-1"),
    station,
    brand,
    brand2,
    occurrence(U1, { brand_ids: ["br-2", "br-1", "br-2"] }),
    capture("c-1"),
  ];
  const first = await importLines(service, lines, false);
  assert.equal(first.status, 0, first.err.join("\n"));
  assert.match(first.err.join("\n"), /import: \d+ rows, [\d,]+ rows\/s/);
  assert.match(first.out.join("\n"), /snapshot snap-1 imported: 1 occurrences, 1 captures/);
  const [row] = await service.db.sql`select * from ads_occurrences`;
  assert.deepEqual(row.brand_ids, ["br-1", "br-2"], "a brand list is stored sorted, once each");
  assert.equal(row.duration_ms, 30_000);
  const [st] = await service.db.sql`select name from ads_snapshot_names where id = 'st-1'`;
  assert.equal(st.name, station.name, "names survive COPY escaping");
  const served = await service.db.sql`select name from ads_stations where id = 'st-1'`;
  assert.equal(served.length, 0, "a station is served once a snapshot naming it is approved");
  const [snap] = await service.db.sql`select approved_at from ads_snapshots where id = 'snap-1'`;
  assert.equal(snap.approved_at, null);
  assert.equal((await counts()).daily, 0, "not aggregated before approval");

  const before = await counts();
  const again = await importLines(service, lines, true);
  assert.equal(again.status, 1);
  assert.match(again.err.join("\n"), /snapshot snap-1 was already imported/);
  assert.deepEqual(await counts(), before);

  assert.equal((await run("snapshot", "approve", "snap-1")).status, 0);
  assert.equal((await counts()).daily, 1);
  const twice = await run("snapshot", "approve", "snap-1");
  assert.equal(twice.status, 1);
  assert.match(twice.err, /already approved/);
  assert.equal((await run("snapshot", "approve", "nope")).status, 1);

  // --approve approves at the end of the import.
  const second = await importLines(service, [snapshot("snap-2"), occurrence(U2)], true);
  assert.equal(second.status, 0, second.err.join("\n"));
  const [s2] = await service.db.sql`select approved_at from ads_snapshots where id = 'snap-2'`;
  assert.ok(s2.approved_at);
  // Its figures: one cell (one station, day and brand set) of one occurrence.
  const [daily] = await service.db.sql<{ cells: Uint8Array; set: number }>`
    select d.cells, (select id from ads_brand_sets where brand_ids = '{br-1}') as set
      from ads_cell_parts d join ads_snapshots s on s.seq = d.snapshot_seq
     where s.id = 'snap-2'`;
  const cell = new DataView(daily.cells.buffer, daily.cells.byteOffset, daily.cells.byteLength);
  assert.deepEqual([daily.cells.byteLength, cell.getInt32(0), cell.getInt32(8)], [
    28,
    daily.set,
    1,
  ]);
});

test("admin: served only after approval", async () => {
  const key = await accountWithKey("acct-3", "st-1", "br-1,br-2", "ads:read");
  const U3 = "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f03";
  await importLines(service, [
    snapshot("snap-3"),
    occurrence(U3, { ad_started_at: iso(BASE + 7200_000), ad_ended_at: iso(BASE + 7260_000) }),
  ], false);
  const q = `/api/v1/ads?since=${iso(BASE)}&until=${iso(BASE + DAY)}`;
  const ids = async () =>
    (await body<{ data: { id: string }[] }>(
      await service.fetch(q, { headers: { authorization: `Bearer ${key}` } }),
    )).data.map((o) => o.id);
  assert.deepEqual(await ids(), [U1, U2]);
  await run("snapshot", "approve", "snap-3");
  assert.deepEqual(await ids(), [U1, U2, U3]);
});

test("admin: a granted station or brand is in scope once a snapshot naming it is approved, whether the grant came first", async () => {
  const key = await accountWithKey("acct-4", "st-1,st-4", "br-1,br-4", "ads:read");
  const get = (path: string) =>
    service.fetch(path, { headers: { authorization: `Bearer ${key}` } });
  const scope = async () => {
    const who = await body<
      { data: { scope: { stations: { id: string }[]; brands: { id: string }[] } } }
    >(
      await get("/api/v1/whoami"),
    );
    return [who.data.scope.stations.map((s) => s.id), who.data.scope.brands.map((b) => b.id)];
  };
  const status = async (query: string) => {
    const res = await get(`/api/v1/ads?${query}`);
    await res.body?.cancel();
    return res.status;
  };
  assert.deepEqual(await scope(), [["st-1"], ["br-1"]], "st-4 and br-4 are not imported yet");
  assert.equal(await status("station_id=st-4"), 404);
  assert.equal(await status("brand_id=br-4"), 404);
  await importLines(service, [snapshot("snap-4a"), station, brand], false);
  assert.deepEqual(await scope(), [["st-1"], ["br-1"]], "nothing new in the scope");
  await importLines(service, [
    snapshot("snap-4"),
    { type: "station", id: "st-4", name: "Radio Four" },
    { type: "brand", id: "br-4", name: "Brand Four" },
  ], false);
  // Known only to an unapproved snapshot: exactly as an id never imported.
  assert.deepEqual(await scope(), [["st-1"], ["br-1"]], "st-4 and br-4 are not approved yet");
  assert.equal(await status("station_id=st-4"), 404);
  assert.equal(await status("brand_id=br-4"), 404);
  await run("snapshot", "approve", "snap-4");
  assert.deepEqual(await scope(), [["st-1", "st-4"], ["br-1", "br-4"]]);
  assert.equal(await status("station_id=st-4"), 200);
  assert.equal(await status("brand_id=br-4"), 200);
  // Approved later, its occurrence joins the unfiltered page, with its granted brand only; a
  // rename of either brand shows the granted one's new name and still hides the other.
  const U4 = "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f44";
  await importLines(service, [
    snapshot("snap-4b"),
    occurrence(U4, {
      station_id: "st-4",
      ad_started_at: iso(BASE + 2 * DAY),
      ad_ended_at: iso(BASE + 2 * DAY + 30_000),
      brand_ids: ["br-4", "br-2"],
    }),
  ], true);
  const listed = async () =>
    (await body<{ data: { id: string; station_name: string; brands: unknown[] }[] }>(
      await get(`/api/v1/ads?since=${iso(BASE + 2 * DAY)}&until=${iso(BASE + 3 * DAY)}`),
    )).data;
  assert.deepEqual((await listed()).map((o) => [o.id, o.station_name, o.brands]), [
    [U4, "Radio Four", [{ id: "br-4", name: "Brand Four" }]],
  ]);
  await importLines(service, [
    snapshot("snap-4c"),
    { type: "brand", id: "br-2", name: "Brand Two (renamed)" },
    { type: "brand", id: "br-4", name: "Brand Four (renamed)" },
  ], false);
  assert.deepEqual((await listed())[0].brands, [{ id: "br-4", name: "Brand Four" }]);
  await run("snapshot", "approve", "snap-4c");
  assert.deepEqual((await listed())[0].brands, [{ id: "br-4", name: "Brand Four (renamed)" }]);
});

test("admin: a name only a pending snapshot gives is never served by another's approval, until its own", async () => {
  const key = await accountWithKey("acct-px", "st-1,st-x", "br-1,br-x", "ads:read,reports:read");
  const headers = { authorization: `Bearer ${key}` };
  const period = `since=${iso(BASE + 4 * DAY)}&until=${iso(BASE + 5 * DAY)}`;
  const names = async () => {
    const who = await body<
      { data: { scope: { stations: { name: string }[]; brands: { name: string }[] } } }
    >(await service.fetch("/api/v1/whoami", { headers }));
    const ads = await body<{ data: { station_name: string; brands: { name: string }[] }[] }>(
      await service.fetch(`/api/v1/ads?${period}`, { headers }),
    );
    const summary = await body<
      { data: { by_brand: { brand_name: string }[]; by_station: { station_name: string }[] } }
    >(await service.fetch(`/api/v1/reports/summary?${period}`, { headers }));
    return JSON.stringify([who.data.scope, ads.data, summary.data]);
  };
  await importLines(service, [
    snapshot("snap-pend"),
    { type: "station", id: "st-x", name: "SECRET pending station" },
    { type: "brand", id: "br-x", name: "SECRET pending brand" },
  ], false);
  const U9 = "0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1f99";
  const res = await importLines(service, [
    snapshot("snap-appr"),
    occurrence(U9, {
      station_id: "st-x",
      ad_started_at: iso(BASE + 4 * DAY),
      ad_ended_at: iso(BASE + 4 * DAY + 30_000),
      brand_ids: ["br-x"],
    }),
  ], true);
  assert.equal(res.status, 0, res.err.join("\n"));
  const before = await names();
  assert.ok(before.includes('"st-x"') && before.includes('"br-x"'), before);
  assert.doesNotMatch(before, /SECRET/, "a pending snapshot's names are not served");
  assert.equal((await run("snapshot", "approve", "snap-pend")).status, 0);
  const after = await names();
  assert.match(after, /SECRET pending station/);
  assert.match(after, /SECRET pending brand/);
});

test("admin: import keeps every date-time to the microsecond, whatever its offset", async () => {
  // PostgreSQL's own reading of the same text is the reference (sent as text: postgres.js
  // would pass a timestamptz parameter through Date, which keeps milliseconds only).
  const cases = [
    ["2026-10-03T02:00:00.123456+02:00", "2026-10-03T00:00:30.5Z"],
    ["2026-10-03T10:15Z", "2026-10-03T10:15:00.000001Z"],
    ["2026-10-03T23:59:59.999999-05:30", "2026-10-04T24:00:00+00:00"],
    ["1999-12-31T23:59:59.9999Z", "2000-01-01T00:00:00.0001Z"],
    ["1969-12-31T23:59:59.1234Z", "1970-01-01T00:00:00Z"],
    ["2028-02-29T12:00:00.1+14:00", "2028-02-29T12:00:00.12+13:00"],
    // More than 2^53 microseconds from 2000: beyond a number's exact integers.
    ["2300-01-01T00:00:00.000001Z", "2300-01-01T00:00:00.000003Z"],
    ["1600-01-01T00:00:00.000003Z", "1600-01-01T00:00:01.999999Z"],
  ];
  const ids = cases.map((_, i) => `0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1e0${i}`);
  const res = await importLines(service, [
    snapshot("snap-times"),
    ...cases.map(([start, end], i) =>
      occurrence(ids[i].toUpperCase(), { ad_started_at: start, ad_ended_at: end })
    ),
  ], false);
  assert.equal(res.status, 0, res.err.join("\n"));
  for (const [i, [start, end]] of cases.entries()) {
    const [row] = await service.db.sql<{ start_ok: boolean; end_ok: boolean; ms: number }>`
      select ad_started_at = ${start}::text::timestamptz as start_ok,
             ad_ended_at = ${end}::text::timestamptz as end_ok, duration_ms as ms
        from ads_occurrences where id = ${ids[i]}::uuid`;
    assert.ok(row, `${ids[i]} stored under its lower-case id`);
    assert.deepEqual(
      [row.start_ok, row.end_ok, row.ms],
      [true, true, Date.parse(end) - Date.parse(start)],
      `${start} .. ${end}`,
    );
  }
});

test("admin: an import of several COPY batches keeps every row exactly", async () => {
  // PGlite loads in batches of about 4 MB, each its own binary COPY stream.
  const rows = 40_000;
  const start = BASE + 50 * DAY;
  const uuid = (i: number) => `0b6d7a36-7c52-4f0e-9a55-${i.toString(16).padStart(12, "0")}`;
  const lines: unknown[] = [snapshot("snap-big")];
  for (let i = 0; i < rows; i++) {
    lines.push(occurrence(uuid(i), {
      ad_started_at: iso(start + i * 1000),
      ad_ended_at: iso(start + i * 1000 + (i % 997)),
      brand_ids: i % 3 ? ["br-1"] : ["br-2", "br-1"],
    }));
  }
  const res = await importLines(service, lines, false);
  assert.equal(res.status, 0, res.err.join("\n"));
  const [row] = await service.db.sql<
    { n: number; ids: number; ms: number; first: Date; last: Date; pairs: number }
  >`
    select count(*)::int8 as n, count(distinct o.id)::int8 as ids, sum(duration_ms)::int8 as ms,
           min(ad_started_at) as first, max(ad_ended_at) as last,
           count(*) filter (where brand_ids = '{br-1,br-2}')::int8 as pairs
      from ads_occurrences o join ads_snapshots s on s.seq = o.snapshot_seq
     where s.id = 'snap-big'`;
  let ms = 0;
  for (let i = 0; i < rows; i++) ms += i % 997;
  assert.deepEqual(
    [row.n, row.ids, row.ms, row.first.getTime(), row.last.getTime(), row.pairs],
    [rows, rows, ms, start, start + (rows - 1) * 1000 + ((rows - 1) % 997), Math.ceil(rows / 3)],
  );
});

test("admin: approvals, grants and imports at the same moment all succeed", async () => {
  // Approvals and imports of names renew the data version under the admin lock: they take turns.
  await accountWithKey("acct-6", "st-1", "br-1,br-2", "ads:read");
  for (const [i, id] of ["snap-c1", "snap-c2", "snap-c3"].entries()) {
    const res = await importLines(service, [
      snapshot(id),
      occurrence(`0b6d7a36-7c52-4f0e-9a55-5d2b0c3e1d0${i}`, {
        ad_started_at: iso(BASE + (i + 2) * DAY),
        ad_ended_at: iso(BASE + (i + 2) * DAY + 1000),
      }),
      capture(`c-c${i}`, {
        started_at: iso(BASE + (i + 2) * DAY),
        ended_at: iso(BASE + (i + 3) * DAY),
      }),
    ], false);
    assert.equal(res.status, 0, res.err.join("\n"));
  }
  const results = await Promise.all([
    run("snapshot", "approve", "snap-c1"),
    run("snapshot", "approve", "snap-c2"),
    run(
      "grant",
      "acct-6",
      "--stations=st-1",
      "--brands=br-1",
      "--from",
      iso(BASE),
      "--until",
      iso(BASE + 9 * DAY),
    ),
    importLines(service, [snapshot("snap-c4"), station, brand], false),
    run("snapshot", "approve", "snap-c3"),
  ]);
  for (const result of results) {
    assert.equal(result.status, 0, "err" in result ? String(result.err) : "");
  }
  const [row] = await service.db.sql<{ approved: number }>`
    select count(*)::int8 as approved from ads_snapshots
     where id in ('snap-c1', 'snap-c2', 'snap-c3') and approved_at is not null`;
  assert.equal(row.approved, 3);
});

test("admin: nothing is kept per account but its grant, keys and name", async () => {
  // Storage that grows with accounts times data is what the scope module replaced: the only
  // tables that name an account are these three, whatever grants and approvals have run.
  const tables = await service.db.sql<{ table_name: string }>`
    select distinct table_name::text from information_schema.columns
     where column_name = 'account_id' and table_schema = current_schema()
       and table_name like 'ads%'
     order by 1`;
  assert.deepEqual(tables.map((t) => t.table_name), ["ads_api_keys", "ads_grants"]);
  // A grant is its one row, whatever the length of its period.
  await run("account", "create", "acct-7", "--name", "Seven");
  const before = await service.db.sql<{ n: number }>`
    select (select count(*) from ads_cell_parts) + (select count(*) from ads_brand_sets) as n`;
  const grant = await run(
    "grant",
    "acct-7",
    "--stations=st-1",
    "--brands=br-1,br-2",
    "--from",
    iso(BASE - 365 * DAY),
    "--until",
    "2100-01-01T00:00:00Z",
  );
  assert.equal(grant.status, 0, grant.err);
  const after = await service.db.sql<{ n: number }>`
    select (select count(*) from ads_cell_parts) + (select count(*) from ads_brand_sets) as n`;
  assert.equal(after[0].n, before[0].n);
});

test("admin: a station or brand renamed by a later import shows its new name in /ads and the summary once approved", async () => {
  const key = await accountWithKey("acct-5", "st-1", "br-1", "ads:read,reports:read");
  const names = async () => {
    const period = `since=${iso(BASE)}&until=${iso(BASE + DAY)}`;
    const headers = { authorization: `Bearer ${key}` };
    const ads = await body<{ data: { station_name: string; brands: { name: string }[] }[] }>(
      await service.fetch(`/api/v1/ads?${period}`, { headers }),
    );
    const summary = await body<
      {
        data: { by_brand: { brand_name: string }[]; by_station: { station_name: string }[] };
      }
    >(
      await service.fetch(`/api/v1/reports/summary?${period}`, { headers }),
    );
    return [
      [...new Set(ads.data.flatMap((o) => o.brands.map((b) => b.name)))],
      summary.data.by_brand.map((b) => b.brand_name),
      [...new Set(ads.data.map((o) => o.station_name))],
      summary.data.by_station.map((s) => s.station_name),
    ];
  };
  assert.deepEqual(await names(), [["Brand One"], ["Brand One"], [station.name], [station.name]]);
  // Not approved: the names served stay (issue 30: only approved snapshots are served).
  await importLines(
    service,
    [snapshot("snap-5"), { ...brand, name: "Brand One (renamed)" }],
    false,
  );
  assert.deepEqual(await names(), [["Brand One"], ["Brand One"], [station.name], [station.name]]);
  await run("snapshot", "approve", "snap-5");
  assert.deepEqual(await names(), [
    ["Brand One (renamed)"],
    ["Brand One (renamed)"],
    [station.name],
    [station.name],
  ]);
  await importLines(service, [snapshot("snap-5b"), { ...station, name: "Radio Uno" }], false);
  await run("snapshot", "approve", "snap-5b");
  assert.deepEqual(await names(), [
    ["Brand One (renamed)"],
    ["Brand One (renamed)"],
    ["Radio Uno"],
    ["Radio Uno"],
  ]);
});

test("admin: `deno run admin.ts key create` prints the key alone on the last stdout line", async () => {
  const database = await freshDatabase(PG_FALLBACK_URL);
  try {
    const env = { DATABASE_URL: database.url! };
    const cli = async (...args: string[]) => {
      const output = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--allow-net",
          "--allow-env",
          "--allow-read",
          "--allow-write=./data",
          "admin.ts",
          ...args,
        ],
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
      return {
        code: output.code,
        stdout: new TextDecoder().decode(output.stdout),
        stderr: new TextDecoder().decode(output.stderr),
      };
    };
    assert.equal((await cli("account", "create", "sub", "--name", "Sub")).code, 0);
    const created = await cli("key", "create", "sub", "--permissions", "ads:read");
    assert.equal(created.code, 0, created.stderr);
    const lines = created.stdout.trimEnd().split("\n");
    assert.match(lines[lines.length - 1], /^onda_ads_[A-Za-z0-9_-]{43}$/);
    const usage = await cli("key", "create", "sub", "--permissions", "nope");
    assert.equal(usage.code, 2);
  } finally {
    await database.drop();
  }
});

test("admin: close the service", async () => {
  await service.close();
});
