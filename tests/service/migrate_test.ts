// Migrations: applied in order, once, recorded; a gap, an edited file or an unknown applied
// migration stops the start; two instances starting together apply each migration once.

import assert from "node:assert/strict";
import { type Db, openDb } from "../../lib/db/db.ts";
import { migrate } from "../../lib/db/migrate.ts";
import { ADS_DATA_LOCK } from "../../lib/ads/import.ts";
import { readInt64 } from "../../lib/encoding.ts";
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

test("migrate: 007 to 014 wait for an admin command in progress instead of deadlocking with it", async () => {
  // An approval or a grant takes the admin commands' lock, then writes the capture runs, the
  // grant row and the snapshots; the migrations alter those tables. Were the table locks taken
  // first, each would wait for the other.
  await withTwoConnections(async (admin, starting) => {
    await migrate(admin, migrations.slice(0, 6));
    let migrated = false;
    let pending: Promise<unknown> = Promise.resolve();
    await admin.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${ADS_DATA_LOCK})`;
      pending = migrate(starting, migrations).then(() => migrated = true);
      // Long enough for the migrations to reach whatever they wait on first.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(migrated, false, "the migrations wait for the command");
      await tx`delete from ads_capture_runs`;
      await tx`update ads_grants set updated_at = now()`;
      await tx`update ads_snapshots set approved_at = approved_at`;
      await tx`delete from ads_account_brand_days`;
    });
    await pending;
    assert.equal(migrated, true);
  });
});

for (const name of ["011_drop_occurrence_time_index.sql", "013_station_index_without_id.sql"]) {
  test(`migrate: ${name.slice(0, 3)} waits for an import in progress instead of deadlocking with it`, async () => {
    // An import writes ads_occurrences first and takes the admin commands' lock later (to rename
    // or approve); 011 drops and 013 replaces an index of that table. Were either to hold the admin
    // lock while waiting for the table, each would wait for the other.
    await withTwoConnections(async (importing, starting) => {
      await migrate(importing, migrations.slice(0, migrations.findIndex((m) => m.name === name)));
      let migrated = false;
      let pending: Promise<unknown> = Promise.resolve();
      await importing.begin(async (tx) => {
        await tx`
        insert into ads_occurrences (id, snapshot_seq, station_id, ad_started_at, ad_ended_at,
                                     duration_ms, duration_precision, review_state, brand_ids)
        values (gen_random_uuid(), 1, 'st', now(), now(), 0, 'detected', 'confirmed', '{br}')`;
        pending = migrate(starting, migrations).then(() => migrated = true);
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(migrated, false, "the migration waits for the import's table");
        await tx`select pg_advisory_xact_lock(${ADS_DATA_LOCK})`;
      });
      await pending;
      assert.equal(migrated, true);
    });
  });
}

test("migrate: 013 leaves ads_occurrences one station index, by time only, of confirmed rows", async () => {
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

test("migrate: 010 packs the JSON running totals exactly, large numbers and empty lists included", async () => {
  await withDb(async (db) => {
    const upTo = (name: string) =>
      migrations.slice(0, migrations.findIndex((m) => m.name === name));
    await migrate(db, upTo("010_packed_brand_figures.sql"));
    const big = 2 ** 52 - 1; // beyond int4, and the largest a summary adds exactly
    const days = [
      { day: "2026-01-01", figures: [[0, 5, 2 ** 31], [12, 34_000, 0], [big, 1, 7]] },
      { day: "2026-01-02", figures: [] as number[][] },
    ];
    await db.sql`insert into ads_accounts (id, name) values ('a', 'A')`;
    for (const { day, figures } of days) {
      await db.sql`
        insert into ads_account_brand_days (account_id, day, occurrences, duration_ms, human_ms)
        values ('a', ${day}::date, ${JSON.stringify(figures.map((f) => f[0]))}::json,
                ${JSON.stringify(figures.map((f) => f[1]))}::json,
                ${JSON.stringify(figures.map((f) => f[2]))}::json)`;
    }
    await migrate(db, upTo("011_drop_occurrence_time_index.sql"));
    const rows = await db.sql<{ day: string; figures: string }>`
      select day::text, figures from ads_account_brand_days
       order by day`;
    assert.deepEqual(
      rows.map((row) => {
        const view = new DataView(Uint8Array.fromBase64(row.figures).buffer);
        return {
          day: row.day,
          figures: Array.from(
            { length: view.byteLength / 24 },
            (_, i) => [0, 1, 2].map((k) => readInt64(view, i * 24 + k * 8)),
          ),
        };
      }),
      days,
    );
  });
});

test("migrate: a migration that takes the admin commands' lock takes theirs, first", () => {
  // The number is written out in SQL; a typo would make the migration take a lock no command
  // takes, and run alongside them. Before its first write, so it waits instead of deadlocking.
  const locking = migrations.filter((m) => m.text.includes("pg_advisory_xact_lock"));
  assert.deepEqual(locking.map((m) => m.name), [
    "006_account_occurrences.sql",
    "007_capture_run_bounds.sql",
    "008_summary_figures.sql",
    "009_coverage_index.sql",
    "010_packed_brand_figures.sql",
    "012_brand_days_version.sql",
    "014_shared_figures.sql",
  ]);
  for (const m of locking) {
    const calls = [...m.text.matchAll(/pg_advisory_xact_lock\((\d+)\)/g)].map((c) => Number(c[1]));
    assert.ok(calls.length > 0, m.name);
    assert.deepEqual(calls, calls.map(() => ADS_DATA_LOCK), m.name);
  }
  for (const m of locking.slice(1)) {
    const statements = m.text.replace(/--[^\n]*/g, "").split(";").map((x) => x.trim())
      .filter(Boolean);
    assert.match(statements[0], /^select pg_advisory_xact_lock/, m.name);
  }
});
