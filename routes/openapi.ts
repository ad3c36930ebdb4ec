// GET /api/openapi: the OpenAPI 3.1 document of the whole service, generated from the routes.

import { buildOpenApi, SPEC_VERSION } from "../lib/http/openapi/document.ts";
import { defineRoute, JSON_CONTENT_TYPE, noAuth, type Route } from "../lib/http/router.ts";
import * as s from "../lib/http/schema.ts";
import { webhookDocs } from "../lib/forms/event_payloads.ts";

/** What each tag of the document groups; a route's tag must be one of these. */
export const TAGS: Record<string, string> = {
  ads: "The read-only advertising occurrence API: an API key (adsKey) with " +
    "permissions, the account's scope applied before counting and paging, 60 requests per " +
    "minute per key, invalid query parameters answered 422.",
  auth: "Accounts of the forms API: register, log in and out (the service_token cookie), and " +
    "bearer tokens for scripts.",
  workspace: "The workspace of the request (X-Workspace-Id): its settings, plan usage, and " +
    "members with their roles (viewer, editor, admin, owner).",
  questionnaires: "Questionnaires of the workspace: draft -> published -> closed; any -> " +
    "deleted (soft). Lists use the list envelope with an opaque cursor (encrypted and signed).",
  public: "What visitors of a published questionnaire call: no credentials, any origin " +
    "(Access-Control-Allow-Origin: *), 120 requests per minute per client address.",
  responses: "What respondents gave: a questionnaire's sessions with their answers, a " +
    "summary of the answers, and erasure of a session or of one respondent's data.",
  exports: "Exports of a questionnaire's sessions and answers, as CSV or NDJSON, streamed.",
  billing: "Checkouts for the paid plans (owner only).",
  webhooks: "Webhooks of the workspace, their delivery logs and the signing secret. What a " +
    "receiver gets is under the document's webhooks. After an erasure (DELETE of a session, " +
    "POST /api/v1/workspace/erasures) no event of the erased sessions is sent any more and " +
    "their deliveries leave the delivery log; what a receiver already got is its copy, for " +
    "the integrator to erase.",
  events: "The workspace's event log: the bodies webhooks deliver, oldest first.",
  embed: "The embed script, and a page that shows it working.",
  service: "Liveness, this document and its reference page (/docs).",
};

/**
 * The document's text, built once per service: it depends only on the route table and the
 * configuration, both fixed at start, and building it (some 280 KB) took milliseconds of every
 * unauthenticated request for it.
 */
const served = new WeakMap<Route[], string>();

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
        schema: s.anyJson("OpenAPI 3.1 document"),
        example: { openapi: "3.1.0", info: { title: "Onda API", version: SPEC_VERSION } },
        headers: { "X-Spec-Version": "SemVer of the document" },
      },
    },
    handler: ({ app }) => {
      let text = served.get(app.routes);
      if (text === undefined) {
        text = JSON.stringify(buildOpenApi({
          routes: app.routes,
          serverUrl: app.config.publicBaseUrl,
          tags: TAGS,
          webhooks: webhookDocs,
        }));
        served.set(app.routes, text);
      }
      return new Response(text, {
        headers: {
          "content-type": JSON_CONTENT_TYPE,
          "X-Spec-Version": SPEC_VERSION,
          "Access-Control-Allow-Origin": "*",
        },
      });
    },
  }),
];
