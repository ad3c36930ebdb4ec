// Schemas of single values: strings, numbers, booleans, instants and dates, e-mail addresses,
// UUIDs, enumerations, and any JSON for responses described in prose.

import {
  type Doc,
  documented,
  invalid,
  type JsonSchema,
  make,
  type Schema,
  storable,
} from "./core.ts";

/**
 * `max` is a rule of the field: none by default (a body is at most 64 KiB anyway);
 * `patternHint` describes the pattern in the error message.
 */
type StringRules = { min?: number; max?: number; pattern?: RegExp; patternHint?: string };

export function string(options: StringRules & Doc<string> = {}): Schema<string> {
  const { min = 0, max = Infinity, pattern } = options;
  const json: JsonSchema = { type: "string" };
  if (min > 0) json.minLength = min;
  if (max !== Infinity) json.maxLength = max;
  if (pattern) json.pattern = pattern.source;
  return make(documented(json, options), (value, field) => {
    if (typeof value !== "string") throw invalid(field, `${field} must be a string.`);
    storable(value, field);
    if (value.length < min) {
      throw invalid(
        field,
        min === 1 ? `${field} must not be empty.` : `${field} must be at least ${min} characters.`,
      );
    }
    if (value.length > max) throw invalid(field, `${field} must be at most ${max} characters.`);
    if (pattern && !pattern.test(value)) {
      throw invalid(field, `${field} must be ${options.patternHint ?? `like ${pattern.source}`}.`);
    }
    return value;
  });
}

type Bounds = { min?: number; max?: number } & Doc<number>;

/** An integer; without min or max only JavaScript's safe range, which is no rule to document. */
export function int(options: Bounds = {}): Schema<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
  const json: JsonSchema = { type: "integer" };
  if (options.min !== undefined) json.minimum = min;
  if (options.max !== undefined) json.maximum = max;
  documented(json, options);
  const check = (value: number, field: string) => {
    if (value < min || value > max) {
      throw invalid(field, `${field} must be an integer from ${min} to ${max}.`);
    }
    return value;
  };
  return make(
    json,
    (value, field) => {
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        throw invalid(field, `${field} must be an integer.`);
      }
      return check(value, field);
    },
    (raw, field) => {
      if (!/^-?\d{1,16}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
        throw invalid(field, `${field} must be an integer.`);
      }
      return check(Number(raw), field);
    },
  );
}

export function number(options: Bounds = {}): Schema<number> {
  const { min = -Number.MAX_VALUE, max = Number.MAX_VALUE } = options;
  const json = documented({ type: "number" }, options);
  if (options.min !== undefined) json.minimum = min;
  if (options.max !== undefined) json.maximum = max;
  const check = (value: unknown, field: string) => {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw invalid(field, `${field} must be a number.`);
    }
    if (value < min || value > max) {
      throw invalid(field, `${field} must be from ${min} to ${max}.`);
    }
    return value;
  };
  return make(json, check, (raw, field) => {
    if (!/^-?\d+(\.\d+)?$/.test(raw)) throw invalid(field, `${field} must be a number.`);
    return check(Number(raw), field);
  });
}

export function boolean(options: Doc<boolean> = {}): Schema<boolean> {
  const parse = (value: unknown, field: string) => {
    if (typeof value !== "boolean") throw invalid(field, `${field} must be true or false.`);
    return value;
  };
  const words = new Map<unknown, boolean>([["true", true], ["false", false]]);
  return make(
    documented({ type: "boolean" }, options),
    parse,
    (raw, field) => parse(words.get(raw) ?? raw, field),
  );
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** ISO 8601 date-time that must carry a time zone (Z or ±hh:mm). */
export function dateTime(description?: string, example?: string): Schema<Date> {
  return make(
    documented({ type: "string", format: "date-time" }, { description, example }),
    (value, field) => {
      const match = typeof value === "string" ? DATE_TIME.exec(value) : null;
      if (!match) {
        throw invalid(
          field,
          `${field} must be an ISO 8601 date-time with a time zone, like 2026-11-20T08:15:30Z.`,
        );
      }
      const [, y, mo, d, h, mi, s] = match.map(Number);
      const date = new Date(value as string);
      const calendar = new Date(Date.UTC(y, mo - 1, d));
      if (
        Number.isNaN(date.getTime()) || calendar.getUTCMonth() !== mo - 1 ||
        calendar.getUTCDate() !== d || h > 23 || mi > 59 || (s || 0) > 59
      ) {
        throw invalid(field, `${field} is not a real date and time.`);
      }
      // PostgreSQL has no year 0 (1 BC precedes AD 1): an earlier instant would fail in the
      // query instead of here.
      if (date.getUTCFullYear() < 1) {
        throw invalid(field, `${field} must be in the year 1 or later.`);
      }
      return date;
    },
  );
}

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is not ours to judge.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

export function email(): Schema<string> {
  return make({ type: "string", format: "email", maxLength: 254 }, (value, field) => {
    if (typeof value !== "string" || value.length > 254 || !EMAIL.test(value)) {
      throw invalid(field, `${field} must be an e-mail address.`);
    }
    storable(value, field);
    return value;
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function uuid(options: { v4?: boolean; description?: string } = {}): Schema<string> {
  const pattern = options.v4 ? UUID_V4 : UUID;
  return make(documented({ type: "string", format: "uuid" }, options), (value, field) => {
    if (typeof value !== "string" || !pattern.test(value)) {
      throw invalid(field, `${field} must be a UUID${options.v4 ? " v4" : ""}.`);
    }
    return value.toLowerCase();
  });
}

export function enumOf<const T extends string>(values: readonly T[]): Schema<T> {
  return make({ type: "string", enum: [...values] }, (value, field) => {
    if (typeof value !== "string" || !values.includes(value as T)) {
      throw invalid(field, `${field} must be one of: ${values.join(", ")}.`);
    }
    return value as T;
  });
}

/** A calendar date, YYYY-MM-DD. */
export function date(description?: string): Schema<string> {
  return make(documented({ type: "string", format: "date" }, { description }), (value, field) => {
    const ms = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? Date.parse(value + "T00:00:00Z")
      : NaN;
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
      throw invalid(field, `${field} must be a date like 2026-11-20.`);
    }
    return value as string;
  });
}

/** Any JSON value; for documenting responses whose inner shape is described in prose. */
export function anyJson(description?: string): Schema<unknown> {
  return make(description ? { description } : {}, (value) => value);
}
