// API versioning: the deprecated unprefixed /api/... aliases of /api/v1/... and their sunset.

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
