// Route definitions and path matching. A route that is not in a table does not exist; the
// same tables generate the OpenAPI document (lib/http/openapi/document.ts).

import type { Config } from "../config.ts";
import type { Db } from "../db/db.ts";
import type { ReadReplica } from "../db/replica.ts";
import type { RateLimiter } from "./ratelimit.ts";
import type { InferShape, Schema, Shape } from "./schema.ts";
import type { LogSink } from "../log.ts";
import { ApiError } from "../errors.ts";
import type { SealedParts } from "./sealed.ts";
import type { Metrics } from "./metrics.ts";
import { percentDecoded } from "../encoding.ts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Where the APIs differ (how a request fails, their CORS); each route table declares its own. */
export interface WingRules {
  /** The status of a query parameter that fails validation (400, or 422 where an API says so). */
  invalidQueryStatus: 400 | 422;
  /** What a request answers when the database cannot be reached or misses the deadline. */
  unavailable(): ApiError;
  /**
   * How long a request under /api/ may wait for the database, maintenance read included, before
   * it answers `unavailable()` (lib/http/deadline.ts).
   */
  deadlineMs(config: Config): number;
  /**
   * For routes with `cors: "credentialed"`: before the caller is known (a preflight carries no
   * cookie; a 401), an origin is allowed when some account of the API lists it; a browser may
   * send the API's own `requestHeaders` besides the service's.
   */
  credentialedCors?: {
    originListed(app: AppContext, origin: string): Promise<boolean>;
    requestHeaders: string[];
  };
  /** Paths under this prefix that match no route answer any origin, as its public routes do. */
  publicPrefix?: string;
}

/**
 * The routes of no API (status, the document, the embed script), and paths that match no
 * route: a lost database is a 500.
 */
export const serviceRules: WingRules = {
  invalidQueryStatus: 400,
  unavailable: () =>
    new ApiError(500, "INTERNAL", { message: "Internal error; retry with exponential backoff." }),
  deadlineMs: (config) => config.databaseTimeoutMs,
};

/**
 * What every handler can reach: created once in lib/server.ts (or a test), never module state.
 * Each wing extends it with its own state (lib/ads/wing.ts, lib/forms/wing.ts).
 */
export interface AppContext {
  config: Config;
  db: Db;
  /** The streaming replica of DATABASE_READ_URL, when set: reads that need no read-your-writes. */
  replica?: ReadReplica | null;
  /** The time source; tests move it to cross cursor expiry, sunset dates and retry schedules. */
  clock: () => Date;
  log: LogSink;
  limiter: RateLimiter;
  /** Key material for cursors (sealing and signing) and other server-issued tokens. */
  secretKey: string;
  /** The HTTP client for outgoing calls (webhooks); injectable for tests. */
  fetch: typeof fetch;
  /** Every registered route, for the OpenAPI document and the Allow header. */
  routes: Route[];
  /** How long a read of the maintenance window is reused, in ms (tests use 0). */
  maintenanceCacheMs: number;
  /** What GET /metrics reports (lib/http/metrics.ts); wings add to it by name. */
  metrics: Metrics;
  /** Fault injection for tests (a crash right after a handler's commit); never set in production. */
  faults?: { afterIdempotentHandler?: () => void };
}

/** The request as the pipeline knows it before the handler runs. */
export interface RequestContext<A extends AppContext = AppContext> {
  req: Request;
  url: URL;
  app: A;
  route: Route;
  traceId: string;
  clientAddress: string;
  /** Headers added to whatever response this request gets, error or not (rate limits, CORS). */
  headers: Headers;
  /** Who is calling, for the log line: ids set by the auth rule (never a secret). */
  caller: Record<string, string>;
}

/** A request header a route reads, for the OpenAPI document. */
export interface HeaderParam {
  name: string;
  description: string;
  schema: Schema<unknown>;
  required?: boolean;
}

export interface AuthRule<P> {
  /** OpenAPI security requirements ([] = no authentication). */
  security: Record<string, string[]>[];
  /** The OpenAPI security schemes those requirements name. */
  securitySchemes?: Record<string, Record<string, string>>;
  /** One sentence for the OpenAPI description: who may call and with which permission. */
  describe: string;
  /** The statuses this rule answers (default: 401, 403 and 429 when it has security). */
  errors?: number[];
  /** Request headers it reads besides the credential (X-Workspace-Id). */
  requestHeaders?: HeaderParam[];
  /** Headers it adds to the responses of the requests it counts (rate limits). */
  responseHeaders?: string[];
  /** Resolves the caller or throws ApiError (401, 403, 429 ...). */
  authenticate(ctx: RequestContext): Promise<P>;
  /**
   * Whose Idempotency-Keys a caller's are (lib/http/idempotency.ts); without it, every caller of
   * the rule shares one namespace.
   */
  idempotencyScope?(principal: P): string;
  /**
   * Runs once the request has been answered, whatever the answer (an invalid body included):
   * what authenticate left to the handler but the handler did not do, such as a deferred
   * rate-limit count (publicAccess in lib/forms/auth.ts). May throw (429).
   */
  settle?(ctx: RequestContext, principal: P): Promise<void>;
}

export const noAuth: AuthRule<null> = {
  security: [],
  describe: "No authentication.",
  authenticate: () => Promise.resolve(null),
};

export interface HandlerContext<Q, P, B, PR, A extends AppContext> extends RequestContext<A> {
  query: Q;
  params: P;
  body: B;
  principal: PR;
}

export interface ResponseDoc {
  description: string;
  schema?: Schema<unknown>;
  /** Media type when not JSON (embed.js). */
  contentType?: string;
  /** An example body; a JSON body without one gets one made from its schema. */
  example?: unknown;
  /** Instead of schema and contentType: a body whose media type varies (the export download). */
  content?: Record<string, { schema?: Schema<unknown>; example: unknown }>;
  /** Headers of this response besides those every response or the auth rule adds. */
  headers?: Record<string, string>;
}

export interface RouteDef<QS extends Shape, PS extends Shape, B, PR, A extends AppContext> {
  method: Method;
  /** OpenAPI-style path: /api/v1/questionnaires/{id}. */
  path: string;
  summary: string;
  description?: string;
  /** Kept for compatibility, to be left for another route: OpenAPI marks it deprecated. */
  deprecated?: boolean;
  tag: string;
  auth: AuthRule<PR>;
  query?: QS;
  params?: PS;
  body?: Schema<B>;
  responses: Record<number, ResponseDoc>;
  /** Error statuses this route can answer besides the automatic ones, for the document. */
  errors?: number[];
  /**
   * Accepts Idempotency-Key (lib/http/idempotency.ts). "transactional": the handler writes the key's
   * record in its own single transaction, so no claim is taken beforehand.
   */
  idempotent?: boolean | "transactional";
  /**
   * With `idempotent: true`, for answers that carry a credential: these parts of the stored
   * answer are kept encrypted in the key's record, and the request (which may hold a
   * password) is digested with a keyed HMAC (lib/http/sealed.ts).
   */
  sealed?: SealedParts;
  /**
   * CORS policy: public = any origin, no credentials; credentialed = only the origins the
   * caller's account allows, with credentials (lib/http/cors.ts, the rules' credentialedCors).
   */
  cors?: "public" | "credentialed";
  handler(
    ctx: HandlerContext<InferShape<QS>, InferShape<PS>, B, PR, A>,
  ): Promise<Response> | Response;
}

// The erased form kept in tables; defineRoute checks the types at the definition.
// deno-lint-ignore no-explicit-any
export type Route = RouteDef<Shape, Shape, any, any, any> & {
  pattern: RegExp;
  paramNames: string[];
  rules: WingRules;
};

/** A wing's own defineRoute: its routes fail by its rules and see its state in `app`. */
export function routeDefiner<A extends AppContext>(rules: WingRules) {
  return <QS extends Shape = Shape, PS extends Shape = Shape, B = undefined, PR = null>(
    def: RouteDef<QS, PS, B, PR, A>,
  ): Route => {
    if (def.sealed && def.idempotent !== true) {
      throw new Error(`${def.method} ${def.path}: sealed needs idempotent: true`);
    }
    // Without a scope, every caller's keys share one namespace: right for anonymous visitors,
    // a replay of one caller's answer to another for any rule that tells callers apart.
    if (def.idempotent && def.auth.security.length > 0 && !def.auth.idempotencyScope) {
      throw new Error(`${def.method} ${def.path}: idempotent needs its auth's idempotencyScope`);
    }
    const paramNames: string[] = [];
    const source = def.path.split("/").map((segment) => {
      const param = /^\{([a-zA-Z_]+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
      paramNames.push(param[1]);
      return "([^/]+)";
    }).join("/");
    return { ...def, pattern: new RegExp(`^${source}$`), paramNames, rules };
  };
}

/** A route of no API (serviceRules), handled with the plain AppContext. */
export const defineRoute = routeDefiner<AppContext>(serviceRules);

/** Finds the route for a method and path; `allowed` lists the methods the path has otherwise. */
export function matchRoute(routes: Route[], method: string, path: string) {
  const allowed: Route[] = [];
  for (const route of routes) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    if (route.method === method) {
      const params: Record<string, string> = {};
      route.paramNames.forEach((name, i) => {
        params[name] = percentDecoded(found[i + 1]);
      });
      return { match: { route, params }, allowed };
    }
    allowed.push(route);
  }
  return { match: null, allowed };
}

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** A JSON response; under /api/ the pipeline adds Cache-Control: no-store (lib/http/steps.ts). */
export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const out = new Headers(headers);
  out.set("content-type", JSON_CONTENT_TYPE);
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: out });
}

/** A JSON response whose body is JSON text already (built by the database, for instance). */
export function jsonText(text: string, status = 200): Response {
  return new Response(text, { status, headers: { "content-type": JSON_CONTENT_TYPE } });
}
