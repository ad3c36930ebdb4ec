// The webhook worker's rows: its heartbeat, its claims on due deliveries, the attempts it
// records and the claims it gives back. A claim (claimed_by = the worker) holds only while its
// worker's heartbeat is fresh, so the claims of a worker that was killed lapse by themselves.

import { type Db, frag, type Sql } from "../db/db.ts";
import type { AttemptResult, Job } from "./attempt.ts";

/** A claim by a worker whose heartbeat is older than this is void. */
export const CLAIM_STALE_AFTER_MS = 5000;
/**
 * The delivery `d` is claimed by a worker whose heartbeat is fresh: it is being attempted right
 * now. One definition for the worker (which claims only deliveries for which it is false) and
 * the manual retry (409 while it is true), so the two always agree.
 */
export const attemptedNow = frag`(d.claimed_by is not null and exists (
  select 1 from webhook_workers w where w.id = d.claimed_by
    and w.seen_at > now() - ${CLAIM_STALE_AFTER_MS}::float8 * interval '1 millisecond'))`;
/** How many of the oldest due deliveries a claim considers for its fair share. */
const FAIR_WINDOW = 1000;

// Heartbeats and their staleness use the database's clock: one clock for every instance, so
// clock skew between hosts cannot make a live worker look dead.
export function beat(sql: Sql, worker: string): Promise<unknown> {
  return sql`insert into webhook_workers (id, seen_at) values (${worker}, now())
             on conflict (id) do update set seen_at = excluded.seen_at`;
}

/** Rows of workers that were killed (nothing else removes them). */
export function forgetDeadWorkers(sql: Sql): Promise<unknown> {
  return sql`delete from webhook_workers where seen_at < now() - interval '1 day'`;
}

/**
 * Claims up to `limit` deliveries due at `now` for `worker`. Fairness: at most `perWebhook` of
 * one webhook are in flight in this worker (`busy`: its attempts in flight per webhook), so a
 * receiver that hangs until the timeout cannot take every slot while other webhooks wait. The
 * oldest FAIR_WINDOW due rows are read unlocked (a bounded index scan), shared out per webhook,
 * then locked with SKIP LOCKED, which re-checks the claim condition on each row: two workers
 * never claim the same delivery.
 */
export function claimDue(
  sql: Sql,
  worker: string,
  { now, limit, perWebhook, busy }: {
    now: Date;
    limit: number;
    perWebhook: number;
    busy: Map<string, number>;
  },
): Promise<Job[]> {
  const [webhooks, inFlight] = [[...busy.keys()], [...busy.values()]];
  return sql<Job>`
    with due as (
      select d.id, d.webhook_id, d.next_attempt_at from webhook_deliveries d
      where d.status = 'pending' and d.next_attempt_at <= ${now} and not ${attemptedNow}
      order by d.next_attempt_at
      limit ${FAIR_WINDOW}
    ), fair as (
      select ranked.id from (
        select due.id, due.webhook_id, due.next_attempt_at, row_number() over (
                 partition by due.webhook_id order by due.next_attempt_at) as n
        from due
      ) ranked
      left join unnest(${webhooks}::uuid[], ${inFlight}::int[])
        as b(webhook_id, in_flight) on b.webhook_id = ranked.webhook_id
      where ranked.n <= ${perWebhook} - coalesce(b.in_flight, 0)
      order by ranked.next_attempt_at
      limit ${limit}
    ), picked as (
      select d.id from webhook_deliveries d
      join webhooks h on h.id = d.webhook_id and h.status = 'active'
      where d.id in (select id from fair) and d.status = 'pending' and not ${attemptedNow}
      for update of d skip locked
    )
    update webhook_deliveries d set claimed_by = ${worker}, claimed_at = ${now}
    from picked, webhooks h, workspaces ws
    where d.id = picked.id and h.id = d.webhook_id and ws.id = d.workspace_id
    returning d.id, d.webhook_id, d.event_id, d.event_type, d.body, d.attempts, h.url,
      ws.signing_secret, ws.previous_signing_secret, ws.previous_secret_expires_at`;
}

/**
 * Records the attempts `batch` of `worker` (at `now`) and ends their claims. A webhook that
 * answered 410 Gone is disabled first.
 */
export async function recordAttempts(
  db: Db,
  worker: string,
  batch: AttemptResult[],
  now: Date,
): Promise<void> {
  const gone = [...new Set(batch.filter((r) => r.code === 410).map((r) => r.webhook_id))];
  if (gone.length) await disable(db, gone, now);
  // A retry scheduled for a webhook disabled meanwhile (410 seen by another attempt) is
  // a failure: nothing more will be sent to it.
  await db.sql`
    with r as (
      select * from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as r(id uuid,
        status text, started_at timestamptz, duration_ms int, code int, error text,
        next_at timestamptz)
    ), done as (
      update webhook_deliveries d set
        status = case when r.status = 'pending' and h.status = 'disabled' then 'failed'
                      else r.status end,
        next_attempt_at = case when h.status = 'disabled' then null
                               else r.next_at end,
        attempts = d.attempts + 1,
        last_attempt_at = r.started_at,
        last_response_code = r.code,
        last_error = r.error,
        claimed_by = null,
        claimed_at = null
      from r, webhooks h
      where d.id = r.id and d.claimed_by = ${worker} and h.id = d.webhook_id
      returning d.id, d.attempts
    )
    insert into webhook_attempts
      (delivery_id, attempt, started_at, duration_ms, response_code, error, worker_id)
    select done.id, done.attempts, r.started_at, r.duration_ms, r.code, r.error, ${worker}::uuid
    from done join r on r.id = done.id
    on conflict do nothing`;
}

async function disable(db: Db, webhookIds: string[], now: Date) {
  await db.begin(async (tx) => {
    await tx`update webhooks set status = 'disabled', disabled_at = ${now},
               disabled_reason = 'The receiver answered 410 Gone.'
             where id = any(${webhookIds}::uuid[]) and status = 'active'`;
    await tx`update webhook_deliveries set status = 'failed', next_attempt_at = null,
               last_error = coalesce(last_error || ' ', '') ||
                 'Not sent again: the webhook was disabled after a 410 Gone.'
             where webhook_id = any(${webhookIds}::uuid[]) and status = 'pending'
               and claimed_by is null`;
  });
}

/** Gives back the claims of `worker` on the deliveries `ids`, unattempted. */
export function releaseClaims(sql: Sql, worker: string, ids: string[]): Promise<unknown> {
  return sql`update webhook_deliveries set claimed_by = null, claimed_at = null
             where id = any(${ids}::uuid[]) and claimed_by = ${worker}`;
}

/** A stopping worker gives back every claim it still holds and removes its heartbeat. */
export async function retire(sql: Sql, worker: string): Promise<void> {
  await sql`update webhook_deliveries set claimed_by = null, claimed_at = null
            where claimed_by = ${worker}`;
  await sql`delete from webhook_workers where id = ${worker}`;
}
