// Builds the OpenAPI 3.1 document from the route tables: the same schemas that validate
// requests describe them, so the document cannot omit a route or a parameter.

import { successorAliasOf } from "../versioning.ts";
import type { HeaderParam, ResponseDoc, Route } from "../router.ts";
import * as s from "../schema.ts";
import { exampleOf, requestJson, schemaRegistry } from "./schemas.ts";
import {
  ALIAS_HEADERS,
  errorExample,
  errorHeaderNames,
  ERRORS,
  errorSchema,
  HEADERS,
} from "./responses.ts";

/** SemVer of the document (forms-api.md §9): MAJOR breaking, MINOR additions, PATCH wording. */
export const SPEC_VERSION = "1.3.0";

/** One event a webhook receives, for the document's webhooks section. */
export interface WebhookDoc {
  /** The event type: the body's type and x-service-event. */
  event: string;
  summary: string;
  description: string;
  payload: s.Schema<unknown>;
}

export interface WebhookDocs {
  /** Request headers of every delivery (the signature scheme). */
  headers: HeaderParam[];
  /** What the receiver's answers mean, by status or range ("2XX"). */
  responses: Record<string, string>;
  events: WebhookDoc[];
}

const IDEMPOTENCY_KEY: HeaderParam = {
  name: "Idempotency-Key",
  description: "UUID v4 unique per logical operation; a repeat within 24 h from the same " +
    "caller replays the first answer (Idempotent-Replayed: true) without a second side " +
    "effect; with another body: 422; while the first still runs: 409. A 5xx stores nothing, " +
    "so a retry with the same key runs again; a request given up at the database deadline " +
    "either left nothing behind or, its writes under way, completes them with its answer " +
    "stored (409 while it completes), which the retry with the same key then replays.",
  schema: s.uuid({ v4: true }),
};

const JSON_TYPE = "application/json";

function pascal(text: string): string {
  return text.split(/[^a-zA-Z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
}

function operationId(route: Route, deprecated: boolean): string {
  return route.method.toLowerCase() + pascal(route.path.replace(/^\/api\/v1\//, "/")) +
    (deprecated ? "Deprecated" : "");
}

/** The errors a route can answer besides those its table declares with a body. */
function errorStatuses(route: Route): number[] {
  const auth = route.auth.errors ?? (route.auth.security.length ? [401, 403, 429] : []);
  // 405 belongs to the path, which OpenAPI cannot describe: each of its operations lists it.
  const set = new Set<number>([405, 500, ...auth, ...(route.errors ?? [])]);
  // Maintenance: every /api/ route answers 503 DEGRADED.
  if (route.path.startsWith("/api/")) set.add(503);
  const hasInput = Object.keys(route.query ?? {}).length > 0 || route.body !== undefined;
  if (hasInput) set.add(route.rules.invalidQueryStatus);
  if (route.body) [400, 408, 413, 415].forEach((code) => set.add(code));
  if (route.paramNames.length) set.add(404);
  if (route.idempotent) [400, 409, 422].forEach((code) => set.add(code));
  return [...set].sort();
}

/** `serverUrl` is PUBLIC_BASE_URL; `tags` describes every tag the routes and webhooks use. */
export function buildOpenApi(input: {
  routes: Route[];
  serverUrl: string;
  tags: Record<string, string>;
  webhooks: WebhookDocs;
}): s.JsonSchema {
  const registry = schemaRegistry();
  const usedHeaders = new Set<string>();
  const responses: Record<string, s.JsonSchema> = {};
  const parameters: Record<string, s.JsonSchema> = {};
  // An unnamed body schema shared by several operations keeps the first one's name.
  const autoNames = new Map<s.JsonSchema, string>();

  /**
   * A body's schema: a component under its own name, else under one after its operation; a
   * request's as requests read it (requestJson).
   */
  function bodySchema(json: s.JsonSchema, fallbackName: string, request = false): s.JsonSchema {
    const shaped = (schema: s.JsonSchema) => registry.refer(request ? requestJson(schema) : schema);
    if (s.componentName(json) || json.type !== "object") return shaped(json);
    if (!autoNames.has(json)) autoNames.set(json, fallbackName);
    return shaped(s.namedJson(autoNames.get(json)!, json));
  }

  /** The shared headers `names` and a response's `own`, by reference where they are shared. */
  function headerMap(names: string[], own: Record<string, string> = {}): s.JsonSchema {
    const out: s.JsonSchema = {};
    for (const name of [...names, ...Object.keys(own)]) {
      if (own[name] !== undefined && !HEADERS[name]) {
        out[name] = { description: own[name], schema: { type: "string" } };
      } else {
        usedHeaders.add(name);
        out[name] = { $ref: `#/components/headers/${name}` };
      }
    }
    return out;
  }

  function headerParam(param: HeaderParam): s.JsonSchema {
    parameters[param.name] ??= {
      name: param.name,
      in: "header",
      required: param.required ?? false,
      description: param.description,
      schema: registry.refer(param.schema.json),
      example: exampleOf(param.schema.json),
    };
    return { $ref: `#/components/parameters/${param.name}` };
  }

  /** An error response; `description` and `own` headers where a route words its own. */
  function errorResponse(status: number, description?: string, own?: Record<string, string>) {
    const response = () => ({
      description: description ?? ERRORS[status]?.description ?? "Error.",
      headers: headerMap(errorHeaderNames(status), own),
      content: {
        [JSON_TYPE]: { schema: registry.refer(errorSchema.json), example: errorExample(status) },
      },
    });
    const name = ERRORS[status]?.name;
    if (!name || description) return response();
    responses[name] ??= response();
    return { $ref: `#/components/responses/${name}` };
  }

  function jsonBody(json: s.JsonSchema, schema: s.JsonSchema, required = true): s.JsonSchema {
    return { required, content: { [JSON_TYPE]: { schema, example: exampleOf(json) } } };
  }

  function media(doc: ResponseDoc, fallbackName: string): s.JsonSchema | undefined {
    if (doc.content) {
      return Object.fromEntries(
        Object.entries(doc.content).map(([type, m]) => [type, {
          schema: m.schema ? registry.refer(m.schema.json) : { type: "string" },
          example: m.example,
        }]),
      );
    }
    if (!doc.schema && !doc.contentType) return undefined;
    const type = doc.contentType ?? JSON_TYPE;
    if (type === JSON_TYPE && doc.schema) {
      const example = doc.example ?? exampleOf(doc.schema.json);
      return { [type]: { schema: bodySchema(doc.schema.json, fallbackName), example } };
    }
    const schema = doc.schema ? registry.refer(doc.schema.json) : { type: "string" };
    return { [type]: doc.example === undefined ? { schema } : { schema, example: doc.example } };
  }

  function operation(route: Route, alias: boolean): s.JsonSchema {
    const baseName = pascal(operationId(route, false));
    const params: s.JsonSchema[] = [];
    // The description of a parameter's value describes the parameter. Every parameter has an
    // example, which tools that fill requests in (Postman) send as its value.
    const param = (name: string, where: string, required: boolean, json: s.JsonSchema) => {
      const { description, ...schema } = registry.refer(json);
      const example = exampleOf(json);
      params.push({
        name,
        in: where,
        required,
        ...(description && { description }),
        schema,
        example,
      });
    };
    for (const name of route.paramNames) {
      param(name, "path", true, route.params?.[name]?.json ?? { type: "string" });
    }
    for (const [name, schema] of Object.entries(route.query ?? {})) {
      param(name, "query", !schema.optional, schema.json);
    }
    for (const header of route.auth.requestHeaders ?? []) params.push(headerParam(header));
    if (route.idempotent) params.push(headerParam(IDEMPOTENCY_KEY));

    // What the pipeline and the auth rule add to every answer of this operation.
    const sent = ["X-Trace-Id"];
    if (route.path.startsWith("/api/v1/")) sent.push("X-API-Version");
    sent.push(...(route.auth.responseHeaders ?? []));
    if (route.idempotent) sent.push("Idempotent-Replayed");
    if (alias) sent.push(...ALIAS_HEADERS);

    const out: s.JsonSchema = {};
    const statuses = Object.keys(route.responses).map(Number).sort();
    const firstSuccess = statuses.find((status) => status < 300);
    for (const status of statuses) {
      const doc = route.responses[status];
      const body = media(doc, `${baseName}Response${status === firstSuccess ? "" : status}`);
      if (status >= 400 && !body) {
        // An error of the envelope that this route describes in its own words.
        out[status] = errorResponse(status, doc.description, doc.headers);
      } else {
        out[status] = { description: doc.description, headers: headerMap(sent, doc.headers) };
        if (body) out[status].content = body;
      }
    }
    for (const status of errorStatuses(route)) out[status] ??= errorResponse(status);

    const op: s.JsonSchema = {
      operationId: operationId(route, alias),
      summary: route.summary,
      description: [route.description, route.auth.describe].filter(Boolean).join("\n\n"),
      tags: [route.tag],
      security: route.auth.security,
    };
    if (params.length) op.parameters = params;
    if (route.body) {
      const schema = bodySchema(route.body.json, `${baseName}Request`, true);
      op.requestBody = jsonBody(route.body.json, schema, !route.body.optional);
    }
    op.responses = out;
    if (route.deprecated) op.deprecated = true;
    if (alias) {
      op.deprecated = true;
      op.description += `\n\nDeprecated unprefixed alias of ${route.path}; removed after ` +
        "2026-12-31T23:59:59Z. Responses carry Deprecation, Sunset and Link headers.";
    }
    return op;
  }

  function webhook(doc: WebhookDoc): s.JsonSchema {
    return {
      post: {
        operationId: "webhook" + pascal(doc.event),
        summary: doc.summary,
        description: doc.description,
        tags: ["webhooks"],
        security: [],
        parameters: input.webhooks.headers.map(headerParam),
        requestBody: jsonBody(doc.payload.json, registry.refer(doc.payload.json)),
        responses: Object.fromEntries(
          Object.entries(input.webhooks.responses).map(([code, d]) => [code, { description: d }]),
        ),
      },
    };
  }

  const paths: s.JsonSchema = {};
  const add = (path: string, route: Route, alias: boolean) => {
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, alias);
  };
  for (const route of input.routes) add(route.path, route, false);
  for (const route of input.routes) {
    const alias = successorAliasOf(route.path);
    if (alias) add(alias, route, true);
  }
  const webhooks = Object.fromEntries(input.webhooks.events.map((e) => [e.event, webhook(e)]));

  const tagNames = new Set([...input.routes.map((r) => r.tag), "webhooks"]);
  const sorted = (record: Record<string, s.JsonSchema>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: "3.1.0",
    info: {
      title: "Onda API",
      version: SPEC_VERSION,
      description: "Read-only advertising occurrence API (tag ads) and forms/questionnaire " +
        "API of one self-hosted service. Every response carries X-Trace-Id (a valid incoming " +
        "traceparent supplies it); every /api/v1/ response carries X-API-Version: v1. Every " +
        "error is the envelope of components.schemas.Error. Unprefixed /api/... paths are " +
        "deprecated aliases of their /api/v1/ twins until 2026-12-31T23:59:59Z. Webhook " +
        "deliveries are described under webhooks.\n\n# Authentication\n\nEach operation " +
        "lists the credentials it accepts (security); each is described here. A reference " +
        "that renders the document (GET /docs) shows them in this place.\n\n" +
        // Redoc's marker: the security schemes are rendered here; other readers skip a comment.
        "<!-- ReDoc-Inject: <security-definitions> -->",
      license: { name: "Proprietary", identifier: "LicenseRef-Onda" },
    },
    servers: [{ url: input.serverUrl, description: "This instance (PUBLIC_BASE_URL)." }],
    tags: [...tagNames].sort().map((name) => ({ name, description: input.tags[name] })),
    paths,
    webhooks,
    components: {
      schemas: sorted(registry.schemas),
      responses: sorted(responses),
      parameters: sorted(parameters),
      headers: sorted(Object.fromEntries([...usedHeaders].map((h) => [h, HEADERS[h]]))),
      securitySchemes: sorted(
        Object.assign({}, ...input.routes.map((r) => r.auth.securitySchemes ?? {})),
      ),
    },
  };
}
