// One attempt of a webhook delivery: its target checked again, the request signed and sent with
// a timeout, and what the answer means for the delivery: delivered, retried when, or failed for
// good. The worker (lib/webhooks/worker.ts) claims the delivery before and records the result.

import type { AppContext } from "../http/router.ts";
import { checkTarget, postPinned, systemResolver } from "./ssrf.ts";
import { activeSecrets, createSigner, type Delivery, type SigningSecrets } from "./signing.ts";

/** A claimed delivery with what its attempt needs: its webhook's URL and its workspace's secrets. */
export type Job = Delivery & SigningSecrets & { webhook_id: string; attempts: number; url: string };

/** One attempt's result, named as the worker's record statement reads it from JSON. */
export interface AttemptResult {
  id: string;
  webhook_id: string;
  status: "pending" | "succeeded" | "failed";
  started_at: Date;
  duration_ms: number;
  code: number | null;
  error: string | null;
  next_at: Date | null;
}

/** What an attempt came to: no error means delivered; code 410 (Gone) asks us to stop. */
export interface Outcome {
  code: number | null;
  error: string | null;
  retryAfterS: number | null;
}

/** The longest Retry-After honoured, in seconds. */
const MAX_RETRY_AFTER_S = 86_400;

const failed = (error: string): Outcome => ({ code: null, error, retryAfterS: null });

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

/**
 * The delivery after attempt number `attempt` came to `outcome`: succeeded; failed for good on a
 * 410 or when the schedule `delays` is exhausted; otherwise pending, retried after the schedule's
 * delay, or after the receiver's Retry-After when that is longer (never sooner).
 */
export function nextState(
  outcome: Outcome,
  attempt: number,
  delays: number[],
  now: Date,
  random: () => number = Math.random,
): Pick<AttemptResult, "status" | "next_at"> {
  const ok = outcome.error === null;
  const gone = outcome.code === 410;
  const delay = ok || gone ? null : retryDelaySeconds(attempt, delays, random);
  const wait = delay === null ? null : Math.max(delay, outcome.retryAfterS ?? 0);
  return {
    status: ok ? "succeeded" : wait === null ? "failed" : "pending",
    next_at: wait === null ? null : new Date(now.getTime() + wait * 1000),
  };
}

export interface AttemptOptions {
  /** Per-attempt timeout (contract: 10 s). */
  timeoutMs: number;
  /** DNS for the delivery-time target check (tests inject names). */
  resolve: typeof systemResolver;
  /** Sends to a checked address (tests observe it; public addresses are not reachable). */
  sendPinned: typeof postPinned;
}

/**
 * The attempts of one worker: each sends its job once and resolves to the result to record, or
 * to null when the worker stopped meanwhile.
 */
export function createAttempts(
  app: AppContext,
  signal: AbortSignal,
  { timeoutMs, resolve, sendPinned }: AttemptOptions,
): (job: Job) => Promise<AttemptResult | null> {
  const sign = createSigner();
  const { config } = app;
  return async (job) => {
    const startedAt = app.clock();
    const t0 = performance.now();
    const settle = (outcome: Outcome): AttemptResult => ({
      id: job.id,
      webhook_id: job.webhook_id,
      ...nextState(outcome, job.attempts + 1, config.webhookRetryDelays, app.clock()),
      started_at: startedAt,
      duration_ms: Math.round(performance.now() - t0),
      code: outcome.code,
      error: outcome.error,
    });
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
}
