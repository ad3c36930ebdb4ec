// The transactional outbox: every state change of the forms API writes its event in the same
// statement (onda_start_session, onda_record_answer in sql/003_forms.sql), so an event exists
// exactly when its change committed (nothing lost on a crash); the webhook worker fans the rows
// out later, and the events feed serves them.

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
