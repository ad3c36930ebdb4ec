// The database as one request sees it: once the request has been given up at its deadline, it
// sends nothing more, and a transaction of its rolls back instead of committing.

import { DatabaseUnavailable } from "../errors.ts";
import type { Db, Sql } from "./db.ts";

function givenUp(): DatabaseUnavailable {
  return new DatabaseUnavailable(new Error("the request was given up at its deadline"));
}

function refusing(sql: Sql, signal: AbortSignal): Sql {
  const query = <T>(strings: TemplateStringsArray, ...values: unknown[]) =>
    signal.aborted ? Promise.reject(givenUp()) : sql(strings, ...values);
  return Object.assign(query, {
    exec: (script: string) => signal.aborted ? Promise.reject(givenUp()) : sql.exec(script),
  }) as Sql;
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
  const commitUnlessGivenUp = <T>(result: T): T => {
    if (signal.aborted) throw givenUp();
    return result;
  };
  return {
    ...db,
    sql: refusing(db.sql, signal),
    keptPlans: refusing(db.keptPlans, signal),
    begin: (fn) =>
      signal.aborted
        ? Promise.reject(givenUp())
        : db.begin(async (tx) => commitUnlessGivenUp(await fn(refusing(tx, signal)))),
    beginBulk: (fn) =>
      signal.aborted
        ? Promise.reject(givenUp())
        : db.beginBulk(async (tx, copyIn) =>
          commitUnlessGivenUp(await fn(refusing(tx, signal), copyIn))
        ),
  };
}
