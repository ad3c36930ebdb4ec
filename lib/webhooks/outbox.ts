// The transactional outbox: every state change of the forms API writes its event here in the
// same transaction, so an event exists exactly when its change committed (nothing lost on a
// crash); the webhook worker fans the rows out later.

import type { Sql } from "../db/db.ts";

export type EventType = "session.started" | "answer.submitted" | "session.completed";

export const EVENT_TYPES = [
  "session.started",
  "answer.submitted",
  "session.completed",
] as const satisfies readonly EventType[];

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

export interface OutboxEvent {
  type: EventType;
  data: Record<string, unknown>;
}

/** Writes one event inside the caller's transaction `tx`; resolves to the event id. */
export async function recordEvent(
  tx: Sql,
  workspaceId: string,
  type: EventType,
  data: Record<string, unknown>,
): Promise<string> {
  const [row] = await tx<{ id: string }>`
    insert into outbox_events (workspace_id, type, data)
    values (${workspaceId}, ${type}, ${JSON.stringify(data)}::jsonb)
    returning id`;
  return row.id;
}

/** Writes several events of one change in one statement (an answer that completes a session). */
export async function recordEvents(
  tx: Sql,
  workspaceId: string,
  events: OutboxEvent[],
): Promise<void> {
  if (events.length === 1) {
    await recordEvent(tx, workspaceId, events[0].type, events[0].data);
    return;
  }
  // One row per array element, in order; created_at ties are broken by ordinality for readers.
  await tx`
    insert into outbox_events (workspace_id, type, data, created_at)
    select ${workspaceId}, e.value->>'type', e.value->'data',
           now() + (e.ordinality - 1) * interval '1 microsecond'
    from jsonb_array_elements(${JSON.stringify(events)}::jsonb) with ordinality as e`;
}
