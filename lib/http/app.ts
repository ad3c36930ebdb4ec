// The request pipeline: the steps every request passes, in order, each a function of its own
// (lib/http/pipeline.ts says how they compose).

import { cachedMaintenance, maintenance } from "./maintenance.ts";
import { compose, newExchange } from "./pipeline.ts";
import { corsPreflight, publicCors } from "./cors.ts";
import { deadline } from "./deadline.ts";
import { authentication, handle, validation } from "./route_steps.ts";
import type { AppContext } from "./router.ts";
import {
  bodyFirst,
  commonHeaders,
  errorEnvelope,
  headWithoutBody,
  logging,
  noRoute,
  routing,
} from "./steps.ts";
import { versioning } from "./versioning.ts";

export type Handler = (req: Request, info: { remoteAddr: Deno.NetAddr }) => Promise<Response>;

export function createHandler<A extends AppContext>(app: A): Handler {
  const window = cachedMaintenance(app.db.sql, app.clock, app.maintenanceCacheMs);
  // Outermost first: a step sees the request before the steps below it, and their answer after.
  const pipeline = compose([
    logging, // one log line and the metrics of the final answer
    headWithoutBody, // HEAD is answered as GET, without the body
    publicCors(app.routes), // public routes answer any origin; what a browser may read
    commonHeaders, // the request's own headers, trace id, API version, nosniff, no-store
    errorEnvelope, // whatever a step below throws becomes the error envelope
    versioning, // a deprecated alias answers as its v1 twin, until its sunset
    routing, // the route of the method and path
    bodyFirst, // the body arrives before the deadline starts
    deadline(), // under /api/: the database deadline, maintenance read included
    maintenance(window), // under /api/: 503 DEGRADED during a maintenance window
    corsPreflight, // OPTIONS on a path with a CORS route: its preflight
    noRoute, // no route for the method and path: 404, or 405 with Allow
    authentication, // the route's auth rule: 401, 403 and 429 come before any input error
    validation, // query, path parameters and body against the route's schemas
  ], handle); // the route's handler, through its Idempotency-Key when it takes one
  return (req, info) => pipeline(newExchange(app, req, info));
}
