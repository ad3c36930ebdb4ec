// Webhook delivery worker: a loop that fans committed outbox events out to one delivery per
// subscribed webhook and numbers them for the events feed (lib/webhooks/outbox.ts, feed.ts),
// claims due deliveries (lib/webhooks/claims.ts: FOR UPDATE SKIP LOCKED, so any number of
// instances can run it), sends them signed with a timeout (lib/webhooks/attempt.ts), records
// every attempt with its retry schedule, and removes events and deliveries past
// EVENT_RETENTION_DAYS (lib/webhooks/retention.ts).
//
// At-least-once: a claim is a row update (claimed_by = this worker) committed before the
// request is sent, and it holds only while the worker's heartbeat is fresh. A worker killed
// mid-flight leaves claims that another (or the restarted) instance takes over once the
// heartbeat is stale, so nothing is lost; a receiver may then see a delivery twice and
// deduplicates by event id. With healthy instances a claimed delivery is attempted by its
// claimer only, so two instances never both send it.

import type { Sql } from "../db/db.ts";
import type { AppContext } from "../http/router.ts";
import { postPinned, systemResolver } from "./ssrf.ts";
import { type AttemptOptions, type AttemptResult, createAttempts, type Job } from "./attempt.ts";
import {
  beat,
  claimDue,
  forgetDeadWorkers,
  recordAttempts,
  releaseClaims,
  retire,
} from "./claims.ts";
import { fanOut, FANOUT_BATCH } from "./outbox.ts";
import { PRUNE_BATCH, pruneDeliveries, pruneEvents, retentionCutoff } from "./retention.ts";

// The manual retry (routes/webhooks/webhooks.ts) takes its 409 rule from here.
export { attemptedNow } from "./claims.ts";

const HEARTBEAT_MS = 1000;
/** How often an idle worker looks for new events and due retries. */
export const POLL_MS = 100;
/** Deliveries claimed per query. */
const CLAIM_BATCH = 100;
/** Results are written in batches of at most this many, or after FLUSH_DELAY_MS. */
const FLUSH_BATCH = 200;
export const FLUSH_DELAY_MS = 5;
/** The pause after a turn that failed (the database unreachable, say). */
const ERROR_PAUSE_MS = 1000;

export interface WorkerOptions extends AttemptOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Deliveries of one webhook in flight at once (fairness between receivers). */
  perWebhook: number;
  /** How often the retention runs while it has nothing left to remove. */
  pruneEveryMs: number;
}

/** Work of which the last batch was full, so more is waiting: the next turn goes on at once. */
interface Backlog {
  events: boolean;
  deliveries: boolean;
  prune: boolean;
}

/** Everything the worker carries from one turn of its loop to the next. */
interface Worker {
  readonly id: string;
  readonly app: AppContext;
  readonly signal: AbortSignal;
  readonly options: WorkerOptions;
  readonly attempt: (job: Job) => Promise<AttemptResult | null>;
  /** Attempts under way, and how many of them each webhook has (its fair share). */
  readonly inFlight: Set<Promise<void>>;
  readonly perWebhook: Map<string, number>;
  /** Results of finished attempts not written yet, and claims to give back unattempted. */
  readonly results: AttemptResult[];
  readonly released: string[];
  readonly backlog: Backlog;
  /** An attempt finished since the last claim: its slot is claimed for on the next turn. */
  slotFreed: boolean;
  /** When the last poll and the last prune started (performance.now()), what an idle poll costs. */
  polledAt: number;
  prunedAt: number;
  pollCostMs: number;
  heartbeat: ReturnType<typeof setTimeout> | undefined;
  /** Ends the nap under way, or the next one: results to write, or stopping. */
  alarm: PromiseWithResolvers<void>;
}

export function createWebhookWorker({
  timeoutMs = 10_000,
  concurrency = 256,
  perWebhook = 64,
  resolve = systemResolver,
  sendPinned = postPinned,
  pruneEveryMs = 60_000,
}: Partial<WorkerOptions> = {}) {
  const options = { timeoutMs, concurrency, perWebhook, resolve, sendPinned, pruneEveryMs };
  return async function deliverWebhooks(app: AppContext, signal: AbortSignal): Promise<void> {
    const w: Worker = {
      id: crypto.randomUUID(),
      app,
      signal,
      options,
      attempt: createAttempts(app, signal, options),
      inFlight: new Set(),
      perWebhook: new Map(),
      results: [],
      released: [],
      backlog: { events: false, deliveries: false, prune: false },
      slotFreed: false,
      polledAt: -Infinity,
      prunedAt: -Infinity,
      pollCostMs: 0,
      heartbeat: undefined,
      alarm: Promise.withResolvers(),
    };
    signal.addEventListener("abort", () => wake(w), { once: true });
    try {
      await join(w);
      while (!signal.aborted) await survive(w, turn);
    } finally {
      await stop(w);
    }
  };
}

/** One turn of the loop: write what finished, look for work, start it, prune, then rest. */
async function turn(w: Worker): Promise<void> {
  await flush(w);
  const poll = startPoll(w);
  const fanned = await fanOutEvents(w, poll !== null);
  const claimed = await claim(w, poll !== null || fanned > 0);
  endPoll(w, poll, fanned + claimed);
  await prune(w);
  const rest = restMs(w);
  if (rest !== null) await nap(w, rest);
}

/** Runs `step`; an error is logged and the worker pauses before it goes on. False on an error. */
async function survive(w: Worker, step: (w: Worker) => Promise<void>): Promise<boolean> {
  try {
    await step(w);
    return true;
  } catch (err) {
    w.app.log({ level: "error", worker: "webhooks", error: String(err) });
    await nap(w, ERROR_PAUSE_MS);
    return false;
  }
}

/** Writes the first heartbeat (again and again until it is written), then keeps beating. */
async function join(w: Worker): Promise<void> {
  const first = async () => {
    await beat(w.app.db.sql, w.id);
    await forgetDeadWorkers(w.app.db.sql);
  };
  while (!w.signal.aborted) {
    if (await survive(w, first)) {
      keepBeating(w);
      return;
    }
  }
}

// The next beat is timed from the end of the last, so a slow database never has two
// heartbeats of one worker in flight.
function keepBeating(w: Worker): void {
  w.heartbeat = setTimeout(() => {
    beat(w.app.db.sql, w.id).catch(() => {}).finally(() => {
      if (!w.signal.aborted) keepBeating(w);
    });
  }, HEARTBEAT_MS);
}

/** Stopping: the attempts under way end (aborted), their results are written, claims given back. */
async function stop(w: Worker): Promise<void> {
  clearTimeout(w.heartbeat);
  await Promise.allSettled([...w.inFlight]);
  try {
    while (w.results.length || w.released.length) await flush(w);
    await retire(w.app.db.sql, w.id);
  } catch {
    // The claims lapse with the heartbeat; another worker takes them over.
  }
}

/** Writes a batch of finished attempts' results and gives back the claims of attempts not made. */
async function flush(w: Worker): Promise<void> {
  const batch = w.results.splice(0, FLUSH_BATCH);
  const releasing = w.released.splice(0);
  try {
    if (batch.length) await recordAttempts(w.app.db, w.id, batch, w.app.clock());
    if (releasing.length) await releaseClaims(w.app.db.sql, w.id, releasing);
  } catch (err) {
    // Kept for the next flush: dropping them would strand the claims until this
    // worker stops.
    w.results.unshift(...batch);
    w.released.push(...releasing);
    throw err;
  }
}

/**
 * Starts a poll for new events and due retries when one is due, and answers when it started.
 * When the database is slow, an idle worker polls less often, so that it takes at most about
 * half of one connection's time from the requests being served.
 */
function startPoll(w: Worker): number | null {
  const now = performance.now();
  if (now - w.polledAt < Math.max(POLL_MS, w.pollCostMs)) return null;
  w.polledAt = now;
  return now;
}

/** A poll that found nothing measures what an idle poll costs. */
function endPoll(w: Worker, startedAt: number | null, found: number): void {
  if (startedAt !== null && found === 0) w.pollCostMs = performance.now() - startedAt;
}

/** Fans out a batch of committed events at a poll, or at once when the last batch was full. */
async function fanOutEvents(w: Worker, polling: boolean): Promise<number> {
  if (!polling && !w.backlog.events) return 0;
  const fanned = await fanOut(w.app.db, w.app.clock);
  w.backlog.events = fanned === FANOUT_BATCH;
  return fanned;
}

/**
 * Claims due deliveries for the free slots and starts their attempts, when some may be due:
 * `fresh` (a poll, or a fan-out that made deliveries), the last claim full, or a slot freed.
 */
async function claim(w: Worker, fresh: boolean): Promise<number> {
  const capacity = Math.min(w.options.concurrency - w.inFlight.size, CLAIM_BATCH);
  if (capacity <= 0 || !(fresh || w.backlog.deliveries || w.slotFreed)) return 0;
  w.slotFreed = false;
  const jobs = await claimDue(w.app.db.sql, w.id, {
    now: w.app.clock(),
    limit: capacity,
    perWebhook: w.options.perWebhook,
    busy: w.perWebhook,
  });
  w.backlog.deliveries = jobs.length === capacity;
  for (const job of jobs) start(w, job);
  return jobs.length;
}

/** Starts the attempt of a claimed delivery; its result waits in `results` for a flush. */
function start(w: Worker, job: Job): void {
  const { app, perWebhook } = w;
  perWebhook.set(job.webhook_id, (perWebhook.get(job.webhook_id) ?? 0) + 1);
  const task = w.attempt(job).then((result) => {
    if (result) {
      w.results.push(result);
      const outcome = result.status === "pending" ? "retry_scheduled" : result.status;
      app.metrics.count("onda_webhook_deliveries_total", { outcome });
    } else w.released.push(job.id);
  }, (err) => {
    w.released.push(job.id);
    app.log({ level: "error", worker: "webhooks", delivery_id: job.id, error: String(err) });
  }).finally(() => {
    w.inFlight.delete(task);
    const left = perWebhook.get(job.webhook_id)! - 1;
    if (left) perWebhook.set(job.webhook_id, left);
    else perWebhook.delete(job.webhook_id);
    // A slot is free: the loop claims again on its next turn, at most FLUSH_DELAY_MS away
    // (one claim and one write per turn, however many attempts completed meanwhile).
    w.slotFreed = true;
    if (w.results.length >= FLUSH_BATCH) wake(w);
  });
  w.inFlight.add(task);
}

// One batch of each per turn, so a large backlog (a first start with retention, a lowered
// EVENT_RETENTION_DAYS) is worked off between deliveries instead of in one long run.
async function prune(w: Worker): Promise<void> {
  if (!w.backlog.prune && performance.now() - w.prunedAt < w.options.pruneEveryMs) return;
  w.prunedAt = performance.now();
  const cutoff = retentionCutoff(w.app.clock(), w.app.config.eventRetentionDays);
  const events = await pruneEvents(w.app.db.sql, cutoff);
  const deliveries = await pruneDeliveries(w.app.db.sql, cutoff);
  w.backlog.prune = events === PRUNE_BATCH || deliveries === PRUNE_BATCH;
}

/**
 * How long the worker rests after a turn: not at all while a full batch says more is waiting
 * (deliveries only when a slot is free for them). While attempts are in flight the loop turns
 * every FLUSH_DELAY_MS to write their results and refill their slots; a turn with nothing to
 * do costs no query. Idle, it rests until the next poll.
 */
export function restMs(
  w: Pick<Worker, "backlog" | "inFlight" | "results" | "pollCostMs"> & {
    options: Pick<WorkerOptions, "concurrency">;
  },
): number | null {
  const { backlog, inFlight, results } = w;
  const slotFree = inFlight.size < w.options.concurrency;
  if (backlog.events || backlog.prune || (backlog.deliveries && slotFree)) return null;
  return results.length > 0 || inFlight.size > 0 ? FLUSH_DELAY_MS : Math.max(POLL_MS, w.pollCostMs);
}

function wake(w: Worker): void {
  w.alarm.resolve();
}

async function nap(w: Worker, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([w.alarm.promise, new Promise((done) => timer = setTimeout(done, ms))]);
  clearTimeout(timer);
  w.alarm = Promise.withResolvers();
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
