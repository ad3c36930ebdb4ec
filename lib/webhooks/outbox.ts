// The transactional outbox: every state change of the forms API writes its event in the same
// statement (onda_start_session, onda_record_answer in sql/003_forms.sql), so an event exists
// exactly when its change committed (nothing lost on a crash); the webhook worker fans the rows
// out later (fanOut, below), and the events feed serves them.

import type { Db } from "../db/db.ts";
import { numberEvents, takeFanOutTurn } from "./feed.ts";

export const EVENT_TYPES = ["session.started", "answer.submitted", "session.completed"] as const;

/** An outbox row as the worker fans it out and the events feed serves it. */
export interface OutboxRow {
  id: string;
  workspace_id: string;
  type: string;
  data: unknown;
  created_at: Date;
}

/**
 * The event envelope of contract.md §3: the body every delivery sends and every item of
 * GET /api/v1/events is, byte for byte (one function, so the two cannot drift apart).
 */
export function eventBody(event: OutboxRow): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    workspace_id: event.workspace_id,
    data: event.data,
  });
}

/** Events fanned out per transaction. */
export const FANOUT_BATCH = 500;

/**
 * Fans out up to FANOUT_BATCH committed events, oldest first: one delivery per event and active
 * webhook of its workspace subscribed to its type, due at once, and the events numbered for the
 * feed. Resolves to how many events it took (FANOUT_BATCH: more are waiting).
 */
export async function fanOut(db: Db, clock: () => Date): Promise<number> {
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
    const now = clock();
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
}
