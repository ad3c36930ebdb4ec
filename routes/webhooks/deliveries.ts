// /api/v1/webhooks/{id}/deliveries: a webhook's delivery log, the manual retry of a delivery, and
// a test ping (contract.md §3). Delivery itself is lib/webhooks/worker.ts.

import type { UserPrincipal } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import { empty, frag, type Row } from "../../lib/db/db.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import { EVENT_TYPES, eventBody } from "../../lib/webhooks/outbox.ts";
import { type AppContext, json } from "../../lib/http/router.ts";
import { conflict, notFound } from "../../lib/forms/wing.ts";
import { defineAdminRoute, findWebhook, noSuchWebhook } from "../../lib/forms/webhooks.ts";
import * as s from "../../lib/http/schema.ts";
import { attemptedNow } from "../../lib/webhooks/worker.ts";

const responseCode = s.nullable(s.int({ min: 100, max: 599, example: 200 }));
const attemptError = s.nullable(s.string({ example: "timeout after 10 s" }));
const attemptJson = s.named(
  "DeliveryAttempt",
  s.object({
    attempt: s.int({ min: 1 }),
    started_at: s.dateTime(),
    duration_ms: s.int({ min: 0, example: 84 }),
    response_code: responseCode,
    error: attemptError,
  }),
);

const deliveryJson = s.named(
  "Delivery",
  s.object({
    id: s.uuid(),
    webhook_id: s.uuid(),
    event_id: s.uuid(),
    event_type: s.enumOf([...EVENT_TYPES, "ping"]),
    status: s.enumOf(["pending", "succeeded", "failed"]),
    attempts: s.int({ min: 0 }),
    created_at: s.dateTime(),
    last_attempt_at: s.nullable(s.dateTime()),
    last_response_code: responseCode,
    last_error: attemptError,
    next_attempt_at: s.nullable(s.dateTime("null once succeeded or failed.")),
    attempt_log: s.array(attemptJson),
  }),
);

const DELIVERY_COLUMNS = frag`id, webhook_id, event_id, event_type, status, attempts,
  created_at, last_attempt_at, last_response_code, last_error, next_attempt_at`;
const ATTEMPT_COLUMNS = frag`delivery_id, attempt, started_at, duration_ms, response_code, error`;

// Rows are answered as they are: JSON.stringify writes their timestamps as toISOString does.

/** Deliveries as the API shows them, each with attempt_log: its attempts, in order. */
async function withAttempts(app: AppContext, deliveries: Row[]) {
  const attempts = deliveries.length === 0 ? [] : await app.db.sql`
    select ${ATTEMPT_COLUMNS} from webhook_attempts
    where delivery_id = any(${deliveries.map((d) => d.id)}::uuid[])
    order by delivery_id, attempt`;
  return deliveries.map((delivery) => ({
    ...delivery,
    attempt_log: attempts.filter((a) => a.delivery_id === delivery.id)
      .map(({ delivery_id: _, ...attempt }) => attempt),
  }));
}

/**
 * The CTE `hook`: the webhook of the caller's workspace, its row locked (for share) until the
 * statement's transaction ends. A statement that queues a delivery reads the webhook through it,
 * so the check that it is active and the write are one step: a disable under way is waited for
 * and then seen (409), and a disable that comes after finds the delivery pending and fails it.
 */
const lockedHook = (principal: UserPrincipal, id: string) =>
  frag`hook as (
    select id, workspace_id, status as webhook_status from webhooks
    where id = ${id} and workspace_id = ${principal.workspaceId}
    for share)`;

/** The row of a statement that read `hook`: 404 without one, 409 when the webhook is disabled. */
function checkActive(row: Row | undefined): Row {
  if (!row) throw noSuchWebhook();
  if (row.webhook_status !== "active") {
    throw conflict(
      "This webhook is disabled; enable it first (POST /api/v1/webhooks/{id}/enable).",
    );
  }
  return row;
}

export const routes = [
  defineAdminRoute({
    method: "GET",
    path: "/api/v1/webhooks/{id}/deliveries",
    summary: "Delivery log of a webhook",
    description: "Deliveries, newest first, each with its status (pending, succeeded, " +
      "failed), number of attempts, last response code, time and error, the next attempt " +
      "(null once settled) and attempt_log, every attempt made. Retries follow " +
      "WEBHOOK_RETRY_DELAYS (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; each " +
      "±10 % jitter), or a later Retry-After on 429/503 (at most 24 h); 2xx succeeds; a " +
      "redirect, another status, a timeout (10 s) or a refused target fails the attempt; 410 " +
      "Gone fails it and disables the webhook. After the last scheduled attempt the delivery " +
      "is failed and stays here. Optional filter status. Needs admin.",
    params: { id: s.uuid() },
    query: { ...pageQuery, status: s.optional(s.enumOf(["pending", "succeeded", "failed"])) },
    responses: { 200: { description: "A page.", schema: listEnvelope(deliveryJson) } },
    handler: async ({ app, params, query, principal }) => {
      await findWebhook(app, principal, params.id);
      const scope = {
        list: "webhook_deliveries",
        filter: { webhook: params.id, status: query.status ?? null },
      };
      const page = await listPage(app, scope, query, newestFirst, (after, fetch) =>
        app.db.sql`
          select ${DELIVERY_COLUMNS} from webhook_deliveries
          where webhook_id = ${params.id}
          ${query.status ? frag`and status = ${query.status}` : empty} ${after}
          order by created_at desc, id desc limit ${fetch}`, (row) => row);
      return json({ ...page, data: await withAttempts(app, page.data) });
    },
  }),

  defineAdminRoute({
    method: "POST",
    path: "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry",
    summary: "Retry a delivery now",
    description: "Makes the delivery due now, 202, whatever its status: a pending one skips " +
      "its wait, a failed or succeeded one is sent again (same event id and body). Attempts " +
      "keep counting, so a delivery past its schedule gets this one attempt and is failed " +
      "again if it fails. While it is being attempted: 409; a disabled webhook: 409. Needs " +
      "admin.",
    params: { id: s.uuid(), deliveryId: s.uuid() },
    responses: { 202: { description: "Queued.", schema: deliveryJson } },
    errors: [409],
    handler: async ({ app, params, principal }) => {
      const now = app.clock();
      const [row] = await app.db.sql`
        with ${lockedHook(principal, params.id)}, target as (
          select d.id as target_id, ${attemptedNow} as busy
          from webhook_deliveries d join hook on hook.id = d.webhook_id
          where d.id = ${params.deliveryId} and hook.webhook_status = 'active'
          for update of d
        ), queued as (
          update webhook_deliveries
          set status = 'pending', next_attempt_at = ${now}, claimed_by = null, claimed_at = null
          from target where id = target_id and not busy
          returning ${DELIVERY_COLUMNS}
        )
        select hook.webhook_status, target.busy, q.*
        from hook left join target on true left join queued q on true`;
      const { webhook_status: _, busy, ...delivery } = checkActive(row);
      if (busy === null) throw notFound("No such delivery.");
      if (busy) throw conflict("This delivery is being attempted right now.");
      const [queued] = await withAttempts(app, [delivery]);
      return json(queued, 202);
    },
  }),

  defineAdminRoute({
    method: "POST",
    path: "/api/v1/webhooks/{id}/test",
    summary: "Send a test ping",
    description: "Queues a signed `ping` event to this webhook, 202 with its delivery (follow " +
      'it in the delivery log; it is retried like any event). Body: {id, type: "ping", ' +
      "created_at, workspace_id, data: {webhook_id}}. A disabled webhook: 409. Needs admin. " +
      "Accepts Idempotency-Key.",
    idempotent: true,
    params: { id: s.uuid() },
    responses: { 202: { description: "Queued.", schema: deliveryJson } },
    errors: [409],
    handler: ({ app, params, principal, req }) => {
      const now = app.clock();
      const eventId = crypto.randomUUID();
      // The envelope every event has (eventBody), so a receiver parses a ping like the rest.
      const payload = eventBody({
        id: eventId,
        type: "ping",
        created_at: now,
        workspace_id: principal.workspaceId,
        data: { webhook_id: params.id },
      });
      // The Idempotency-Key's answer commits with the ping's delivery.
      return answeredInTransaction(app.db, req, 202, async (tx) => {
        const [row] = await tx`
          with ${lockedHook(principal, params.id)}, queued as (
            insert into webhook_deliveries
              (webhook_id, workspace_id, event_id, event_type, body, created_at, next_attempt_at)
            select id, workspace_id, ${eventId}, 'ping', ${payload}, ${now}, ${now}
            from hook where webhook_status = 'active'
            returning ${DELIVERY_COLUMNS}
          )
          select hook.webhook_status, q.* from hook left join queued q on true`;
        const { webhook_status: _, ...delivery } = checkActive(row);
        return { ...delivery, attempt_log: [] };
      });
    },
  }),
];
