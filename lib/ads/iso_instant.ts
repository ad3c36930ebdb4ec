// ISO 8601 date-times with a time zone, read to the microsecond as PostgreSQL reads them. The
// import reads two per line, and the general reading (a regular expression, then Date.parse) is
// slow at that rate, so the usual shape is read digit by digit first.

/** An instant to the microsecond: Unix milliseconds, and 0-999 microseconds beyond them. */
export interface Instant {
  ms: number;
  micros: number;
}

// Groups: year, month, day, fraction digits, offset hours.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.(\d{1,6}))?)?(?:Z|[+-](\d{2}):\d{2})$/;
const DAY_MS = 86_400_000;

/** The instant a date-time names, or null when it is not one PostgreSQL would read the same. */
export function parseInstant(text: string): Instant | null {
  return quickInstant(text) ?? generalInstant(text);
}

/** b - a in microseconds (exact for differences under 285 years). */
export function microsBetween(a: Instant, b: Instant): number {
  return (b.ms - a.ms) * 1000 + b.micros - a.micros;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** 0 for a month that does not exist, so that every day is past its end. */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1] ?? 0;
}

/**
 * Every form the import accepts. Date.parse alone would roll 2026-02-30 over into March and
 * accept year 0 or an offset of +20:00, which PostgreSQL refuses, so those are refused here too.
 */
export function generalInstant(text: string): Instant | null {
  const parts = DATE_TIME.exec(text);
  const ms = parts ? Date.parse(text) : NaN;
  if (
    !parts || Number.isNaN(ms) || Number(parts[1]) < 1 ||
    Number(parts[3]) > daysInMonth(Number(parts[1]), Number(parts[2])) ||
    Number(parts[5] ?? 0) > 15
  ) {
    return null;
  }
  return { ms, micros: Number((parts[4] ?? "").padEnd(6, "0").slice(3)) };
}

/** The value of `count` decimal digits at `at`, or -1 when one of them is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** 400 Gregorian years: whole weeks and leap cycles, so every date repeats 400 years on. */
const CYCLE_MS = 146_097 * DAY_MS;

/**
 * `YYYY-MM-DDTHH:MM:SS[.f{1,6}](Z|±HH:MM)` with every field in its everyday range, read without
 * a regular expression; null for anything else (24:00, no seconds, a malformed text), which
 * generalInstant then decides. Where both answer they agree (tests/ads/iso_instant_test.ts).
 */
export function quickInstant(text: string): Instant | null {
  const year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  const hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
  if (
    text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 ||
    text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 ||
    year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) ||
    hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59
  ) {
    return null;
  }
  let at = 19;
  let fraction = 0; // microseconds
  if (text.charCodeAt(at) === 46) {
    let count = 0;
    for (at++; count < 6; at++, count++) {
      const digit = text.charCodeAt(at) - 48;
      if (!(digit >= 0 && digit <= 9)) break;
      fraction = fraction * 10 + digit;
    }
    if (count === 0) return null;
    for (; count < 6; count++) fraction *= 10;
  }
  let offsetMinutes = 0;
  const zone = text.charCodeAt(at);
  if (zone === 90) {
    if (text.length !== at + 1) return null;
  } else if (zone === 43 || zone === 45) {
    const hours = digits(text, at + 1, 2), minutes = digits(text, at + 4, 2);
    if (
      text.length !== at + 6 || text.charCodeAt(at + 3) !== 58 ||
      hours < 0 || hours > 15 || minutes < 0 || minutes > 59
    ) {
      return null;
    }
    offsetMinutes = (zone === 43 ? 1 : -1) * (hours * 60 + minutes);
  } else {
    return null;
  }
  // Date.UTC reads years 0 to 99 as 1900 to 1999: it is given the same date 400 years on.
  const ms = Date.UTC(year + 400, month - 1, day, hour, minute - offsetMinutes, second) -
    CYCLE_MS + Math.floor(fraction / 1000);
  return { ms, micros: fraction % 1000 };
}
