// GET /metrics on the main port: the Prometheus text, behind METRICS_TOKEN. Mounted only when
// the token is set and METRICS_ADDR is not (lib/server.ts); otherwise the path does not exist.

import { ApiError } from "../lib/errors.ts";
import { METRICS_CONTENT_TYPE, metricsResponse, scrapeAllowed } from "../lib/http/metrics.ts";
import { type AuthRule, defineRoute } from "../lib/http/router.ts";

const metricsToken: AuthRule<null> = {
  security: [{ metricsToken: [] }],
  securitySchemes: {
    metricsToken: {
      type: "http",
      scheme: "bearer",
      description: "METRICS_TOKEN of the service's configuration (GET /metrics).",
    },
  },
  errors: [401],
  describe: "Authorization: Bearer with the METRICS_TOKEN of the configuration.",
  authenticate(ctx) {
    if (!scrapeAllowed(ctx.req, ctx.app.config.metricsToken)) {
      throw new ApiError(401, "UNAUTHENTICATED", {
        message: "Send the metrics token as Authorization: Bearer <token>.",
        headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
      });
    }
    return Promise.resolve(null);
  },
};

export const routes = [
  defineRoute({
    method: "GET",
    path: "/metrics",
    tag: "service",
    summary: "Metrics (Prometheus text format)",
    description: "Requests by route pattern, method and status with a latency histogram; " +
      "database pool use; webhook queue depth and delivery outcomes; rate-limit refusals. " +
      "Served here only when METRICS_TOKEN is set and METRICS_ADDR is not.",
    auth: metricsToken,
    responses: {
      200: {
        description: "The metrics.",
        contentType: METRICS_CONTENT_TYPE,
        example: 'onda_http_requests_total{route="/status",method="GET",status="200"} 1\n',
      },
    },
    handler: ({ app }) => metricsResponse(app.metrics),
  }),
];
