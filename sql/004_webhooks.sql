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
  dispatched_at timestamptz      -- set by the webhook worker when fanned out
);
create index on outbox_events (created_at) where dispatched_at is null;

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
