// Migrations: applied in order, once, recorded; a gap, an edited file or an unknown applied
// migration stops the start; two instances starting together apply each migration once.

import assert from "node:assert/strict";
import { type Db, openDb } from "../../lib/db/db.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { ADS_DATA_LOCK } from "../../lib/ads/approval.ts";
import { migrations } from "../../sql/migrations.ts";
import { freshDatabase, PG_FALLBACK_URL, PG_URL, test } from "../_server.ts";

const m1 = { name: "001_a.sql", text: "create table a (id int);" };
const m2 = { name: "002_b.sql", text: "create table b (id int); insert into a values (1);" };

async function withDb(fn: (db: Db) => Promise<void>) {
  const database = await freshDatabase();
  const db = await openDb({ databaseUrl: database.url, dataDir: "memory://" });
  try {
    await fn(db);
  } finally {
    await db.close();
    await database.drop();
  }
}

/** Two connections to one fresh database: always on PostgreSQL (PGlite has one connection). */
async function withTwoConnections(fn: (a: Db, b: Db) => Promise<void>) {
  const database = await freshDatabase(PG_URL ?? PG_FALLBACK_URL);
  const a = await openDb({ databaseUrl: database.url, dataDir: "" });
  const b = await openDb({ databaseUrl: database.url, dataDir: "" });
  try {
    await fn(a, b);
  } finally {
    await a.close();
    await b.close();
    await database.drop();
  }
}

test("migrate: applies in order, records each, and is a no-op the second time", async () => {
  await withDb(async (db) => {
    assert.deepEqual(await migrate(db, [m1, m2]), ["001_a.sql", "002_b.sql"]);
    assert.deepEqual(await migrate(db, [m1, m2]), []);
    const rows = await db.sql`select version, name from schema_migrations order by version`;
    assert.deepEqual(rows.map((r) => [r.version, r.name]), [[1, "001_a.sql"], [2, "002_b.sql"]]);
    assert.equal((await db.sql`select count(*)::int as n from a`)[0].n, 1);
  });
});

test("migrate: a gap in the numbering is refused", async () => {
  await withDb(async (db) => {
    await assert.rejects(
      migrate(db, [m1, { name: "003_c.sql", text: "select 1;" }]),
      /out of sequence/,
    );
    assert.equal((await db.sql`select to_regclass('a') as t`)[0].t, null);
  });
});

test("migrate: an edited migration is refused", async () => {
  await withDb(async (db) => {
    await migrate(db, [m1]);
    await assert.rejects(
      migrate(db, [{ ...m1, text: m1.text + " -- edited" }, m2]),
      /edited/,
    );
    assert.equal((await db.sql`select to_regclass('b') as t`)[0].t, null);
  });
});

test("migrate: a database newer than the build is refused", async () => {
  await withDb(async (db) => {
    await migrate(db, [m1, m2]);
    await assert.rejects(migrate(db, [m1]), /unknown to this build/);
  });
});

test("migrate: a failing migration leaves nothing of itself", async () => {
  await withDb(async (db) => {
    const bad = { name: "002_bad.sql", text: "create table c (id int); select * from nope;" };
    await assert.rejects(migrate(db, [m1, bad]));
    assert.equal((await db.sql`select to_regclass('c') as t`)[0].t, null);
    const rows = await db.sql`select version from schema_migrations`;
    assert.deepEqual(rows.map((r) => r.version), [1]);
  });
});

test("migrate: two instances starting together apply each migration exactly once", async () => {
  await withTwoConnections(async (a, b) => {
    // Not idempotent on purpose: a second run of 002 would insert a second row.
    const [ra, rb] = await Promise.all([migrate(a, [m1, m2]), migrate(b, [m1, m2])]);
    assert.deepEqual([...ra, ...rb].sort(), ["001_a.sql", "002_b.sql"]);
    assert.equal((await a.sql`select count(*)::int as n from a`)[0].n, 1);
  });
});

test("migrate: the bundled migrations apply cleanly on an empty database", async () => {
  await withDb(async (db) => {
    const applied = await migrate(db, migrations);
    assert.equal(applied.length, migrations.length);
  });
});

test("migrate: ads_occurrences has one station index, by time only, of confirmed rows", async () => {
  await withDb(async (db) => {
    await migrate(db, migrations);
    const indexes = await db.sql<{ name: string; definition: string }>`
      select indexname as name, indexdef as definition from pg_indexes
       where tablename = 'ads_occurrences' and indexdef like '%(station_id%'`;
    assert.deepEqual(indexes.map((i) => i.name), ["ads_occurrences_station_time"]);
    assert.match(
      indexes[0].definition,
      /\(station_id, ad_started_at\) WHERE \(review_state = 'confirmed'::text\)$/,
    );
  });
});

test("migrate: SQL that takes the admin commands' lock takes theirs", () => {
  // The number is written out in SQL; a typo would make the data version's trigger take a lock
  // no command takes, and run alongside them.
  const locking = migrations.filter((m) => m.text.includes("pg_advisory_xact_lock"));
  assert.deepEqual(locking.map((m) => m.name), [
    "002_ads.sql",
    "006_ads_blocks.sql",
    "014_ads_approved_frozen.sql",
  ]);
  for (const m of locking) {
    const calls = [...m.text.matchAll(/pg_advisory_xact_lock\((\d+)\)/g)].map((c) => Number(c[1]));
    assert.ok(calls.length > 0, m.name);
    assert.deepEqual(calls, calls.map(() => ADS_DATA_LOCK), m.name);
  }
});
