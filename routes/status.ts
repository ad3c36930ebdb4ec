// GET /status: liveness for load balancers and humans; no auth, never cached.

import { EXPIRED, within } from "../lib/db/deadline.ts";
import type { ReadReplica, ReplicaStatus } from "../lib/db/replica.ts";
import { readMaintenance, retryAfter } from "../lib/http/maintenance.ts";
import { defineRoute, json, noAuth } from "../lib/http/router.ts";
import * as s from "../lib/http/schema.ts";
import { VERSION } from "../lib/version.ts";

const statusSchema = s.named(
  "Status",
  s.object({
    status: s.enumOf(["ok", "degraded", "maintenance"]),
    version: s.string({ example: VERSION }),
    until: s.optional(
      s.nullable(s.dateTime("maintenance only: when it ends; null = until switched off.")),
    ),
    checks: s.object({
      database: s.enumOf(["ok", "unavailable"]),
      // Only with DATABASE_READ_URL (see the description).
      replica: s.optional(s.object({
        state: s.enumOf(["ok", "unavailable"]),
        lag_seconds: s.nullable(s.number({ min: 0 })),
        lag_bytes: s.nullable(s.number({ min: 0 })),
      })),
    }),
  }),
);

/** A database that does not answer within this time counts as down. */
const DATABASE_CHECK_MS = 2000;

export const routes = [
  defineRoute({
    method: "GET",
    path: "/status",
    tag: "service",
    summary: "Service status",
    description: '200 {status:"ok",version,checks:{database:"ok"}} when healthy; 503 with ' +
      'status "degraded" when the database does not answer within 2 s, or "maintenance" ' +
      "(with until, null = until switched off) during a maintenance window, with Retry-After. " +
      "With a read replica (DATABASE_READ_URL), checks.replica is {state, lag_seconds, " +
      'lag_bytes}: state "ok", or "unavailable" while the primary answers its reads (still ' +
      "200); lag_seconds is how far the data it serves is behind the primary's (0 when it has " +
      "replayed everything).",
    auth: noAuth,
    responses: {
      200: {
        description: "Healthy.",
        schema: statusSchema,
        example: { status: "ok", version: VERSION, checks: { database: "ok" } },
      },
      503: {
        description: "Degraded or in maintenance.",
        schema: statusSchema,
        example: { status: "degraded", version: VERSION, checks: { database: "unavailable" } },
        headers: { "Retry-After": "Seconds to wait." },
      },
    },
    handler: async ({ app }) => {
      const headers = { "Cache-Control": "no-store" };
      const replica = app.replica ? replicaCheck(app.replica) : null;
      const result = await within(
        readMaintenance(app.db.sql, app.clock()).then((window) => ({ window }), () => null),
        DATABASE_CHECK_MS,
      );
      if (result === EXPIRED || result === null) {
        return json(
          { status: "degraded", version: VERSION, checks: { database: "unavailable" } },
          503,
          { ...headers, "Retry-After": "5" },
        );
      }
      const checks = replica ? { database: "ok", replica: await replica } : { database: "ok" };
      const { window } = result;
      if (!window) return json({ status: "ok", version: VERSION, checks }, 200, headers);
      const until = window.until?.toISOString() ?? null;
      return json({ status: "maintenance", version: VERSION, until, checks }, 503, {
        ...headers,
        "Retry-After": retryAfter(window, app.clock()),
      });
    },
  }),
];

/** The replica's state, unavailable when the question takes longer than the database check. */
async function replicaCheck(replica: ReadReplica) {
  const unavailable: ReplicaStatus = { state: "unavailable", lag_seconds: null, lag_bytes: null };
  const result = await within(
    replica.status(DATABASE_CHECK_MS).catch(() => unavailable),
    DATABASE_CHECK_MS,
  );
  return result === EXPIRED ? unavailable : result;
}
