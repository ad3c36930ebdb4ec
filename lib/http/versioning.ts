// API versioning: the deprecated unprefixed /api/... aliases of /api/v1/... and their sunset.

import { ApiError } from "../errors.ts";
import type { Step } from "./pipeline.ts";

/** Unprefixed /api/... aliases stop answering after this instant (forms-api.md §9). */
export const SUNSET = new Date("2026-12-31T23:59:59Z");
/** The Sunset header (an HTTP date), as the responses and the document give it. */
export const SUNSET_HTTP = SUNSET.toUTCString();

/** /api/x -> /api/v1/x for a deprecated alias path; null for any other path. */
export function successorOf(path: string): string | null {
  if (!path.startsWith("/api/") || path === "/api/openapi") return null;
  if (path === "/api/v1" || path.startsWith("/api/v1/")) return null;
  return "/api/v1" + path.slice(4);
}

/** /api/v1/x -> /api/x: the deprecated alias that a v1 route also answers on. */
export function successorAliasOf(path: string): string | null {
  return path.startsWith("/api/v1/") ? "/api" + path.slice(7) : null;
}

/**
 * A deprecated alias answers as its v1 twin, with a Link to it, Deprecation and Sunset; after
 * the sunset it is 404, the Link still pointing the way.
 */
export const versioning: Step = async (x, next) => {
  const successor = successorOf(x.path);
  if (!successor) return await next();
  // The twin's query, less any credential a client wrongly put in the URL: a response
  // header must not repeat it to every proxy and log on the way back.
  const query = new URLSearchParams(x.url.search);
  for (const [name, value] of [...query]) {
    if (looksLikeCredential(name, value)) query.delete(name);
  }
  const search = query.size ? `?${query}` : "";
  x.headers.set(
    "Link",
    `<${successor}${search}>; rel="successor-version"; type="application/json"`,
  );
  x.path = successor;
  if (x.app.clock() > SUNSET) {
    throw new ApiError(404, "NOT_FOUND", {
      message:
        "This unprefixed path was removed on 31 December 2026; use the /api/v1/ path in the Link header.",
    });
  }
  x.headers.set("Deprecation", "true");
  x.headers.set("Sunset", SUNSET_HTTP);
  return await next();
};

/**
 * A query parameter that carries or may carry a credential: a name like a key or a secret
 * (whatever its case: `api_key`, `API_KEY`, `access_token`), or a value shaped like one of this
 * service's keys and tokens (`onda_..._`) or like a JSON Web Token. Not any long random value: a
 * list's cursor is one.
 */
function looksLikeCredential(name: string, value: string): boolean {
  return /(key|token|secret|password|passwd|auth|session|signature|credential)/i.test(name) ||
    /^onda_[a-z]+_/i.test(value) || /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/.test(value);
}
