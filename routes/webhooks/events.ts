// /api/v1/events: the workspace's events as a pull API, for an integrator that missed webhooks
// to catch up by itself. Each item is the body a webhook delivery sends, byte for byte; the
// cursor is a feed position (lib/webhooks/feed.ts says why it is exact) and lives as long as the
// events after it are kept (lib/webhooks/retention.ts). That position is shared by every
// workspace's events, so the cursor is sealed (lib/http/cursor.ts): its holder cannot read it
// and learn how much other workspaces did.

import {
  badCursor,
  type CursorScope,
  encodeCursor,
  pageQuery,
  verifyCursor,
} from "../../lib/http/cursor.ts";
import { empty, frag } from "../../lib/db/db.ts";
import { ApiError } from "../../lib/errors.ts";
import { type AppContext, jsonText } from "../../lib/http/router.ts";
import * as s from "../../lib/http/schema.ts";
import { EVENT_TYPES, eventBody, type OutboxRow } from "../../lib/webhooks/outbox.ts";
import { conflict, notFound } from "../../lib/forms/wing.ts";
import { eventSchema } from "../../lib/forms/event_payloads.ts";
import { defineAdminRoute } from "../../lib/forms/webhooks.ts";

const RECOVERY = "Catching up after missed webhooks: keep the id of the last event you " +
  "processed, or the last next_cursor you got; on start, page GET /api/v1/events from it " +
  "(after=<event id>, or cursor=<next_cursor> with the same filters) until has_more is false, " +
  "handle each item as you would the webhook of the same event, and deduplicate by event id " +
  "(an event read here may also arrive, or have arrived, by webhook). Then keep polling with " +
  "the last next_cursor, or go back to webhooks.";

const feedPage = s.object({
  data: s.array(eventSchema),
  next_cursor: s.string({
    description: "Never null: the position after this page. Keep it, and ask again with it " +
      "(and the same filters) for what comes next, now or days later.",
  }),
  has_more: s.boolean(),
});

interface FeedRow extends OutboxRow {
  feed_position: number;
}

/** One row per event of the page, or one with null event columns when the page is empty. */
interface PageRow extends Partial<FeedRow> {
  last: number;
  pruned_through: number;
  through_at: Date | null;
}

/** The feed position a cursor of `scope` stands for. */
async function cursorPosition(app: AppContext, scope: CursorScope, cursor: string) {
  const { key } = await verifyCursor(app, scope, cursor);
  const [position] = key;
  if (
    key.length !== 1 || typeof position !== "number" || !Number.isSafeInteger(position) ||
    position < 0
  ) {
    throw badCursor();
  }
  return position;
}

/** The feed position of an event of the workspace, for `after`. */
async function eventPosition(app: AppContext, workspaceId: string, id: string) {
  const [row] = await app.db.sql<{ feed_position: number | null }>`
    select feed_position from outbox_events where id = ${id} and workspace_id = ${workspaceId}`;
  if (!row) {
    throw notFound(
      "No event with this id is kept in this workspace: it never was one of its events, or " +
        "it is older than the retention. Start without after, or with since.",
      "after",
    );
  }
  if (row.feed_position === null) {
    throw conflict(
      "This event has just been committed and is not in the feed yet; retry in a second.",
      "after",
    );
  }
  return row.feed_position;
}

export const routes = [
  defineAdminRoute({
    method: "GET",
    path: "/api/v1/events",
    summary: "List events (catch up on missed webhooks)",
    description: "The workspace's events, oldest first, in the list envelope; each item is " +
      "exactly the body its webhook delivery sends (same id, type, data and data.sequence), " +
      "whether or not a webhook is subscribed, so one handler serves both. " + RECOVERY +
      "\n\nThe cursor is exact under concurrent writes. A cursor on created_at or on an id " +
      "would not be: a transaction that wrote its event first can commit after one that wrote " +
      "later, and a reader already past it would never see it. Here every event takes a " +
      "position in the feed when the delivery worker fans it out, shortly after its commit " +
      "(WEBHOOK_WORKER=1 on at least one instance), and fan-outs of all instances take turns, " +
      "so an event committed after a page was read always comes after that page's cursor. A " +
      "client that keeps its last next_cursor therefore reads every event exactly once, and a " +
      "session's events in data.sequence order; the order is commit order, not created_at " +
      "order. next_cursor is never null; has_more false means caught up for now. Unlike other " +
      "lists' cursors, this one does not expire after 24 h: it stays valid as long as the " +
      "events after it are kept.\n\nRetention: events (and webhook deliveries with their " +
      "attempts) are kept EVENT_RETENTION_DAYS, 30 by default, counted from when they entered " +
      "the feed. A cursor from before the oldest event kept answers 410 GONE (field cursor), " +
      "and the message names until when events were removed and the oldest event kept; an " +
      "after whose event is no longer kept answers 404 (field after). Either way, start again " +
      "without them (the oldest kept event comes first) and deduplicate by id.\n\nFilters, combined with AND: type (repeatable, or " +
      "comma-separated), since (inclusive) and until (exclusive) on the time the event " +
      "entered the feed, questionnaire_id. A cursor is bound to the filters it was issued " +
      "with (400 otherwise). after and cursor exclude each other. Needs admin.",
    query: {
      ...pageQuery,
      after: s.optional(s.uuid({ description: "An event id: start right after that event." })),
      type: s.repeatable(
        s.optional(s.array(s.enumOf(EVENT_TYPES), { min: 1, max: EVENT_TYPES.length })),
        "Only these event types: type=a&type=b or type=a,b.",
      ),
      since: s.optional(
        s.dateTime(
          "Only events that entered the feed at or after this time.",
          "2026-11-13T00:00:00Z",
        ),
      ),
      until: s.optional(
        s.dateTime("Only events that entered the feed before this time.", "2026-11-20T00:00:00Z"),
      ),
      questionnaire_id: s.optional(s.uuid()),
    },
    responses: { 200: { description: "A page.", schema: feedPage } },
    errors: [404, 409, 410],
    handler: async ({ app, query, principal }) => {
      if (query.cursor !== undefined && query.after !== undefined) {
        throw s.invalid("after", "Give either cursor or after, not both.");
      }
      if (query.since && query.until && query.since >= query.until) {
        throw s.invalid("until", "until must be later than since.");
      }
      const types = query.type ? EVENT_TYPES.filter((t) => query.type!.includes(t)) : null;
      const scope = {
        list: "events",
        filter: {
          workspace: principal.workspaceId,
          type: types,
          since: query.since?.toISOString() ?? null,
          until: query.until?.toISOString() ?? null,
          questionnaire_id: query.questionnaire_id ?? null,
        },
      };
      const resumed = query.cursor !== undefined || query.after !== undefined;
      const from = query.cursor !== undefined
        ? await cursorPosition(app, scope, query.cursor)
        : query.after !== undefined
        ? await eventPosition(app, principal.workspaceId, query.after)
        : 0;
      // One statement, so one snapshot: the page, the last position handed out and how far the
      // retention went are read together. Scalar subqueries for the one-row tables: joined, they
      // are estimated at thousands of rows each until analyzed, and the plan's cost turns on JIT
      // compilation, which costs more than the page.
      const byQuestionnaire = query.questionnaire_id
        ? frag`and data->>'questionnaire_id' = ${query.questionnaire_id}`
        : empty;
      const rows = await app.db.sql<PageRow>`
        select (select last from event_positions) as last,
               (select pruned_through from event_retention) as pruned_through,
               (select through_at from event_retention) as through_at,
               e.id, e.workspace_id, e.type, e.data, e.created_at, e.feed_position
        from (values (true)) as one
        left join lateral (
          select id, workspace_id, type, data, created_at, feed_position from outbox_events
          where workspace_id = ${principal.workspaceId} and feed_position > ${from}
          ${types ? frag`and type = any(${types}::text[])` : empty}
          ${query.since ? frag`and feed_at >= ${query.since}` : empty}
          ${query.until ? frag`and feed_at < ${query.until}` : empty}
          ${byQuestionnaire}
          order by feed_position
          limit ${query.limit + 1}
        ) e on true
        order by e.feed_position`;
      const [head] = rows;
      if (resumed && from < head.pruned_through) {
        const [oldest] = await app.db.sql<{ id: string; feed_at: Date }>`
          select id, feed_at from outbox_events
          where workspace_id = ${principal.workspaceId} and feed_position > ${head.pruned_through}
          order by feed_position limit 1`;
        const field = query.cursor !== undefined ? "cursor" : "after";
        throw new ApiError(410, "GONE", {
          message: "This position is older than the oldest event kept: events are kept " +
            `${app.config.eventRetentionDays} days, and those that entered the feed until ` +
            `${head.through_at?.toISOString()} were removed. ` +
            (oldest
              ? `The oldest event kept in this workspace is ${oldest.id}, in the feed since ` +
                `${oldest.feed_at.toISOString()}. `
              : "No older event of this workspace is kept. ") +
            `Start again without ${field} (the oldest event kept comes first) and deduplicate ` +
            "by event id.",
          field,
        });
      }
      const events = rows.filter((r): r is PageRow & FeedRow => r.id != null);
      const hasMore = events.length > query.limit;
      const shown = hasMore ? events.slice(0, query.limit) : events;
      // Caught up: every position up to `last` is committed and was read in this snapshot, and
      // whatever comes later will be numbered above it.
      const next = hasMore ? shown[shown.length - 1].feed_position : Math.max(from, head.last);
      const cursor = await encodeCursor(app, scope, [next]);
      // The items are spliced in as eventBody wrote them, so they are the webhook's bytes.
      return jsonText(
        `{"data":[${shown.map(eventBody).join(",")}],"next_cursor":${JSON.stringify(cursor)},` +
          `"has_more":${hasMore}}`,
      );
    },
  }),

  defineAdminRoute({
    method: "GET",
    path: "/api/v1/events/{id}",
    summary: "Get one event",
    description: "One event of the workspace, exactly the body its webhook delivery sends. " +
      "Another workspace's event, or one older than the retention (EVENT_RETENTION_DAYS): 404. " +
      "Needs admin.",
    params: { id: s.uuid() },
    responses: { 200: { description: "The event.", schema: eventSchema } },
    handler: async ({ app, params, principal }) => {
      const [row] = await app.db.sql<OutboxRow>`
        select id, workspace_id, type, data, created_at from outbox_events
        where id = ${params.id} and workspace_id = ${principal.workspaceId}`;
      if (!row) throw notFound("No such event.");
      return jsonText(eventBody(row));
    },
  }),
];
