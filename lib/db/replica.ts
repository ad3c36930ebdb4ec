// Reads sent to a streaming replica (DATABASE_READ_URL): a Db whose statements and transactions
// run on the replica, and on the primary while the replica cannot be reached, and the replica's
// lag as /status reports it. Only reads that need no read-your-writes are given it (the ads API,
// whose clients never write); a write sent to it fails there (a replica is read-only), and bulk
// loads go to the primary.

import { aroundQueries, type Db, isConnectionError, openDb, type Sql } from "./db.ts";
import { EXPIRED, within } from "./deadline.ts";

/** After a failed connection the replica is tried again this much later; the primary reads. */
const REPLICA_RETRY_MS = 2000;

/** What a read returns when the replica kept silent: it is marked down and the primary reads. */
const SILENT: unique symbol = Symbol("silent");

export interface ReplicaStatus {
  state: "ok" | "unavailable";
  /** How long the replica's data is behind the primary's: 0 when it has replayed everything. */
  lag_seconds: number | null;
  lag_bytes: number | null;
}

export type ReadReplica = Awaited<ReturnType<typeof openReadReplica>>;

/**
 * A statement the primary should run instead: the replica cannot be reached ("down"), or it
 * cancelled the statement because replaying the primary's changes needed what it read (a
 * conflict with recovery), or it has not replayed the schema the statement needs yet (a
 * migration just applied): "behind".
 */
function primaryAnswers(err: unknown): "down" | "behind" | null {
  if (isConnectionError(err)) return "down";
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && BEHIND.has(code) ? "behind" : null;
}

/** serialization_failure (recovery conflict), undefined table, column, function and object. */
const BEHIND = new Set(["40001", "42P01", "42703", "42883", "42704"]);

/**
 * `answerMs`: how long a read waits for the replica before asking whether it answers at all.
 * A replica can hang without erroring (it accepts connections and never answers, or a network
 * path drops packets silently): a read that waited that long sends a trivial probe on a
 * connection of its own, and if the probe gets no answer within `answerMs` either, the replica
 * is marked down as an unreachable one is and the primary answers the read. A replica that is
 * only slow on a heavy read answers the probe, and the read goes on waiting for it.
 */
export async function openReadReplica(
  primary: Db,
  url: string,
  poolMax: number,
  answerMs: number,
) {
  // postgres.js connects at the first statement, so a replica down at start is only marked so.
  const replica = await openDb({ databaseUrl: url, dataDir: "", poolMax });
  let downUntil = 0;
  const markDown = () => downUntil = performance.now() + REPLICA_RETRY_MS;

  // The probe's own pool, so that reads holding every connection of the replica's pool (slow or
  // hung) do not make it wait; dropped when it went unanswered, as its connection is then stuck.
  let prober: Db | null = null;
  let probing: Promise<boolean> | null = null;
  const replicaAnswers = () =>
    probing ??= (async () => {
      prober ??= await openDb({ databaseUrl: url, dataDir: "", poolMax: 1 });
      const probe = prober.sql`select 1`.then(() => true, () => false);
      if (await within(probe, answerMs) === true) return true;
      const stuck = prober;
      prober = null;
      stuck.close().catch(() => {});
      return false;
    })().finally(() => probing = null);

  /** The replica's answer to `read`, or SILENT when the replica stopped answering. */
  const answered = async <T>(read: Promise<T>): Promise<T | typeof SILENT> => {
    // Left behind when the replica is silent: its late failure is nobody's.
    read.catch(() => {});
    for (;;) {
      const result = await within(read, answerMs);
      if (result !== EXPIRED) return result;
      if (!await replicaAnswers()) return SILENT;
    }
  };
  // Each pool's first statement is a trivial one, so that postgres.js knows the array types
  // before any statement returning one is described (see lib/server.ts); tried again until it
  // succeeds once (a replica down at start), as the types then stay known to the pool.
  let warmed: Promise<unknown> | null = null;
  const warm = () =>
    warmed ??= Promise.all([replica.sql`select 1`, replica.keptPlans`select 1`]).catch((err) => {
      warmed = null;
      throw err;
    });

  /** work on the replica, or on the primary while the replica is down or cannot run it. */
  const onReplica = async <T>(work: (db: Db) => Promise<T>): Promise<T> => {
    if (performance.now() >= downUntil) {
      try {
        const result = await answered(warm().then(() => work(replica)));
        if (result !== SILENT) return result;
        markDown();
      } catch (err) {
        const why = primaryAnswers(err);
        if (why === null) throw err;
        if (why === "down") markDown();
      }
    }
    return await work(primary);
  };
  const routed = (pick: (db: Db) => Sql): Sql =>
    aroundQueries(
      pick(primary),
      (query) => onReplica((d) => query(pick(d))),
      (script) => primary.sql.exec(script),
    );

  const db: Db = {
    kind: "postgres",
    sql: routed((d) => d.sql),
    keptPlans: routed((d) => d.keptPlans),
    // A read that must see one moment (the ads indexes' loads): a transaction on the replica,
    // run again on the primary if the replica fails; a read has nothing to undo.
    begin: (fn) => onReplica((d) => d.begin(fn)),
    beginBulk: (fn) => primary.beginBulk(fn),
    close: () => closeAll(),
    raw: replica.raw,
    pools: () => replica.pools().map((p) => ({ ...p, pool: `replica ${p.pool}` })),
  };

  /** Where the replica is, against the primary's WAL position `lsn`. */
  async function measure(lsn: string): Promise<ReplicaStatus> {
    // Behind by bytes of WAL the primary had written when asked; in time, since the last
    // transaction the replica replayed (the primary's commit time), counted only while behind,
    // as a replica with nothing to replay is not late however long ago that was.
    const [row] = await replica.sql<{ bytes: number | null; since: number | null }>`
      select greatest(0, pg_wal_lsn_diff(${lsn}::pg_lsn, pg_last_wal_replay_lsn()))::float8
               as bytes,
             extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since`;
    // Not replaying at all (a server out of recovery): nothing to be behind.
    const bytes = row.bytes ?? 0;
    return {
      state: "ok",
      lag_seconds: bytes === 0 ? 0 : Math.max(0, Math.round((row.since ?? 0) * 1000) / 1000),
      lag_bytes: bytes,
    };
  }

  return {
    /** Reads on the replica, or on the primary while the replica is down. */
    db,
    /** Asks the primary and the replica where each is; unavailable after `timeoutMs`. */
    async status(timeoutMs: number): Promise<ReplicaStatus> {
      // The primary first: a primary that does not answer fails the caller's own check.
      const [{ lsn }] = await primary.sql<{ lsn: string }>`
        select pg_current_wal_lsn()::text as lsn`;
      try {
        const status = await within(measure(lsn), timeoutMs);
        if (status !== EXPIRED) {
          // Answering again: reads need not wait for the retry delay to go back to it.
          downUntil = 0;
          return status;
        }
        // Silent past the check's time: down, as reads would find it.
        markDown();
      } catch (err) {
        if (primaryAnswers(err) === "down") markDown();
      }
      return { state: "unavailable", lag_seconds: null, lag_bytes: null };
    },
    close: () => closeAll(),
  };

  async function closeAll() {
    await Promise.all([replica.close(), prober?.close()]);
  }
}
