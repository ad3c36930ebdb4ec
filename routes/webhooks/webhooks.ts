// /api/v1/webhooks: endpoints that receive the workspace's events, and switching them off and on
// (contract.md §3). Their delivery log, retry and test ping are routes/webhooks/deliveries.ts, the
// signing secret's rotation routes/webhooks/signing_secret.ts. Delivery itself is
// lib/webhooks/worker.ts; target checks lib/webhooks/ssrf.ts.

import type { UserPrincipal } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import type { Row } from "../../lib/db/db.ts";
import { ApiError } from "../../lib/errors.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import { EVENT_TYPES } from "../../lib/webhooks/outbox.ts";
import { json } from "../../lib/http/router.ts";
import type { FormsApp } from "../../lib/forms/wing.ts";
import {
  defineAdminRoute,
  findWebhook,
  noSuchWebhook,
  signingSecret,
  WEBHOOK_COLUMNS,
} from "../../lib/forms/webhooks.ts";
import * as s from "../../lib/http/schema.ts";
import { checkTarget } from "../../lib/webhooks/ssrf.ts";

/** Fan-out cost grows with the number of webhooks; a workspace needs only a few. */
const MAX_WEBHOOKS = 20;

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
  s.object({ ...webhookShape, signing_secret: signingSecret("The workspace's signing secret.") }),
);

// Rows are answered as they are: JSON.stringify writes their timestamps as toISOString does.

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
        // (lockedHook, routes/webhooks/deliveries.ts). A claimed delivery is settled by its
        // worker, which sees the webhook disabled.
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
];
