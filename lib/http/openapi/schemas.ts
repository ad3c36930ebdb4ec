// The schema side of the OpenAPI document: named schemas become components referred to by
// $ref, and every body gets an example, its schema's own or one made from its types.

import { componentName, type JsonSchema, namedJson } from "../schema.ts";

const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf"];

/** The components/schemas of one document being built; local to that build. */
export function schemaRegistry() {
  const schemas: Record<string, JsonSchema> = {};
  // The text of each component's definition, to tell a second definition under one name.
  const texts = new Map<string, string>();

  function inner(json: JsonSchema): JsonSchema {
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(json)) {
      if (key === "properties") {
        out.properties = Object.fromEntries(
          Object.entries(value as JsonSchema).map(([k, v]) => [k, refer(v)]),
        );
      } else if (key === "items" || (key === "additionalProperties" && typeof value === "object")) {
        out[key] = refer(value);
      } else if (SUBSCHEMA_LISTS.includes(key)) {
        out[key] = (value as JsonSchema[]).map(refer);
      } else {
        out[key] = value;
      }
    }
    return out;
  }

  /** The schema with every named part replaced by a $ref to its component. */
  function refer(json: JsonSchema): JsonSchema {
    const name = componentName(json);
    if (!name) return inner(json);
    const definition = inner(json);
    const text = JSON.stringify(definition);
    const known = texts.get(name);
    if (known === undefined) {
      texts.set(name, text);
      schemas[name] = definition;
    } else if (known !== text) {
      // Two schemas under one name would make one of them wrong in every generated client.
      throw new Error(`two different schemas are named ${name}`);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  return { schemas, refer };
}

/**
 * A request body's description as clients generated with default options read it: a property
 * with a default may be left out. openapi-typescript (defaultNonNullable, on by default) makes
 * every property of a component that carries `default` required, reading it as always present
 * in a response; so in a request the default is given beside the value's schema in an allOf
 * ("this, and by default that"): the same to JSON Schema and to the reference, and the property
 * stays optional in the generated type. Named parts keep their names: a request's component is
 * not also a response's.
 */
export function requestJson(json: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...json };
  if (json.properties) {
    const required: string[] = json.required ?? [];
    out.properties = Object.fromEntries(
      Object.entries(json.properties as Record<string, JsonSchema>).map(([key, value]) => {
        const inner = requestJson(value);
        if (inner.default === undefined || required.includes(key)) return [key, inner];
        const { description, default: fallback, ...rest } = inner;
        return [key, { ...(description && { description }), allOf: [rest, { default: fallback }] }];
      }),
    );
  }
  if (json.items) out.items = requestJson(json.items);
  if (typeof json.additionalProperties === "object") {
    out.additionalProperties = requestJson(json.additionalProperties);
  }
  for (const key of SUBSCHEMA_LISTS) {
    if (json[key]) out[key] = (json[key] as JsonSchema[]).map(requestJson);
  }
  const name = componentName(json);
  return name ? namedJson(name, out) : out;
}

const EXAMPLE_STRINGS: Record<string, string> = {
  "date-time": "2026-11-20T08:15:30Z",
  date: "2026-11-20",
  uuid: "3f1c2a9e-8b7d-4c6e-9a5f-0d2b4e6f8a1c",
  email: "ana@example.com",
  uri: "https://example.com/",
};

/**
 * An example of a value of `json` (before its named parts are replaced by references): the
 * schema's own example, default or first allowed value where it has one, else one made from
 * its type and format that satisfies its bounds.
 */
export function exampleOf(json: JsonSchema): unknown {
  if (json.examples?.length) return json.examples[0];
  if (json.default !== undefined) return json.default;
  if (json.const !== undefined) return json.const;
  if (json.enum) return json.enum.find((v: unknown) => v !== null) ?? null;
  for (const key of SUBSCHEMA_LISTS) {
    if (json[key]) {
      const branch = (json[key] as JsonSchema[]).find((s) => s.type !== "null") ?? json[key][0];
      return exampleOf(branch);
    }
  }
  const type = Array.isArray(json.type) ? json.type.find((t) => t !== "null") : json.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries((json.properties ?? {}) as JsonSchema)) {
        out[key] = exampleOf(value);
      }
      if (typeof json.additionalProperties === "object") {
        out["1"] = exampleOf(json.additionalProperties);
      }
      return out;
    }
    case "array":
      return Array.from({ length: Math.max(1, json.minItems ?? 0) }, () => exampleOf(json.items));
    case "string": {
      const text = EXAMPLE_STRINGS[json.format] ?? "text";
      return text.padEnd(json.minLength ?? 0, "x");
    }
    case "integer":
      return json.minimum ?? Math.min(1, json.maximum ?? 1);
    case "number":
      return json.minimum ?? Math.min(12.5, json.maximum ?? 12.5);
    case "boolean":
      return true;
    default:
      return null;
  }
}
