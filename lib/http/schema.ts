// Schema helpers: plain functions that validate a value and describe it in OpenAPI.
// The object that validates a request is the object the OpenAPI document is built from.
// One namespace for the route files (`import * as s`), made of lib/http/schema/: core.ts (what a
// schema is), scalars.ts, structures.ts, and params.ts (a request's query and path).

export {
  componentName,
  type Infer,
  type InferShape,
  invalid,
  type JsonSchema,
  named,
  namedJson,
  type Schema,
  type Shape,
} from "./schema/core.ts";
export {
  anyJson,
  boolean,
  date,
  dateTime,
  email,
  enumOf,
  int,
  number,
  string,
  uuid,
} from "./schema/scalars.ts";
export {
  array,
  discriminated,
  nullable,
  object,
  optional,
  repeatable,
} from "./schema/structures.ts";
export { parsePath, parseQuery } from "./schema/params.ts";
