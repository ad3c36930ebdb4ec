// Retention of the events feed and of the delivery log (EVENT_RETENTION_DAYS): the webhook
// worker removes what is older in small batches, each one statement that locks only the rows
// it removes (and skips rows locked by others), so no writer or reader waits behind it for long.

import type { Sql } from "../db/db.ts";

/** Rows removed per statement. */
export const PRUNE_BATCH = 1000;

/** The moment before which events and deliveries are removed. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/**
 * Removes up to `batch` of the events that entered the feed before `cutoff`, oldest first, and
 * resolves to how many. Feed times rise with positions (lib/webhooks/feed.ts), so what is
 * removed is always the start of the feed. The mark of how far it went moves in the same
 * statement: a reader sees the removal and the mark together or neither, so a cursor from
 * before the removal is always answered 410, never served a page with a hole in it.
 */
export async function pruneEvents(sql: Sql, cutoff: Date, batch = PRUNE_BATCH): Promise<number> {
  const [row] = await sql<{ n: number }>`
    with doomed as (
      select id from outbox_events
      where feed_position is not null and feed_at < ${cutoff}
      order by feed_at, feed_position
      limit ${batch}
      for update skip locked
    ), gone as (
      delete from outbox_events e using doomed where e.id = doomed.id
      returning e.feed_position, e.feed_at
    ), newest as (
      select feed_position, feed_at from gone order by feed_position desc limit 1
    ), mark as (
      update event_retention r set pruned_through = newest.feed_position,
        through_at = newest.feed_at
      from newest where newest.feed_position > r.pruned_through
      returning 1
    )
    select count(*)::int as n from gone`;
  return row.n;
}

/**
 * Removes up to PRUNE_BATCH deliveries created before `cutoff`, with their attempts (cascade), and
 * resolves to how many. A pending one stays until it succeeds or fails for good, whatever its
 * age: its retries are still due.
 */
export async function pruneDeliveries(sql: Sql, cutoff: Date): Promise<number> {
  const [row] = await sql<{ n: number }>`
    with doomed as (
      select id from webhook_deliveries
      where created_at < ${cutoff} and status <> 'pending'
      order by created_at
      limit ${PRUNE_BATCH}
      for update skip locked
    ), gone as (
      delete from webhook_deliveries d using doomed where d.id = doomed.id returning 1
    )
    select count(*)::int as n from gone`;
  return row.n;
}
