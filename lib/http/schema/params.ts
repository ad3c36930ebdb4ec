// A request's query and path parameters, read against a route's shapes.

import { ApiError } from "../../errors.ts";
import { type InferShape, invalid, type Shape } from "./core.ts";

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
