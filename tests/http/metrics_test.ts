// GET /metrics: off unless configured; behind METRICS_TOKEN on the main port, or on its own
// listener with METRICS_ADDR; requests by route pattern, method and status with a histogram,
// database pool use, webhook queue depth and delivery outcomes, rate-limit refusals. Log lines
// name the caller by ids (account and key, user and token), never by a secret.

import assert from "node:assert/strict";
import { addAccount, BASE, DAY } from "../ads/_fixture.ts";
import { startSession } from "../forms/_forms.ts";
import { hookedWorkspace, startReceiver } from "../webhooks/_webhooks.ts";
import { body, startTestService, test } from "../_server.ts";
import { freePort } from "../_pg_cluster.ts";

const TOKEN = "metrics-token-" + "7".repeat(32);
const service = await startTestService({
  env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_KEY_PER_MINUTE: "3" },
  startWorkers: true,
});

const scrape = async (token = TOKEN) => {
  const res = await service.fetch("/metrics", { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  return await res.text();
};

/** The value of the sample with exactly this name and these labels, or null. */
function sample(text: string, series: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

test("metrics: off by default: /metrics is 404 and not in the document", async () => {
  const plain = await startTestService();
  try {
    const res = await plain.fetch("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const doc = await body<{ paths: Record<string, unknown> }>(await plain.fetch("/api/openapi"));
    assert.equal(doc.paths["/metrics"], undefined);
  } finally {
    await plain.close();
  }
});

test("metrics: METRICS_TOKEN guards /metrics on the main port, compared whole", async () => {
  for (const authorization of [null, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`]) {
    const res = await service.fetch("/metrics", {
      headers: authorization ? { authorization } : {},
    });
    assert.equal(res.status, 401, String(authorization));
    assert.equal((await body<{ error: { code: string } }>(res)).error.code, "UNAUTHENTICATED");
  }
  const doc = await body<{ paths: Record<string, { get: { security: unknown } }> }>(
    await service.fetch("/api/openapi"),
  );
  assert.deepEqual(doc.paths["/metrics"].get.security, [{ metricsToken: [] }]);
});

test("metrics: requests by route pattern, method and status, with a latency histogram", async () => {
  for (const path of ["/status", "/status", "/no/such/path"]) {
    await (await service.fetch(path)).body?.cancel();
  }
  const id = "00000000-0000-4000-8000-000000000000";
  await (await service.fetch(`/api/v1/questionnaires/${id}`)).body?.cancel();
  const text = await scrape();
  assert.ok(
    sample(text, 'onda_http_requests_total{route="/status",method="GET",status="200"}')! >= 2,
  );
  assert.equal(
    sample(text, 'onda_http_requests_total{route="unmatched",method="GET",status="404"}'),
    1,
  );
  // The pattern, never the path with its id.
  assert.equal(
    sample(
      text,
      'onda_http_requests_total{route="/api/v1/questionnaires/{id}",method="GET",status="401"}',
    ),
    1,
  );
  assert.ok(!text.includes(id));
  assert.match(text, /# TYPE onda_http_request_duration_seconds histogram/);
  const inf = sample(
    text,
    'onda_http_request_duration_seconds_bucket{route="/status",method="GET",le="+Inf"}',
  )!;
  assert.ok(inf >= 2);
  assert.equal(
    sample(text, 'onda_http_request_duration_seconds_count{route="/status",method="GET"}'),
    inf,
  );
  assert.ok(
    sample(
      text,
      'onda_http_request_duration_seconds_bucket{route="/status",method="GET",le="10"}',
    )! <=
      inf,
  );
  assert.ok(
    sample(text, 'onda_http_request_duration_seconds_sum{route="/status",method="GET"}')! > 0,
  );
});

test("metrics: database pools, their size, use and waiting work", async () => {
  const text = await scrape();
  const max = service.db.kind === "pglite" ? 1 : 10;
  assert.equal(sample(text, 'onda_db_pool_connections{pool="main"}'), max);
  const inUse = sample(text, 'onda_db_pool_in_use{pool="main"}');
  assert.ok(inUse !== null && inUse >= 0 && inUse <= max);
  assert.equal(sample(text, 'onda_db_pool_waiting{pool="main"}'), 0);
});

test("metrics: rate-limit refusals by limit; ids, not keys, in the log lines", async () => {
  const key = await addAccount(service, "metrics-acct", {
    stations: [],
    brands: [],
    since: BASE,
    until: BASE + DAY,
  });
  const before = service.logs.length;
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await service.fetch("/api/v1/whoami", {
      headers: { authorization: `Bearer ${key}` },
    });
    statuses.push(res.status);
    await res.body?.cancel();
  }
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const text = await scrape();
  assert.equal(sample(text, 'onda_rate_limit_refusals_total{limit="ads-key"}'), 1);

  const [keyRow] = await service.db.sql<{ id: string }>`
    select id from ads_api_keys where account_id = 'metrics-acct'`;
  const lines = service.logs.slice(before).filter((l) => l.route === "/api/v1/whoami");
  assert.equal(lines.length, 4);
  for (const line of lines) {
    assert.equal(line.account_id, "metrics-acct");
    assert.equal(line.key_id, keyRow.id);
  }
  assert.ok(!JSON.stringify(service.logs).includes(key), "the key itself is never logged");
});

test("metrics: webhook deliveries by outcome, and the queue's depth", async () => {
  const receiver = startReceiver();
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    const before = service.logs.length;
    const res = await service.fetch("/api/v1/webhooks", { headers: hooked.user.headers() });
    await res.body?.cancel();
    const [line] = service.logs.slice(before).filter((l) => l.route === "/api/v1/webhooks");
    assert.equal(line.user_id, hooked.user.userId);
    assert.equal(line.workspace_id, hooked.user.workspaceId);
    assert.match(String(line.token_id), /^[0-9a-f-]{36}$/);
    assert.ok(!JSON.stringify(line).includes(hooked.user.cookie.split("=")[1]));

    await startSession(service, hooked.form.slug);
    await receiver.waitFor((received) => received.length === 1, 60_000);
    let text = "";
    for (let i = 0; i < 600; i++) {
      text = await scrape();
      const succeeded = sample(text, 'onda_webhook_deliveries_total{outcome="succeeded"}');
      // Counted when the attempt ends, shown by the queue once its result is written.
      if (succeeded === 1 && sample(text, 'onda_webhook_queue_depth{queue="deliveries"}') === 0) {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(sample(text, 'onda_webhook_deliveries_total{outcome="succeeded"}'), 1);
    assert.equal(sample(text, 'onda_webhook_queue_depth{queue="deliveries"}'), 0);
    assert.equal(sample(text, 'onda_webhook_queue_depth{queue="events"}'), 0);
  } finally {
    await receiver.close();
  }
});

test("metrics: METRICS_ADDR serves them on a listener of their own, not on the main port", async () => {
  const port = freePort();
  const separate = await startTestService({ env: { METRICS_ADDR: `127.0.0.1:${port}` } });
  try {
    const main = await separate.fetch("/metrics");
    assert.equal(main.status, 404);
    await main.body?.cancel();
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /# TYPE onda_http_requests_total counter/);
    const other = await fetch(`http://127.0.0.1:${port}/status`);
    assert.equal(other.status, 404);
    await other.body?.cancel();
  } finally {
    await separate.close();
  }
  // Both settings: the listener asks for the token too.
  const guarded = await startTestService({
    env: { METRICS_ADDR: `127.0.0.1:${port}`, METRICS_TOKEN: TOKEN },
  });
  try {
    const denied = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const allowed = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(allowed.status, 200);
    await allowed.body?.cancel();
  } finally {
    await guarded.close();
  }
});

test("metrics: close", async () => {
  await service.close();
});
