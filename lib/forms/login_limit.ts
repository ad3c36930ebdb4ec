// The failed-login limiter: attempts are recorded per e-mail and per client address (an IPv6
// one by its /64) in the database, shared by every instance; past the limit a login is refused
// with 429 before any password is checked, which also stops the expensive derivation being used
// for a DoS.
//
// A rule of its own, not a request limit (lib/http/ratelimit.ts): it counts failures, which a
// success takes back, over its own window (LOGIN_WINDOW_MS) and in the database whatever
// RATE_LIMIT_SCOPE, so the request counts (which only add, per minute) cannot hold it. Its 429
// is theirs (rateLimited).
//
// An attempt is counted as a failure *before* the password is checked, and the count includes
// it, so parallel guesses cannot all pass the check while each is still deriving: the k-th
// attempt to be recorded sees at least k. A successful login deletes its attempt again.

import type { AppContext } from "../http/router.ts";
import { addressKey, rateLimited } from "../http/ratelimit.ts";

const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const LOGIN_FAILURES_PER_EMAIL = 10;
const LOGIN_FAILURES_PER_ADDRESS = 50;

/** Records the attempt; throws 429 with Retry-After when it is over either limit. */
export async function beginLoginAttempt(
  app: AppContext,
  email: string,
  address: string,
): Promise<string> {
  const byEmail = `email:${email.toLowerCase()}`;
  const byAddress = `addr:${addressKey(address)}`;
  const now = app.clock();
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const attempt = crypto.randomUUID();
  // Old rows are useless to the limiter. Pruning every key's here (by the index on at) keeps the
  // table to the attempts of the last window, however many addresses and e-mails they came from.
  await app.db.sql`delete from login_failures where at <= ${since}`;
  await app.db.sql`
    insert into login_failures (key, at, attempt)
    values (${byEmail}, ${now}, ${attempt}), (${byAddress}, ${now}, ${attempt})`;
  // Per key, the failure whose leaving the window frees the next attempt: the next one counts
  // itself, so it passes once fewer than the limit are left, that is when the limit-th newest
  // has left (null: fewer than that many, this key does not refuse).
  const [row] = await app.db.sql<{ by_email: number; by_address: number; free_at: Date | null }>`
    select count(*) filter (where key = ${byEmail})::int as by_email,
           count(*) filter (where key = ${byAddress})::int as by_address,
           greatest(
             (select at from login_failures
              where key = ${byEmail} and at > ${since} and attempt <> ${attempt}
              order by at desc offset ${LOGIN_FAILURES_PER_EMAIL - 1} limit 1),
             (select at from login_failures
              where key = ${byAddress} and at > ${since} and attempt <> ${attempt}
              order by at desc offset ${LOGIN_FAILURES_PER_ADDRESS - 1} limit 1)
           ) as free_at
    from login_failures where key in (${byEmail}, ${byAddress}) and at > ${since}`;
  if (row.by_email > LOGIN_FAILURES_PER_EMAIL || row.by_address > LOGIN_FAILURES_PER_ADDRESS) {
    // A refused attempt checks no password, so it is not a failure of its own.
    await forgetLoginAttempt(app, attempt);
    // Until both keys would let the same login through: a failure counts while it is younger
    // than the window, so the one found above frees the attempt once it is the window old.
    // Failures recorded meanwhile by others can still move that time on.
    const freeAt = (row.free_at ?? now).getTime() + LOGIN_WINDOW_MS;
    const seconds = Math.ceil((freeAt - now.getTime()) / 1000);
    throw rateLimited(
      app.metrics,
      "login",
      "Too many failed logins; retry after Retry-After seconds.",
      Math.max(1, seconds),
    );
  }
  return attempt;
}

/** The attempt succeeded (or was refused unchecked): it does not count as a failure. */
export async function forgetLoginAttempt(app: AppContext, attempt: string) {
  await app.db.sql`delete from login_failures where attempt = ${attempt}`;
}
