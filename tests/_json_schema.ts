// A validator for the JSON Schema that the OpenAPI document uses, to check responses, webhook
// bodies and examples against it. A keyword it does not know fails the check instead of
// passing silently, so the document cannot grow past what this verifies.

// deno-lint-ignore no-explicit-any
type Json = any;

/** Keywords that describe and never constrain. */
const ANNOTATIONS = new Set(["description", "examples", "default", "title", "deprecated"]);

/** contract.md §1: times are ISO 8601 in UTC with Z. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function typeOf(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function resolve(root: Json, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`unsupported $ref ${ref}`);
  let node = root;
  for (const part of ref.slice(2).split("/")) {
    node = node?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  return node;
}

function checkFormat(format: string, value: string): boolean {
  switch (format) {
    case "date-time":
      return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
    case "date":
      return DATE.test(value) && !Number.isNaN(Date.parse(value + "T00:00:00Z"));
    case "uuid":
      return UUID.test(value);
    case "email":
      return EMAIL.test(value);
    default:
      throw new Error(`unsupported format ${format}`);
  }
}

/**
 * The ways `value` breaks `schema` (empty when it conforms), each as "path: reason". `root` is
 * the document that $refs point into.
 */
export function validate(root: Json, schema: Json, value: Json, path = "$"): string[] {
  const errors: string[] = [];
  const fail = (reason: string) => errors.push(`${path}: ${reason}`);
  for (const [key, rule] of Object.entries(schema as Record<string, Json>)) {
    switch (key) {
      case "$ref":
        errors.push(...validate(root, resolve(root, rule), value, path));
        break;
      case "type": {
        const types: string[] = Array.isArray(rule) ? rule : [rule];
        const actual = typeOf(value);
        if (!types.includes(actual) && !(actual === "integer" && types.includes("number"))) {
          fail(`is ${actual}, not ${types.join(" or ")}`);
        }
        break;
      }
      case "enum":
        if (!rule.includes(value)) fail(`${JSON.stringify(value)} is not one of the enum`);
        break;
      case "const":
        if (value !== rule) fail(`is not ${JSON.stringify(rule)}`);
        break;
      case "properties":
        if (typeOf(value) === "object") {
          for (const [name, sub] of Object.entries(rule as Record<string, Json>)) {
            if (name in value) errors.push(...validate(root, sub, value[name], `${path}.${name}`));
          }
        }
        break;
      case "required":
        if (typeOf(value) === "object") {
          for (const name of rule) if (!(name in value)) fail(`lacks ${name}`);
        }
        break;
      case "additionalProperties":
        if (typeOf(value) === "object") {
          for (const name of Object.keys(value)) {
            if (schema.properties && name in schema.properties) continue;
            if (rule === false) fail(`has unknown property ${name}`);
            else errors.push(...validate(root, rule, value[name], `${path}.${name}`));
          }
        }
        break;
      case "items":
        if (Array.isArray(value)) {
          value.forEach((item, i) => errors.push(...validate(root, rule, item, `${path}[${i}]`)));
        }
        break;
      case "minItems":
        if (Array.isArray(value) && value.length < rule) fail(`has fewer than ${rule} items`);
        break;
      case "maxItems":
        if (Array.isArray(value) && value.length > rule) fail(`has more than ${rule} items`);
        break;
      case "minLength":
        if (typeof value === "string" && value.length < rule) fail(`is shorter than ${rule}`);
        break;
      case "maxLength":
        if (typeof value === "string" && value.length > rule) fail(`is longer than ${rule}`);
        break;
      case "pattern":
        if (typeof value === "string" && !new RegExp(rule, "u").test(value)) {
          fail(`does not match ${rule}`);
        }
        break;
      case "format":
        if (typeof value === "string" && !checkFormat(rule, value)) fail(`is not a ${rule}`);
        break;
      case "minimum":
        if (typeof value === "number" && value < rule) fail(`is below ${rule}`);
        break;
      case "maximum":
        if (typeof value === "number" && value > rule) fail(`is above ${rule}`);
        break;
      case "anyOf":
      case "oneOf": {
        const passing = (rule as Json[]).filter((sub) =>
          validate(root, sub, value, path).length === 0
        );
        if (passing.length === 0 || (key === "oneOf" && passing.length > 1)) {
          fail(`matches ${passing.length} of the ${key} schemas`);
        }
        break;
      }
      case "discriminator": {
        // OpenAPI's: the property names the branch; oneOf checks the value against it.
        const tag = value?.[rule.propertyName];
        if (rule.mapping && !Object.hasOwn(rule.mapping, tag)) {
          fail(`${rule.propertyName} ${JSON.stringify(tag)} is not one of the mapping's`);
        }
        break;
      }
      case "allOf":
        for (const sub of rule) errors.push(...validate(root, sub, value, path));
        break;
      default:
        if (!ANNOTATIONS.has(key)) throw new Error(`${path}: unsupported keyword ${key}`);
    }
  }
  return errors;
}
