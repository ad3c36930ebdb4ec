// Schema helpers: plain functions that validate a value and describe it in OpenAPI.
// The object that validates a request is the object the OpenAPI document is built from.

import { ApiError } from "../errors.ts";

// deno-lint-ignore no-explicit-any
export type JsonSchema = Record<string, any>;

export interface Schema<T> {
  /** Validates a value decoded from JSON; throws ApiError 400 naming the field. */
  parse(value: unknown, field: string): T;
  /** Validates a query or path value (always a string) by converting it first. */
  fromString(raw: string, field: string): T;
  /** The OpenAPI 3.1 (JSON Schema) description of the value. */
  readonly json: JsonSchema;
  /** May be absent; parse(undefined) yields the default (or undefined). */
  readonly optional: boolean;
  /** A query parameter that may be given more than once (see repeatable). */
  readonly repeatable?: boolean;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;
export type Shape = Record<string, Schema<unknown>>;
export type InferShape<S extends Shape> = { [K in keyof S]: Infer<S[K]> };

export function invalid(field: string, message: string): ApiError {
  return new ApiError(400, "VALIDATION_FAILED", { message, field });
}

function make<T>(
  json: JsonSchema,
  parse: (value: unknown, field: string) => T,
  fromString?: (raw: string, field: string) => T,
): Schema<T> {
  return {
    json,
    optional: false,
    parse(value, field) {
      if (value === undefined) throw invalid(field, `${field} is required.`);
      return parse(value, field);
    },
    fromString: fromString ?? ((raw, field) => parse(raw, field)),
  };
}

/** What the document says of a value besides its rules. */
interface Doc<T> {
  description?: string;
  example?: T;
}

function documented<T>(json: JsonSchema, { description, example }: Doc<T>): JsonSchema {
  if (description) json.description = description;
  if (example !== undefined) json.examples = [example];
  return json;
}

/**
 * Text PostgreSQL can hold: no NUL character (text refuses it) and no unpaired surrogate (JSON
 * refuses it, and it is no character). One rule for every string that reaches the database.
 */
function storable(value: string, field: string) {
  if (value.includes("\0") || !value.isWellFormed()) {
    throw invalid(field, `${field} must not contain a NUL character or an unpaired surrogate.`);
  }
}

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

export function array<T>(
  item: Schema<T>,
  options: { min?: number; max?: number; description?: string } = {},
): Schema<T[]> {
  const { min = 0, max = Infinity } = options;
  const json = documented({ type: "array", items: item.json }, options);
  if (min > 0) json.minItems = min;
  if (max !== Infinity) json.maxItems = max;
  return make(
    json,
    (value, field) => {
      if (!Array.isArray(value)) throw invalid(field, `${field} must be an array.`);
      if (value.length < min) throw invalid(field, `${field} must have at least ${min} items.`);
      if (value.length > max) throw invalid(field, `${field} must have at most ${max} items.`);
      return value.map((element, i) => item.parse(element, `${field}[${i}]`));
    },
    // Query form: comma-separated list.
    (raw, field) => {
      const parts = raw === "" ? [] : raw.split(",");
      if (parts.length < min || parts.length > max) {
        throw invalid(field, `${field} must list from ${min} to ${max} values.`);
      }
      return parts.map((part, i) => item.fromString(part, `${field}[${i}]`));
    },
  );
}

/** A JSON object with exactly these properties; unknown properties are rejected by name. */
export function object<S extends Shape>(
  shape: S,
  options: Doc<unknown> = {}, // the example as JSON, not parsed
): Schema<InferShape<S>> {
  const required = Object.keys(shape).filter((key) => !shape[key].optional);
  const json: JsonSchema = {
    type: "object",
    properties: Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, s.json])),
    additionalProperties: false,
  };
  if (required.length) json.required = required;
  return make(documented(json, options), (value, field) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw invalid(field, `${field} must be a JSON object.`);
    }
    const input = value as Record<string, unknown>;
    const prefix = field === "body" ? "" : `${field}.`;
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(shape, key)) {
        throw invalid(prefix + key, `${prefix + key} is not a known field.`);
      }
    }
    const out: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(shape)) {
      const parsed = schema.parse(input[key], prefix + key);
      if (parsed !== undefined) out[key] = parsed;
    }
    return out as InferShape<S>;
  });
}

/** May be absent (undefined); with a default, absence yields the default. */
export function optional<T>(schema: Schema<T>): Schema<T | undefined>;
export function optional<T>(schema: Schema<T>, fallback: T): Schema<T>;
export function optional<T>(schema: Schema<T>, fallback?: T): Schema<T | undefined> {
  return {
    ...schema,
    json: fallback === undefined ? schema.json : { ...schema.json, default: fallback },
    optional: true,
    parse: (value, field) => value === undefined ? fallback : schema.parse(value, field),
  };
}

/** May be JSON null. */
export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  return {
    ...schema,
    json: nullableJson(schema.json),
    parse: (value, field) => value === null ? null : schema.parse(value, field),
  };
}

function nullableJson(json: JsonSchema): JsonSchema {
  // A named schema stays one component: "it or null" refers to it.
  if (componentName(json)) return { anyOf: [json, { type: "null" }] };
  const out: JsonSchema = { ...json, type: [json.type, "null"] };
  if (json.enum) out.enum = [...json.enum, null];
  return out;
}

const COMPONENT = Symbol("component");

/**
 * Gives a schema a name: the OpenAPI document shows it once under components/schemas and
 * refers to it wherever it is used. The name is kept off the JSON text (not enumerable), so a
 * copy of the description made for another use (a default added) is not that component.
 */
export function named<T>(name: string, schema: Schema<T>): Schema<T> {
  return { ...schema, json: namedJson(name, schema.json) };
}

/** A copy of a description under a component name (see named). */
export function namedJson(name: string, json: JsonSchema): JsonSchema {
  const copy = { ...json };
  Object.defineProperty(copy, COMPONENT, { value: name, enumerable: false });
  return copy;
}

/** The component name of a schema's description, if it was named. */
export function componentName(json: JsonSchema): string | undefined {
  return (json as { [COMPONENT]?: string })[COMPONENT];
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

/**
 * A list query parameter that may also be repeated: `type=a&type=b` reads as `type=a,b`. Wraps
 * the whole parameter (optional included); every other parameter given twice is refused.
 */
export function repeatable<T>(list: Schema<T>, description: string): Schema<T> {
  return { ...list, json: { ...list.json, description }, repeatable: true };
}

/**
 * One of several named object schemas, told apart by the value of their `property` (an OpenAPI
 * discriminator), so a generated client can narrow on it. Each branch must be a named schema
 * whose `property` is the key it is listed under.
 */
export function discriminated<B extends Record<string, Schema<unknown>>>(
  property: string,
  branches: B,
  options: Doc<unknown> = {},
): Schema<Infer<B[keyof B]>> {
  const mapping: Record<string, string> = {};
  for (const [value, branch] of Object.entries(branches)) {
    const name = componentName(branch.json);
    if (!name) throw new Error(`the ${property} ${value} branch of a union must be named`);
    mapping[value] = `#/components/schemas/${name}`;
  }
  const json = documented({
    oneOf: Object.values(branches).map((branch) => branch.json),
    discriminator: { propertyName: property, mapping },
  }, options);
  return make(json, (value, field) => {
    const tag = typeof value === "object" && value !== null
      ? (value as Record<string, unknown>)[property]
      : undefined;
    if (typeof tag !== "string" || !Object.hasOwn(branches, tag)) {
      const where = field === "body" ? property : `${field}.${property}`;
      throw invalid(where, `${where} must be one of: ${Object.keys(branches).join(", ")}.`);
    }
    return branches[tag].parse(value, field) as Infer<B[keyof B]>;
  });
}

/** Any JSON value; for documenting responses whose inner shape is described in prose. */
export function anyJson(description?: string): Schema<unknown> {
  return make(description ? { description } : {}, (value) => value);
}

/**
 * Parses URL query parameters against a shape: a parameter not in the shape, or given twice
 * when it is not repeatable, is rejected by name (a typo must not silently widen a result).
 */
export function parseQuery<S extends Shape>(params: URLSearchParams, shape: S): InferShape<S> {
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (!Object.hasOwn(shape, key)) throw invalid(key, `${key} is not a known query parameter.`);
    if (seen.has(key) && !shape[key].repeatable) {
      throw invalid(key, `${key} must be given at most once.`);
    }
    seen.add(key);
  }
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const raw = schema.repeatable && params.has(key)
      ? params.getAll(key).join(",")
      : params.get(key);
    const value = raw === null ? schema.parse(undefined, key) : schema.fromString(raw, key);
    if (value !== undefined) out[key] = value;
  }
  return out as InferShape<S>;
}

/** Path parameters matched by the router: one of the wrong shape names no resource (404). */
export function parsePath<S extends Shape>(raw: Record<string, string>, shape: S): InferShape<S> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    try {
      out[key] = schema.fromString(raw[key], key);
    } catch {
      throw new ApiError(404, "NOT_FOUND", { message: "No such resource." });
    }
  }
  return out as InferShape<S>;
}
