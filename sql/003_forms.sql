-- 003_forms: accounts, workspaces and roles, questionnaires, public sessions and answers,
-- plan usage, idempotency keys and the event outbox of the forms API.

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  name text not null,
  -- "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>": the parameters travel with the hash.
  password_hash text not null,
  created_at timestamptz not null default now()
);
-- E-mail addresses compare case-insensitively.
create unique index users_email_key on users (lower(email));

create table workspaces (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  plan text not null default 'free' check (plan in ('free', 'pro', 'business')),
  allowed_origins text[] not null default '{}',
  -- Signs webhook deliveries; after a rotation the previous one also signs until it expires.
  signing_secret text not null,
  previous_signing_secret text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null default now()
);
-- CORS preflights carry no credentials: "is this origin allowed by any workspace?".
create index workspaces_allowed_origins_idx on workspaces using gin (allowed_origins);

create table memberships (
  workspace_id uuid not null references workspaces(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  role text not null check (role in ('viewer', 'editor', 'admin', 'owner')),
  created_at timestamptz not null default now(),
  primary key (workspace_id, user_id)
);
create index memberships_user_idx on memberships (user_id, created_at);

-- Login cookies (kind 'session') and bearer tokens for scripts (kind 'api'). Only the SHA-256
-- digest of a token is stored, so a database leak does not leak usable credentials.
create table auth_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  kind text not null check (kind in ('session', 'api')),
  name text,
  digest text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  revoked_at timestamptz
);
create index auth_tokens_user_idx on auth_tokens (user_id, created_at desc, id desc);

-- Failed logins, per e-mail and per client address, for the login limiter (shared by
-- every instance, so a spread-out attack is counted once).
create table login_failures (
  key text not null,
  at timestamptz not null
);
create index login_failures_key_idx on login_failures (key, at);

create table questionnaires (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  title text not null,
  slug text not null unique,
  state text not null default 'draft'
    check (state in ('draft', 'published', 'closed', 'deleted')),
  question_count integer not null default 0,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  published_at timestamptz,
  closed_at timestamptz,
  deleted_at timestamptz
);
-- The keyset of the questionnaire list.
create index questionnaires_list_idx on questionnaires (workspace_id, created_at desc, id desc);

create table questions (
  id bigint generated always as identity primary key,
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  position integer not null,
  title text not null,
  type text not null check (type in ('text', 'email', 'number', 'choice', 'rating')),
  required boolean not null default true,
  options jsonb,
  unique (questionnaire_id, position)
);

-- Public sessions. The id is random below 2^53 (safe in JavaScript), never sequential.
create table sessions (
  id bigint primary key check (id > 0 and id < 9007199254740992),
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  workspace_id uuid not null references workspaces(id) on delete cascade,
  name text not null,
  email text not null,
  loaded_at timestamptz not null,
  started_at timestamptz not null,
  completed_at timestamptz,
  answered integer not null default 0,
  total integer not null,
  -- The sequence number of the session's last event (session.started is 1).
  last_sequence integer not null default 1
);
create index sessions_questionnaire_idx on sessions (questionnaire_id, started_at desc, id desc);

create table answers (
  session_id bigint not null references sessions(id) on delete cascade,
  question_id bigint not null references questions(id) on delete cascade,
  questionnaire_id uuid not null,
  answer text not null,
  created_at timestamptz not null,
  -- One answer per question and session: the database refuses a second one.
  primary key (session_id, question_id)
);
create index answers_questionnaire_idx on answers (questionnaire_id, created_at, session_id);

-- Answers counted per workspace and calendar month (UTC), in shards. A limited plan counts
-- in shard 0 with a conditional UPDATE inside the answer's transaction: the row lock
-- serializes that workspace's answers, so the limit cannot be overshot. An unlimited plan
-- counts in a random shard 1-64, so its answers never queue on one hot row. Usage is the sum.
create table plan_usage (
  workspace_id uuid not null references workspaces(id) on delete cascade,
  month date not null,
  shard smallint not null default 0,
  answers integer not null default 0,
  primary key (workspace_id, month, shard)
);

-- Idempotency-Key records: (principal, route, key) -> the stored response. status null means
-- the first request is still running.
create table idempotency_keys (
  principal text not null,
  route text not null,
  key text not null,
  request_hash text not null,
  created_at timestamptz not null,
  status integer,
  headers jsonb,
  body text,
  primary key (principal, route, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);

create table outbox_events (
  id uuid primary key default gen_random_uuid(),  -- event id, stable across retries
  workspace_id uuid not null references workspaces(id),
  type text not null,            -- session.started | answer.submitted | session.completed
  data jsonb not null,           -- the event's data object
  created_at timestamptz not null default now(),
  dispatched_at timestamptz      -- set by the webhook worker when fanned out
);
create index on outbox_events (created_at) where dispatched_at is null;
