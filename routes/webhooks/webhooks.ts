// /api/v1/webhooks: endpoints that receive the workspace's events, their delivery log, manual
// retry, a test ping, and the rotation of the workspace's signing secret (contract.md §3).
// Delivery itself is lib/webhooks/worker.ts; target checks lib/webhooks/ssrf.ts.

import { user, type UserPrincipal } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import { empty, frag, type Row } from "../../lib/db/db.ts";
import { ApiError } from "../../lib/errors.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import { EVENT_TYPES, eventBody } from "../../lib/webhooks/outbox.ts";
import { type AppContext, json, type Route, type RouteDef } from "../../lib/http/router.ts";
import { conflict, defineFormsRoute, type FormsApp, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";
import { newSigningSecret } from "../../lib/webhooks/signing.ts";
import { checkTarget } from "../../lib/webhooks/ssrf.ts";
import { attemptedNow } from "../../lib/webhooks/worker.ts";

/** Fan-out cost grows with the number of webhooks; a workspace needs only a few. */
const MAX_WEBHOOKS = 20;
/** How long the previous secret keeps signing after a rotation. */
const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/** A route of this area (webhooks, events): the workspace's admins, from its allowed origins. */
export function defineAdminRoute<
  QS extends s.Shape = s.Shape,
  PS extends s.Shape = s.Shape,
  B = undefined,
>(
  def: Omit<RouteDef<QS, PS, B, UserPrincipal, FormsApp>, "tag" | "auth" | "cors">,
): Route {
  return defineFormsRoute({ ...def, tag: "webhooks", auth: user("admin"), cors: "credentialed" });
}

const SIGNING_NOTE = "Every delivery is a POST of `{id, type, created_at, workspace_id, data}` " +
  "with x-service-signature (hex HMAC-SHA256 of the raw body, keyed with the signing secret " +
  "string as shown), x-service-event, x-service-delivery (the delivery id), " +
  "x-service-timestamp (epoch seconds of the attempt), and the Standard Webhooks headers " +
  "webhook-id (the event id, the same on every retry), webhook-timestamp and " +
  'webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>", keyed with the ' +
  "base64-decoded part after whsec_, as the standardwebhooks libraries do). For 24 h after " +
  "a rotation both secrets sign: x-service-signature then holds two comma-separated digests " +
  "and webhook-signature two space-separated entries, the new secret's first; accept the " +
  "delivery when any matches. data.sequence numbers the events of one session (deliveries " +
  "run concurrently and may arrive out of order or, after a crash, twice: deduplicate by id).";

const HOOK_URL = "https://example.com/hooks/onda";
const secret = (description: string) =>
  s.string({ description, example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3tw6R7yR0oA=" });
const webhookShape = {
  id: s.uuid(),
  url: s.string({ example: HOOK_URL }),
  events: s.array(s.enumOf(EVENT_TYPES)),
  status: s.enumOf(["active", "disabled"]),
  disabled_at: s.nullable(s.dateTime()),
  disabled_reason: s.nullable(s.string({ example: "The receiver answered 410 Gone." })),
  created_at: s.dateTime(),
};
const webhookJson = s.named("Webhook", s.object(webhookShape));
const createdWebhookJson = s.named(
  "NewWebhook",
  s.object({ ...webhookShape, signing_secret: secret("The workspace's signing secret.") }),
);

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

const WEBHOOK_COLUMNS = frag`id, url, events, status, disabled_at, disabled_reason, created_at`;
const DELIVERY_COLUMNS = frag`id, webhook_id, event_id, event_type, status, attempts,
  created_at, last_attempt_at, last_response_code, last_error, next_attempt_at`;
const ATTEMPT_COLUMNS = frag`delivery_id, attempt, started_at, duration_ms, response_code, error`;

const noSuchWebhook = () => notFound("No such webhook.");

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

/** The webhook when it belongs to the caller's workspace; another workspace's is 404. */
async function findWebhook(app: AppContext, principal: UserPrincipal, id: string) {
  const [row] = await app.db.sql`
    select ${WEBHOOK_COLUMNS} from webhooks
    where id = ${id} and workspace_id = ${principal.workspaceId}`;
  if (!row) throw noSuchWebhook();
  return row;
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

/**
 * POST /api/v1/webhooks/{id}/enable or /disable, 200 with the webhook: `change` switches the
 * caller's webhook and returns it, or nothing when it had nothing to change; then the webhook is
 * answered as it is (404 when it is not the caller's).
 */
function switchRoute(
  action: "enable" | "disable",
  description: string,
  change: (app: FormsApp, principal: UserPrincipal, id: string) => Promise<Row | undefined>,
) {
  const verb = action === "enable" ? "Enable" : "Disable";
  return defineAdminRoute({
    method: "POST",
    path: `/api/v1/webhooks/{id}/${action}`,
    summary: `${verb} a webhook`,
    description,
    params: { id: s.uuid() },
    responses: { 200: { description: `${verb}d.`, schema: webhookJson } },
    handler: async ({ app, params, principal }) =>
      json(await change(app, principal, params.id) ?? await findWebhook(app, principal, params.id)),
  });
}

export const routes = [
  defineAdminRoute({
    method: "POST",
    path: "/api/v1/webhooks",
    summary: "Create a webhook",
    description: "Subscribes a URL to the workspace's events (default: all three), 201 with " +
      "the workspace's signing_secret. The URL must be https and its host must be, and " +
      "resolve only to, public addresses (no loopback, private, CGNAT, link-local, " +
      "unique-local or multicast ranges, IPv4 or IPv6, nor IPv4-mapped forms); the same check " +
      "runs again before every delivery, against the name's current resolution, and the " +
      "connection goes to the address that passed it. WEBHOOK_ALLOW_PRIVATE_TARGETS=1 lifts " +
      "this (http and private targets, for development). A refused URL, or a host name that " +
      "does not resolve: 400 (field url). At most 20 webhooks per workspace (422). Needs " +
      "admin. Accepts Idempotency-Key. " + SIGNING_NOTE,
    idempotent: true,
    // The answer carries the signing secret: its replay record keeps it encrypted.
    sealed: { body: ["signing_secret"] },
    body: s.named(
      "WebhookRequest",
      s.object({
        url: s.string({ min: 1, max: 2048, example: HOOK_URL }),
        events: s.optional(s.array(s.enumOf(EVENT_TYPES), { min: 1, max: EVENT_TYPES.length })),
      }),
    ),
    responses: { 201: { description: "Created.", schema: createdWebhookJson } },
    errors: [422],
    handler: async ({ app, body, principal, req }) => {
      const target = await checkTarget(body.url, {
        allowPrivate: app.config.webhookAllowPrivateTargets,
      });
      if (!target.ok) throw s.invalid("url", target.reason);
      const events = EVENT_TYPES.filter((t) => (body.events ?? EVENT_TYPES).includes(t));
      // The Idempotency-Key's answer commits with the webhook (lib/http/idempotency.ts).
      return answeredInTransaction(app.db, req, 201, async (tx) => {
        // The count and the insert are one statement, so concurrent creations cannot overshoot
        // by more than the requests in flight; the cap is a cost guard, not a billing limit.
        const [row] = await tx`
          with ws as (
            select id, signing_secret from workspaces
            where id = ${principal.workspaceId}
              and (select count(*) from webhooks where workspace_id = ${principal.workspaceId})
                  < ${MAX_WEBHOOKS}
          ), created as (
            insert into webhooks (workspace_id, url, events, created_at)
            select id, ${target.url.href}, ${events}::text[], ${app.clock()} from ws
            returning ${WEBHOOK_COLUMNS}
          )
          select created.*, ws.signing_secret from created, ws`;
        if (!row) {
          throw new ApiError(422, "UNPROCESSABLE", {
            message: `A workspace can have at most ${MAX_WEBHOOKS} webhooks; delete one first.`,
          });
        }
        return row;
      });
    },
  }),

  defineAdminRoute({
    method: "GET",
    path: "/api/v1/webhooks",
    summary: "List webhooks",
    description: "The workspace's webhooks, newest first (the signing secret is shown only " +
      "when creating or rotating). Needs admin.",
    query: pageQuery,
    responses: { 200: { description: "A page.", schema: listEnvelope(webhookJson) } },
    handler: async ({ app, query, principal }) => {
      const scope = { list: "webhooks", filter: { workspace: principal.workspaceId } };
      return json(
        await listPage(app, scope, query, newestFirst, (after, fetch) =>
          app.db.sql`
            select ${WEBHOOK_COLUMNS} from webhooks
            where workspace_id = ${principal.workspaceId} ${after}
            order by created_at desc, id desc limit ${fetch}`, (row) => row),
      );
    },
  }),

  defineAdminRoute({
    method: "DELETE",
    path: "/api/v1/webhooks/{id}",
    summary: "Delete a webhook",
    description: "Deletes the webhook with its delivery log, 204; pending deliveries are " +
      "dropped (an attempt already in flight may still arrive). Needs admin.",
    params: { id: s.uuid() },
    responses: { 204: { description: "Deleted." } },
    handler: async ({ app, params, principal }) => {
      const rows = await app.db.sql`
        delete from webhooks where id = ${params.id} and workspace_id = ${principal.workspaceId}
        returning id`;
      if (!rows.length) throw noSuchWebhook();
      return json(null, 204);
    },
  }),

  switchRoute(
    "enable",
    "Re-enables a webhook disabled by a 410 Gone from its receiver or by an " +
      "admin, 200 with the webhook: events committed from now on are delivered to it. " +
      "Nothing of the time it was disabled is sent by itself: its deliveries failed by the " +
      "disabling stay failed (retry them one by one), and events committed meanwhile were " +
      "not queued for it; the receiver catches up with GET /api/v1/events?after=<the last " +
      "event id it processed>. An active webhook: 200, unchanged. Needs admin.",
    async (app, principal, id) => {
      const [row] = await app.db.sql`
        update webhooks set status = 'active', disabled_at = null, disabled_reason = null
        where id = ${id} and workspace_id = ${principal.workspaceId}
        returning ${WEBHOOK_COLUMNS}`;
      return row;
    },
  ),

  switchRoute(
    "disable",
    "Stops deliveries to the webhook, 200 with it (status disabled): its pending " +
      "deliveries fail (an attempt already in flight may still arrive) and events committed " +
      "while it is disabled are not queued for it (GET /api/v1/events still lists them). " +
      "POST /{id}/enable resumes. A disabled webhook: 200, unchanged. Needs admin.",
    (app, principal, id) =>
      app.db.begin(async (tx) => {
        const [hook] = await tx`
          update webhooks
          set status = 'disabled', disabled_at = ${app.clock()},
              disabled_reason = 'Disabled by an admin.'
          where id = ${id} and workspace_id = ${principal.workspaceId} and status = 'active'
          returning ${WEBHOOK_COLUMNS}`;
        // A statement of its own: its snapshot is taken once the update above holds the
        // webhook's row, so it also fails what a retry or ping queued while holding it
        // (lockedHook). A claimed delivery is settled by its worker, which sees the webhook
        // disabled.
        if (hook) {
          await tx`update webhook_deliveries set status = 'failed', next_attempt_at = null,
                     last_error = coalesce(last_error || ' ', '') ||
                       'Not sent: the webhook was disabled by an admin.'
                   where webhook_id = ${hook.id} and status = 'pending'
                     and claimed_by is null`;
        }
        return hook;
      }),
  ),

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

  defineAdminRoute({
    method: "POST",
    path: "/api/v1/workspace/signing-secret/rotate",
    summary: "Rotate the webhook signing secret",
    description: "Replaces the workspace's signing secret, 200 with the new one. For 24 h " +
      "the previous secret also signs every delivery (both signatures are sent), so " +
      "receivers can switch without losing deliveries; a second rotation within that time " +
      "ends the grace of the oldest secret. Needs admin. Accepts Idempotency-Key (a retried " +
      "rotation must not rotate twice).",
    idempotent: true,
    sealed: { body: ["signing_secret"] },
    responses: {
      200: {
        description: "Rotated.",
        schema: s.named(
          "SigningSecret",
          s.object({
            signing_secret: secret("The new signing secret."),
            previous_secret_expires_at: s.dateTime("Until then the previous secret also signs."),
          }),
        ),
      },
    },
    handler: ({ app, principal, req }) => {
      const expires = new Date(app.clock().getTime() + ROTATION_GRACE_MS);
      // The Idempotency-Key's answer commits with the rotation: a retry after a crash in
      // between would otherwise rotate again, and the secret receivers hold would stop
      // signing at once instead of after 24 h.
      return answeredInTransaction(app.db, req, 200, async (tx) => {
        const [row] = await tx`
          update workspaces
          set previous_signing_secret = signing_secret, previous_secret_expires_at = ${expires},
              signing_secret = ${newSigningSecret()}
          where id = ${principal.workspaceId}
          returning signing_secret, previous_secret_expires_at`;
        return row;
      });
    },
  }),
];
