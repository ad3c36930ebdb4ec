// Each step of the request pipeline (lib/http/app.ts) alone, called directly; the composed
// pipeline is exercised over HTTP by http_test.ts, logging_test.ts, status_test.ts and the rest.

import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config.ts";
import type { Db } from "../../lib/db/db.ts";
import { ApiError, DatabaseUnavailable } from "../../lib/errors.ts";
import { defineAdsRoute } from "../../lib/ads/wing.ts";
import { defineFormsRoute } from "../../lib/forms/wing.ts";
import { corsPreflight, publicCors } from "../../lib/http/cors.ts";
import { deadline } from "../../lib/http/deadline.ts";
import { maintenance } from "../../lib/http/maintenance.ts";
import type { Metrics } from "../../lib/http/metrics.ts";
import { compose, type Exchange, newExchange, type Step } from "../../lib/http/pipeline.ts";
import { authentication, handle, validation } from "../../lib/http/route_steps.ts";
import {
  type AppContext,
  type AuthRule,
  defineRoute,
  json,
  noAuth,
  type Route,
} from "../../lib/http/router.ts";
import * as s from "../../lib/http/schema.ts";
import {
  bodyFirst,
  commonHeaders,
  errorEnvelope,
  headWithoutBody,
  logging,
  noRoute,
  routing,
} from "../../lib/http/steps.ts";
import { SUNSET } from "../../lib/http/versioning.ts";
import { versioning } from "../../lib/http/versioning.ts";
import { body } from "../_server.ts";

const BASE = "http://onda.test";
const NOW = new Date("2026-06-01T12:00:00Z");

/** An app with what the steps read; its database answers every statement with no rows. */
function fakeApp(options: { env?: Record<string, string>; routes?: Route[]; now?: Date } = {}) {
  const logs: Record<string, unknown>[] = [];
  const requests: unknown[][] = [];
  const sql = Object.assign(() => Promise.resolve([]), { exec: () => Promise.resolve([]) });
  const app = {
    config: loadConfig(options.env ?? {}),
    db: { sql, keptPlans: sql } as unknown as Db,
    clock: () => options.now ?? NOW,
    log: (line: Record<string, unknown>) => logs.push(line),
    metrics: { request: (...args: unknown[]) => requests.push(args) } as unknown as Metrics,
    routes: options.routes ?? [],
    maintenanceCacheMs: 0,
  } as unknown as AppContext;
  return { app, logs, requests };
}

function exchange(app: AppContext, path: string, init: RequestInit = {}): Exchange {
  const remoteAddr: Deno.NetAddr = { transport: "tcp", hostname: "192.0.2.7", port: 40000 };
  return newExchange(app, new Request(BASE + path, init), { remoteAddr });
}

/** A `next` that answers `response` and counts its calls. */
function answering(response: () => Response = () => json({ ok: true })) {
  const next = () => {
    next.calls++;
    return Promise.resolve(response());
  };
  next.calls = 0;
  return next;
}

/** The ApiError a step throws (or rejects with), for its status, code and headers. */
async function refusal(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("the step did not refuse");
}

const route = (def: Partial<Parameters<typeof defineRoute>[0]> = {}) =>
  defineRoute({
    method: "GET",
    path: "/api/v1/things/{id}",
    tag: "probe",
    summary: "probe",
    auth: noAuth,
    params: { id: s.uuid() },
    responses: { 200: { description: "ok" } },
    handler: () => json({ ok: true }),
    ...def,
  });

Deno.test("pipeline: steps run outermost first, and a step may answer without the next", async () => {
  const order: string[] = [];
  const step = (name: string): Step => async (_x, next) => {
    order.push(`${name} in`);
    const response = await next();
    order.push(`${name} out`);
    return response;
  };
  const answerEarly: Step = () => Promise.resolve(new Response("early", { status: 418 }));
  const { app } = fakeApp();
  const last = () => Promise.resolve(new Response("last"));
  const res = await compose([step("a"), step("b")], last)(exchange(app, "/"));
  assert.equal(await res.text(), "last");
  assert.deepEqual(order, ["a in", "b in", "b out", "a out"]);
  const early = await compose([step("c"), answerEarly, step("d")], last)(exchange(app, "/"));
  assert.equal(early.status, 418);
  assert.deepEqual(order.slice(4), ["c in", "c out"]);
});

Deno.test("pipeline logging: one line per request with route, status, duration, trace id and caller; a 500 logs its cause", async () => {
  const { app, logs, requests } = fakeApp();
  const x = exchange(app, "/api/v1/things/1", { method: "POST" });
  x.route = route({ method: "POST" });
  x.caller.user_id = "u1";
  await logging(x, answering(() => json({}, 201)));
  assert.deepEqual(Object.keys(logs[0]), [
    "level",
    "method",
    "route",
    "status",
    "duration_ms",
    "trace_id",
    "user_id",
  ]);
  assert.equal(logs[0].level, "info");
  assert.equal(logs[0].route, "/api/v1/things/{id}");
  assert.equal(logs[0].status, 201);
  assert.equal(logs[0].trace_id, x.traceId);
  assert.equal(logs[0].user_id, "u1");
  assert.equal(logs[0].error, undefined);
  assert.deepEqual(requests[0].slice(0, 3), ["POST", "/api/v1/things/{id}", 201]);

  const failed = exchange(app, "/nowhere");
  failed.failure = new Error("the disk is full", { cause: new Error("ENOSPC") });
  await logging(failed, answering(() => json({}, 500)));
  assert.equal(logs[1].level, "error");
  assert.equal(logs[1].route, null);
  assert.equal((logs[1].error as { message: string }).message, "the disk is full");
  // A refusal is the caller's business: its line has no error detail.
  const refused = exchange(app, "/nowhere");
  refused.failure = new ApiError(404, "NOT_FOUND", { message: "No such resource." });
  await logging(refused, answering(() => json({}, 404)));
  assert.equal(logs[2].error, undefined);
});

Deno.test("pipeline headWithoutBody: HEAD answers the GET's status and headers, without its body", async () => {
  const { app } = fakeApp();
  const get = () => json({ a: 1 }, 200, { ETag: '"v1"' });
  const head = await headWithoutBody(exchange(app, "/x", { method: "HEAD" }), answering(get));
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("etag"), '"v1"');
  assert.equal(await head.text(), "");
  const full = await headWithoutBody(exchange(app, "/x"), answering(get));
  assert.deepEqual(await full.json(), { a: 1 });
});

Deno.test("pipeline publicCors: public routes and paths under a public prefix answer any origin; any cross-origin answer exposes the service's headers", async () => {
  const publicRoute = defineFormsRoute({
    ...route(),
    path: "/api/v1/public/q/{slug}",
    params: { slug: s.string() },
    cors: "public",
  });
  const step = publicCors([publicRoute, route()]);
  const { app } = fakeApp();
  const x = exchange(app, "/api/v1/public/q/radio");
  x.route = publicRoute;
  const res = await step(x, answering());
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.match(res.headers.get("access-control-expose-headers") ?? "", /X-Trace-Id, X-API-Version/);
  // No route, but under the forms API's public prefix (a 404 there): any origin too.
  const unrouted = await step(exchange(app, "/api/v1/public/nothing"), answering());
  assert.equal(unrouted.headers.get("access-control-allow-origin"), "*");
  // A credentialed answer keeps its own origin, and may read the same headers.
  const credentialed = await step(
    exchange(app, "/api/v1/things/1"),
    answering(() => json({}, 200, { "Access-Control-Allow-Origin": "https://app.example" })),
  );
  assert.equal(credentialed.headers.get("access-control-allow-origin"), "https://app.example");
  assert.ok(credentialed.headers.has("access-control-expose-headers"));
  const sameOrigin = await step(exchange(app, "/api/v1/things/1"), answering());
  assert.equal(sameOrigin.headers.has("access-control-allow-origin"), false);
  assert.equal(sameOrigin.headers.has("access-control-expose-headers"), false);
});

Deno.test("pipeline commonHeaders: the request's headers never replace the answer's own; a replayed trace id stays; v1, nosniff, and no-store under /api/ unless set", async () => {
  const { app } = fakeApp();
  const x = exchange(app, "/api/v1/things/1");
  x.headers.set("X-RateLimit-Remaining", "9");
  x.headers.set("Vary", "Origin");
  const res = await commonHeaders(x, answering(() => json({}, 200, { Vary: "Accept" })));
  assert.equal(res.headers.get("x-ratelimit-remaining"), "9");
  assert.equal(res.headers.get("vary"), "Accept");
  assert.equal(res.headers.get("x-trace-id"), x.traceId);
  assert.equal(res.headers.get("x-api-version"), "v1");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("cache-control"), "no-store");
  const replay = () => json({}, 200, { "X-Trace-Id": "original", "Cache-Control": "private" });
  const replayed = await commonHeaders(exchange(app, "/api/v1/things/1"), answering(replay));
  assert.equal(replayed.headers.get("x-trace-id"), "original");
  assert.equal(replayed.headers.get("cache-control"), "private");
  const script = await commonHeaders(exchange(app, "/embed.js"), answering());
  assert.equal(script.headers.has("x-api-version"), false);
  assert.equal(script.headers.has("cache-control"), false);
  assert.equal(script.headers.get("x-content-type-options"), "nosniff");
});

Deno.test("pipeline errorEnvelope: an ApiError keeps its status; a lost database is the route's unavailable; anything else a bare 500; the failure is kept for the log", async () => {
  const { app } = fakeApp();
  const throwing = (err: unknown) => () => Promise.reject(err);
  const x = exchange(app, "/api/v1/things/1");
  const conflict = new ApiError(409, "CONFLICT", {
    message: "Already done.",
    field: "state",
    headers: { "Retry-After": "5" },
  });
  const res = await errorEnvelope(x, throwing(conflict));
  assert.equal(res.status, 409);
  assert.equal(res.headers.get("retry-after"), "5");
  assert.deepEqual(await body(res), {
    error: { code: "CONFLICT", message: "Already done.", field: "state", trace_id: x.traceId },
  });
  assert.equal(x.failure, conflict);
  const ads = exchange(app, "/api/v1/ads");
  ads.route = defineAdsRoute({ ...route(), path: "/api/v1/ads" });
  const lost = await errorEnvelope(ads, throwing(new DatabaseUnavailable()));
  assert.equal(lost.status, 503);
  assert.equal((await body<{ error: { code: string } }>(lost)).error.code, "UNAVAILABLE");
  const crash = await errorEnvelope(exchange(app, "/x"), throwing(new Error("select secret")));
  assert.equal(crash.status, 500);
  assert.doesNotMatch(await crash.text(), /secret/);
});

Deno.test("pipeline versioning: an alias answers as its v1 twin with Link (no credential), Deprecation and Sunset; after the sunset it is 404", async () => {
  const { app } = fakeApp();
  const x = exchange(app, "/api/questionnaires?limit=2&api_key=k&cursor=onda_pat_x");
  const next = answering();
  await versioning(x, next);
  assert.equal(next.calls, 1);
  assert.equal(x.path, "/api/v1/questionnaires");
  assert.equal(
    x.headers.get("link"),
    '</api/v1/questionnaires?limit=2>; rel="successor-version"; type="application/json"',
  );
  assert.equal(x.headers.get("deprecation"), "true");
  assert.equal(x.headers.get("sunset"), SUNSET.toUTCString());
  for (const path of ["/api/v1/questionnaires", "/api/openapi", "/status"]) {
    const same = exchange(app, path);
    await versioning(same, answering());
    assert.equal(same.path, path);
    assert.equal(same.headers.has("link"), false);
  }
  const late = fakeApp({ now: new Date(SUNSET.getTime() + 1000) });
  const gone = exchange(late.app, "/api/questionnaires");
  const lateNext = answering();
  const error = await refusal(() => versioning(gone, lateNext));
  assert.equal(error.status, 404);
  assert.equal(lateNext.calls, 0);
  assert.match(gone.headers.get("link") ?? "", /^<\/api\/v1\/questionnaires>/);
  assert.equal(gone.headers.has("deprecation"), false);
});

Deno.test("pipeline routing: HEAD is routed as GET; the path's other methods are kept for 405", async () => {
  const get = route();
  const del = route({ method: "DELETE" });
  const { app } = fakeApp({ routes: [del, get] });
  const x = exchange(app, "/api/v1/things/abc", { method: "HEAD" });
  await routing(x, answering());
  assert.equal(x.match?.route, get);
  assert.deepEqual(x.match?.params, { id: "abc" });
  assert.equal(x.route, get);
  const put = exchange(app, "/api/v1/things/abc", { method: "PUT" });
  await routing(put, answering());
  assert.equal(put.match, null);
  assert.equal(put.route, null);
  assert.deepEqual(put.allowed, [del, get]);
});

Deno.test("pipeline bodyFirst: the body is read before the next step, and only for a route that takes one", async () => {
  const { app } = fakeApp();
  const post = route({ method: "POST", body: s.object({ name: s.string() }) });
  const x = exchange(app, "/api/v1/things/1", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"name":"a"}',
  });
  x.match = { route: post, params: {} };
  let seen: unknown = null;
  await bodyFirst(x, () => {
    seen = x.received;
    return Promise.resolve(json({}));
  });
  assert.deepEqual(new TextDecoder().decode((seen as { bytes: Uint8Array }).bytes), '{"name":"a"}');
  const y = exchange(app, "/api/v1/things/1", { method: "POST", body: "ignored" });
  y.match = { route: route({ method: "POST" }), params: {} };
  await bodyFirst(y, answering());
  assert.equal(y.received, null);
  assert.equal(y.req.bodyUsed, false);
});

Deno.test("pipeline deadline: past it a request answers unavailable and its database refuses what it had not sent; once a pool's worth waits, the next answers at once", async () => {
  const { app } = fakeApp({ env: { DATABASE_TIMEOUT_MS: "100", DB_POOL_MAX: "1" } });
  const step = deadline();
  const stalled = Promise.withResolvers<Response>();
  const x = exchange(app, "/api/v1/things/1");
  const started = performance.now();
  await assert.rejects(step(x, () => stalled.promise), DatabaseUnavailable);
  assert.ok(performance.now() - started < 5000);
  // Given up: what it sends from now on is refused, not run later.
  await assert.rejects(Promise.resolve(x.app.db.sql`select 1`), DatabaseUnavailable);
  const next = answering();
  await assert.rejects(
    step(exchange(app, "/api/v1/things/2"), next),
    (err) => err instanceof DatabaseUnavailable && /still wait/.test(String(err.cause)),
  );
  assert.equal(next.calls, 0);
  stalled.resolve(json({}));
  await stalled.promise;
  await new Promise((resolve) => setTimeout(resolve, 0));
  const after = exchange(app, "/api/v1/things/3");
  assert.equal((await step(after, next)).status, 200);
  // Not under /api/: no deadline, and the app's own database.
  const page = exchange(app, "/try/radio");
  await step(page, answering());
  assert.equal(page.app, app);
});

Deno.test("pipeline maintenance: a request under /api/ is 503 DEGRADED with Retry-After during a window; an unreachable database lets it through", async () => {
  const { app } = fakeApp();
  const until = new Date(NOW.getTime() + 90_000);
  const open = maintenance(() => Promise.resolve({ startedAt: NOW, until }));
  const next = answering();
  const error = await refusal(() => open(exchange(app, "/api/v1/things/1"), next));
  assert.equal(error.status, 503);
  assert.equal(error.code, "DEGRADED");
  assert.equal(error.headers["Retry-After"], "90");
  assert.equal(next.calls, 0);
  assert.equal((await open(exchange(app, "/status"), next)).status, 200);
  const unreachable = maintenance(() => Promise.reject(new DatabaseUnavailable()));
  assert.equal((await unreachable(exchange(app, "/api/v1/things/1"), next)).status, 200);
  const closed = maintenance(() => Promise.resolve(null));
  assert.equal((await closed(exchange(app, "/api/v1/things/1"), next)).status, 200);
});

Deno.test("pipeline corsPreflight: OPTIONS on a path with a CORS route answers its preflight; any other request goes on", async () => {
  const { app } = fakeApp();
  const publicRoute = route({ cors: "public" });
  const x = exchange(app, "/api/v1/things/1", { method: "OPTIONS" });
  x.allowed = [route({ method: "DELETE" }), publicRoute];
  const next = answering();
  const res = await corsPreflight(x, next);
  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.match(res.headers.get("access-control-allow-methods") ?? "", /OPTIONS/);
  assert.equal(x.route, publicRoute);
  assert.equal(next.calls, 0);
  const plain = exchange(app, "/api/v1/things/1", { method: "OPTIONS" });
  plain.allowed = [route()];
  assert.equal((await corsPreflight(plain, next)).status, 200);
  assert.equal(plain.route, null);
});

Deno.test("pipeline noRoute: a path without routes is 404; one with other methods is 405 with Allow, OPTIONS too where a route has CORS", async () => {
  const { app } = fakeApp();
  const none = await refusal(() => noRoute(exchange(app, "/api/v1/nothing"), answering()));
  assert.equal(none.status, 404);
  const x = exchange(app, "/api/v1/things/1", { method: "PUT" });
  x.allowed = [route(), route({ method: "DELETE", cors: "credentialed" })];
  const wrong = await refusal(() => noRoute(x, answering()));
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.Allow, "GET, DELETE, OPTIONS");
  const matched = exchange(app, "/api/v1/things/1");
  matched.match = { route: route(), params: {} };
  assert.equal((await noRoute(matched, answering())).status, 200);
});

Deno.test("pipeline authentication: the auth rule runs before the next step and settles after it, whatever its answer; a refusal stops the request", async () => {
  const { app } = fakeApp({ env: { TRUST_PROXY: "1" } });
  const events: string[] = [];
  const rule: AuthRule<string> = {
    security: [],
    describe: "test",
    authenticate: (ctx) => {
      events.push(`authenticate ${ctx.clientAddress}`);
      if (ctx.req.headers.has("x-refuse")) {
        return Promise.reject(new ApiError(401, "UNAUTHENTICATED", { message: "Sign in." }));
      }
      return Promise.resolve("alice");
    },
    settle: (_ctx, principal) => {
      events.push(`settle ${principal}`);
      return Promise.resolve();
    },
  };
  const authed = route({ auth: rule });
  const x = exchange(app, "/api/v1/things/1", {
    headers: { "x-forwarded-for": "1.1.1.1, 203.0.113.9" },
  });
  x.match = { route: authed, params: {} };
  const failing = () => {
    events.push(`next ${x.principal}`);
    return Promise.reject(new ApiError(400, "VALIDATION_FAILED", { message: "Bad." }));
  };
  await assert.rejects(authentication(x, failing), ApiError);
  assert.deepEqual(events, ["authenticate 203.0.113.9", "next alice", "settle alice"]);
  assert.equal(x.context?.route, authed);
  const refused = exchange(app, "/api/v1/things/1", { headers: { "x-refuse": "1" } });
  refused.match = { route: authed, params: {} };
  const next = answering();
  assert.equal((await refusal(() => authentication(refused, next))).status, 401);
  assert.equal(next.calls, 0);
  assert.equal(events.length, 4);
});

Deno.test("pipeline validation: query, path parameters and body by the route's schemas; the ads API's invalid filter is 422, a malformed path parameter 404", async () => {
  const { app } = fakeApp();
  const things = route({
    method: "POST",
    query: { limit: s.optional(s.int({ min: 1, max: 10 }), 5) },
    body: s.object({ name: s.string() }),
  });
  const x = exchange(app, "/api/v1/things/ABCDEF00-0000-4000-8000-000000000000?limit=2");
  x.match = { route: things, params: { id: "ABCDEF00-0000-4000-8000-000000000000" } };
  x.received = { bytes: new TextEncoder().encode('{"name":"a"}') };
  await validation(x, answering());
  assert.deepEqual(x.input, {
    query: { limit: 2 },
    params: { id: "abcdef00-0000-4000-8000-000000000000" },
    body: { name: "a" },
  });
  const badQuery = exchange(app, "/api/v1/things/x?limit=50");
  badQuery.match = { route: things, params: { id: "abcdef00-0000-4000-8000-000000000000" } };
  assert.equal((await refusal(() => validation(badQuery, answering()))).status, 400);
  badQuery.match = { route: defineAdsRoute(things), params: badQuery.match.params };
  const ads = await refusal(() => validation(badQuery, answering()));
  assert.equal(ads.status, 422);
  assert.equal(ads.field, "limit");
  const badPath = exchange(app, "/api/v1/things/7");
  badPath.match = { route: route(), params: { id: "7" } };
  assert.equal((await refusal(() => validation(badPath, answering()))).status, 404);
});

Deno.test("pipeline handle: the handler gets the caller, the validated input and the request's headers", async () => {
  const { app } = fakeApp();
  const echo = route({
    handler: ({ principal, query, params, body, headers }) => {
      headers.set("X-Seen", "1");
      return json({ principal, query, params, body });
    },
  });
  const x = exchange(app, "/api/v1/things/1");
  x.match = { route: echo, params: { id: "1" } };
  x.principal = "alice";
  x.context = { ...newContext(x, echo) };
  x.input = { query: { q: 1 }, params: { id: "1" }, body: undefined };
  const res = await handle(x);
  assert.deepEqual(await res.json(), { principal: "alice", query: { q: 1 }, params: { id: "1" } });
  assert.equal(x.headers.get("x-seen"), "1");
});

function newContext(x: Exchange, route: Route) {
  return {
    req: x.req,
    url: x.url,
    app: x.app,
    route,
    traceId: x.traceId,
    clientAddress: "192.0.2.7",
    headers: x.headers,
    caller: x.caller,
  };
}
