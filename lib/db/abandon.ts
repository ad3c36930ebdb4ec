// The database as one request sees it: once the request has been given up at its deadline, it
// sends nothing more, and a transaction of its rolls back instead of committing.

import { DatabaseUnavailable } from "../errors.ts";
import { aroundQueries, type Db, type Sql } from "./db.ts";

function givenUp(): DatabaseUnavailable {
  return new DatabaseUnavailable(new Error("the request was given up at its deadline"));
}

/**
 * `db` for the request whose deadline aborts `signal`. The client was told that its request
 * failed, so what the request had not done must not happen afterwards, when the database
 * answers again: a statement or transaction it has not started is refused, and a transaction
 * it has open checks the signal last, after its function resolved and right before COMMIT is
 * sent, and rolls back if it aborted (as on any error). What cannot be taken back is a commit
 * sent before the deadline: a transaction's COMMIT, or a single statement, which commits on its
 * own. A creating POST with an Idempotency-Key writes its key's record in that same commit, or
 * is not bound to this at all (lib/http/idempotency.ts `finishesWhenGivenUp`), so that a retry
 * with the same key replays the answer instead of writing twice.
 */
export function abandonable(db: Db, signal: AbortSignal): Db {
  const unlessGivenUp = <T>(work: () => Promise<T>): Promise<T> =>
    signal.aborted ? Promise.reject(givenUp()) : work();
  const refusing = (sql: Sql): Sql =>
    aroundQueries(
      sql,
      (query) => unlessGivenUp(() => query(sql)),
      (script) => unlessGivenUp(() => sql.exec(script)),
    );
  const commitUnlessGivenUp = async <T>(work: Promise<T>): Promise<T> => {
    const result = await work;
    if (signal.aborted) throw givenUp();
    return result;
  };
  return {
    ...db,
    sql: refusing(db.sql),
    keptPlans: refusing(db.keptPlans),
    begin: (fn) => unlessGivenUp(() => db.begin((tx) => commitUnlessGivenUp(fn(refusing(tx))))),
    beginBulk: (fn) =>
      unlessGivenUp(() =>
        db.beginBulk((tx, copyIn) => commitUnlessGivenUp(fn(refusing(tx), copyIn)))
      ),
  };
}
