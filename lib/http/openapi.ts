// Builds the OpenAPI 3.1 document from the route tables: the same schemas that validate
// requests describe them, so the document cannot omit a route or a parameter.

import { successorAliasOf } from "./versioning.ts";
import type { Route } from "./router.ts";
import type { JsonSchema, Schema } from "./schema.ts";

/** SemVer of the document (forms-api.md §9): MAJOR breaking, MINOR additions, PATCH wording. */
export const SPEC_VERSION = "1.0.0";

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid request (VALIDATION_FAILED); error.field names the offending field.",
  401: "Missing, invalid, expired or revoked credentials (UNAUTHENTICATED).",
  403: "Authenticated, but not allowed (FORBIDDEN).",
  404: "No such resource, or not visible to the caller (NOT_FOUND).",
  405: "Method not allowed on this path (METHOD_NOT_ALLOWED); see Allow.",
  409: "Incompatible state (CONFLICT).",
  413: "Body over 64 KiB (PAYLOAD_TOO_LARGE).",
  415: "Body is not application/json (UNSUPPORTED_MEDIA_TYPE).",
  422: "Rejected by a business or filter rule (UNPROCESSABLE); error.field gives detail.",
  429: "Rate limit exceeded (RATE_LIMITED); retry after Retry-After seconds.",
  500: "Internal error (INTERNAL); retry with exponential backoff, at most 3 times.",
  503: "Maintenance or degraded mode (DEGRADED), or, on the ads API, a database that cannot be " +
    "reached or has not answered within ADS_DATABASE_TIMEOUT_MS, 5 s by default, or is still " +
    "silent to as many earlier requests as the pool has connections (UNAVAILABLE).",
};

const errorEnvelope: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "field", "trace_id"],
      properties: {
        code: {
          type: "string",
          enum: [
            "VALIDATION_FAILED",
            "UNAUTHENTICATED",
            "FORBIDDEN",
            "NOT_FOUND",
            "METHOD_NOT_ALLOWED",
            "CONFLICT",
            "PAYLOAD_TOO_LARGE",
            "UNSUPPORTED_MEDIA_TYPE",
            "UNPROCESSABLE",
            "RATE_LIMITED",
            "INTERNAL",
            "DEGRADED",
            "UNAVAILABLE",
          ],
        },
        message: { type: "string" },
        field: { type: ["string", "null"] },
        trace_id: { type: "string", description: "Equals the X-Trace-Id response header." },
      },
    },
  },
};

function errorStatuses(route: Route): number[] {
  const set = new Set<number>([500, 503, ...(route.errors ?? [])]);
  const hasInput = Object.keys(route.query ?? {}).length > 0 || route.body !== undefined;
  if (hasInput) set.add(route.api === "ads" ? 422 : 400);
  if (route.body) [400, 413, 415].forEach((s) => set.add(s));
  if (route.auth.security.length) [401, 403, 429].forEach((s) => set.add(s));
  if (route.paramNames.length) set.add(404);
  if (route.idempotent) [400, 409, 422].forEach((s) => set.add(s));
  return [...set].sort();
}

function operationId(route: Route, deprecated: boolean): string {
  const words = route.path.replace(/^\/api\/v1\//, "/").split(/[^a-zA-Z0-9]+/).filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return route.method.toLowerCase() + words.join("") + (deprecated ? "Deprecated" : "");
}

function mediaContent(schema: Schema<unknown> | undefined, type = "application/json") {
  return { [type]: { schema: schema?.json ?? {} } };
}

function operation(route: Route, deprecated: boolean): JsonSchema {
  const parameters: JsonSchema[] = [];
  for (const name of route.paramNames) {
    const schema = route.params?.[name];
    parameters.push({
      name,
      in: "path",
      required: true,
      schema: schema?.json ?? { type: "string" },
    });
  }
  for (const [name, schema] of Object.entries(route.query ?? {})) {
    parameters.push({ name, in: "query", required: !schema.optional, schema: schema.json });
  }
  if (route.idempotent) {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "UUID v4; a repeat within 24 h replays the first response " +
        "(Idempotent-Replayed: true) without a second side effect.",
      schema: { type: "string", format: "uuid" },
    });
  }
  const responses: JsonSchema = {};
  for (const [status, doc] of Object.entries(route.responses)) {
    const entry: JsonSchema = { description: doc.description };
    if (Number(status) !== 204) entry.content = mediaContent(doc.schema, doc.contentType);
    if (doc.headers) {
      entry.headers = Object.fromEntries(
        Object.entries(doc.headers).map((
          [h, d],
        ) => [h, { description: d, schema: { type: "string" } }]),
      );
    }
    responses[status] = entry;
  }
  for (const status of errorStatuses(route)) {
    responses[String(status)] ??= {
      description: ERROR_TEXT[status] ?? "Error.",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const op: JsonSchema = {
    operationId: operationId(route, deprecated),
    summary: route.summary,
    description: [route.description, route.auth.describe].filter(Boolean).join("\n\n"),
    tags: [route.tag],
    security: route.auth.security,
    responses,
  };
  if (parameters.length) op.parameters = parameters;
  if (route.body) op.requestBody = { required: true, content: mediaContent(route.body) };
  if (deprecated) {
    op.deprecated = true;
    op.description += `\n\nDeprecated unprefixed alias of ${route.path}; removed after ` +
      "2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.";
  }
  return op;
}

export function buildOpenApi(routes: Route[], serverUrl: string): JsonSchema {
  const paths: JsonSchema = {};
  const add = (path: string, route: Route, deprecated: boolean) => {
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, deprecated);
  };
  for (const route of routes) add(route.path, route, false);
  for (const route of routes) {
    const alias = successorAliasOf(route.path);
    if (alias) add(alias, route, true);
  }
  const tags = [...new Set(routes.map((r) => r.tag))].sort().map((name) => ({ name }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Onda API",
      version: SPEC_VERSION,
      description: "Read-only advertising occurrence API and forms/questionnaire API of one " +
        "self-hosted service. Every response carries X-Trace-Id; every /api/v1/ response " +
        "carries X-API-Version: v1. Errors use the envelope in components.schemas.Error.",
      license: { name: "Proprietary", identifier: "LicenseRef-Onda" },
    },
    servers: [{ url: serverUrl }],
    tags,
    paths,
    components: {
      schemas: { Error: errorEnvelope },
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "Ads API key (Authorization: Bearer onda_...). Never in the URL.",
        },
        cookie: { type: "apiKey", in: "cookie", name: "service_token" },
        bearerToken: {
          type: "http",
          scheme: "bearer",
          description: "Forms API token from POST /api/v1/auth/tokens.",
        },
        metricsToken: {
          type: "http",
          scheme: "bearer",
          description: "METRICS_TOKEN of the service's configuration (GET /metrics).",
        },
      },
    },
  };
}
