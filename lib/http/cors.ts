// CORS for authenticated routes: only the workspace's allowed origins are reflected, with
// credentials; every answer varies by Origin so caches never mix them up. (Public routes
// answer "*" without credentials, set by the pipeline.)

import type { AppContext } from "./router.ts";

const PREFLIGHT_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const PREFLIGHT_HEADERS =
  "Content-Type, Authorization, Idempotency-Key, X-Workspace-Id, traceparent";

/** Adds the CORS headers of an authenticated answer for the request's Origin. */
export function applyWorkspaceCors(req: Request, headers: Headers, allowedOrigins: string[]) {
  headers.set("Vary", "Origin");
  const origin = req.headers.get("origin");
  if (origin !== null && allowedOrigins.includes(origin)) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Allow-Credentials", "true");
  }
}

/** True when some workspace lists the origin: the policy for requests whose workspace is unknown. */
async function allowedByAnyWorkspace(app: AppContext, origin: string): Promise<boolean> {
  const rows = await app.db.sql`
    select 1 from workspaces where allowed_origins @> array[${origin}]::text[] limit 1`;
  return rows.length > 0;
}

/**
 * A preflight carries no cookie, so its workspace is unknown: it is allowed when some
 * workspace allows the origin. The real request is then checked against its own workspace.
 */
export async function workspacePreflight(app: AppContext, req: Request): Promise<Response> {
  const headers = new Headers({ Vary: "Origin" });
  const origin = req.headers.get("origin");
  if (origin !== null && await allowedByAnyWorkspace(app, origin)) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Allow-Credentials", "true");
    headers.set("Access-Control-Allow-Methods", PREFLIGHT_METHODS);
    headers.set("Access-Control-Allow-Headers", PREFLIGHT_HEADERS);
    headers.set("Access-Control-Max-Age", "600");
  }
  return new Response(null, { status: 204, headers });
}

/**
 * An answer given before the workspace is known (401, unknown workspace) follows the
 * preflight's policy, so a browser app on an allowed origin can read why it was refused.
 */
export async function applyUnresolvedWorkspaceCors(
  app: AppContext,
  req: Request,
  headers: Headers,
) {
  headers.set("Vary", "Origin");
  const origin = req.headers.get("origin");
  if (origin !== null && await allowedByAnyWorkspace(app, origin)) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Allow-Credentials", "true");
  }
}
