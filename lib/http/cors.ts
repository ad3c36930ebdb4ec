// CORS for credentialed routes: only the origins the caller's account allows are reflected, with
// credentials; every answer varies by Origin so caches never mix them up. Public routes answer
// "*" without credentials (the publicCors step). Which origins an account allows is the wing's
// to say (its rules' credentialedCors).

import type { Step } from "./pipeline.ts";
import type { AppContext, Route, WingRules } from "./router.ts";

/** Headers a browser may read on cross-origin responses. */
const EXPOSED_HEADERS = "X-Trace-Id, X-API-Version, Retry-After, Idempotent-Replayed, " +
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, " +
  "Deprecation, Sunset, Link";

/** Adds the CORS headers of a credentialed answer for the request's Origin. */
export function applyCredentialedCors(req: Request, headers: Headers, allowedOrigins: string[]) {
  headers.set("Vary", "Origin");
  const origin = req.headers.get("origin");
  if (origin !== null && allowedOrigins.includes(origin)) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Allow-Credentials", "true");
  }
}

/**
 * An answer given before the caller's account is known (401, unknown workspace) follows the
 * preflight's policy, so a browser app on an allowed origin can read why it was refused.
 */
export async function applyUnresolvedCors(
  app: AppContext,
  req: Request,
  headers: Headers,
  rules: WingRules,
) {
  const origin = req.headers.get("origin");
  // Allowed when some account lists the origin: the policy for an unknown account.
  const listed = origin !== null && rules.credentialedCors !== undefined &&
    await rules.credentialedCors.originListed(app, origin);
  applyCredentialedCors(req, headers, listed ? [origin] : []);
}

/**
 * A preflight carries no cookie, so its account is unknown: it is allowed when some account
 * allows the origin. The real request is then checked against its own account.
 */
export async function credentialedPreflight(
  app: AppContext,
  req: Request,
  rules: WingRules,
): Promise<Response> {
  const headers = new Headers();
  await applyUnresolvedCors(app, req, headers, rules);
  return preflight(
    headers,
    headers.has("Access-Control-Allow-Origin"),
    rules.credentialedCors?.requestHeaders ?? [],
  );
}

/** The preflight of a public route: any origin, no credentials. */
export function publicPreflight(): Response {
  return preflight(new Headers({ "Access-Control-Allow-Origin": "*" }), true, []);
}

function preflight(headers: Headers, allowed: boolean, requestHeaders: string[]): Response {
  if (allowed) {
    headers.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS");
    headers.set(
      "Access-Control-Allow-Headers",
      ["Content-Type", "Authorization", "Idempotency-Key", ...requestHeaders, "traceparent"]
        .join(", "),
    );
    headers.set("Access-Control-Max-Age", "600");
  }
  return new Response(null, { status: 204, headers });
}

/**
 * Public routes answer any origin, errors included (404, 405, maintenance), so an embed on
 * another site can read and show them; any cross-origin answer lets the browser read the
 * service's own headers.
 */
export function publicCors(routes: Route[]): Step {
  const publicPrefixes = [...new Set(routes.flatMap((r) => r.rules.publicPrefix ?? []))];
  return async (x, next) => {
    const response = await next();
    const headers = response.headers;
    if (x.route?.cors === "public" || publicPrefixes.some((prefix) => x.path.startsWith(prefix))) {
      headers.set("Access-Control-Allow-Origin", "*");
    }
    if (headers.has("Access-Control-Allow-Origin")) {
      headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    return response;
  };
}

/** OPTIONS on a path that has a route with a CORS policy: that route's preflight. */
export const corsPreflight: Step = async (x, next) => {
  const corsRoute = x.allowed.find((r) => r.cors);
  if (x.match || x.method !== "OPTIONS" || !corsRoute) return await next();
  x.route = corsRoute;
  return corsRoute.cors === "credentialed"
    ? await credentialedPreflight(x.app, x.req, corsRoute.rules)
    : publicPreflight();
};
