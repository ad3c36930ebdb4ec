// Feed positions of outbox events: what makes the cursor of GET /api/v1/events exact.
//
// Why not the outbox's created_at or id: neither is commit order. A transaction that wrote its
// event first can commit after one that wrote later, so a reader that kept "the last event
// seen" would already be past the late one and never see it.
//
// Why a position given at fan-out: the worker's fan-out already takes every committed event
// exactly once. Fan-outs take turns on the one row of event_positions (locked first thing, held
// to the commit), so each reads only events committed before its turn began, numbers them after
// every position handed out before, and its positions become visible all at once, at its
// commit. Whatever a reader has not seen yet gets a higher position than everything it has
// seen: a cursor that is a position neither skips nor repeats an event, under any number of
// concurrent writers and instances. One session's events keep their data.sequence order: each
// is written after the previous one committed, so a fan-out that reads a later one has already
// numbered, or numbers first (created_at order), the earlier one. A row lock is all it needs,
// so it works alike on PGlite.
//
// Rejected: the writer's xid8 per event, served only below pg_snapshot_xmin(pg_current_snapshot())
// (no extra write, but any long writing transaction in the cluster, such as an ads import of
// millions of rows in one transaction, holds every feed back while it runs, and transaction ids
// start again on a cluster restored from a dump, behind the cursors clients keep); a position
// taken under a lock by each writing transaction (every answer of every workspace would queue
// on one row until its commit).
// The price: an event enters the feed when a worker fans it out (within its poll interval), and
// only instances that run the worker (WEBHOOK_WORKER=1) number events.

import type { Sql } from "../db/db.ts";

/** Waits for the fan-out of any other instance to commit; held until this transaction ends. */
export async function takeFanOutTurn(tx: Sql): Promise<void> {
  await tx`select last from event_positions for update`;
}

/**
 * Marks the events `ids` (in created_at order) dispatched at `now` and gives them the next
 * positions; the caller has taken the turn. Their feed time is `now`, or the last one handed
 * out when this clock is behind it, so feed times never go back as positions go up (the
 * retention removes a prefix of the feed, and since/until select a range of it).
 */
export async function numberEvents(tx: Sql, ids: string[], now: Date): Promise<void> {
  const [counter] = await tx<{ base: number; last_at: Date }>`
    update event_positions
    set last = last + ${ids.length}, last_at = greatest(last_at, ${now}::timestamptz)
    returning last - ${ids.length} as base, last_at`;
  await tx`
    update outbox_events e
    set dispatched_at = ${now}, feed_position = ${counter.base}::bigint + u.n,
        feed_at = ${counter.last_at}::timestamptz
    from unnest(${ids}::uuid[]) with ordinality as u(id, n)
    where e.id = u.id`;
}
