// Metrics in the Prometheus text format: requests by route pattern, method and status with a
// latency histogram, counters the wings add to by name, and gauges read at each scrape. Served
// only when configured (METRICS_TOKEN, METRICS_ADDR), and never labelled with an id, a path or
// a query: the label values come from small fixed sets, so a client cannot grow the series.

import { createHash, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/db.ts";
import { EXPIRED, within } from "../db/deadline.ts";

/** Every metric, its type and its help line: the one list a reader needs. */
const CATALOGUE = {
  onda_http_requests_total: ["counter", "HTTP requests answered, by route pattern"],
  onda_http_request_duration_seconds: ["histogram", "Time to answer an HTTP request"],
  onda_db_pool_connections: ["gauge", "Connections a database pool may open (PGlite: 1)"],
  onda_db_pool_in_use: ["gauge", "Database work under way, up to the pool's connections"],
  onda_db_pool_waiting: ["gauge", "Database work waiting for a connection of its pool"],
  onda_webhook_queue_depth: [
    "gauge",
    "Webhook work not done: events not fanned out yet, deliveries pending",
  ],
  onda_webhook_deliveries_total: ["counter", "Webhook delivery attempts, by outcome"],
  onda_rate_limit_refusals_total: ["counter", "Requests refused by a rate limit (429)"],
} as const;

type Name = keyof typeof CATALOGUE;
type NameOf<T> = { [K in Name]: (typeof CATALOGUE)[K][0] extends T ? K : never }[Name];
type Labels = Record<string, string>;
type Sample = { labels: Labels; value: number };
type Histogram = { labels: Labels; buckets: number[]; sum: number; count: number };

/** How long a scrape waits for a gauge (a database count) before leaving it out. */
const GAUGE_READ_MS = 2000;
/** Upper bounds of the latency buckets, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export interface Metrics {
  /** Adds one to a counter; label values from a small fixed set (an outcome, a limit). */
  count(name: Exclude<NameOf<"counter">, "onda_http_requests_total">, labels: Labels): void;
  /** One answered request, by its route pattern (null: no route matched). */
  request(method: string, route: string | null, status: number, seconds: number): void;
  /** A gauge, read at every scrape. */
  gauge(name: NameOf<"gauge">, read: () => Promise<Sample[]> | Sample[]): void;
  /** The exposition text. */
  render(): Promise<string>;
}

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([name, value]) =>
    `${name}="${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`
  );
  return parts.length ? `{${parts.join(",")}}` : "";
}

export function createMetrics(): Metrics {
  // Keyed by the metric and its label text; values as Prometheus wants them, cumulative.
  const counters = new Map<string, { name: string; labels: Labels; value: number }>();
  const histograms = new Map<string, Histogram>();
  const gauges: { name: NameOf<"gauge">; read: () => Promise<Sample[]> | Sample[] }[] = [];

  const add = (name: string, labels: Labels) => {
    const key = name + labelText(labels);
    const counter = counters.get(key);
    if (counter) counter.value++;
    else counters.set(key, { name, labels, value: 1 });
  };

  return {
    count: add,
    request(method, route, status, seconds) {
      const labels = {
        route: route ?? "unmatched",
        method: METHODS.has(method) ? method : "OTHER",
      };
      add("onda_http_requests_total", { ...labels, status: String(status) });
      const key = labelText(labels);
      let histogram = histograms.get(key);
      if (!histogram) {
        histograms.set(
          key,
          histogram = { labels, buckets: BUCKETS.map(() => 0), sum: 0, count: 0 },
        );
      }
      BUCKETS.forEach((bound, i) => {
        if (seconds <= bound) histogram.buckets[i]++;
      });
      histogram.sum += seconds;
      histogram.count++;
    },
    gauge(name, read) {
      gauges.push({ name, read });
    },
    async render() {
      const lines: string[] = [];
      const head = (name: Name) => {
        lines.push(`# HELP ${name} ${CATALOGUE[name][1]}.`, `# TYPE ${name} ${CATALOGUE[name][0]}`);
      };
      for (const name of Object.keys(CATALOGUE) as Name[]) {
        const [type] = CATALOGUE[name];
        if (type === "counter") {
          head(name);
          for (const c of counters.values()) {
            if (c.name === name) lines.push(`${name}${labelText(c.labels)} ${c.value}`);
          }
        } else if (type === "histogram") {
          head(name);
          for (const h of histograms.values()) {
            BUCKETS.forEach((bound, i) => {
              const labels = labelText({ ...h.labels, le: String(bound) });
              lines.push(`${name}_bucket${labels} ${h.buckets[i]}`);
            });
            lines.push(`${name}_bucket${labelText({ ...h.labels, le: "+Inf" })} ${h.count}`);
            lines.push(`${name}_sum${labelText(h.labels)} ${h.sum}`);
            lines.push(`${name}_count${labelText(h.labels)} ${h.count}`);
          }
        } else {
          // A gauge that cannot be read now (the database is down or slow) is left out of
          // this scrape; the others still answer.
          const samples = (await Promise.all(
            gauges.filter((g) => g.name === name).map(async (g) => {
              const read = await within(Promise.resolve(g.read()), GAUGE_READ_MS).catch(() => []);
              return read === EXPIRED ? [] : read;
            }),
          )).flat();
          if (!samples.length) continue;
          head(name);
          for (const s of samples) lines.push(`${name}${labelText(s.labels)} ${s.value}`);
        }
      }
      return lines.join("\n") + "\n";
    },
  };
}

/** The database pools' size, the work under way on them and the work waiting beyond it. */
export function gaugePools(metrics: Metrics, pools: Db["pools"]) {
  const each = (value: (pool: ReturnType<Db["pools"]>[number]) => number) => () =>
    pools().map((pool) => ({ labels: { pool: pool.pool }, value: value(pool) }));
  metrics.gauge("onda_db_pool_connections", each(({ max }) => max));
  metrics.gauge("onda_db_pool_in_use", each(({ busy, max }) => Math.min(busy, max)));
  metrics.gauge("onda_db_pool_waiting", each(({ busy, max }) => Math.max(0, busy - max)));
}

/**
 * Whether a scrape may read the metrics: with a token configured, only with
 * `Authorization: Bearer <token>`, compared in constant time (digests of equal length, so
 * neither the token's bytes nor its length show in the timing).
 */
export function scrapeAllowed(req: Request, token: string | null): boolean {
  if (token === null) return true;
  const given = /^Bearer +(\S+) *$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** The answer to an allowed scrape. */
export async function metricsResponse(metrics: Metrics): Promise<Response> {
  return new Response(await metrics.render(), {
    headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" },
  });
}

/** The handler of METRICS_ADDR's listener: GET /metrics and nothing else, 401 without the token. */
export function metricsHandler(token: string | null, metrics: Metrics) {
  return async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    if (path !== "/metrics") return new Response("Not found.\n", { status: 404 });
    if (req.method !== "GET" && req.method !== "HEAD") {
      return new Response("Use GET.\n", { status: 405, headers: { allow: "GET" } });
    }
    if (!scrapeAllowed(req, token)) {
      return new Response("Send the metrics token as Authorization: Bearer <token>.\n", {
        status: 401,
        headers: { "content-type": "text/plain; charset=utf-8", "www-authenticate": "Bearer" },
      });
    }
    return await metricsResponse(metrics);
  };
}
