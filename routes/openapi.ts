// GET /api/openapi: the OpenAPI 3.1 document of the whole service, generated from the routes.

import { buildOpenApi, SPEC_VERSION } from "../lib/http/openapi.ts";
import { defineRoute, json, noAuth } from "../lib/http/router.ts";
import { anyJson } from "../lib/http/schema.ts";

export const routes = [
  defineRoute({
    method: "GET",
    path: "/api/openapi",
    tag: "service",
    summary: "OpenAPI 3.1 document",
    description: "Generated from the same route and schema definitions that validate requests. " +
      "X-Spec-Version carries its SemVer.",
    auth: noAuth,
    responses: {
      200: {
        description: "The document.",
        schema: anyJson("OpenAPI 3.1 document"),
        headers: { "X-Spec-Version": "SemVer of the document" },
      },
    },
    handler: ({ app }) =>
      json(buildOpenApi(app.routes, app.config.publicBaseUrl), 200, {
        "X-Spec-Version": SPEC_VERSION,
        "Access-Control-Allow-Origin": "*",
      }),
  }),
];
