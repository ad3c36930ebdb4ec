// Coverage from the capture blocks (lib/ads/coverage.ts, blocks of every month a capture
// overlaps) equals coverage from raw captures (ads-api.md 2.4: only captures linked to the granted data count):
// random captures that overlap, touch, nest and leave gaps of every size, over several
// snapshots, some never approved, compared over HTTP with a reference restated here from the
// generated records, before and after an approval, a rename and an import the blocks must follow.
// The service runs with COVERAGE_GAP_SECONDS and RATE_LIMIT_KEY_PER_MINUTE away from their
// defaults, so the comparisons also pin that both settings are obeyed.

import assert from "node:assert/strict";
import { admin, DAY, importLines, seeded } from "./_fixture.ts";
import {
  body,
  freshDatabase,
  PG_FALLBACK_URL,
  PG_URL,
  startTestService,
  test,
} from "../_server.ts";
import { ADS_DATA_LOCK } from "../../lib/ads/approval.ts";
import { openDb } from "../../lib/db/db.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { migrations } from "../../sql/migrations.ts";

const SEED = Number(Deno.env.get("COVERAGE_INDEX_SEED") ?? 20261123);
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Not the default 300 s: the generator leaves gaps just below, at and above this one. */
const GAP_MS = 420_000;
const BASE = Date.parse("2026-03-01T00:00:00Z");
const STATIONS = ["st-1", "st-2", "st-3", "st-4"];
const GRANT = {
  stations: ["st-1", "st-2", "st-3"],
  since: BASE + DAY + 7 * HOUR + 13 * MINUTE,
  until: BASE + 38 * DAY + 5 * HOUR,
};

interface Cap {
  id: string;
  station: string;
  start: number;
  end: number;
  snapshot: string;
}

interface Snap {
  id: string;
  exportedAt: number;
  /** When it is approved: at import, later in the test, or never. */
  approve: "import" | "later" | "never";
}

// snap-c and snap-d share exported_at, so provenance falls back to the id.
const SNAPSHOTS: Snap[] = [
  { id: "snap-a", exportedAt: BASE + 41 * DAY, approve: "import" },
  { id: "snap-b", exportedAt: BASE + 42 * DAY, approve: "never" },
  { id: "snap-d", exportedAt: BASE + 43 * DAY, approve: "import" },
  { id: "snap-c", exportedAt: BASE + 43 * DAY, approve: "import" },
  { id: "snap-e", exportedAt: BASE + 44 * DAY, approve: "later" },
];

const rand = seeded(SEED);

/** One station's captures in one snapshot: every way two captures can meet, and day edges. */
function generate(station: string, snapshot: string, from: number, to: number): Cap[] {
  const caps: Cap[] = [];
  let t = from + rand.int(12) * HOUR;
  let prev = null as Cap | null;
  while (t < to) {
    const length = rand.pick([1000, 59 * MINUTE, HOUR, 3 * HOUR, 12 * HOUR]) +
      rand.int(6 * HOUR) + (rand.next() < 0.3 ? rand.int(1000) : 0);
    const cap: Cap = {
      id: `${snapshot}-${station}-${caps.length}`,
      station,
      start: t,
      end: 0,
      snapshot,
    };
    cap.end = cap.start + length;
    const kind = rand.next();
    if (prev && kind < 0.08) {
      // Nested inside the capture that ends last so far, or its exact twin.
      cap.start = prev.start + rand.int(prev.end - prev.start);
      cap.end = rand.next() < 0.3
        ? prev.end
        : cap.start + 1 + rand.int(Math.max(1, prev.end - cap.start - 1));
      if (rand.next() < 0.2) [cap.start, cap.end] = [prev.start, prev.end];
    } else if (kind < 0.14) {
      // Across a UTC midnight, or starting exactly on one.
      const midnight = Math.ceil(t / DAY) * DAY;
      cap.start = rand.next() < 0.5 ? midnight : midnight - rand.int(2 * HOUR) - 1;
      cap.end = cap.start + length;
    }
    caps.push(cap);
    const end = Math.max(cap.end, prev?.end ?? 0);
    prev = cap.end >= (prev?.end ?? 0) ? cap : prev;
    // Next start: touching, overlapping, a gap below, at or just above the threshold, or long.
    const next = rand.next();
    t = next < 0.4
      ? end
      : next < 0.55
      ? end - 1 - rand.int(HOUR)
      : next < 0.65
      ? end + 1 + rand.int(GAP_MS)
      : next < 0.75
      ? end + rand.pick([GAP_MS - 1, GAP_MS, GAP_MS + 1])
      : next < 0.92
      ? end + rand.int(3 * HOUR)
      : end + rand.int(3 * DAY);
  }
  return caps;
}

const captures: Cap[] = [];
for (const snap of SNAPSHOTS) {
  for (const station of STATIONS) {
    // Later snapshots cover part of the time again, so their captures meet earlier ones.
    const from = BASE + rand.int(10) * DAY;
    captures.push(...generate(station, snap.id, from, from + (10 + rand.int(30)) * DAY));
  }
}

const service = await startTestService({
  env: { RATE_LIMIT_KEY_PER_MINUTE: "1000000", COVERAGE_GAP_SECONDS: String(GAP_MS / 1000) },
});
const iso = (ms: number) => new Date(ms).toISOString();
const approved = new Set<string>();
/** Stations renamed since the first import. */
const names = new Map<string, string>();

for (const snap of SNAPSHOTS) {
  const lines: unknown[] = [{ type: "snapshot", id: snap.id, exported_at: iso(snap.exportedAt) }];
  for (const id of STATIONS) lines.push({ type: "station", id, name: `Radio ${id}` });
  for (const c of captures.filter((c) => c.snapshot === snap.id)) {
    lines.push({
      type: "capture",
      id: c.id,
      station_id: c.station,
      started_at: iso(c.start),
      ended_at: iso(c.end),
    });
  }
  const result = await importLines(service, lines, snap.approve === "import");
  assert.equal(result.status, 0, result.err.join("\n"));
  if (snap.approve === "import") approved.add(snap.id);
}
await admin(service, "account", "create", "acme", "--name", "Acme");
await admin(
  service,
  "grant",
  "acme",
  `--stations=${GRANT.stations.join(",")}`,
  "--brands=br.1",
  "--from",
  iso(GRANT.since),
  "--until",
  iso(GRANT.until),
);
const created = await admin(service, "key", "create", "acme", "--permissions", "coverage:read");
const KEY = created[created.length - 1];

const utc = (ms: number) => iso(ms).replace(".000Z", "Z");

/** The whole answer, restated: union of the approved captures clipped to the period. */
function reference(since: number, until: number, station?: string) {
  const from = Math.max(since, GRANT.since);
  const to = Math.min(until, GRANT.until);
  if (from >= to) return { data: [], provenance: [] };
  const stations = station ? [station] : GRANT.stations;
  const used = captures.filter((c) =>
    approved.has(c.snapshot) && stations.includes(c.station) && c.start < to && c.end > from
  );
  const data = stations.map((id) => {
    const spans = used.filter((c) => c.station === id)
      .map((c) => [Math.max(c.start, from), Math.min(c.end, to)])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let reach = from;
    let covered = 0;
    const gaps: { since: string; until: string; seconds: number }[] = [];
    const gap = (a: number, b: number) =>
      gaps.push({ since: utc(a), until: utc(b), seconds: (b - a) / 1000 });
    for (const [s, e] of spans) {
      if (s - reach > GAP_MS) gap(reach, s);
      if (e > reach) {
        covered += e - Math.max(s, reach);
        reach = e;
      }
    }
    if (to - reach > GAP_MS) gap(reach, to);
    return {
      station_id: id,
      station_name: names.get(id) ?? `Radio ${id}`,
      captures: spans.length,
      captured_seconds: covered / 1000,
      period_seconds: (to - from) / 1000,
      // The contract's rounding: six decimals of (seconds * 1000) / period in ms.
      coverage_ratio: Math.round(((covered / 1000) * 1000 / (to - from)) * 1e6) / 1e6,
      first_capture_at: spans.length ? utc(spans[0][0]) : null,
      last_capture_at: spans.length ? utc(reach) : null,
      gaps,
    };
  });
  const provenance = SNAPSHOTS.filter((s) => used.some((c) => c.snapshot === s.id))
    .sort((a, b) => a.exportedAt - b.exportedAt || (a.id < b.id ? -1 : 1))
    .map((s) => ({ snapshot_id: s.id, exported_at: utc(s.exportedAt) }));
  return { data, provenance };
}

/** Periods whose edges fall on capture edges, midnights, the grant's edges, or anywhere. */
function randomPeriod(): [number, number] {
  const edges = captures.filter((c) => GRANT.stations.includes(c.station));
  const anchor = () => {
    const c = rand.pick(edges);
    return rand.pick([
      c.start,
      c.end,
      c.start + rand.int(c.end - c.start),
      Math.floor(c.start / DAY) * DAY,
      GRANT.since,
      GRANT.until,
      BASE + rand.int(45 * DAY),
    ]);
  };
  const since = anchor() - (rand.next() < 0.3 ? 0 : rand.int(2 * HOUR));
  let until = rand.next() < 0.4 ? anchor() : since + 1 + rand.int(rand.pick([HOUR, DAY, 31 * DAY]));
  if (until <= since) until = since + 1 + rand.int(DAY);
  return [since, Math.min(until, since + 31 * DAY)];
}

async function compare(label: string, since: number, until: number, station?: string) {
  const query = new URLSearchParams({ since: iso(since), until: iso(until) });
  if (station) query.set("station_id", station);
  const res = await service.fetch(`/api/v1/coverage?${query}`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  assert.equal(res.status, 200, label);
  // deno-lint-ignore no-explicit-any
  const json = await body<any>(res);
  const want = reference(since, until, station);
  assert.deepEqual(json.data, want.data, `${label} ${query}`);
  assert.deepEqual(json.meta.provenance, want.provenance, `${label} ${query}`);
}

async function compareRandom(label: string, count: number) {
  for (let i = 0; i < count; i++) {
    const [since, until] = randomPeriod();
    const station = rand.next() < 0.3 ? rand.pick(GRANT.stations) : undefined;
    await compare(`${label} #${i} (seed ${SEED})`, since, until, station);
  }
}

test("ads: RATE_LIMIT_KEY_PER_MINUTE sets the limit that whoami and the headers show", async () => {
  const res = await service.fetch("/api/v1/whoami", {
    headers: { authorization: `Bearer ${KEY}` },
  });
  // deno-lint-ignore no-explicit-any
  const json = await body<any>(res);
  assert.equal(json.data.limits.requests_per_minute, 1_000_000);
  assert.equal(res.headers.get("x-ratelimit-limit"), "1000000");
  assert.equal(res.headers.get("ratelimit-policy"), '"per-key";q=1000000;w=60');
});

test("coverage: the index answers exactly as the union of approved raw captures (rule 2.4)", async () => {
  // The grant's own edges and a period inside one long run, then random periods.
  await compare("whole grant start", GRANT.since - DAY, GRANT.since + 30 * DAY);
  await compare("grant end", GRANT.until - 30 * DAY, GRANT.until + HOUR);
  await compare("outside the grant", GRANT.until + HOUR, GRANT.until + 2 * HOUR);
  const long = captures.filter((c) => approved.has(c.snapshot) && c.station === "st-1")
    .sort((a, b) => (b.end - b.start) - (a.end - a.start))[0];
  await compare("inside one capture", long.start + 1, long.end - 1, "st-1");
  await compareRandom("before", 250);
});

test("coverage: approving a snapshot that bridges and extends runs keeps the answer exact", async () => {
  await admin(service, "snapshot", "approve", "snap-e");
  approved.add("snap-e");
  await compareRandom("after approve", 150);
});

const version = async () =>
  (await service.db.sql<{ version: string }>`select version::text from ads_data_version`)[0]
    .version;

test("coverage: a station renamed by an import shows from the import's approval on", async () => {
  const before = await version();
  const result = await importLines(service, [
    { type: "snapshot", id: "snap-f", exported_at: iso(BASE + 45 * DAY) },
    { type: "station", id: "st-2", name: "Radio Two" },
  ], false);
  assert.equal(result.status, 0, result.err.join("\n"));
  // Not approved: the name served stays.
  assert.equal(await version(), before);
  await compare("renamed, not approved", GRANT.since, GRANT.since + 31 * DAY);
  await admin(service, "snapshot", "approve", "snap-f");
  names.set("st-2", "Radio Two");
  assert.notEqual(await version(), before);
  await compare("after rename", GRANT.since, GRANT.since + 31 * DAY);
  await compareRandom("after rename", 20);
});

test("coverage: captures count from their approval on, not from their import", async () => {
  const snap: Snap = { id: "snap-g", exportedAt: BASE + 46 * DAY, approve: "later" };
  const added = generate("st-3", snap.id, BASE + 2 * DAY, BASE + 12 * DAY);
  const before = await version();
  // Captures alone, of stations already there: the import neither renews the version nor takes
  // the lock that comes with renewing it.
  const result = await importLines(service, [
    { type: "snapshot", id: snap.id, exported_at: iso(snap.exportedAt) },
    ...added.map((c) => ({
      type: "capture",
      id: c.id,
      station_id: c.station,
      started_at: iso(c.start),
      ended_at: iso(c.end),
    })),
  ], false);
  assert.equal(result.status, 0, result.err.join("\n"));
  assert.equal(await version(), before);
  SNAPSHOTS.push(snap);
  captures.push(...added);
  await compareRandom("imported, not approved", 30);
  await admin(service, "snapshot", "approve", snap.id);
  approved.add(snap.id);
  assert.notEqual(await version(), before);
  await compare("approved", BASE + 2 * DAY, BASE + 12 * DAY, "st-3");
  await compareRandom("approved", 50);
});

test("data version: renewed only under the admin commands' lock", async () => {
  // A writer that does not hold the lock (here a bare insert) takes it through the trigger
  // before the version row, as approval and a named import hold it already: the version row is
  // then never locked by a transaction waiting for the lock. Two connections: PostgreSQL.
  const database = await freshDatabase(PG_URL ?? PG_FALLBACK_URL);
  const writer = await openDb({ databaseUrl: database.url, dataDir: "" });
  const other = await openDb({ databaseUrl: database.url, dataDir: "" });
  try {
    await migrate(writer, migrations);
    const held = async () =>
      !(await other.sql<{ got: boolean }>`
        select pg_try_advisory_xact_lock(${ADS_DATA_LOCK}) as got`)[0].got;
    await writer.begin(async (tx) => {
      await tx`insert into ads_stations (id, name) values ('st-x', 'X')`;
      assert.equal(await held(), true, "the insert took the admin commands' lock");
    });
    assert.equal(await held(), false);
  } finally {
    await writer.close();
    await other.close();
    await database.drop();
  }
});

test("coverage index: close the service", async () => {
  await service.close();
});
