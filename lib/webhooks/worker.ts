// Webhook delivery worker: fans committed outbox events out to one delivery per subscribed
// webhook and numbers them for the events feed (lib/webhooks/feed.ts), claims due deliveries
// (FOR UPDATE SKIP LOCKED, so any number of instances can run it), sends them signed with a
// timeout, records every attempt with its retry schedule, and removes events and deliveries
// past EVENT_RETENTION_DAYS (lib/webhooks/retention.ts).
//
// At-least-once: a claim is a row update (claimed_by = this worker) committed before the
// request is sent, and it holds only while the worker's heartbeat is fresh. A worker killed
// mid-flight leaves claims that another (or the restarted) instance takes over once the
// heartbeat is stale, so nothing is lost; a receiver may then see a delivery twice and
// deduplicates by event id. With healthy instances a claimed delivery is attempted by its
// claimer only, so two instances never both send it.

import { frag, type Sql } from "../db/db.ts";
import type { AppContext } from "../http/router.ts";
import { checkTarget, postPinned, systemResolver } from "./ssrf.ts";
import { activeSecrets, createSigner, type Delivery, type SigningSecrets } from "./signing.ts";
import { numberEvents, takeFanOutTurn } from "./feed.ts";
import { eventBody, type OutboxRow } from "./outbox.ts";
import { PRUNE_BATCH, pruneDeliveries, pruneEvents, retentionCutoff } from "./retention.ts";

/** A claim by a worker whose heartbeat is older than this is void. */
export const CLAIM_STALE_AFTER_MS = 5000;
/**
 * The delivery `d` is claimed by a worker whose heartbeat is fresh: it is being attempted right
 * now. One definition for the worker (which claims only deliveries for which it is false) and
 * the manual retry (409 while it is true), so the two always agree.
 */
export const attemptedNow = frag`(d.claimed_by is not null and exists (
  select 1 from webhook_workers w where w.id = d.claimed_by
    and w.seen_at > now() - ${CLAIM_STALE_AFTER_MS}::float8 * interval '1 millisecond'))`;
const HEARTBEAT_MS = 1000;
/** How often an idle worker looks for new events and due retries. */
const POLL_MS = 100;
/** Deliveries claimed per query. */
const CLAIM_BATCH = 100;
/** How many of the oldest due deliveries a claim considers for its fair share. */
const FAIR_WINDOW = 1000;
/** Events fanned out per transaction. */
const FANOUT_BATCH = 500;
/** The longest Retry-After honoured, in seconds. */
const MAX_RETRY_AFTER_S = 86_400;
/** Results are written in batches of at most this many, or after FLUSH_DELAY_MS. */
const FLUSH_BATCH = 200;
const FLUSH_DELAY_MS = 5;

type Job = Delivery & SigningSecrets & { webhook_id: string; attempts: number; url: string };

/** What an attempt came to: no error means delivered; code 410 (Gone) asks us to stop. */
interface Outcome {
  code: number | null;
  error: string | null;
  retryAfterS: number | null;
}

const failed = (error: string): Outcome => ({ code: null, error, retryAfterS: null });

/** One attempt's result, named as record() reads it from JSON. */
interface AttemptResult {
  id: string;
  webhook_id: string;
  status: "pending" | "succeeded" | "failed";
  started_at: Date;
  duration_ms: number;
  code: number | null;
  error: string | null;
  next_at: Date | null;
}

/**
 * Seconds from failed attempt number `attempt` (1-based) to the next one: the schedule's
 * entry with ±10 % jitter (so receivers that failed together are not retried in lockstep);
 * null when the schedule is exhausted.
 */
export function retryDelaySeconds(
  attempt: number,
  delays: number[],
  random: () => number = Math.random,
): number | null {
  const base = delays[attempt - 1];
  return base === undefined ? null : base * (0.9 + 0.2 * random());
}

/** Retry-After as delay-seconds or an HTTP date, capped at 24 h; null when absent or invalid. */
export function retryAfterSeconds(value: string | null, now: Date): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_S);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, (at - now.getTime()) / 1000), MAX_RETRY_AFTER_S);
}

/** What a response means for the delivery. */
function classifyResponse(res: Response, now: Date): Outcome {
  const code = res.status;
  if (code >= 200 && code < 300) {
    return { code, error: null, retryAfterS: null };
  }
  const retryAfterS = code === 429 || code === 503
    ? retryAfterSeconds(res.headers.get("retry-after"), now)
    : null;
  const error = code >= 300 && code < 400
    ? `The receiver answered a redirect (HTTP ${code}); redirects are not followed.`
    : code === 410
    ? "The receiver answered 410 Gone; the webhook is disabled."
    : `The receiver answered HTTP ${code}.`;
  return { code, error, retryAfterS };
}

/** A transport failure as a sentence without the URL (it may carry a token). */
function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof DOMException && err.name === "TimeoutError") {
    return `No answer within ${timeoutMs / 1000} s.`;
  }
  const message = err instanceof Error ? err.message.toLowerCase() : "";
  if (message.includes("refused")) return "Connection refused.";
  if (message.includes("dns") || message.includes("resolve")) return "Host name did not resolve.";
  if (message.includes("certificate") || message.includes("tls")) return "TLS handshake failed.";
  return "Connection failed.";
}

export function createWebhookWorker({
  // Per-attempt timeout (contract: 10 s).
  timeoutMs = 10_000,
  // Requests in flight at once.
  concurrency = 256,
  // Deliveries of one webhook in flight at once (fairness between receivers).
  perWebhook = 64,
  // DNS for the delivery-time target check (tests inject names).
  resolve = systemResolver,
  // Sends to a checked address (tests observe it; public addresses are not reachable).
  sendPinned = postPinned,
  // How often the retention runs while it has nothing left to remove.
  pruneEveryMs = 60_000,
} = {}) {
  return async function deliverWebhooks(app: AppContext, signal: AbortSignal): Promise<void> {
    const me = crypto.randomUUID();
    const sign = createSigner();
    const { db, config } = app;
    const inFlight = new Set<Promise<void>>();
    const busyWebhooks = new Map<string, number>();
    const results: AttemptResult[] = [];
    const released: string[] = [];
    // Ends the nap under way, or the next one: results to write, or stopping.
    let alarm = Promise.withResolvers<void>();
    const wake = () => alarm.resolve();
    signal.addEventListener("abort", wake, { once: true });
    const nap = async (ms: number) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([alarm.promise, new Promise((done) => timer = setTimeout(done, ms))]);
      clearTimeout(timer);
      alarm = Promise.withResolvers();
    };

    // Heartbeats and their staleness use the database's clock: one clock for every
    // instance, so clock skew between hosts cannot make a live worker look dead.
    const beat = () =>
      db.sql`insert into webhook_workers (id, seen_at) values (${me}, now())
             on conflict (id) do update set seen_at = excluded.seen_at`;

    const fanOut = async () => {
      // The common idle case costs one indexed read instead of a transaction.
      const waiting = await db.sql`select 1 from outbox_events where dispatched_at is null limit 1`;
      if (waiting.length === 0) return 0;
      return await db.begin(async (tx) => {
        // Fan-outs of all instances take turns, so that the positions they give follow commit
        // order (lib/webhooks/feed.ts); the sending, where the time goes, stays concurrent.
        await takeFanOutTurn(tx);
        const events = await tx<OutboxRow>`
          select id, workspace_id, type, data, created_at from outbox_events
          where dispatched_at is null
          order by created_at, id
          limit ${FANOUT_BATCH}`;
        if (events.length === 0) return 0;
        const now = app.clock();
        // One delivery per event and active webhook of its workspace subscribed to its type.
        await tx`
          insert into webhook_deliveries
            (webhook_id, workspace_id, event_id, event_type, body, created_at, next_attempt_at)
          select h.id, h.workspace_id, o.id, o.type, e.body, ${now}::timestamptz, ${now}::timestamptz
          from unnest(${events.map((e) => e.id)}::uuid[], ${events.map(eventBody)}::text[])
            as e(id, body)
          join outbox_events o on o.id = e.id
          join webhooks h on h.workspace_id = o.workspace_id and h.status = 'active'
            and o.type = any(h.events)
          on conflict (webhook_id, event_id) do nothing`;
        await numberEvents(tx, events.map((e) => e.id), now);
        return events.length;
      });
    };

    /**
     * Claims up to `limit` due deliveries. Fairness: at most `perWebhook` of one webhook are
     * in flight in this worker, so a receiver that hangs until the timeout cannot take every
     * slot while other webhooks wait. The oldest FAIR_WINDOW due rows are read unlocked (a
     * bounded index scan), shared out per webhook, then locked with SKIP LOCKED, which
     * re-checks the claim condition on each row: two workers never claim the same delivery.
     */
    const claim = (limit: number) => {
      const now = app.clock();
      const busy = [...busyWebhooks];
      return db.sql<Job>`
        with due as (
          select d.id, d.webhook_id, d.next_attempt_at from webhook_deliveries d
          where d.status = 'pending' and d.next_attempt_at <= ${now} and not ${attemptedNow}
          order by d.next_attempt_at
          limit ${FAIR_WINDOW}
        ), fair as (
          select ranked.id from (
            select due.id, due.webhook_id, due.next_attempt_at, row_number() over (
                     partition by due.webhook_id order by due.next_attempt_at) as n
            from due
          ) ranked
          left join unnest(${busy.map(([id]) => id)}::uuid[], ${busy.map(([, n]) => n)}::int[])
            as b(webhook_id, in_flight) on b.webhook_id = ranked.webhook_id
          where ranked.n <= ${perWebhook} - coalesce(b.in_flight, 0)
          order by ranked.next_attempt_at
          limit ${limit}
        ), picked as (
          select d.id from webhook_deliveries d
          join webhooks h on h.id = d.webhook_id and h.status = 'active'
          where d.id in (select id from fair) and d.status = 'pending' and not ${attemptedNow}
          for update of d skip locked
        )
        update webhook_deliveries d set claimed_by = ${me}, claimed_at = ${now}
        from picked, webhooks h, workspaces ws
        where d.id = picked.id and h.id = d.webhook_id and ws.id = d.workspace_id
        returning d.id, d.webhook_id, d.event_id, d.event_type, d.body, d.attempts, h.url,
          ws.signing_secret, ws.previous_signing_secret, ws.previous_secret_expires_at`;
    };

    const flush = async () => {
      const batch = results.splice(0, FLUSH_BATCH);
      const releasing = released.splice(0);
      try {
        if (batch.length) await record(batch);
        if (releasing.length) {
          await db.sql`update webhook_deliveries set claimed_by = null, claimed_at = null
                       where id = any(${releasing}::uuid[]) and claimed_by = ${me}`;
        }
      } catch (err) {
        // Kept for the next flush: dropping them would strand the claims until this
        // worker stops.
        results.unshift(...batch);
        released.push(...releasing);
        throw err;
      }
    };

    const record = async (batch: AttemptResult[]) => {
      const gone = [...new Set(batch.filter((r) => r.code === 410).map((r) => r.webhook_id))];
      if (gone.length) await disable(gone);
      // A retry scheduled for a webhook disabled meanwhile (410 seen by another attempt) is
      // a failure: nothing more will be sent to it.
      await db.sql`
        with r as (
          select * from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(id uuid,
            status text, started_at timestamptz, duration_ms int, code int, error text,
            next_at timestamptz)
        ), done as (
          update webhook_deliveries d set
            status = case when r.status = 'pending' and h.status = 'disabled' then 'failed'
                          else r.status end,
            next_attempt_at = case when h.status = 'disabled' then null
                                   else r.next_at end,
            attempts = d.attempts + 1,
            last_attempt_at = r.started_at,
            last_response_code = r.code,
            last_error = r.error,
            claimed_by = null,
            claimed_at = null
          from r, webhooks h
          where d.id = r.id and d.claimed_by = ${me} and h.id = d.webhook_id
          returning d.id, d.attempts
        )
        insert into webhook_attempts
          (delivery_id, attempt, started_at, duration_ms, response_code, error, worker_id)
        select done.id, done.attempts, r.started_at, r.duration_ms, r.code, r.error, ${me}::uuid
        from done join r on r.id = done.id
        on conflict do nothing`;
    };

    const disable = async (webhookIds: string[]) => {
      const now = app.clock();
      await db.begin(async (tx) => {
        await tx`update webhooks set status = 'disabled', disabled_at = ${now},
                   disabled_reason = 'The receiver answered 410 Gone.'
                 where id = any(${webhookIds}::uuid[]) and status = 'active'`;
        await tx`update webhook_deliveries set status = 'failed', next_attempt_at = null,
                   last_error = coalesce(last_error || ' ', '') ||
                     'Not sent again: the webhook was disabled after a 410 Gone.'
                 where webhook_id = any(${webhookIds}::uuid[]) and status = 'pending'
                   and claimed_by is null`;
      });
    };

    const send = async (job: Job): Promise<AttemptResult | null> => {
      const startedAt = app.clock();
      const t0 = performance.now();
      const attempt = job.attempts + 1;
      const settle = (outcome: Outcome): AttemptResult => {
        const ok = outcome.error === null;
        const gone = outcome.code === 410;
        const delay = ok || gone ? null : retryDelaySeconds(attempt, config.webhookRetryDelays);
        const wait = delay === null ? null : Math.max(delay, outcome.retryAfterS ?? 0);
        return {
          id: job.id,
          webhook_id: job.webhook_id,
          status: ok ? "succeeded" : wait === null ? "failed" : "pending",
          started_at: startedAt,
          duration_ms: Math.round(performance.now() - t0),
          code: outcome.code,
          error: outcome.error,
          next_at: wait === null ? null : new Date(app.clock().getTime() + wait * 1000),
        };
      };
      const target = await checkTarget(job.url, {
        allowPrivate: config.webhookAllowPrivateTargets,
        resolve,
      });
      if (!target.ok) return settle(failed(`Not sent: ${target.reason}`));
      const headers = await sign(activeSecrets(job, startedAt), job, startedAt);
      const request = {
        headers,
        body: job.body,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]),
      };
      try {
        // A checked name is connected to the address that passed the check; everything else
        // (IP literals, and any target when private targets are allowed) goes through fetch.
        const res = target.address
          ? await sendPinned(target.url, target.address, request)
          : await app.fetch(target.url, { ...request, method: "POST", redirect: "manual" });
        await res.body?.cancel().catch(() => {});
        return settle(classifyResponse(res, app.clock()));
      } catch (err) {
        // Stopping: no attempt is recorded and the claim is released for the next worker.
        if (signal.aborted) return null;
        return settle(failed(describeFailure(err, timeoutMs)));
      }
    };

    const start = (job: Job) => {
      busyWebhooks.set(job.webhook_id, (busyWebhooks.get(job.webhook_id) ?? 0) + 1);
      const task = send(job).then((result) => {
        if (result) {
          results.push(result);
          const outcome = result.status === "pending" ? "retry_scheduled" : result.status;
          app.metrics.count("onda_webhook_deliveries_total", { outcome });
        } else released.push(job.id);
      }, (err) => {
        released.push(job.id);
        app.log({ level: "error", worker: "webhooks", delivery_id: job.id, error: String(err) });
      }).finally(() => {
        inFlight.delete(task);
        const left = busyWebhooks.get(job.webhook_id)! - 1;
        if (left) busyWebhooks.set(job.webhook_id, left);
        else busyWebhooks.delete(job.webhook_id);
        // A slot is free: the loop claims again on its next turn, at most FLUSH_DELAY_MS away
        // (one claim and one write per turn, however many attempts completed meanwhile).
        refill = true;
        if (results.length >= FLUSH_BATCH) wake();
      });
      inFlight.add(task);
    };

    let lastPoll = -Infinity;
    let moreEvents = false;
    let moreDue = false;
    // Set when an attempt completed since the last claim.
    let refill = false;
    let heartbeat: ReturnType<typeof setTimeout> | undefined;
    // The next beat is timed from the end of the last, so a slow database never has two
    // heartbeats of one worker in flight.
    const keepBeating = () => {
      heartbeat = setTimeout(() => {
        beat().catch(() => {}).finally(() => {
          if (!signal.aborted) keepBeating();
        });
      }, HEARTBEAT_MS);
    };
    let pollCostMs = 0;
    let lastPrune = -Infinity;
    let morePrune = false;
    // One batch of each per turn, so a large backlog (a first start with retention, a lowered
    // EVENT_RETENTION_DAYS) is worked off between deliveries instead of in one long run.
    const prune = async () => {
      if (!morePrune && performance.now() - lastPrune < pruneEveryMs) return;
      lastPrune = performance.now();
      const cutoff = retentionCutoff(app.clock(), config.eventRetentionDays);
      const events = await pruneEvents(db.sql, cutoff);
      const deliveries = await pruneDeliveries(db.sql, cutoff);
      morePrune = events === PRUNE_BATCH || deliveries === PRUNE_BATCH;
    };
    try {
      while (!signal.aborted) {
        try {
          if (heartbeat === undefined) {
            await beat();
            // Rows of workers that were killed (nothing else removes them).
            await db.sql`delete from webhook_workers where seen_at < now() - interval '1 day'`;
            keepBeating();
          }
          if (results.length || released.length) await flush();
          // When the database is slow, an idle worker polls less often, so that it takes at
          // most about half of one connection's time from the requests being served.
          const polling = performance.now() - lastPoll >= Math.max(POLL_MS, pollCostMs);
          const pollStarted = performance.now();
          if (polling) lastPoll = pollStarted;
          let fanned = 0;
          if (polling || moreEvents) {
            fanned = await fanOut();
            moreEvents = fanned === FANOUT_BATCH;
          }
          const capacity = Math.min(concurrency - inFlight.size, CLAIM_BATCH);
          let claimed = 0;
          if (capacity > 0 && (polling || fanned > 0 || moreDue || refill)) {
            refill = false;
            const jobs = await claim(capacity);
            claimed = jobs.length;
            moreDue = claimed === capacity;
            for (const job of jobs) start(job);
          }
          if (polling && fanned === 0 && claimed === 0) {
            pollCostMs = performance.now() - pollStarted;
          }
          await prune();
          const busy = moreEvents || morePrune || (moreDue && inFlight.size < concurrency);
          // While attempts are in flight the loop turns every FLUSH_DELAY_MS to write their
          // results and refill their slots; a turn with nothing to do costs no query.
          const active = results.length > 0 || inFlight.size > 0;
          if (!busy) await nap(active ? FLUSH_DELAY_MS : Math.max(POLL_MS, pollCostMs));
        } catch (err) {
          app.log({ level: "error", worker: "webhooks", error: String(err) });
          await nap(1000);
        }
      }
    } finally {
      clearTimeout(heartbeat);
      await Promise.allSettled([...inFlight]);
      try {
        while (results.length || released.length) await flush();
        await db.sql`update webhook_deliveries set claimed_by = null, claimed_at = null
                     where claimed_by = ${me}`;
        await db.sql`delete from webhook_workers where id = ${me}`;
      } catch {
        // The claims lapse with the heartbeat; another worker takes them over.
      }
    }
  };
}

/** Webhook work waiting: committed events not fanned out yet, and deliveries still pending. */
export async function webhookQueueDepth(sql: Sql): Promise<{ events: number; deliveries: number }> {
  const [row] = await sql<{ events: number; deliveries: number }>`
    select (select count(*) from outbox_events where dispatched_at is null)::int8 as events,
           (select count(*) from webhook_deliveries where status = 'pending')::int8 as deliveries`;
  return row;
}

/** The worker main.ts starts (lib/workers.ts). */
export const webhookWorker = createWebhookWorker();
