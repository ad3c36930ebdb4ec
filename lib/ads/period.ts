// Period rules of the ads API (ads-api.md §4, §8; contract.md §2): defaults, the 31-day
// maximum, the exclusive end, and the intersection with the account's granted period.

import { ApiError } from "../errors.ts";

export interface Period {
  since: Date;
  until: Date;
}

export const DEFAULT_PERIOD_DAYS = 7;
export const MAX_PERIOD_DAYS = 31;
export const DAY_MS = 86_400_000;

function unprocessable(field: string, message: string): ApiError {
  return new ApiError(422, "UNPROCESSABLE", { message: message, field });
}

/**
 * The period a request asks for: missing until = now, missing since = until minus 7 days;
 * since must be before until and the span at most 31 days.
 */
export function requestedPeriod(query: { since?: Date; until?: Date }, now: Date): Period {
  const until = query.until ?? now;
  const since = query.since ?? new Date(until.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (since.getTime() >= until.getTime()) {
    throw unprocessable("since", "since must be before until (until is exclusive).");
  }
  if (until.getTime() - since.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
    throw unprocessable("until", `One request covers at most ${MAX_PERIOD_DAYS} days.`);
  }
  return { since, until };
}

/** The requested period within the granted one; null when they do not overlap (or no grant). */
export function effectivePeriod(requested: Period, granted: Period | null): Period | null {
  if (!granted) return null;
  const since = Math.max(requested.since.getTime(), granted.since.getTime());
  const until = Math.min(requested.until.getTime(), granted.until.getTime());
  return since < until ? { since: new Date(since), until: new Date(until) } : null;
}

/** "00" to "99": two-digit fields without building a string per field. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => (n < 10 ? "0" : "") + n);

/**
 * ISO 8601 in UTC with Z and whole seconds when the value has no milliseconds, of a Date or of
 * epoch milliseconds. Computed from the epoch milliseconds (civil date from days, H. Hinnant's
 * algorithm): responses format hundreds of instants each, and toISOString was a tenth of the
 * coverage route's CPU.
 */
export function isoUtc(instant: Date | number): string {
  // A number is made a time value as new Date() would: its fraction dropped.
  const t = typeof instant === "number" ? Math.trunc(instant) : instant.getTime();
  const days = Math.floor(t / DAY_MS);
  let rest = t - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) -
      Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  // Other years keep toISOString's signed six-digit form (and an invalid date its RangeError).
  if (!(year >= 1000 && year <= 9999)) return new Date(t).toISOString().replace(".000Z", "Z");
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const ms = rest - seconds * 1000;
  return year + "-" + TWO_DIGITS[month] + "-" + TWO_DIGITS[day] + "T" + TWO_DIGITS[hours] + ":" +
    TWO_DIGITS[minutes] + ":" + TWO_DIGITS[seconds] +
    (ms ? `.${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z` : "Z");
}

export function periodJson(period: Period | null): { since: string; until: string } | null {
  return period ? { since: isoUtc(period.since), until: isoUtc(period.until) } : null;
}
