// The request pipeline: versioning and deprecated aliases, maintenance, routing, auth,
// validation, the handler, and the single place where errors become the envelope.

import { ApiError, DatabaseUnavailable, errorBody, toApiError } from "../errors.ts";
import { bodiless, parseJsonBody, receiveBody, type ReceivedBody } from "./body.ts";
import { describeError } from "../log.ts";
import { EXPIRED, within } from "../db/deadline.ts";
import { abandonable } from "../db/abandon.ts";
import { cachedMaintenance, retryAfter } from "./maintenance.ts";
import {
  type AppContext,
  json,
  matchRoute,
  type RequestContext,
  type Route,
  serviceRules,
} from "./router.ts";
import { parsePath, parseQuery } from "./schema.ts";
import { traceIdFrom } from "./trace.ts";
import { finishesWhenGivenUp, withIdempotency } from "./idempotency.ts";
import { credentialedPreflight, publicPreflight } from "./cors.ts";
import { successorOf, SUNSET, SUNSET_HTTP } from "./versioning.ts";

/** Headers a browser may read on cross-origin responses. */
const EXPOSED_HEADERS = "X-Trace-Id, X-API-Version, Retry-After, Idempotent-Replayed, " +
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, " +
  "Deprecation, Sunset, Link";

export type Handler = (req: Request, info: { remoteAddr: Deno.NetAddr }) => Promise<Response>;

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

export function createHandler<A extends AppContext>(app: A): Handler {
  const maintenance = cachedMaintenance(app.db.sql, app.clock, app.maintenanceCacheMs);
  // Requests given up at their deadline whose work still waits for the database.
  let abandoned = 0;
  const publicPrefixes = [...new Set(app.routes.flatMap((r) => r.rules.publicPrefix ?? []))];

  /**
   * A request under /api/ waits for the database at most its route's deadline, maintenance read
   * included: a database that stops answering without closing its connections (a network
   * partition, a frozen server) would otherwise hold it until TCP gives up, minutes later. At
   * the deadline `givenUp` aborts: from then on the request sends nothing more and commits no
   * transaction (lib/db/abandon.ts), unless it is left to finish so that its Idempotency-Key
   * replays it (`finishesWhenGivenUp`).
   */
  async function respondBeforeDeadline(
    respond: () => Promise<Response>,
    deadlineMs: number,
    givenUp: AbortController,
  ): Promise<Response> {
    // Once as many requests as the pool has connections have been given up and still wait,
    // the database is not answering: later ones answer at once instead of queueing more
    // statements without bound, to be run all together when it answers again.
    if (abandoned >= app.config.dbPoolMax) {
      throw new DatabaseUnavailable(
        new Error(`${abandoned} requests given up at the deadline still wait for the database`),
      );
    }
    const work = respond();
    const result = await within(work, deadlineMs);
    if (result !== EXPIRED) return result;
    givenUp.abort();
    abandoned++;
    // Its work waits for the database's answer to what it had sent, then stops (or finishes,
    // to be replayed); its outcome is nobody's.
    const release = () => abandoned--;
    work.then(release, release);
    throw new DatabaseUnavailable(new Error(`no answer within ${deadlineMs} ms`));
  }

  return async (req, info) => {
    const started = performance.now();
    const traceId = traceIdFrom(req.headers.get("traceparent"));
    const url = new URL(req.url);
    let path = url.pathname;
    const extra = new Headers();
    let route: Route | null = null;
    let failure: unknown = null;
    const caller: Record<string, string> = {};

    const successor = successorOf(path);
    if (successor) {
      // The twin's query, less any credential a client wrongly put in the URL: a response
      // header must not repeat it to every proxy and log on the way back.
      const query = new URLSearchParams(url.search);
      for (const [name, value] of [...query]) {
        if (looksLikeCredential(name, value)) query.delete(name);
      }
      const search = query.size ? `?${query}` : "";
      extra.set(
        "Link",
        `<${successor}${search}>; rel="successor-version"; type="application/json"`,
      );
      path = successor;
    }

    let response: Response;
    try {
      if (successor && app.clock() > SUNSET) {
        throw new ApiError(404, "NOT_FOUND", {
          message:
            "This unprefixed path was removed on 31 December 2026; use the /api/v1/ path in the Link header.",
        });
      }
      if (successor) {
        extra.set("Deprecation", "true");
        extra.set("Sunset", SUNSET_HTTP);
      }
      const method = req.method === "HEAD" ? "GET" : req.method;
      const { match, allowed } = matchRoute(app.routes, method, path);
      route = match?.route ?? null;
      // Every request under /api/ reads the maintenance window, so any may wait for the
      // database; /status has its own shorter check, and the embed routes never touch it.
      const deadlineMs = path.startsWith("/api/")
        ? (route?.rules ?? serviceRules).deadlineMs(app.config)
        : null;
      // The body arrives before the deadline starts and before any statement is sent: a client
      // that stops sending holds its own connection, never the database or other clients.
      // An optional body may be left out (lib/http/body.ts bodiless): the handler sees undefined.
      const received = match?.route.body && !(match.route.body.optional && bodiless(req))
        ? await receiveBody(req, app.config.requestBodyTimeoutMs)
        : null;
      const givenUp = new AbortController();
      const scoped = deadlineMs && !(route && finishesWhenGivenUp(route, req))
        ? { ...app, db: abandonable(app.db, givenUp.signal) }
        : app;
      const respond = async (): Promise<Response> => {
        if (path.startsWith("/api/")) {
          // An unreachable database must not turn every request into a 500 here: the route's
          // own query then answers as its API prescribes (503 UNAVAILABLE on the ads API).
          const window = await maintenance().catch((err) => {
            if (err instanceof DatabaseUnavailable) return null;
            throw err;
          });
          if (window) {
            throw new ApiError(503, "DEGRADED", {
              message: "The service is in a maintenance window; retry after Retry-After seconds.",
              headers: { "Retry-After": retryAfter(window, app.clock()) },
            });
          }
        }
        if (match) {
          const ctx: RequestContext = {
            req,
            url,
            app: scoped,
            route: match.route,
            traceId,
            clientAddress: clientAddress(req, info, app.config.trustProxy),
            headers: extra,
            caller,
          };
          return await runRoute(ctx, match.params, received);
        }
        const corsRoute = allowed.find((r) => r.cors);
        if (method === "OPTIONS" && corsRoute) {
          route = corsRoute;
          return corsRoute.cors === "credentialed"
            ? await credentialedPreflight(scoped, req, corsRoute.rules)
            : publicPreflight();
        }
        if (!allowed.length) throw new ApiError(404, "NOT_FOUND", { message: "No such resource." });
        const methods: string[] = [...new Set(allowed.map((r) => r.method))];
        if (corsRoute) methods.push("OPTIONS");
        throw new ApiError(405, "METHOD_NOT_ALLOWED", {
          message: `Use ${methods.join(" or ")} on this path.`,
          headers: { Allow: methods.join(", ") },
        });
      };
      response = deadlineMs
        ? await respondBeforeDeadline(respond, deadlineMs, givenUp)
        : await respond();
    } catch (err) {
      failure = err;
      const error = toApiError(err, (route?.rules ?? serviceRules).unavailable());
      response = json(errorBody(error, traceId), error.status, error.headers);
    }

    const headers = response.headers;
    for (const [name, value] of extra) {
      if (!headers.has(name)) headers.set(name, value);
    }
    // A replayed idempotent answer keeps the trace id its body names (the original request's
    // log line); every other response carries this request's.
    if (!headers.has("X-Trace-Id")) headers.set("X-Trace-Id", traceId);
    // Public routes answer any origin, errors included (404, 405, maintenance), so an embed on
    // another site can read and show them.
    if (route?.cors === "public" || publicPrefixes.some((prefix) => path.startsWith(prefix))) {
      headers.set("Access-Control-Allow-Origin", "*");
    }
    if (path.startsWith("/api/v1/")) headers.set("X-API-Version", "v1");
    if (headers.has("Access-Control-Allow-Origin")) {
      headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    }
    headers.set("X-Content-Type-Options", "nosniff");
    if (path.startsWith("/api/") && !headers.has("Cache-Control")) {
      headers.set("Cache-Control", "no-store");
    }

    const ms = performance.now() - started;
    const line: Record<string, unknown> = {
      level: response.status >= 500 ? "error" : "info",
      method: req.method,
      route: route?.path ?? null,
      status: response.status,
      duration_ms: Math.round(ms * 100) / 100,
      trace_id: traceId,
      ...caller,
    };
    app.metrics.request(req.method, route?.path ?? null, response.status, ms / 1000);
    if (failure !== null && !(failure instanceof ApiError)) line.error = describeError(failure);
    app.log(line);
    if (req.method === "HEAD") {
      return new Response(null, { status: response.status, headers: response.headers });
    }
    return response;
  };
}

async function runRoute(
  ctx: RequestContext,
  rawParams: Record<string, string>,
  received: ReceivedBody | null,
) {
  const { route } = ctx;
  const principal = await route.auth.authenticate(ctx);
  try {
    let query: Record<string, unknown>;
    try {
      query = parseQuery(ctx.url.searchParams, route.query ?? {});
    } catch (err) {
      // Each API's own status for invalid filters (the ads API: 422, ads-api.md §7).
      if (route.rules.invalidQueryStatus === 422 && err instanceof ApiError && err.status === 400) {
        throw new ApiError(422, "UNPROCESSABLE", { message: err.message, field: err.field });
      }
      throw err;
    }
    const params = parsePath(rawParams, route.params ?? {});
    const body = route.body && received
      ? route.body.parse(parseJsonBody(received), "body")
      : undefined;
    const run = async () => await route.handler({ ...ctx, principal, query, params, body });
    if (route.idempotent) return await withIdempotency(ctx, principal, rawParams, body, run);
    return await run();
  } finally {
    await route.auth.settle?.(ctx, principal);
  }
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
