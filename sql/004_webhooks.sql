-- 004_webhooks: the transactional outbox of forms events, webhook endpoints, one delivery per
-- (webhook, event) holding the exact body that is signed and re-sent on every attempt, the log
-- of every attempt, and the heartbeat of each running delivery worker (so a crashed instance's
-- claims can be taken over).

create table outbox_events (
  id uuid primary key default gen_random_uuid(),  -- event id, stable across retries
  -- No foreign key, for the reason given at answers.question_id: every event of a workspace
  -- would share-lock its one row. Both writers (onda_start_session, onda_record_answer) take
  -- it from the row they read in the same statement.
  workspace_id uuid not null,
  type text not null,            -- session.started | answer.submitted | session.completed
  data jsonb not null,           -- the event's data object
  created_at timestamptz not null default now(),
  dispatched_at timestamptz,     -- set by the webhook worker when fanned out
  -- The event's place in the events feed (GET /api/v1/events), taken when the worker fans it
  -- out, in fan-outs that take turns on event_positions, so positions follow commit order
  -- (why: lib/webhooks/feed.ts). feed_at: when it took it, never before the position before;
  -- the feed's since/until and the retention count from it.
  feed_position bigint,
  feed_at timestamptz
);
create index on outbox_events (created_at) where dispatched_at is null;
-- A workspace's feed in order, and the oldest numbered events first for the retention.
create index outbox_events_feed_idx on outbox_events (workspace_id, feed_position)
  where feed_position is not null;
create index outbox_events_retention_idx on outbox_events (feed_at)
  where feed_position is not null;

-- The last feed position handed out and its time; a fan-out holds this row from its start to
-- its commit.
create table event_positions (
  only_row boolean primary key default true check (only_row),
  last bigint not null default 0,
  last_at timestamptz not null default '-infinity'
);
insert into event_positions default values;

-- Retention removes the oldest events in small batches and records how far it went: every
-- event at or below pruned_through may be gone (through_at: its feed time), so an older cursor
-- answers 410.
create table event_retention (
  only_row boolean primary key default true check (only_row),
  pruned_through bigint not null default 0,
  through_at timestamptz
);
insert into event_retention default values;

create table webhooks (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  url text not null,
  events text[] not null,
  -- 'disabled' when a receiver answered 410 Gone; nothing more is sent to it.
  status text not null default 'active' check (status in ('active', 'disabled')),
  disabled_at timestamptz,
  disabled_reason text,
  created_at timestamptz not null
);
-- The keyset of the webhook list.
create index webhooks_list_idx on webhooks (workspace_id, created_at desc, id desc);

create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  webhook_id uuid not null references webhooks(id) on delete cascade,
  workspace_id uuid not null references workspaces(id) on delete cascade,
  -- The event id in the body (the outbox row's id; a fresh one for a ping): the same on
  -- every attempt, so receivers can deduplicate.
  event_id uuid not null,
  event_type text not null,
  -- Built once at fan-out: every attempt sends (and signs) exactly these bytes.
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  created_at timestamptz not null,
  -- When the next attempt is due; null once the delivery succeeded or failed for good.
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_response_code integer,
  last_error text,
  -- The worker attempting it right now (webhook_workers.id); a claim by a worker whose
  -- heartbeat stopped is void, so a crash never strands a delivery.
  claimed_by uuid,
  claimed_at timestamptz,
  -- Fan-out is idempotent: an event reaches a webhook through one delivery only.
  unique (webhook_id, event_id)
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
  where status = 'pending';
-- The keyset of the delivery log.
create index webhook_deliveries_log_idx
  on webhook_deliveries (webhook_id, created_at desc, id desc);
create index webhook_deliveries_retention_idx on webhook_deliveries (created_at);

create table webhook_attempts (
  delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  duration_ms integer not null,
  response_code integer,
  error text,
  -- The webhook_workers.id that made the attempt: which instance sent it.
  worker_id uuid not null,
  primary key (delivery_id, attempt)
);

-- One row per running delivery worker, refreshed every second.
create table webhook_workers (
  id uuid primary key,
  seen_at timestamptz not null
);
