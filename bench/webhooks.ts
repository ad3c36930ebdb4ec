// `deno task bench webhooks [--only throughput,latency,pull,prune] [--events N] [--samples M]
// [--backlog B] [--visitors V] [--prune-events P]`: webhook delivery, events feed and retention
// speed on PostgreSQL (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test; fresh
// databases are created and dropped). One instance delivers to a receiver on loopback.
//   throughput: N events committed to the outbox at once -> deliveries/s until the last
//               one has arrived (fan-out, claim, sign, send and record included);
//   latency:    M answers posted one at a time on an idle queue -> time from the answer's
//               request (an upper bound of its commit) to the first delivery attempt;
//   pull:       a reader pages GET /api/v1/events 100 at a time from the start of a workspace
//               with B events while V visitors answer in it, until it has caught up -> events
//               read per second and page latency;
//   prune:      P events (with a delivery and an attempt each) spread over 60 days, half of
//               them past the 30-day retention, removed the way the worker does, one batch of
//               each per turn, while V visitors answer -> time, batch latency (the longest any
//               row lock is held), the answers' latency before and during, WAL written.

import { loadConfig } from "../lib/config.ts";
import { startService } from "../lib/server.ts";
import {
  PRUNE_BATCH,
  pruneDeliveries,
  pruneEvents,
  retentionCutoff,
} from "../lib/webhooks/retention.ts";
import { freshDatabase, PG_FALLBACK_URL, type TestService } from "../tests/_server.ts";
import {
  answer,
  publishedQuestionnaire,
  registerUser,
  startSession,
  type TestQuestionnaire,
} from "../tests/forms/_forms.ts";
import { connectHttp1 } from "./http1.ts";
import { frag, type Sql } from "../lib/db/db.ts";

export function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function spread(xs: number[]): string {
  const sorted = [...xs].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ` +
    `ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (${sorted.length})`;
}

const TEN_QUESTIONS = Array.from({ length: 10 }, (_, i) => ({
  title: `Question ${i + 1}`,
  type: "text" as const,
}));

/**
 * `count` visitors, each on its own keep-alive connection, starting sessions and answering
 * `form` until `stopped()`; resolves to every answer's latency in ms.
 */
async function visitors(
  port: number,
  form: TestQuestionnaire,
  count: number,
  stopped: () => boolean,
): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(Array.from({ length: count }, async () => {
    const conn = await connectHttp1("127.0.0.1", port);
    const base = `/api/v1/public/q/${form.slug}/sessions`;
    try {
      while (!stopped()) {
        const started = await conn.post(
          base,
          JSON.stringify({ name: "Bench", email: "bench@example.com", loaded_at: Date.now() }),
        );
        if (started.status !== 201) throw new Error(`session: ${started.status}`);
        const { sessionId } = JSON.parse(started.text);
        for (const question of form.questions) {
          if (stopped()) break;
          const t0 = performance.now();
          const res = await conn.post(
            `${base}/${sessionId}/answers`,
            JSON.stringify({ questionId: question.id, answerText: "fine" }),
          );
          latencies.push(performance.now() - t0);
          if (res.status !== 201) throw new Error(`answer: ${res.status} ${res.text}`);
        }
      }
    } finally {
      conn.close();
    }
  }));
  return latencies;
}

/** Realistic answer.submitted data for generated events; `n` is the generate_series row. */
const GENERATED_DATA = frag`jsonb_build_object(
  'questionnaire_id', '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'::uuid,
  'questionnaire_slug', 'bench-feedback', 'session_id', n / 12, 'sequence', n % 12 + 1,
  'question_id', n % 10 + 1, 'answer', 'A short answer of a few words.',
  'progress', jsonb_build_object('answered', n % 10 + 1, 'total', 10))`;

/** Waits until the worker has numbered every event of the workspace for the feed. */
async function waitNumbered(sql: Sql, workspaceId: string) {
  for (;;) {
    const [row] = await sql<{ n: number }>`
      select count(*)::int as n from outbox_events
      where workspace_id = ${workspaceId} and feed_position is null`;
    if (row.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The pull reader: `backlog` events in a new workspace, then pages of 100 from the start until
 * caught up while `visitorCount` visitors answer in the same workspace.
 */
async function pullPhase(
  target: TestService,
  sql: Sql,
  port: number,
  backlog: number,
  visitorCount: number,
) {
  const user = await registerUser(target);
  const form = await publishedQuestionnaire(target, user, TEN_QUESTIONS);
  const t0 = performance.now();
  await sql`
    insert into outbox_events (workspace_id, type, data)
    select ${user.workspaceId}, 'answer.submitted', ${GENERATED_DATA}
    from generate_series(1, ${backlog}::int) as n`;
  await waitNumbered(sql, user.workspaceId);
  const numbering = (performance.now() - t0) / 1000;
  console.log(
    `pull: ${backlog} events committed and numbered by the worker in ${numbering.toFixed(2)} s`,
  );

  let reading = true;
  const answering = visitors(port, form, visitorCount, () => !reading);
  const conn = await connectHttp1("127.0.0.1", port);
  const headers = { cookie: user.cookie, "x-workspace-id": user.workspaceId };
  const pages: number[] = [];
  let read = 0;
  let cursor = "";
  const started = performance.now();
  try {
    for (;;) {
      const t = performance.now();
      const res = await conn.get(`/api/v1/events?limit=100${cursor}`, headers);
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`events: ${res.status} ${res.text}`);
      const page = JSON.parse(res.text);
      if (page.data.length === 100) pages.push(ms);
      read += page.data.length;
      cursor = `&cursor=${encodeURIComponent(page.next_cursor)}`;
      if (!page.has_more) break;
    }
  } finally {
    reading = false;
    conn.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const answers = await answering;
  console.log(
    `pull: ${read} events read in ${seconds.toFixed(2)} s = ${Math.round(read / seconds)} ` +
      `events/s until caught up; full pages of 100: ${spread(pages)}`,
  );
  console.log(
    `pull: meanwhile ${visitorCount} visitors answered ${
      Math.round(answers.length / seconds)
    }/s, ` +
      `answer ${spread(answers)}`,
  );
}

/** A fresh database's service, its limits out of the way of the load. */
function benchConfig(databaseUrl: string) {
  return loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000",
    RATE_LIMIT_USER_PER_MINUTE: "1000000",
    DEFAULT_PLAN: "business",
  });
}

/**
 * Pruning `total` events spread over 60 days (half past the 30-day retention), each with a
 * delivery and an attempt, in the worker's batches while `visitorCount` visitors answer.
 */
async function prunePhase(total: number, visitorCount: number) {
  const database = await freshDatabase(PG_FALLBACK_URL);
  const config = benchConfig(database.url!);
  // No worker: the batches are run here, as the worker runs them, to time each one.
  const service = await startService({ config, startWorkers: false, log: () => {} });
  const target = {
    fetch: (path: string, init?: RequestInit) => fetch(service.url + path, init),
  } as TestService;
  const sql = service.app.db.sql;
  try {
    const user = await registerUser(target);
    const form = await publishedQuestionnaire(target, user, TEN_QUESTIONS);
    const created = await target.fetch("/api/v1/webhooks", {
      method: "POST",
      headers: user.headers(),
      body: JSON.stringify({ url: "http://127.0.0.1:9/hook" }),
    });
    const hook = (await created.json()).id;
    const now = service.app.clock();
    let t = performance.now();
    await sql`
      insert into outbox_events
        (workspace_id, type, data, created_at, dispatched_at, feed_position, feed_at)
      select ${user.workspaceId}, 'answer.submitted', ${GENERATED_DATA}, at, at, n, at
      from generate_series(1, ${total}::int) as n,
        lateral (select ${now}::timestamptz - interval '60 days' +
                        n * (interval '60 days' / ${total}::int) as at) as x`;
    await sql`update event_positions set last = ${total}, last_at = ${now}`;
    await sql`
      insert into webhook_deliveries (webhook_id, workspace_id, event_id, event_type, body, status,
        attempts, created_at, last_attempt_at, last_response_code)
      select ${hook}, workspace_id, id, type,
        json_build_object('id', id, 'type', type, 'created_at', created_at,
                          'workspace_id', workspace_id, 'data', data)::text,
        'succeeded', 1, feed_at, feed_at, 204
      from outbox_events`;
    await sql`
      insert into webhook_attempts
        (delivery_id, attempt, started_at, duration_ms, response_code, worker_id)
      select id, 1, created_at, 12, 204, gen_random_uuid() from webhook_deliveries`;
    await sql.exec("vacuum analyze outbox_events, webhook_deliveries, webhook_attempts");
    const [sizes] = await sql<{ events: string; deliveries: string; attempts: string }>`
      select pg_size_pretty(pg_total_relation_size('outbox_events')) as events,
             pg_size_pretty(pg_total_relation_size('webhook_deliveries')) as deliveries,
             pg_size_pretty(pg_total_relation_size('webhook_attempts')) as attempts`;
    console.log(
      `prune: ${total} events, deliveries and attempts written and vacuumed in ` +
        `${((performance.now() - t) / 1000).toFixed(1)} s (with indexes: events ${sizes.events}, ` +
        `deliveries ${sizes.deliveries}, attempts ${sizes.attempts})`,
    );

    let baselineRunning = true;
    setTimeout(() => baselineRunning = false, 5000);
    const baseline = await visitors(service.port, form, visitorCount, () => !baselineRunning);
    console.log(`prune: answers before, ${visitorCount} visitors: ${spread(baseline)}`);

    const cutoff = retentionCutoff(service.app.clock(), 30);
    const [{ lsn: walBefore }] = await sql<{ lsn: string }>`select pg_current_wal_lsn() as lsn`;
    let pruning = true;
    const during = visitors(service.port, form, visitorCount, () => !pruning);
    const eventBatches: number[] = [];
    const deliveryBatches: number[] = [];
    let events = 0;
    let deliveries = 0;
    t = performance.now();
    try {
      for (;;) {
        let t0 = performance.now();
        const e = await pruneEvents(sql, cutoff);
        eventBatches.push(performance.now() - t0);
        t0 = performance.now();
        const d = await pruneDeliveries(sql, cutoff);
        deliveryBatches.push(performance.now() - t0);
        events += e;
        deliveries += d;
        if (e < PRUNE_BATCH && d < PRUNE_BATCH) break;
      }
    } finally {
      pruning = false;
    }
    const seconds = (performance.now() - t) / 1000;
    const answers = await during;
    const [{ bytes }] = await sql<{ bytes: number }>`
      select pg_wal_lsn_diff(pg_current_wal_lsn(), ${walBefore}::pg_lsn)::float8 as bytes`;
    const [left] = await sql<{ events: number; attempts: number }>`
      select (select count(*)::int from outbox_events) as events,
             (select count(*)::int from webhook_attempts) as attempts`;
    console.log(
      `prune: ${events} events and ${deliveries} deliveries (with their attempts) removed in ` +
        `${seconds.toFixed(1)} s = ${Math.round(events / seconds)} events/s; ` +
        `${left.events} events and ${left.attempts} attempts kept; WAL ` +
        `${(bytes / 1024 / 1024).toFixed(0)} MB`,
    );
    console.log(`prune: batch of ${PRUNE_BATCH} events: ${spread(eventBatches)}`);
    console.log(`prune: batch of ${PRUNE_BATCH} deliveries: ${spread(deliveryBatches)}`);
    console.log(`prune: answers during, ${visitorCount} visitors: ${spread(answers)}`);
    t = performance.now();
    await pruneEvents(sql, cutoff);
    await pruneDeliveries(sql, cutoff);
    console.log(
      `prune: a turn with nothing to remove: ${(performance.now() - t).toFixed(1)} ms`,
    );
  } finally {
    await service.shutdown();
    await database.drop();
  }
}

export async function run(args: string[]) {
  const events = option(args, "events", 20_000);
  const samples = option(args, "samples", 300);
  const backlog = option(args, "backlog", 100_000);
  const visitorCount = option(args, "visitors", 8);
  const pruneTotal = option(args, "prune-events", 1_000_000);
  const i = args.indexOf("--only");
  const only = i >= 0 ? args[i + 1].split(",") : ["throughput", "latency", "pull", "prune"];
  const database = await freshDatabase(PG_FALLBACK_URL);
  const config = benchConfig(database.url!);

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
    if (only.includes("throughput")) await throughput();
    if (only.includes("latency")) await latency();
    if (only.includes("pull")) {
      await pullPhase(target, service.app.db.sql, service.port, backlog, visitorCount);
    }
  } finally {
    await service.shutdown();
    await receiver.shutdown();
    await database.drop();
  }
  if (only.includes("prune")) await prunePhase(pruneTotal, visitorCount);

  async function throughput() {
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
  }

  /** Latency on an idle queue. */
  async function latency() {
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
  }
}
