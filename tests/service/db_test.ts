// The SQL interface behaves the same on PostgreSQL and PGlite: parameters (the compiler:
// db_template_test.ts), transactions that commit or roll back whole.

import assert from "node:assert/strict";
import { openDb } from "../../lib/db/db.ts";
import { freshDatabase, PG_FALLBACK_URL, test } from "../_server.ts";

const database = await freshDatabase();
const db = await openDb({ databaseUrl: database.url, dataDir: "memory://" });
await db.sql.exec("create table t (id int primary key, name text not null)");

test("db: values are parameters, never SQL text", async () => {
  const hostile = "x'); drop table t; --";
  await db.sql`insert into t (id, name) values (${1}, ${hostile})`;
  const [row] = await db.sql<{ name: string }>`select name from t where id = ${1}`;
  assert.equal(row.name, hostile);
  const [count] = await db.sql<{ n: number }>`select count(*)::int8 as n from t`;
  assert.equal(count.n, 1); // int8 comes back as a number on both backends
});

test("db: a transaction that throws leaves nothing behind", async () => {
  await assert.rejects(db.begin(async (tx) => {
    await tx`insert into t (id, name) values (${2}, ${"two"})`;
    await tx`insert into t (id, name) values (${2}, ${"duplicate"})`;
  }));
  const rows = await db.sql`select id from t where id = ${2}`;
  assert.equal(rows.length, 0);
});

test("db: a transaction that resolves commits and returns its value", async () => {
  const value = await db.begin(async (tx) => {
    await tx`insert into t (id, name) values (${3}, ${"three"})`;
    return "done";
  });
  assert.equal(value, "done");
  assert.equal((await db.sql`select id from t where id = ${3}`).length, 1);
});

test("db: arrays, dates and json round-trip", async () => {
  const when = new Date("2026-11-20T08:15:30.123Z");
  const [row] = await db.sql<{ a: string[]; d: Date; j: { k: number } }>`
    select ${["x", "y"]}::text[] as a, ${when}::timestamptz as d, ${
    JSON.stringify({ k: 1 })
  }::jsonb as j`;
  assert.deepEqual(row.a, ["x", "y"]);
  assert.equal(row.d.toISOString(), when.toISOString());
  assert.deepEqual(row.j, { k: 1 });
});

test("db: close", async () => {
  await db.close();
  await database.drop();
});

test("db: DATABASE_URL's sslmode is honoured (require refuses a server without TLS)", async () => {
  // The machine's PostgreSQL runs without TLS: `require` must fail where no sslmode connects.
  const base = new URL(PG_FALLBACK_URL);
  const [{ ssl }] = await (async () => {
    const plain = await openDb({ databaseUrl: base.toString(), dataDir: "" });
    try {
      return await plain.sql<{ ssl: string }>`select current_setting('ssl') as ssl`;
    } finally {
      await plain.close();
    }
  })();
  if (ssl === "on") return; // A server with TLS accepts both; nothing to tell apart here.
  const required = new URL(base);
  required.searchParams.set("sslmode", "require");
  const tls = await openDb({ databaseUrl: required.toString(), dataDir: "" });
  try {
    await assert.rejects(tls.sql`select 1`);
  } finally {
    await tls.close();
  }
});

test("db: an sslmode libpq does not know is refused before any connection, never plaintext", async () => {
  for (const mode of ["requre", "true", ""]) {
    const url = new URL(PG_FALLBACK_URL);
    url.searchParams.set("sslmode", mode);
    await assert.rejects(
      openDb({ databaseUrl: url.toString(), dataDir: "" }),
      new RegExp(`sslmode "${mode}" is not one of`),
      mode,
    );
  }
});
