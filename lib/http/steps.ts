// The pipeline's own steps (lib/http/app.ts gives their order): the log line, the headers every
// answer carries, the one place errors become the envelope, routing, and the body read first.

import { ApiError, errorBody, toApiError } from "../errors.ts";
import { describeError } from "../log.ts";
import { bodiless, receiveBody } from "./body.ts";
import type { Step } from "./pipeline.ts";
import { json, matchRoute, serviceRules } from "./router.ts";

/** One log line and the metrics of every request, once its answer is final. */
export const logging: Step = async (x, next) => {
  const response = await next();
  const ms = performance.now() - x.started;
  const line: Record<string, unknown> = {
    level: response.status >= 500 ? "error" : "info",
    method: x.req.method,
    route: x.route?.path ?? null,
    status: response.status,
    duration_ms: Math.round(ms * 100) / 100,
    trace_id: x.traceId,
    ...x.caller,
  };
  x.app.metrics.request(x.req.method, x.route?.path ?? null, response.status, ms / 1000);
  if (x.failure !== null && !(x.failure instanceof ApiError)) line.error = describeError(x.failure);
  x.app.log(line);
  return response;
};

/** HEAD is answered as GET, without the body. */
export const headWithoutBody: Step = async (x, next) => {
  const response = await next();
  if (x.req.method === "HEAD") {
    return new Response(null, { status: response.status, headers: response.headers });
  }
  return response;
};

/**
 * The headers of every answer, error or not: the request's own (rate limits, CORS, versioning),
 * its trace id, the API version, and no sniffing or caching of what the API answers.
 */
export const commonHeaders: Step = async (x, next) => {
  const response = await next();
  const headers = response.headers;
  for (const [name, value] of x.headers) {
    if (!headers.has(name)) headers.set(name, value);
  }
  // A replayed idempotent answer keeps the trace id its body names (the original request's
  // log line); every other response carries this request's.
  if (!headers.has("X-Trace-Id")) headers.set("X-Trace-Id", x.traceId);
  if (x.path.startsWith("/api/v1/")) headers.set("X-API-Version", "v1");
  headers.set("X-Content-Type-Options", "nosniff");
  if (x.path.startsWith("/api/") && !headers.has("Cache-Control")) {
    headers.set("Cache-Control", "no-store");
  }
  return response;
};

/** The single place where whatever a later step throws becomes the error envelope. */
export const errorEnvelope: Step = async (x, next) => {
  try {
    return await next();
  } catch (err) {
    x.failure = err;
    const error = toApiError(err, (x.route?.rules ?? serviceRules).unavailable());
    return json(errorBody(error, x.traceId), error.status, error.headers);
  }
};

/** The route of the method and path, and the path's routes for other methods. */
export const routing: Step = async (x, next) => {
  const { match, allowed } = matchRoute(x.app.routes, x.method, x.path);
  x.match = match;
  x.allowed = allowed;
  x.route = match?.route ?? null;
  return await next();
};

/**
 * The body arrives before the deadline starts and before any statement is sent: a client that
 * stops sending holds its own connection, never the database or other clients.
 */
export const bodyFirst: Step = async (x, next) => {
  // An optional body may be left out (lib/http/body.ts bodiless): the handler sees undefined.
  const body = x.match?.route.body;
  if (body && !(body.optional && bodiless(x.req))) {
    const received = await receiveBody(x.req, x.app.config.requestBodyTimeoutMs);
    // An optional body sent empty (chunked, say) is one left out, as with Content-Length 0.
    const empty = "bytes" in received && received.bytes.byteLength === 0;
    if (!(body.optional && empty)) x.received = received;
  }
  return await next();
};

/** A path no route has: 404; a path with routes for other methods: 405 with Allow. */
export const noRoute: Step = async (x, next) => {
  if (x.match) return await next();
  if (!x.allowed.length) throw new ApiError(404, "NOT_FOUND", { message: "No such resource." });
  const methods: string[] = [...new Set(x.allowed.map((r) => r.method))];
  if (x.allowed.some((r) => r.cors)) methods.push("OPTIONS");
  throw new ApiError(405, "METHOD_NOT_ALLOWED", {
    message: `Use ${methods.join(" or ")} on this path.`,
    headers: { Allow: methods.join(", ") },
  });
};
