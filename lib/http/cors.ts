// CORS for authenticated routes: only the workspace's allowed origins are reflected, with
// credentials; every answer varies by Origin so caches never mix them up. (Public routes
// answer "*" without credentials, set by the pipeline.)

import type { AppContext } from "./router.ts";

/** Adds the CORS headers of an authenticated answer for the request's Origin. */
export function applyWorkspaceCors(req: Request, headers: Headers, allowedOrigins: string[]) {
  headers.set("Vary", "Origin");
  const origin = req.headers.get("origin");
  if (origin !== null && allowedOrigins.includes(origin)) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Allow-Credentials", "true");
  }
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
  const origin = req.headers.get("origin");
  // Allowed when some workspace lists the origin: the policy for an unknown workspace.
  const [listed] = origin === null ? [] : await app.db.sql`
    select 1 from workspaces where allowed_origins @> array[${origin}]::text[] limit 1`;
  applyWorkspaceCors(req, headers, listed ? [origin!] : []);
}

/**
 * A preflight carries no cookie, so its workspace is unknown: it is allowed when some
 * workspace allows the origin. The real request is then checked against its own workspace.
 */
export async function workspacePreflight(app: AppContext, req: Request): Promise<Response> {
  const headers = new Headers();
  await applyUnresolvedWorkspaceCors(app, req, headers);
  return preflight(headers, headers.has("Access-Control-Allow-Origin"));
}

/** The preflight of a public route: any origin, no credentials. */
export function publicPreflight(): Response {
  return preflight(new Headers({ "Access-Control-Allow-Origin": "*" }), true);
}

function preflight(headers: Headers, allowed: boolean): Response {
  if (allowed) {
    headers.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
    headers.set(
      "Access-Control-Allow-Headers",
      "Content-Type, Authorization, Idempotency-Key, X-Workspace-Id, traceparent",
    );
    headers.set("Access-Control-Max-Age", "600");
  }
  return new Response(null, { status: 204, headers });
}
