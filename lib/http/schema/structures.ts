// Schemas built of other schemas: arrays, objects, optional and nullable values, repeatable
// query lists, and unions told apart by a property.

import {
  componentName,
  type Doc,
  documented,
  type Infer,
  type InferShape,
  invalid,
  type JsonSchema,
  make,
  type Schema,
  type Shape,
} from "./core.ts";

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
