// The parts of the OpenAPI document that every API shares: the response headers the pipeline
// sends (lib/http/app.ts, the auth rules), the error envelope and the error responses.

import { ERROR_CODES } from "../../errors.ts";
import * as s from "../schema.ts";
import { SUNSET_HTTP } from "../versioning.ts";

/** Each header the service sends on more than one route, as components/headers. */
export const HEADERS: Record<string, s.JsonSchema> = {
  "X-Trace-Id": {
    description: "The trace id of this request (from a valid traceparent, else new); the log " +
      "line and error.trace_id carry the same.",
    required: true,
    schema: { type: "string", examples: ["4bf92f3577b34da6a3ce929d0e0e4736"] },
  },
  "X-API-Version": {
    description: "v1 on every /api/v1/ path and its deprecated alias.",
    schema: { type: "string", enum: ["v1"] },
  },
  "X-RateLimit-Limit": {
    description: "Requests allowed in any rolling 60-second window for this key, user or address.",
    schema: { type: "integer", minimum: 1 },
  },
  "X-RateLimit-Remaining": {
    description: "Requests left in the current window.",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Reset": {
    description: "Epoch seconds when the oldest counted request leaves the window.",
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Policy": {
    description: 'The IETF draft\'s policy, like "per-key";q=60;w=60.',
    schema: { type: "string" },
  },
  RateLimit: {
    description: 'The IETF draft\'s state, like "per-key";r=59;t=60 (remaining, seconds to reset).',
    schema: { type: "string" },
  },
  "Retry-After": {
    description: "Seconds to wait before retrying.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "Idempotent-Replayed": {
    description: "true when this is the stored answer to an earlier request with the same " +
      "Idempotency-Key (nothing was done again).",
    schema: { type: "string", enum: ["true"] },
  },
  Deprecation: {
    description: "true on the deprecated unprefixed /api/... paths.",
    schema: { type: "string", enum: ["true"] },
  },
  Sunset: {
    description: "When the deprecated unprefixed path stops answering (an HTTP date).",
    schema: { type: "string", enum: [SUNSET_HTTP] },
  },
  Link: {
    description: 'The /api/v1/ successor of a deprecated path: <...>; rel="successor-version"; ' +
      'type="application/json".',
    schema: { type: "string" },
  },
  Allow: {
    description: "The methods this path accepts.",
    required: true,
    schema: { type: "string", examples: ["GET, POST"] },
  },
  "WWW-Authenticate": {
    description: 'Bearer realm="ads" on the ads API.',
    schema: { type: "string" },
  },
};

/** The headers of every deprecated unprefixed alias. */
export const ALIAS_HEADERS = ["Deprecation", "Sunset", "Link"];
/** The rate-limit headers, sent on the requests counted against a limit. */
const RATE_LIMIT_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit-Policy",
  "RateLimit",
];

export const errorSchema = s.named(
  "Error",
  s.object({
    error: s.object({
      code: s.enumOf(ERROR_CODES),
      message: s.string({ description: "What to change, in one or two sentences." }),
      field: s.nullable(s.string({ description: "The request field at fault, if one is." })),
      trace_id: s.string({ description: "Equals the X-Trace-Id response header." }),
    }),
  }, {
    description: "The error envelope of every error of both APIs.",
    example: {
      error: {
        code: "NOT_FOUND",
        message: "No such questionnaire.",
        field: null,
        trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      },
    },
  }),
);

interface ErrorDoc {
  name: string;
  code: (typeof ERROR_CODES)[number];
  description: string;
  /** The message of its example. */
  message: string;
  /** Headers it carries besides the shared ones. */
  headers?: string[];
  /** False where the request was never counted against a rate limit. */
  counted?: boolean;
  /** Whether a replay of an idempotent request can answer it. */
  replayed?: boolean;
}

/** The error statuses with a shared response, under `name` in components/responses. */
export const ERRORS: Record<number, ErrorDoc | undefined> = {
  400: {
    name: "BadRequest",
    code: "VALIDATION_FAILED",
    message: "title must not be empty.",
    description: "Invalid request (VALIDATION_FAILED); error.field names the offending field.",
    replayed: true,
  },
  401: {
    name: "Unauthorized",
    code: "UNAUTHENTICATED",
    message: "Sign in: send the service_token cookie or a bearer token.",
    description: "Missing, invalid, expired or revoked credentials (UNAUTHENTICATED).",
    headers: ["WWW-Authenticate"],
    counted: false,
  },
  403: {
    name: "Forbidden",
    code: "FORBIDDEN",
    message: "This needs the admin role or higher in this workspace.",
    description: "Authenticated, but not allowed (FORBIDDEN).",
  },
  404: {
    name: "NotFound",
    code: "NOT_FOUND",
    message: "No such questionnaire.",
    description: "No such resource, or not visible to the caller (NOT_FOUND).",
    replayed: true,
  },
  405: {
    name: "MethodNotAllowed",
    code: "METHOD_NOT_ALLOWED",
    message: "Use GET or POST on this path.",
    description: "This path does not accept the request's method (METHOD_NOT_ALLOWED); Allow " +
      "lists the methods it does.",
    headers: ["Allow"],
    counted: false,
  },
  408: {
    name: "RequestTimeout",
    code: "REQUEST_TIMEOUT",
    message: "The request body did not arrive within 10000 ms; send it whole at once.",
    description: "The request body did not arrive within REQUEST_BODY_TIMEOUT_MS, 10 s by " +
      "default (REQUEST_TIMEOUT); the connection is closed. Nothing was read or written: " +
      "send the request again, its body at once.",
    counted: false,
  },
  409: {
    name: "Conflict",
    code: "CONFLICT",
    message: "A published questionnaire cannot change.",
    description: "Incompatible state (CONFLICT), or the same Idempotency-Key still in progress.",
    replayed: true,
  },
  410: {
    name: "Gone",
    code: "GONE",
    message: "This cursor is older than the events kept.",
    description: "A position older than what is kept (GONE).",
  },
  413: {
    name: "PayloadTooLarge",
    code: "PAYLOAD_TOO_LARGE",
    message: "The body is over 64 KiB.",
    description: "Body over 64 KiB (PAYLOAD_TOO_LARGE).",
  },
  415: {
    name: "UnsupportedMediaType",
    code: "UNSUPPORTED_MEDIA_TYPE",
    message: "Send the body as application/json.",
    description: "Body is not application/json (UNSUPPORTED_MEDIA_TYPE).",
  },
  422: {
    name: "Unprocessable",
    code: "UNPROCESSABLE",
    message: "The workspace's plan allows 1000 answers per month.",
    description: "Rejected by a business rule, the same Idempotency-Key with another body, or " +
      "(ads API) an invalid query parameter (UNPROCESSABLE); error.field gives detail.",
    replayed: true,
  },
  429: {
    name: "TooManyRequests",
    code: "RATE_LIMITED",
    message: "Too many requests for this user; retry after Retry-After seconds.",
    description: "Rate limit exceeded (RATE_LIMITED); retry after Retry-After seconds.",
    headers: ["Retry-After"],
  },
  500: {
    name: "InternalError",
    code: "INTERNAL",
    message: "Internal error; retry with exponential backoff.",
    description: "Internal error or unavailable dependency (INTERNAL); retry with exponential " +
      "backoff, at most 3 times. Outside the ads API this includes a database that cannot be " +
      "reached or has not answered within DATABASE_TIMEOUT_MS, 10 s by default, or is still " +
      "silent to as many earlier requests as the pool has connections. A write answered so is " +
      "not applied afterwards (what it had not committed is rolled back), except a commit " +
      "already sent at that moment, and a creating POST that carries an Idempotency-Key, which " +
      "is left to complete: retried with the same key, it answers 409 while it completes, then " +
      "replays its answer, and never writes twice.",
  },
  503: {
    name: "ServiceUnavailable",
    code: "DEGRADED",
    message: "The service is in a maintenance window; retry after Retry-After seconds.",
    description: "Maintenance window or degraded mode (DEGRADED), or, on the ads API, a " +
      "database that cannot be reached or has not answered within ADS_DATABASE_TIMEOUT_MS " +
      "(UNAVAILABLE); retry after Retry-After seconds.",
    headers: ["Retry-After"],
  },
};

/** The header names an error response may carry: the shared ones and the status's own. */
export function errorHeaderNames(status: number): string[] {
  const doc = ERRORS[status];
  const names = ["X-Trace-Id", "X-API-Version", ...(doc?.headers ?? [])];
  if (doc?.counted !== false) names.push(...RATE_LIMIT_HEADERS);
  if (doc?.replayed) names.push("Idempotent-Replayed");
  return [...names, ...ALIAS_HEADERS];
}

/** The error example of a status: its code and a message. */
export function errorExample(status: number): s.JsonSchema {
  return {
    error: {
      code: ERRORS[status]?.code ?? "INTERNAL",
      message: ERRORS[status]?.message ?? "Internal error; retry with exponential backoff.",
      field: status === 400 ? "title" : null,
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
    },
  };
}
