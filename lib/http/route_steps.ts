// A matched route's own steps (lib/http/app.ts gives their order): its auth rule, then its input
// against its schemas, then its handler, through the Idempotency-Key when the route takes one.

import { ApiError } from "../errors.ts";
import { parseJsonBody } from "./body.ts";
import { withIdempotency } from "./idempotency.ts";
import type { Exchange, Step } from "./pipeline.ts";
import type { RequestContext, Route } from "./router.ts";
import { parsePath, parseQuery } from "./schema.ts";

/**
 * The route's auth rule names the caller or refuses (401, 403, 429) before any input is read;
 * once the request is answered, whatever the answer, the rule settles what it left to the
 * handler (a deferred rate-limit count).
 */
export const authentication: Step = async (x, next) => {
  const route = matched(x);
  const ctx: RequestContext = {
    req: x.req,
    url: x.url,
    app: x.app,
    route,
    traceId: x.traceId,
    clientAddress: clientAddress(x.req, x.info, x.app.config.trustProxy),
    headers: x.headers,
    caller: x.caller,
  };
  x.context = ctx;
  const principal = await route.auth.authenticate(ctx);
  x.principal = principal;
  try {
    return await next();
  } finally {
    await route.auth.settle?.(ctx, principal);
  }
};

/** The query, path parameters and body, each validated against the route's schema. */
export const validation: Step = async (x, next) => {
  const route = matched(x);
  let query: Record<string, unknown>;
  try {
    query = parseQuery(x.url.searchParams, route.query ?? {});
  } catch (err) {
    // Each API's own status for invalid filters (the ads API: 422, ads-api.md §7).
    if (route.rules.invalidQueryStatus === 422 && err instanceof ApiError && err.status === 400) {
      throw new ApiError(422, "UNPROCESSABLE", { message: err.message, field: err.field });
    }
    throw err;
  }
  const params = parsePath(x.match?.params ?? {}, route.params ?? {});
  const body = route.body && x.received
    ? route.body.parse(parseJsonBody(x.received), "body")
    : undefined;
  x.input = { query, params, body };
  return await next();
};

/** The route's handler, through its Idempotency-Key when the route takes one. */
export async function handle(x: Exchange): Promise<Response> {
  const route = matched(x);
  const ctx = x.context;
  const input = x.input;
  if (!ctx || !input) throw new Error(`${route.path}: the handler runs after auth and input`);
  const { principal } = x;
  const run = async () => await route.handler({ ...ctx, principal, ...input });
  if (route.idempotent) {
    return await withIdempotency(ctx, principal, x.match?.params ?? {}, input.body, run);
  }
  return await run();
}

/** The matched route; the steps of this file run only after noRoute let the request through. */
function matched(x: Exchange): Route {
  if (!x.match) throw new Error(`${x.method} ${x.path}: a route step ran without a route`);
  return x.match.route;
}

/**
 * The client's address. Behind a trusted proxy, the last X-Forwarded-For entry: the one that
 * proxy added. Proxies that append to the header (nginx's $proxy_add_x_forwarded_for, most
 * cloud balancers) keep whatever the client sent in front of it, so the first entry is the
 * client's choice and would give it a fresh per-address budget with every request.
 */
function clientAddress(req: Request, info: { remoteAddr: Deno.NetAddr }, trustProxy: boolean) {
  if (trustProxy) {
    const forwarded = req.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return info.remoteAddr.hostname;
}
