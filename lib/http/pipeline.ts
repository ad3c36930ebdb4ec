// The request pipeline's parts: what one request carries through the steps, and how the steps
// compose (each may answer itself or hand the request on, as Hono's compose does).

import type { ReceivedBody } from "./body.ts";
import type { AppContext, RequestContext, Route } from "./router.ts";
import { traceIdFrom } from "./trace.ts";

/** One request as the steps learn about it: each step fills in what later ones read. */
export interface Exchange {
  readonly req: Request;
  readonly info: { remoteAddr: Deno.NetAddr };
  readonly url: URL;
  /** When the request arrived (performance.now()), for its duration. */
  readonly started: number;
  readonly traceId: string;
  /** What the route sees as `app`; the deadline step may give it a database that is given up. */
  app: AppContext;
  /** The path routed: a deprecated alias's v1 twin once versioned. */
  path: string;
  /** The method routed: HEAD is answered as GET. */
  readonly method: string;
  /** Headers added to whatever response this request gets, error or not (rate limits, CORS). */
  readonly headers: Headers;
  /** Who is calling, for the log line: ids set by the auth rule (never a secret). */
  readonly caller: Record<string, string>;
  /** The route of the method and path with its raw parameters; null when none has both. */
  match: { route: Route; params: Record<string, string> } | null;
  /** The routes of the path that answer other methods (for 405 and preflights). */
  allowed: Route[];
  /** The route answering, for the log line, the error's rules and CORS: the match or a preflight's. */
  route: Route | null;
  /** The body, read before the deadline starts; null for a route that takes none. */
  received: ReceivedBody | null;
  /** The request as the route's auth rule and handler see it, once authenticated. */
  context: RequestContext | null;
  /** Who the auth rule says is calling (null until then, or for routes without auth). */
  principal: unknown;
  /** The query, path parameters and body, validated against the route's schemas. */
  input: { query: Record<string, unknown>; params: Record<string, unknown>; body: unknown } | null;
  /** What went wrong, when the answer is the error envelope: the log line describes it. */
  failure: unknown;
}

/** One step: answers itself, or hands the request on with `next` and may amend what comes back. */
export type Step = (x: Exchange, next: () => Promise<Response>) => Promise<Response>;

/** The steps in order, outermost first, around `last` (the one that always answers). */
export function compose(
  steps: Step[],
  last: (x: Exchange) => Promise<Response>,
): (x: Exchange) => Promise<Response> {
  return (x) => {
    const run = (i: number): Promise<Response> =>
      i < steps.length ? steps[i](x, () => run(i + 1)) : last(x);
    return run(0);
  };
}

/** A request as it enters the pipeline: nothing learned of it yet but its trace id. */
export function newExchange(
  app: AppContext,
  req: Request,
  info: { remoteAddr: Deno.NetAddr },
): Exchange {
  const started = performance.now();
  const traceId = traceIdFrom(req.headers.get("traceparent"));
  const url = new URL(req.url);
  return {
    req,
    info,
    url,
    started,
    traceId,
    app,
    path: url.pathname,
    method: req.method === "HEAD" ? "GET" : req.method,
    headers: new Headers(),
    caller: {},
    match: null,
    allowed: [],
    route: null,
    received: null,
    context: null,
    principal: null,
    input: null,
    failure: null,
  };
}
