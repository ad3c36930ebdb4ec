// The failed-login limiter: failures are recorded per e-mail and per client address in the
// database (shared by every instance); past the limit a login is refused with 429 before any
// password is checked, which also stops the expensive derivation being used for a DoS.

import type { AppContext } from "./router.ts";
import { ApiError } from "./errors.ts";

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_FAILURES_PER_EMAIL = 10;
export const LOGIN_FAILURES_PER_ADDRESS = 50;

function keys(email: string, address: string) {
  return { byEmail: `email:${email.toLowerCase()}`, byAddress: `addr:${address}` };
}

/** Throws 429 with Retry-After when the e-mail or the address has too many recent failures. */
export async function checkLoginAllowed(app: AppContext, email: string, address: string) {
  const { byEmail, byAddress } = keys(email, address);
  const now = app.clock();
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const [row] = await app.db.sql<
    { by_email: number; by_address: number; oldest: Date | null }
  >`
    select count(*) filter (where key = ${byEmail})::int as by_email,
           count(*) filter (where key = ${byAddress})::int as by_address,
           min(at) as oldest
    from login_failures where key in (${byEmail}, ${byAddress}) and at > ${since}`;
  if (row.by_email >= LOGIN_FAILURES_PER_EMAIL || row.by_address >= LOGIN_FAILURES_PER_ADDRESS) {
    const oldest = row.oldest ?? now;
    const seconds = Math.max(
      1,
      Math.ceil((oldest.getTime() + LOGIN_WINDOW_MS - now.getTime()) / 1000),
    );
    throw new ApiError(
      429,
      "RATE_LIMITED",
      "Too many failed logins; retry after Retry-After seconds.",
      null,
      { "Retry-After": String(seconds) },
    );
  }
}

export async function recordLoginFailure(app: AppContext, email: string, address: string) {
  const { byEmail, byAddress } = keys(email, address);
  const now = app.clock();
  await app.db.sql`
    insert into login_failures (key, at) values (${byEmail}, ${now}), (${byAddress}, ${now})`;
  // Old rows are useless to the limiter; pruning them here keeps the table small.
  await app.db.sql`
    delete from login_failures
    where key in (${byEmail}, ${byAddress}) and at <= ${new Date(now.getTime() - LOGIN_WINDOW_MS)}`;
}
