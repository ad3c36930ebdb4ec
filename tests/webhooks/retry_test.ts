// Webhook retries: failed attempts (5xx, timeout, 429/503 with Retry-After, redirect) are retried
// on the WEBHOOK_RETRY_DELAYS schedule, the log shows every attempt, the last failure is
// final, and 410 disables the webhook. Short delays (0.2 s, 0.4 s) keep the file fast; the
// worker is the real one. Nothing here depends on the machine's speed: receivers answer at once
// or never (the attempt timeout, 5 s, is far beyond any answer at once), and waits are bounded
// only to end a failing test.

import assert from "node:assert/strict";
import { startSession } from "../forms/_forms.ts";
import { body, startTestService, test } from "../_server.ts";
import { type DeliveryLog, deliveryLog, hookedWorkspace, startReceiver } from "./_webhooks.ts";
import { createWebhookWorker } from "../../lib/webhooks/worker.ts";
import { nextState, retryAfterSeconds, retryDelaySeconds } from "../../lib/webhooks/attempt.ts";
import { loadConfig } from "../../lib/config.ts";

const service = await startTestService({ env: { WEBHOOK_RETRY_DELAYS: "0.2,0.4" } });
const stopWorker = new AbortController();
const ATTEMPT_TIMEOUT_MS = 5000;
const worker = createWebhookWorker({ timeoutMs: ATTEMPT_TIMEOUT_MS })(
  service.app,
  stopWorker.signal,
);

type Hooked = Awaited<ReturnType<typeof hookedWorkspace>>;

async function waitForLog(hooked: Hooked, check: (log: DeliveryLog[]) => boolean) {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const log = await deliveryLog(service, hooked);
    if (check(log)) return log;
    if (performance.now() > deadline) throw new Error(`log never matched: ${JSON.stringify(log)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => (t - times[i]) / 1000);

/**
 * One event to a receiver that gives `first` to the first attempt and 204 to the next: the
 * response codes of the delivery's log, and the seconds between the two attempts.
 */
async function firstRetry(first: () => Response) {
  const receiver = startReceiver((_, n) => n === 1 ? first() : new Response(null, { status: 204 }));
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    const [delivery] = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    const [gap] = gaps(receiver.received.map((r) => r.at));
    return { codes: delivery.attempt_log.map((a) => a.response_code), gap };
  } finally {
    await receiver.close();
  }
}

test("retry: 500s are retried on schedule with the same event id and body; the log shows every attempt", async () => {
  const receiver = startReceiver((_, n) => new Response(null, { status: n <= 2 ? 500 : 204 }));
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    const [delivery] = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    assert.equal(delivery.attempts, 3);
    assert.deepEqual(delivery.attempt_log.map((a) => [a.attempt, a.response_code]), [
      [1, 500],
      [2, 500],
      [3, 204],
    ]);
    assert.equal(delivery.attempt_log[0].error, "The receiver answered HTTP 500.");
    assert.equal(delivery.next_attempt_at, null);
    assert.equal(receiver.received.length, 3);
    // Schedule 0.2 s then 0.4 s, with ten per cent of jitter, plus a poll interval and however slow the
    // machine is: never sooner.
    const [first, second] = gaps(receiver.received.map((r) => r.at));
    assert.ok(first >= 0.18, `first retry after ${first} s`);
    assert.ok(second >= 0.36, `second retry after ${second} s`);
    for (const header of ["webhook-id", "x-service-delivery"]) {
      assert.equal(new Set(receiver.received.map((r) => r.headers.get(header))).size, 1, header);
    }
    assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1);
    assert.equal(receiver.received[0].json.id, delivery.event_id);
  } finally {
    await receiver.close();
  }
});

test("retry: an attempt that times out fails and is retried", async () => {
  // The first attempt gets no answer at all until the test ends.
  const silence = Promise.withResolvers<void>();
  const receiver = startReceiver(async (_, n) => {
    if (n === 1) await silence.promise;
    return new Response(null, { status: 204 });
  });
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    const [delivery] = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    assert.equal(delivery.attempts, 2);
    assert.deepEqual(delivery.attempt_log.map((a) => [a.response_code, a.error]), [
      [null, `No answer within ${ATTEMPT_TIMEOUT_MS / 1000} s.`],
      [204, null],
    ]);
  } finally {
    silence.resolve();
    await receiver.close();
  }
});

test("retry: 429 with Retry-After waits at least that long, beyond the schedule", async () => {
  const { codes, gap } = await firstRetry(() =>
    new Response(null, { status: 429, headers: { "retry-after": "1" } })
  );
  assert.deepEqual(codes, [429, 204]);
  // The schedule alone would retry after about 0.2 s.
  assert.ok(gap >= 1, `retried after ${gap} s`);
});

test("retry: 503 with Retry-After in seconds waits at least that long, beyond the schedule", async () => {
  const receiver = startReceiver((_, n) =>
    n === 1
      ? new Response(null, { status: 503, headers: { "retry-after": "1" } })
      : new Response(null, { status: 204 })
  );
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    const [pending] = await waitForLog(hooked, (log) => log[0]?.attempts === 1);
    const planned = Date.parse(pending.next_attempt_at!) -
      Date.parse(pending.attempt_log[0].started_at);
    assert.ok(planned >= 1000, `next attempt planned ${planned} ms after the first`);
    const [delivery] = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    assert.deepEqual(delivery.attempt_log.map((a) => a.response_code), [503, 204]);
    const [gap] = gaps(receiver.received.map((r) => r.at));
    // The schedule alone would retry after about 0.2 s.
    assert.ok(gap >= 1, `retried after ${gap} s`);
  } finally {
    await receiver.close();
  }
});

test("retry: 503 with Retry-After as an HTTP date waits until that date", async () => {
  // HTTP dates have whole seconds: this one is 1.5 to 2.5 s after the first attempt.
  let until = "";
  const receiver = startReceiver((_, n) => {
    if (n > 1) return new Response(null, { status: 204 });
    until = new Date(Date.now() + 2500).toUTCString();
    return new Response(null, { status: 503, headers: { "retry-after": until } });
  });
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    const second = performance.timeOrigin + receiver.received[1].at;
    assert.ok(second >= Date.parse(until), `retried ${Date.parse(until) - second} ms early`);
  } finally {
    await receiver.close();
  }
});

test("retry: a Retry-After sooner than the schedule does not bring the retry forward", async () => {
  const { gap } = await firstRetry(() =>
    new Response(null, { status: 503, headers: { "retry-after": "0" } })
  );
  assert.ok(gap >= 0.18, `retried after ${gap} s, before the 0.2 s (-10 %) of the schedule`);
});

test("retry: Retry-After on a status other than 429/503 is not honoured; the schedule applies", async () => {
  // Honoured, it would hold the retry for a minute, 300 times the schedule's 0.2 s.
  const { gap } = await firstRetry(() =>
    new Response(null, { status: 500, headers: { "retry-after": "60" } })
  );
  assert.ok(gap >= 0.18 && gap < 30, `retried after ${gap} s`);
});

test("retry: after the last scheduled attempt the delivery is failed and stays in the log", async () => {
  const receiver = startReceiver(() => new Response("nope", { status: 503 }));
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    await waitForLog(hooked, (log) => log[0]?.status === "failed");
    await new Promise((r) => setTimeout(r, 700));
    const [delivery] = await deliveryLog(service, hooked);
    assert.equal(delivery.status, "failed");
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.attempt_log.length, 3);
    assert.equal(delivery.last_response_code, 503);
    assert.equal(delivery.next_attempt_at, null);
    assert.equal(receiver.received.length, 3);
  } finally {
    await receiver.close();
  }
});

test("retry: a redirect is a failed attempt and is not followed", async () => {
  const elsewhere = startReceiver();
  const receiver = startReceiver((_, n) =>
    n === 1
      ? new Response(null, { status: 302, headers: { location: elsewhere.url } })
      : new Response(null, { status: 204 })
  );
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    const [delivery] = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    assert.deepEqual(delivery.attempt_log.map((a) => a.response_code), [302, 204]);
    assert.match(delivery.attempt_log[0].error!, /redirect/);
    assert.equal(elsewhere.received.length, 0);
  } finally {
    await receiver.close();
    await elsewhere.close();
  }
});

test("retry: 410 Gone disables the webhook; nothing more is sent to it", async () => {
  const receiver = startReceiver(() => new Response(null, { status: 410 }));
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    const [delivery] = await waitForLog(hooked, (log) => log[0]?.status === "failed");
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.last_response_code, 410);
    const list = await body<{ data: { id: string; status: string; disabled_reason: string }[] }>(
      await service.fetch("/api/v1/webhooks", { headers: hooked.user.headers() }),
    );
    assert.equal(list.data[0].status, "disabled");
    assert.match(list.data[0].disabled_reason, /410/);

    await startSession(service, hooked.form.slug);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.received.length, 1);
    assert.equal((await deliveryLog(service, hooked)).length, 1);
    for (const path of ["test", `deliveries/${delivery.id}/retry`]) {
      const res = await service.fetch(`/api/v1/webhooks/${hooked.webhook.id}/${path}`, {
        method: "POST",
        headers: hooked.user.headers(),
      });
      assert.equal(res.status, 409, path);
      await res.body?.cancel();
    }
  } finally {
    await receiver.close();
  }
});

test("retry: a webhook disabled by a 410 Gone is enabled again and receives later events", async () => {
  let gone = true;
  const receiver = startReceiver(() => new Response(null, { status: gone ? 410 : 204 }));
  try {
    const hooked = await hookedWorkspace(service, receiver.url, ["session.started"]);
    await startSession(service, hooked.form.slug);
    await waitForLog(hooked, (log) => log[0]?.status === "failed");
    gone = false;
    const res = await service.fetch(`/api/v1/webhooks/${hooked.webhook.id}/enable`, {
      method: "POST",
      headers: hooked.user.headers(),
    });
    assert.equal(res.status, 200);
    assert.equal((await body<{ status: string }>(res)).status, "active");
    await startSession(service, hooked.form.slug);
    const log = await waitForLog(hooked, (log) => log[0]?.status === "succeeded");
    assert.equal(log.length, 2);
    assert.equal(log[1].status, "failed", "the delivery failed by the 410 stays failed");
    assert.equal(receiver.received.length, 2);
  } finally {
    await receiver.close();
  }
});

test("retry: the default schedule is contract.md's, each delay with ±10 % jitter", () => {
  const delays = loadConfig({}).webhookRetryDelays;
  assert.deepEqual(delays, [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
  assert.equal(retryDelaySeconds(1, delays, () => 0), 4.5);
  assert.equal(retryDelaySeconds(1, delays, () => 1), 5.5);
  assert.equal(retryDelaySeconds(9, delays, () => 0.5), 86400);
  assert.equal(retryDelaySeconds(10, delays, () => 0.5), null);
  assert.deepEqual(loadConfig({ WEBHOOK_RETRY_DELAYS: "0.2,0.4" }).webhookRetryDelays, [0.2, 0.4]);
});

test("retry: Retry-After is read as seconds or as an HTTP date, at most 24 h", () => {
  const now = new Date("2026-11-20T08:00:00Z");
  assert.equal(retryAfterSeconds("120", now), 120);
  assert.equal(retryAfterSeconds("Fri, 20 Nov 2026 08:01:30 GMT", now), 90);
  assert.equal(retryAfterSeconds("Fri, 20 Nov 2026 07:00:00 GMT", now), 0);
  assert.equal(retryAfterSeconds("9999999", now), 86_400);
  assert.equal(retryAfterSeconds("soon", now), null);
  assert.equal(retryAfterSeconds(null, now), null);
});

test("retry: an attempt's outcome: 2xx succeeds; 410 or the schedule's end fails for good; else the longer wait of the schedule and Retry-After", () => {
  const now = new Date("2026-11-20T08:00:00Z");
  const delays = [10, 60];
  const noJitter = () => 0.5;
  const after = (outcome: { code: number | null; error: string | null; retryAfterS?: number }) => {
    const state = nextState({ retryAfterS: null, ...outcome }, 1, delays, now, noJitter);
    return [state.status, state.next_at && (state.next_at.getTime() - now.getTime()) / 1000];
  };
  assert.deepEqual(after({ code: 204, error: null }), ["succeeded", null]);
  assert.deepEqual(after({ code: 500, error: "500" }), ["pending", 10]);
  assert.deepEqual(after({ code: null, error: "timeout" }), ["pending", 10]);
  assert.deepEqual(after({ code: 503, error: "503", retryAfterS: 30 }), ["pending", 30]);
  assert.deepEqual(after({ code: 429, error: "429", retryAfterS: 2 }), ["pending", 10]);
  assert.deepEqual(after({ code: 410, error: "gone" }), ["failed", null]);
  const last = nextState({ code: 500, error: "500", retryAfterS: 30 }, 3, delays, now, noJitter);
  assert.deepEqual(last, { status: "failed", next_at: null }, "after the schedule's last retry");
});

test("retry: close", async () => {
  stopWorker.abort();
  await worker;
  await service.close();
});
