// `deno task bench webhooks [--events N] [--samples M]`: webhook delivery speed on PostgreSQL
// (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; a fresh database is created
// and dropped). One instance delivers to a receiver on loopback.
//   throughput: N events committed to the outbox at once -> deliveries/s until the last
//               one has arrived (fan-out, claim, sign, send and record included);
//   latency:    M answers posted one at a time on an idle queue -> time from the answer's
//               request (an upper bound of its commit) to the first delivery attempt.

import { loadConfig } from "../lib/config.ts";
import { startService } from "../lib/server.ts";
import { freshDatabase, PG_FALLBACK_URL, type TestService } from "../tests/_server.ts";
import {
  answer,
  publishedQuestionnaire,
  registerUser,
  startSession,
} from "../tests/forms/_forms.ts";

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function run(args: string[]) {
  const events = option(args, "events", 20_000);
  const samples = option(args, "samples", 300);
  const database = await freshDatabase(PG_FALLBACK_URL);
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: database.url!,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000",
    RATE_LIMIT_USER_PER_MINUTE: "1000000",
    DEFAULT_PLAN: "business",
  });

  const arrivals = new Map<string, number>();
  let received = 0;
  let onArrival = () => {};
  const receiver = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const body = await req.text();
    received++;
    const id = req.headers.get("webhook-id")!;
    if (!arrivals.has(id)) arrivals.set(id, performance.now());
    // Answer events are matched by session and question (latency phase).
    const event = JSON.parse(body);
    if (event.type === "answer.submitted") {
      arrivals.set(`${event.data.session_id}:${event.data.question_id}`, performance.now());
    }
    onArrival();
    return new Response(null, { status: 204 });
  });
  const hookUrl = `http://127.0.0.1:${receiver.addr.port}/hook`;
  const service = await startService({ config, startWorkers: true, log: () => {} });
  const target = {
    fetch: (path: string, init?: RequestInit) => fetch(service.url + path, init),
  } as TestService;
  const waitUntil = (check: () => boolean) =>
    new Promise<void>((resolve) => {
      if (check()) return resolve();
      onArrival = () => {
        if (check()) {
          onArrival = () => {};
          resolve();
        }
      };
    });

  try {
    // Throughput.
    const user = await registerUser(target);
    const created = await target.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: user.headers(),
      body: JSON.stringify({ url: hookUrl }),
    });
    if (created.status !== 201) throw new Error(`webhook: ${created.status}`);
    await created.body?.cancel();
    const before = received;
    const t0 = performance.now();
    await service.app.db.sql`
      insert into outbox_events (workspace_id, type, data)
      select ${user.workspaceId}, 'answer.submitted', jsonb_build_object('sequence', n)
      from generate_series(1, ${events}::int) as n`;
    await waitUntil(() => received - before >= events);
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `throughput: ${events} deliveries in ${seconds.toFixed(2)} s = ` +
        `${Math.round(events / seconds)} deliveries/s (one instance, PostgreSQL)`,
    );

    // Latency on an idle queue.
    await new Promise((r) => setTimeout(r, 500));
    const latencyUser = await registerUser(target);
    const questions = Array.from({ length: 50 }, (_, i) => ({
      title: `Question ${i + 1}`,
      type: "text" as const,
    }));
    const form = await publishedQuestionnaire(target, latencyUser, questions);
    const hook = await target.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: latencyUser.headers(),
      body: JSON.stringify({ url: hookUrl, events: ["answer.submitted"] }),
    });
    await hook.body?.cancel();
    const upper: number[] = [];
    const lower: number[] = [];
    let sessionId = 0;
    for (let i = 0; i < samples; i++) {
      const q = form.questions[i % questions.length];
      if (i % questions.length === 0) sessionId = await startSession(target, form.slug);
      // A random pause, so that answers do not line up with the worker's poll.
      await new Promise((r) => setTimeout(r, Math.random() * 150));
      const key = `${sessionId}:${q.id}`;
      const sent = performance.now();
      const res = await answer(target, form.slug, sessionId, q.id, "fine");
      const answered = performance.now();
      await res.body?.cancel();
      if (res.status !== 201) throw new Error(`answer: ${res.status}`);
      await waitUntil(() => arrivals.has(key));
      upper.push(arrivals.get(key)! - sent);
      lower.push(Math.max(0, arrivals.get(key)! - answered));
    }
    upper.sort((a, b) => a - b);
    lower.sort((a, b) => a - b);
    const show = (xs: number[]) =>
      `p50 ${percentile(xs, 50).toFixed(0)} ms, p95 ${percentile(xs, 95).toFixed(0)} ms, ` +
      `p99 ${percentile(xs, 99).toFixed(0)} ms, max ${xs[xs.length - 1].toFixed(0)} ms`;
    console.log(
      `latency, answer request sent -> first attempt (${samples} answers): ${show(upper)}`,
    );
    console.log(`latency, answer response received -> first attempt: ${show(lower)}`);
  } finally {
    await service.shutdown();
    await receiver.shutdown();
    await database.drop();
  }
}
