// The one SQL interface of the service: tagged-template queries and transactions, backed by
// postgres.js when DATABASE_URL is set and by embedded PGlite otherwise. Both receive the same
// text with $n placeholders and the same parameter list, compiled from the template by
// lib/db/template.ts, so a query behaves identically on either database.

import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DatabaseUnavailable } from "../errors.ts";
import { COPY_BINARY_HEADER, COPY_BINARY_TRAILER } from "./copy_binary.ts";
import { EXPIRED, within } from "./deadline.ts";
import { compile } from "./template.ts";
import { fromHexDigits } from "../encoding.ts";

export { empty, frag, type Fragment, join } from "./template.ts";

// deno-lint-ignore no-explicit-any
export type Row = Record<string, any>;

/** Runs a query; resolves to its rows. */
export interface Sql {
  <T extends Row = Row>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script without parameters. Only the migration runner uses it. */
  exec(script: string): Promise<void>;
  /**
   * Like the call, for a read whose columns are all bytea or text: bytea as its bytes, text as
   * its string, null as null. A bytea value never becomes text on the JavaScript heap first (the
   * ads API's packed parts: text the size of the data, garbage at once).
   */
  binary<T extends Row = Row>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  /**
   * Like binary, for large values: on PostgreSQL a bytea value comes as its bytes (its text form
   * is twice as many hex digits, which the driver assembles and the heap lets go again), through
   * a cursor in a transaction, which costs more statements: slower than binary for small values.
   * The bytes may share a buffer with the rest of the result: what is kept past the read is
   * copied.
   */
  binaryLarge<T extends Row = Row>(
    strings: TemplateStringsArray,
    ...values: unknown[]
  ): Promise<T[]>;
}

/**
 * Loads rows into a table with one COPY statement, none without rows. Text format: each chunk holds whole lines,
 * tab-separated, newline-terminated, with `\\`, tab and newline escaped. Binary format: each
 * chunk holds whole tuples (lib/db/copy_binary.ts); the loader adds the header and trailer. The
 * table and column names are constants of the caller, quoted as identifiers here; rows never
 * touch SQL text.
 */
export type CopyIn = {
  (table: string, columns: string[], chunks: AsyncIterable<string>): Promise<void>;
  (
    table: string,
    columns: string[],
    chunks: AsyncIterable<Uint8Array<ArrayBuffer>>,
    format: "binary",
  ): Promise<void>;
};

/** What each backend implements: CopyIn's two forms in one signature. */
type CopyInEither = (
  table: string,
  columns: string[],
  chunks: AsyncIterable<string | Uint8Array<ArrayBuffer>>,
  format?: "binary",
) => Promise<void>;

export interface Db {
  readonly kind: "postgres" | "pglite";
  readonly sql: Sql;
  /**
   * Like sql, for a read run many times with other values whose plan should not depend on them:
   * PostgreSQL plans again at each execution a statement whose plan for unknown values it
   * estimates to cost more than the plans for the values at hand, and for an ads page (a few
   * rows, found in memory, behind a dozen subqueries) planning cost more than running it. Its
   * own connections on PostgreSQL keep every plan generic; on PGlite it is sql. Not for
   * statements whose best plan depends on their values (the webhook worker's claims, whose
   * generic plans are much slower: bench/README.md).
   */
  readonly keptPlans: Sql;
  /** Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. */
  begin<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Per pool, the statements and transactions under way now (counted here: neither driver
   * tells) and the connections it may open; for metrics. Work beyond the connections waits.
   */
  pools(): { pool: string; busy: number; max: number }[];
  /**
   * Like begin, with a bulk loader bound to the same transaction: COPY FROM STDIN on
   * PostgreSQL, streamed; COPY from an in-memory blob on PGlite, so each call's data is held
   * whole there (callers load in bounded batches). Used by `admin import`.
   */
  beginBulk<T>(fn: (tx: Sql, copyIn: CopyIn) => Promise<T>): Promise<T>;
  /** The underlying client, for backend-specific probes (bench/ads.ts); all else uses sql. */
  readonly raw: { postgres?: postgres.Sql; pglite?: PGlite };
}

const CONNECTION_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);

/** True when the error says the database cannot be reached, not that the query was wrong. */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof DatabaseUnavailable) return true;
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && (CONNECTION_ERRORS.has(code) || code.startsWith("08"))) {
    return true;
  }
  const name = (err as { name?: unknown })?.name;
  return name === "ConnectionRefused" || name === "ConnectionReset" ||
    name === "NotConnected" || name === "BrokenPipe" || name === "TimedOut";
}

/** The same chunks, or null when there are none: a COPY of no rows is not sent. */
async function nonEmpty<T>(chunks: AsyncIterable<T>): Promise<AsyncIterable<T> | null> {
  const rest = chunks[Symbol.asyncIterator]();
  const first = await rest.next();
  if (first.done) return null;
  return (async function* () {
    yield first.value;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  })();
}

/**
 * A backend's CopyIn: `load` runs the COPY statement reading from `source` with the data, binary
 * tuples framed by the stream's header and trailer.
 */
function copyFrom(
  source: string,
  load: (statement: string, data: AsyncIterable<string | Uint8Array<ArrayBuffer>>) => Promise<void>,
): CopyIn {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const copyIn: CopyInEither = async (table, columns, all, format) => {
    const chunks = await nonEmpty(all);
    if (!chunks) return;
    const binary = format === "binary";
    await load(
      `copy ${quote(table)} (${columns.map(quote).join(", ")}) from ${source}` +
        (binary ? " with (format binary)" : ""),
      binary
        ? (async function* () {
          yield COPY_BINARY_HEADER;
          yield* chunks;
          yield COPY_BINARY_TRAILER;
        })()
        : chunks,
    );
  };
  return copyIn as CopyIn;
}

function rethrow(err: unknown): never {
  throw isConnectionError(err) ? new DatabaseUnavailable(err) : err;
}

/** Statements and transactions under way on one pool (Db.pools: neither driver tells). */
type Busy = { count: number };

async function counted<T>(busy: Busy, work: () => Promise<T>) {
  busy.count++;
  try {
    return await work();
  } finally {
    busy.count--;
  }
}

/**
 * `sql` with every form of query (the tagged call, binary, binaryLarge) going through `around`,
 * which runs it with `query` on the Sql it picks (`sql` itself, or another one); `exec` is sql's
 * unless given. Wrappers (deadlines, replicas, recorders, tests) use this, so that a form added
 * to Sql reaches all of them.
 */
export function aroundQueries(
  sql: Sql,
  around: (
    query: (over: Sql) => Promise<Row[]>,
    strings: TemplateStringsArray,
    values: unknown[],
  ) => Promise<Row[]>,
  exec: Sql["exec"] = sql.exec,
): Sql {
  const form =
    (run: (over: Sql, strings: TemplateStringsArray, values: unknown[]) => Promise<Row[]>) =>
    (strings: TemplateStringsArray, ...values: unknown[]) =>
      around((over) => run(over, strings, values), strings, values);
  return Object.assign(form((over, strings, values) => over(strings, ...values)), {
    exec,
    binary: form((over, strings, values) => over.binary(strings, ...values)),
    binaryLarge: form((over, strings, values) => over.binaryLarge(strings, ...values)),
  }) as Sql;
}

/** An Sql over a driver's `query` and `exec`, each query counted in `busy` when given. */
function sqlOver(
  query: (text: string, params: unknown[]) => Promise<Row[]>,
  binary: (text: string, params: unknown[]) => Promise<Row[]>,
  binaryLarge: (text: string, params: unknown[]) => Promise<Row[]>,
  exec: (script: string) => Promise<unknown>,
  busy?: Busy,
): Sql {
  const over = (how: typeof query) => (strings: TemplateStringsArray, ...values: unknown[]) => {
    const { text, params } = compile(strings, values);
    return busy ? counted(busy, () => how(text, params)) : how(text, params);
  };
  return Object.assign(over(query), {
    exec: (script: string) => exec(script).then(() => {}),
    binary: over(binary),
    binaryLarge: over(binaryLarge),
  }) as Sql;
}

const BYTEA_OID = 17;
const TEXT_OID = 25;

/** bytea's hex text form starts with \x; the escape form (bytea_output = escape) is refused. */
function hexForm<T extends { length: number }>(text: T, starts: boolean): T {
  if (!starts) throw new Error("bytea is read in its hex form only (bytea_output = hex)");
  return text;
}

/**
 * PGlite's own bytea parser and serializer make a string per byte, slow for the ads API's packed
 * parts: these convert the hex text in one step, for every statement.
 */
const PGLITE_BYTEA = {
  parsers: {
    [BYTEA_OID]: (text: string) =>
      Uint8Array.fromHex(hexForm(text, text.startsWith("\\x")).slice(2)),
  },
  serializers: { [BYTEA_OID]: (bytes: Uint8Array) => `\\x${bytes.toHex()}` },
};

/** Refuses a column Sql.binary does not take, so that both backends answer it alike. */
function binaryColumn(column: { name: string; type: number }): void {
  if (column.type !== BYTEA_OID && column.type !== TEXT_OID) {
    throw new Error(`Sql.binary reads bytea and text columns; ${column.name} is neither`);
  }
}

/** A postgres.js raw result: each value as the bytes it came as. */
type RawResult = (Uint8Array | null)[][] & { columns: { name: string; type: number }[] };

/**
 * Rows of a raw result, text values decoded from UTF-8 and bytea ones by `bytea` from the form
 * they came in.
 */
function rowsOfRaw(result: RawResult, bytea: (value: Uint8Array) => Uint8Array): Row[] {
  result.columns.forEach(binaryColumn);
  const utf8 = new TextDecoder();
  return result.map((values) => {
    const row: Row = {};
    result.columns.forEach((column, i) => {
      const value = values[i];
      row[column.name] = value === null
        ? null
        : column.type === BYTEA_OID
        ? bytea(value)
        : utf8.decode(value);
    });
    return row;
  });
}

/** A bytea value's text form, \x and hex digits, decoded straight into bytes. */
const fromHexForm = (value: Uint8Array) =>
  fromHexDigits(hexForm(value, value[0] === 0x5c && value[1] === 0x78).subarray(2));

/**
 * A read in PostgreSQL's binary format, through a binary cursor on a connection `conn` holds
 * alone (reserved, or its transaction's): its FETCH goes over the simple protocol, whose rows come
 * in the cursor's format (over the extended one, Bind would ask for text), with the values as
 * postgres.js received them; the statement keeps its parameters. Outside a transaction it opens
 * one, so that BEGIN, DECLARE and FETCH with COMMIT go out together, in one round trip, and the
 * query runs within the FETCH: its errors and statement_timeout are its own, and the cursor ends
 * with the transaction. One read at a time per connection (the cursor has one name).
 */
async function readBinaryFormat(
  conn: postgres.Sql,
  text: string,
  params: unknown[],
  inTransaction: boolean,
) {
  const settled = await Promise.allSettled([
    inTransaction ? null : conn.unsafe("begin").simple(),
    conn.unsafe(`declare onda_binary binary cursor for ${text}`, params as never[], {
      prepare: true,
    }),
    conn.unsafe(`fetch all from onda_binary; ${inTransaction ? "close onda_binary" : "commit"}`)
      .simple().raw(),
  ]);
  const failed = settled.find((s) => s.status === "rejected") as PromiseRejectedResult | undefined;
  if (failed) {
    // A failed statement leaves its transaction aborted: this one is ended before the connection
    // goes back to the pool (a caller's own transaction rolls back with its failure).
    if (!inTransaction && !isConnectionError(failed.reason)) {
      await conn.unsafe("rollback").simple();
    }
    throw failed.reason;
  }
  // In the binary format, a bytea value is its bytes.
  const fetched = settled[2] as PromiseFulfilledResult<unknown>;
  return rowsOfRaw(fetched.value as RawResult, (bytes) => bytes);
}

/** fn on a connection no other statement uses meanwhile (a cursor lives on one connection). */
async function reserved<T>(pool: postgres.Sql, fn: (conn: postgres.Sql) => Promise<T>) {
  const conn = await pool.reserve();
  try {
    return await fn(conn);
  } finally {
    conn.release();
  }
}

export interface DbOptions {
  databaseUrl: string | null;
  /** PGlite data directory, or "memory://" for a throwaway database. */
  dataDir: string;
  poolMax?: number;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolMax ?? 10)
    : await openPglite(options.dataDir);
}

/**
 * TLS as the URL's sslmode asks (`?sslmode=require` for a database across a network), none when
 * it names none. Given explicitly: an option overrides the URL in postgres.js, and reading
 * PGSSLMODE instead would widen the --allow-env list. A mode libpq does not know is refused, as
 * libpq refuses it: a misspelt `require` must not connect, password and all, without TLS.
 */
function sslOf(url: string): false | "require" | "allow" | "prefer" | "verify-full" {
  const mode = new URL(url).searchParams.get("sslmode");
  if (mode === null || mode === "disable") return false;
  if (mode === "require" || mode === "allow" || mode === "prefer") return mode;
  if (mode === "verify-ca" || mode === "verify-full") return "verify-full";
  throw new Error(
    `the database URL's sslmode "${mode}" is not one of disable, allow, prefer, require, ` +
      "verify-ca, verify-full",
  );
}

function openPostgres(url: string, max: number): Db {
  // Every option is given explicitly so postgres.js does not read PG* variables for them
  // (which would widen the --allow-env list); int8 is read as a number, as PGlite does.
  const options = {
    max,
    ssl: sslOf(url),
    // No idle timeout: postgres.js re-arms it (a Node-compatible setTimeout) every time a
    // connection turns idle, a cost on every answer.
    // Idle connections are closed at the end of their lifetime (max_lifetime) instead.
    idle_timeout: 0,
    connect_timeout: 2,
    max_lifetime: 60 * 30,
    max_pipeline: 100,
    // A reconnect asked for after this backoff has passed (any cut longer than it) makes
    // postgres.js pass setTimeout a negative delay, and Node's timers print a
    // TimeoutNegativeWarning once per process; they wait one millisecond instead, so the
    // reconnect starts at once, as it should. No option changes that computation: the warning is harmless and left
    // visible (tests/service/reconnect_test.ts).
    backoff: (attempt: number) => Math.min(0.1 * attempt, 1),
    keep_alive: 30,
    prepare: true,
    debug: false,
    fetch_types: true,
    publications: "alltables",
    target_session_attrs: undefined,
    onnotice: () => {},
    types: {
      int8: {
        to: 20,
        from: [20],
        serialize: (x: number | bigint) => String(x),
        parse: (x: string) => Number(x),
      },
      // A string given for a json/jsonb parameter is already JSON text (as PGlite treats
      // it); postgres.js would otherwise encode it a second time.
      json: {
        to: 3802,
        from: [114, 3802],
        serialize: (x: unknown) => typeof x === "string" ? x : JSON.stringify(x),
        parse: (x: string) => JSON.parse(x),
      },
    },
  };
  // The typings lag behind the options postgres.js reads (max_pipeline, backoff, ...).
  // deno-lint-ignore no-explicit-any
  const client = postgres(url, options as any);
  // Two pools on one database, not a primary and a replica (that is lib/db/replica.ts): a
  // connection's plan_cache_mode holds for all it runs, and one setting cannot serve both kinds
  // of statement (Db.keptPlans). Setting it per statement would cost a round trip each. The
  // second pool opens connections only when a kept-plan statement runs.
  const keptPlans = postgres(url, {
    ...options,
    connection: { plan_cache_mode: "force_generic_plan" },
    // deno-lint-ignore no-explicit-any
  } as any);
  const main = { count: 0 }, kept = { count: 0 };
  // A transaction's statements run on its one connection, counted once with the transaction.
  // A large binary read outside one reserves a connection for its cursor.
  const bind = (conn: postgres.Sql, busy?: Busy, inTransaction = false) =>
    sqlOver(
      // unsafe() is the entry point that takes prepared $n text; the parameters stay
      // parameters. prepare:true caches the statement per connection.
      // deno-lint-ignore no-explicit-any
      (text, params) => conn.unsafe(text, params as any[], { prepare: true }).catch(rethrow),
      (text, params) =>
        // deno-lint-ignore no-explicit-any
        conn.unsafe(text, params as any[], { prepare: true }).raw()
          .then((result) => rowsOfRaw(result as unknown as RawResult, fromHexForm))
          .catch(rethrow),
      (text, params) =>
        (inTransaction
          ? readBinaryFormat(conn, text, params, true)
          : reserved(conn, (own) => readBinaryFormat(own, text, params, false))).catch(rethrow),
      (script) => conn.unsafe(script).catch(rethrow),
      busy,
    );
  return {
    kind: "postgres",
    sql: bind(client, main),
    keptPlans: bind(keptPlans, kept),
    begin: <T>(fn: (tx: Sql) => Promise<T>) =>
      counted(
        main,
        () => client.begin((tx) => fn(bind(tx as unknown as postgres.Sql, undefined, true))),
      ).catch(
        rethrow,
      ) as Promise<T>,
    pools: () => [
      { pool: "main", busy: main.count, max },
      { pool: "kept", busy: kept.count, max },
    ],
    async close() {
      await Promise.all([client.end({ timeout: 5 }), keptPlans.end({ timeout: 5 })]);
    },
    beginBulk: (fn) =>
      // deno-lint-ignore no-explicit-any
      client.begin((tx: any) =>
        fn(
          bind(tx, undefined, true),
          copyFrom("stdin", async (statement, data) => {
            await pipeline(Readable.from(data), await tx.unsafe(statement).writable());
          }),
        )
      ).catch(rethrow) as ReturnType<typeof fn>,
    raw: { postgres: client },
  };
}

/**
 * PGlite is a single process's database: a second process opening the same directory would
 * corrupt it. An exclusive lock on a file beside the data makes the second one stop instead.
 */
async function lockDataDir(dataDir: string): Promise<Deno.FsFile> {
  await Deno.mkdir(dataDir, { recursive: true });
  const file = await Deno.open(`${dataDir}/onda.lock`, { write: true, create: true });
  if (await within(file.lock(true), 1000) === EXPIRED) {
    throw new Error(
      `the embedded database in ${dataDir} is in use by another Onda process; stop it first ` +
        "(or use PostgreSQL through DATABASE_URL to run several processes)",
    );
  }
  return file;
}

async function openPglite(dataDir: string): Promise<Db> {
  const memory = dataDir.startsWith("memory://");
  const lock = memory ? null : await lockDataDir(dataDir);
  // The cluster lives in a subdirectory: initdb wants an empty directory, and the lock file
  // sits beside it.
  const pg = await PGlite.create(memory ? dataDir : `${dataDir}/pgdata`, PGLITE_BYTEA);
  // One connection: every statement and transaction outside a transaction counts as its work.
  const main = { count: 0 };
  const bind = (conn: Pick<PGlite, "query" | "exec">, busy?: Busy) => {
    // PGlite hands bytea over as bytes already (PGLITE_BYTEA), whatever their size.
    const binary = async (text: string, params: unknown[]) => {
      const result = await conn.query<Row>(text, params);
      result.fields.forEach((f) => binaryColumn({ name: f.name, type: f.dataTypeID }));
      return result.rows;
    };
    return sqlOver(
      async (text, params) => (await conn.query<Row>(text, params)).rows,
      binary,
      binary,
      (script) => conn.exec(script),
      busy,
    );
  };
  const sql = bind(pg, main);
  return {
    kind: "pglite",
    sql,
    keptPlans: sql,
    // PGlite is one connection; its transaction() holds a lock so nothing interleaves.
    begin: (fn) => counted(main, () => pg.transaction((tx) => fn(bind(tx)))),
    pools: () => [{ pool: "main", busy: main.count, max: 1 }],
    async close() {
      await pg.close();
      lock?.close();
    },
    beginBulk: (fn) =>
      pg.transaction((tx) =>
        fn(
          bind(tx),
          // PGlite reads COPY input from one blob: the statement's data is held whole.
          copyFrom("'/dev/blob'", async (statement, data) => {
            await tx.query(statement, [], { blob: new Blob(await Array.fromAsync(data)) });
          }),
        )
      ),
    raw: { pglite: pg },
  };
}
