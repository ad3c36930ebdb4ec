// The SQL interface behaves the same on PostgreSQL and PGlite: parameters (the compiler:
// db_template_test.ts), transactions that commit or roll back whole, binary reads.

import assert from "node:assert/strict";
import { aroundQueries, openDb } from "../../lib/db/db.ts";
import { fromHexDigits } from "../../lib/encoding.ts";
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

// Every byte value, and more than a socket read or a driver buffer holds.
const big = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => (i * 7919 + (i >> 8)) & 255);
await db.sql.exec("create table blobs (id int primary key, data bytea, label text)");
await db.sql`insert into blobs values (${1}, ${big}, ${"grand — ü"}), (${2}, ${new Uint8Array(
  0,
)}, ${null}),
                                      (${3}, ${null}, ${"nothing"})`;

for (const read of ["binary", "binaryLarge"] as const) {
  test(`db: ${read} reads give bytea as its bytes and text as text, alike on both backends`, async () => {
    const rows = await db.sql[read]<
      { id: string; data: Uint8Array | null; label: string | null }
    >`select id::text, data, label from blobs order by id`;
    assert.deepEqual(rows.map((r) => r.id), ["1", "2", "3"]);
    assert.ok(rows[0].data instanceof Uint8Array);
    assert.equal(rows[0].data!.length, big.length);
    assert.ok(rows[0].data!.every((byte, i) => byte === big[i]), "the bytes as written");
    assert.equal(rows[0].label, "grand — ü");
    assert.deepEqual([...rows[1].data!], []);
    assert.equal(rows[1].label, null);
    assert.equal(rows[2].data, null);
    // In a transaction too, beside its own writes, twice in turn; a column that is neither bytea
    // nor text is refused on both.
    await db.begin(async (tx) => {
      await tx`insert into blobs values (${9}, ${new Uint8Array([1, 2, 3])}, ${"mine"})`;
      const [row] = await tx[read]<{ data: Uint8Array }>`select data from blobs where id = ${1}`;
      assert.equal(row.data.length, big.length);
      const [mine] = await tx[read]<{ data: Uint8Array }>`select data from blobs where id = ${9}`;
      assert.deepEqual([...mine.data], [1, 2, 3]);
      throw new Error("rolled back");
    }).catch((err) => assert.equal(err.message, "rolled back"));
    await assert.rejects(db.sql[read]`select id from blobs`, /neither/);
  });
}

test("db: a plain read gives the same bytes (PGlite through the one-step parser given to it)", async () => {
  const [plain] = await db.sql<{ data: Uint8Array }>`select data from blobs where id = ${1}`;
  assert.ok(plain.data.length === big.length && plain.data.every((byte, i) => byte === big[i]));
});

test("db: bytea's escape form is refused where bytea is read as text, not misread", async () => {
  const escaped = (read: "binary" | "binaryLarge") =>
    db.begin(async (tx) => {
      await tx`set local bytea_output = 'escape'`;
      return await tx[read]<{ data: Uint8Array }>`
        select ${new TextEncoder().encode("ab\\12")}::bytea as data`;
    });
  await assert.rejects(escaped("binary"), /hex form/);
  // On PostgreSQL binaryLarge reads the bytes themselves, whatever bytea_output says.
  if (db.kind === "postgres") {
    assert.deepEqual([...(await escaped("binaryLarge"))[0].data], [
      ...new TextEncoder().encode("ab\\12"),
    ]);
  } else await assert.rejects(escaped("binaryLarge"), /hex form/);
});

test("db: a large binary read fails with its own error, as binary does", async () => {
  // Raised while the query runs, not when it is planned: label's length is read from the table.
  for (const read of ["binary", "binaryLarge"] as const) {
    await assert.rejects(
      db.sql[read]`select (1 / (length(label) - length(label)))::text as label from blobs
                    where id = ${3}`,
      (err: { code?: string }) => err.code === "22012",
      read,
    );
  }
});

test("db: a large binary read that fails leaves its connection able to read again", async () => {
  // More failures than the pool has connections, while planning, while running, and (aclitem
  // has no binary form) while fetching: the next reads, on every connection, find no transaction
  // or cursor left over.
  const failing = Array.from(
    { length: 24 },
    (_, i) =>
      i % 2
        ? db.sql.binaryLarge`select (1 / (length(label) - length(label)))::text as label
                           from blobs where id = ${3}`
        : db.sql.binaryLarge`select label from no_such_table`,
  );
  if (db.kind === "postgres") {
    failing.push(
      ...Array.from(
        { length: 12 },
        () =>
          db.sql.binaryLarge`select ${"postgres=r/postgres"}::aclitem::text as label,
                                ${"postgres=r/postgres"}::aclitem as acl`,
      ),
    );
  }
  for (const result of await Promise.allSettled(failing)) assert.equal(result.status, "rejected");
  const labels = await Promise.all(
    Array.from(
      { length: 24 },
      () => db.sql.binaryLarge<{ label: string }>`select label from blobs where id = ${3}`,
    ),
  );
  assert.ok(labels.every(([row]) => row.label === "nothing"));
});

test("db: a wrapper made with aroundQueries sees every form of query, and each answers as unwrapped", async () => {
  const seen: string[] = [];
  const wrapped = aroundQueries(db.sql, (query, strings) => {
    seen.push(strings.join("?").trim());
    return query(db.sql);
  });
  const bytes = new Uint8Array([0, 1, 254, 255]);
  const read = (sql: typeof db.sql) =>
    Promise.all([
      sql<{ n: number }>`select ${7}::int as n`,
      sql.binary<{ b: Uint8Array }>`select ${bytes}::bytea as b`,
      sql.binaryLarge<{ b: Uint8Array }>`select ${bytes}::bytea as b`,
    ]);
  assert.deepEqual(await read(wrapped), await read(db.sql));
  assert.deepEqual(seen, ["select ?::int as n", "select ?::bytea as b", "select ?::bytea as b"]);
});

test("db: hex digits decode to their bytes, and anything else is refused", () => {
  assert.deepEqual([...fromHexDigits(new TextEncoder().encode("00fFa5"))], [0, 255, 165]);
  assert.throws(() => fromHexDigits(new TextEncoder().encode("0")), /odd/);
  assert.throws(() => fromHexDigits(new TextEncoder().encode("0g")), /not a hex digit/);
  assert.throws(() => fromHexDigits(new TextEncoder().encode("é")), /not a hex digit/);
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
