// The database deadline of a request under /api/: past it, the request answers its API's
// `unavailable()` and what it had not yet done is abandoned.

import { DatabaseUnavailable } from "../errors.ts";
import { abandonable } from "../db/abandon.ts";
import { EXPIRED, within } from "../db/deadline.ts";
import { finishesWhenGivenUp } from "./idempotency.ts";
import type { Step } from "./pipeline.ts";
import { serviceRules } from "./router.ts";

/**
 * A request under /api/ waits for the database at most its route's deadline, maintenance read
 * included: a database that stops answering without closing its connections (a network
 * partition, a frozen server) would otherwise hold it until TCP gives up, minutes later. At
 * the deadline `givenUp` aborts: from then on the request sends nothing more and commits no
 * transaction (lib/db/abandon.ts), unless it is left to finish so that its Idempotency-Key
 * replays it (`finishesWhenGivenUp`). One step per handler: it counts that handler's requests.
 */
export function deadline(): Step {
  // Requests given up at their deadline whose work still waits for the database.
  let abandoned = 0;
  return async (x, next) => {
    // Every request under /api/ reads the maintenance window, so any may wait for the
    // database; /status has its own shorter check, and the embed routes never touch it.
    if (!x.path.startsWith("/api/")) return await next();
    const deadlineMs = (x.route?.rules ?? serviceRules).deadlineMs(x.app.config);
    const givenUp = new AbortController();
    if (!(x.route && finishesWhenGivenUp(x.route, x.req))) {
      x.app = { ...x.app, db: abandonable(x.app.db, givenUp.signal) };
    }
    // Once as many requests as the pool has connections have been given up and still wait,
    // the database is not answering: later ones answer at once instead of queueing more
    // statements without bound, to be run all together when it answers again.
    if (abandoned >= x.app.config.dbPoolMax) {
      throw new DatabaseUnavailable(
        new Error(`${abandoned} requests given up at the deadline still wait for the database`),
      );
    }
    const work = next();
    const result = await within(work, deadlineMs);
    if (result !== EXPIRED) return result;
    givenUp.abort();
    abandoned++;
    // Its work waits for the database's answer to what it had sent, then stops (or finishes,
    // to be replayed); its outcome is nobody's.
    const release = () => abandoned--;
    work.then(release, release);
    throw new DatabaseUnavailable(new Error(`no answer within ${deadlineMs} ms`));
  };
}
