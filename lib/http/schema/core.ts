// The schema's core: what a schema is, how one is made and documented, the error of a value
// that fails it, and component names for the OpenAPI document. Routes read it via ../schema.ts.

import { ApiError } from "../../errors.ts";

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

export function make<T>(
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
export interface Doc<T> {
  description?: string;
  example?: T;
}

export function documented<T>(json: JsonSchema, { description, example }: Doc<T>): JsonSchema {
  if (description) json.description = description;
  if (example !== undefined) json.examples = [example];
  return json;
}

/**
 * Text PostgreSQL can hold: no NUL character (text refuses it) and no unpaired surrogate (JSON
 * refuses it, and it is no character). One rule for every string that reaches the database.
 */
export function storable(value: string, field: string) {
  if (value.includes("\0") || !value.isWellFormed()) {
    throw invalid(field, `${field} must not contain a NUL character or an unpaired surrogate.`);
  }
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
