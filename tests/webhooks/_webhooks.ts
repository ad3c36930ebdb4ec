// Test helpers for webhooks: a receiver on loopback that records every request, a workspace
// with a published questionnaire and a webhook, and sessions that emit events.

import assert from "node:assert/strict";
import { body, type TestService } from "../_server.ts";
import {
  answer,
  publishedQuestionnaire,
  registerUser,
  sessionBody,
  startSession,
  type TestQuestionnaire,
  type TestUser,
  validAnswerFor,
} from "../forms/_forms.ts";

export interface Received {
  /** performance.now() on arrival. */
  at: number;
  headers: Headers;
  /** The raw body text, exactly as received. */
  body: string;
  // deno-lint-ignore no-explicit-any
  json: any;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Waits until `check(received)` holds; fails the test after `timeoutMs`. */
  waitFor(check: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A webhook receiver; `respond` decides each answer (default 204). n counts from 1. */
export function startReceiver(
  respond?: (request: Received, n: number) => Response | Promise<Response>,
): Receiver {
  const received: Received[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const text = await req.text();
    const request: Received = {
      at: performance.now(),
      headers: req.headers,
      body: text,
      json: JSON.parse(text),
    };
    received.push(request);
    return respond ? await respond(request, received.length) : new Response(null, { status: 204 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    received,
    async waitFor(check, timeoutMs = 60_000) {
      const deadline = performance.now() + timeoutMs;
      while (!check(received)) {
        if (performance.now() > deadline) {
          throw new Error(
            `receiver: condition not met after ${timeoutMs} ms ` +
              `(${received.length} requests received)`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => server.shutdown(),
  };
}

export interface Hooked {
  user: TestUser;
  form: TestQuestionnaire;
  webhook: { id: string; signing_secret: string; url: string; events: string[] };
}

/** A new user and workspace with a published questionnaire and a webhook to `url`. */
export async function hookedWorkspace(
  service: TestService,
  url: string,
  events?: string[],
): Promise<Hooked> {
  const user = await registerUser(service);
  const form = await publishedQuestionnaire(service, user);
  const res = await service.fetch("/api/v1/webhooks", {
    method: "POST",
    headers: user.headers(),
    body: JSON.stringify({ url, events }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const webhook = await body<Hooked["webhook"]>(res);
  return { user, form, webhook };
}

/**
 * Starts a session (loaded now on the service's clock) and answers every question: 2 +
 * questions events. Returns the session id.
 */
export async function completeSession(service: TestService, form: TestQuestionnaire) {
  const sessionId = await startSession(
    service,
    form.slug,
    // Some callers pass a bare service cast to TestService, without a clock.
    sessionBody({ loaded_at: service.clock?.().getTime() ?? Date.now() }),
  );
  for (const question of form.questions) {
    const res = await answer(service, form.slug, sessionId, question.id, validAnswerFor(question));
    assert.equal(res.status, 201, await res.clone().text());
    await res.body?.cancel();
  }
  return sessionId;
}

export interface DeliveryLog {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  attempt_log: {
    attempt: number;
    started_at: string;
    duration_ms: number;
    response_code: number | null;
    error: string | null;
  }[];
}

/** The first page (100) of a webhook's delivery log. */
export async function deliveryLog(
  service: TestService,
  hooked: Hooked,
): Promise<DeliveryLog[]> {
  const res = await service.fetch(
    `/api/v1/webhooks/${hooked.webhook.id}/deliveries?limit=100`,
    { headers: hooked.user.headers() },
  );
  assert.equal(res.status, 200, await res.clone().text());
  return (await body<{ data: DeliveryLog[] }>(res)).data;
}
