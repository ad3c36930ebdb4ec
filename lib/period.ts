// Period rules of the ads API (ads-api.md §4, §8; contract.md §2): defaults, the 31-day
// maximum, the exclusive end, and the intersection with the account's granted period.

import { ApiError } from "./errors.ts";

export interface Period {
  since: Date;
  until: Date;
}

export const DEFAULT_PERIOD_DAYS = 7;
export const MAX_PERIOD_DAYS = 31;
const DAY_MS = 86_400_000;

function unprocessable(field: string, message: string): ApiError {
  return new ApiError(422, "UNPROCESSABLE", message, field);
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

/** ISO 8601 in UTC with Z and whole seconds when the value has no milliseconds. */
export function isoUtc(date: Date): string {
  return date.toISOString().replace(".000Z", "Z");
}

export function periodJson(period: Period | null): { since: string; until: string } | null {
  return period ? { since: isoUtc(period.since), until: isoUtc(period.until) } : null;
}

/** Midnight UTC at or after `date`, and at or before it. */
export function ceilDay(date: Date): Date {
  return new Date(Math.ceil(date.getTime() / DAY_MS) * DAY_MS);
}

export function floorDay(date: Date): Date {
  return new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
}

/** YYYY-MM-DD of a UTC day. */
export function dayString(date: Date): string {
  return date.toISOString().slice(0, 10);
}
