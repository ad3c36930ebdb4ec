-- 003_forms: the forms API (forms-api.md): users, workspaces and roles, questionnaires, public
-- sessions and answers, plan usage, idempotency keys, billing checkouts and exports. Answers
-- and sessions write their events to outbox_events (004_webhooks.sql) in the same statement.

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
-- One row per login attempt and key (e-mail, address), written before the password is
-- checked so parallel guesses all count; a successful attempt deletes its rows.
create table login_failures (
  key text not null,
  at timestamptz not null,
  attempt uuid not null
);
create index login_failures_key_idx on login_failures (key, at);
-- A login that succeeds (or is refused unchecked) deletes its attempt's rows: without this, a
-- scan of every failure in the window, the most rows exactly while an attack runs.
create index login_failures_attempt_idx on login_failures (attempt);
-- Failed logins are pruned by age whatever their key, so that a flood of distinct addresses or
-- e-mails leaves only the attempts of the last window.
create index login_failures_at_idx on login_failures (at);

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
-- The export reads a questionnaire's sessions in id order, in batches (keyset).
create index sessions_export_idx on sessions (questionnaire_id, id);

create table answers (
  session_id bigint not null references sessions(id) on delete cascade,
  -- No foreign key to questions: every answer to a popular question would share-lock that
  -- question's row, and concurrent lockers of one row cost PostgreSQL a multixact each, a
  -- cost that grows with the number of answers in flight. onda_record_answer checks the
  -- question against the session's questionnaire in the statement that inserts the answer;
  -- a published questionnaire's questions are never deleted (PATCH replaces a draft's, and
  -- drafts have no sessions), and answers go with their session.
  question_id bigint not null,
  questionnaire_id uuid not null,
  answer text not null,
  created_at timestamptz not null,
  -- One answer per question and session: the database refuses a second one.
  primary key (session_id, question_id)
);
create index answers_questionnaire_idx on answers (questionnaire_id, created_at, session_id);

-- Answers counted per workspace and calendar month (UTC), in shards (see onda_record_answer).
-- Usage is the sum.
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

-- Billing checkouts (the payment provider behind lib/forms/billing.ts) and exports of
-- questionnaire answers (streamed at download time by lib/forms/export.ts).
create table billing_checkouts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  created_by uuid references users(id) on delete set null,
  plan text not null check (plan in ('pro', 'business')),
  billing_interval text not null check (billing_interval in ('month', 'year')),
  -- Which payment provider handles it, and its own reference for the payment.
  provider text not null,
  provider_ref text,
  -- Where the customer pays, as the provider answered it.
  checkout_url text not null,
  status text not null default 'pending' check (status in ('pending', 'completed', 'canceled')),
  created_at timestamptz not null,
  completed_at timestamptz
);
create index billing_checkouts_workspace_idx on billing_checkouts (workspace_id, created_at desc);

create table exports (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  created_by uuid references users(id) on delete set null,
  format text not null check (format in ('csv', 'ndjson')),
  -- The export holds the data as of this moment: sessions started and answers given later
  -- are left out, so every download of one export gives the same rows.
  as_of timestamptz not null,
  created_at timestamptz not null
);
create index exports_workspace_idx on exports (workspace_id, created_at desc);

-- Inserts the finished Idempotency-Key record p_key (JSON, see lib/http/idempotency.ts) in the
-- caller's statement, taking over an expired or abandoned one; a valid record of another
-- request raises OD001, which rolls back every write of the statement. Null: nothing to keep.
-- p_body, when given, is the stored answer's body: the caller's statement built it (the
-- record then carries none), so the record and the response are the same bytes.
create function onda_keep_idempotency(p_key jsonb, p_body text default null)
returns void language plpgsql as $$
begin
  if p_key is null then
    return;
  end if;
  insert into idempotency_keys
    (principal, route, key, request_hash, created_at, status, headers, body)
  values (p_key->>'principal', p_key->>'route', p_key->>'key', p_key->>'request_hash',
          (p_key->>'created_at')::timestamptz, (p_key->>'status')::integer, p_key->'headers',
          coalesce(p_body, p_key->>'body'))
  on conflict (principal, route, key) do update
  set request_hash = excluded.request_hash, created_at = excluded.created_at,
      status = excluded.status, headers = excluded.headers, body = excluded.body
  where idempotency_keys.created_at < (p_key->>'expired_before')::timestamptz
     or (idempotency_keys.status is null
         and idempotency_keys.created_at < (p_key->>'abandoned_before')::timestamptz);
  if not found then
    raise exception 'Idempotency-Key held by another request' using errcode = 'OD001';
  end if;
end
$$;

-- A visitor's session on a published questionnaire, its session.started event and the
-- Idempotency-Key record, in one statement (one round trip, one commit). False when no
-- published questionnaire has the slug (nothing written); an id already taken raises 23505.
create function onda_start_session(
  p_id bigint,
  p_slug text,
  p_name text,
  p_email text,
  p_loaded_at timestamptz,
  p_at timestamptz,
  p_key jsonb
) returns boolean language plpgsql as $$
declare
  f record;
begin
  select id, workspace_id, slug, question_count into f
  from questionnaires where slug = p_slug and state = 'published';
  if not found then
    return false;
  end if;
  insert into sessions
    (id, questionnaire_id, workspace_id, name, email, loaded_at, started_at, total)
  values (p_id, f.id, f.workspace_id, p_name, p_email, p_loaded_at, p_at, f.question_count);
  insert into outbox_events (workspace_id, type, data)
  values (f.workspace_id, 'session.started', jsonb_build_object(
    'questionnaire_id', f.id,
    'questionnaire_slug', f.slug,
    'session_id', p_id,
    'sequence', 1,
    'respondent', jsonb_build_object('name', p_name, 'email', p_email),
    'progress', jsonb_build_object('answered', 0, 'total', f.question_count)));
  perform onda_keep_idempotency(p_key);
  return true;
end
$$;

-- One answer in one statement: one round trip, one commit. The service passes the answer it
-- checked against the question's rules (cached: they never change once published); all that
-- can change is decided here under the session's row lock, so concurrent answers of a session
-- apply one after the other and progress, sequence numbers and completion stay exact.
--
-- outcome, in the order the API checks: 'no_session' (unknown, another slug's, or its
-- questionnaire deleted), 'completed', 'closed', 'no_question' (not in the session's
-- questionnaire), 'answered' (already answered, e.g. a retry), 'invalid' (p_answer null: the
-- service found it invalid; nothing is written), else 'ok' with body, the JSON answer. On 'ok'
-- it writes the answer, the session's progress, the events answer.submitted and (for the last
-- answer) session.completed, the Idempotency-Key record p_key and the plan counter. A key held
-- by another request (OD001) or a full month (OD002, detail: the plan) rolls back everything.
--
-- p_limits maps each plan to its monthly limit (null: unlimited); the plan is read here, as
-- billing may change it at any moment. A limited plan counts in shard 0 with a conditional
-- upsert whose row lock serializes the workspace's answers, so the limit cannot be overshot;
-- it comes last, so that lock is held only until the commit. An unlimited plan counts in the
-- caller's random shard p_shard, so its answers never queue on one hot row.
create function onda_record_answer(
  p_session bigint,
  p_slug text,
  p_question bigint,
  p_answer text,
  p_at timestamptz,
  p_key jsonb,
  p_limits jsonb,
  p_month date,
  p_shard smallint,
  out outcome text,
  out body text
) language plpgsql as $$
declare
  cur record;
  answered_now integer;
  completes boolean;
  answer_limit integer;
  progress jsonb;
  base jsonb;
  -- Taken after the session's row lock: answers to one session queue on that lock, and the
  -- statement's start time (now()) of a later one can precede an earlier one's.
  stamp timestamptz;
begin
  select s.questionnaire_id, s.workspace_id, s.name, s.email, s.completed_at, s.answered,
         s.total, s.last_sequence, q.slug, q.state, w.plan, qu.id is not null as has_question
  into cur
  from sessions s
  join questionnaires q on q.id = s.questionnaire_id
  join workspaces w on w.id = s.workspace_id
  left join questions qu on qu.id = p_question and qu.questionnaire_id = s.questionnaire_id
  where s.id = p_session and q.slug = p_slug and q.state <> 'deleted'
  -- Held until the commit: the next answer of this session reads what this one wrote.
  for update of s;
  if not found then
    outcome := 'no_session';
  elsif cur.completed_at is not null then
    outcome := 'completed';
  elsif cur.state <> 'published' then
    outcome := 'closed';
  elsif not cur.has_question then
    outcome := 'no_question';
  elsif p_answer is null then
    outcome := case when exists (select 1 from answers a
                                 where a.session_id = p_session and a.question_id = p_question)
                    then 'answered' else 'invalid' end;
  end if;
  if outcome is not null then
    return;
  end if;

  insert into answers (session_id, question_id, questionnaire_id, answer, created_at)
  values (p_session, p_question, cur.questionnaire_id, p_answer, p_at)
  on conflict (session_id, question_id) do nothing;
  if not found then
    outcome := 'answered';
    return;
  end if;
  answered_now := cur.answered + 1;
  completes := answered_now >= cur.total;
  update sessions
  set answered = answered_now,
      last_sequence = cur.last_sequence + case when completes then 2 else 1 end,
      completed_at = case when completes then p_at end
  where id = p_session;

  progress := jsonb_build_object('answered', answered_now, 'total', cur.total);
  base := jsonb_build_object(
    'questionnaire_id', cur.questionnaire_id,
    'questionnaire_slug', cur.slug,
    'session_id', p_session);
  stamp := clock_timestamp();
  insert into outbox_events (workspace_id, type, data, created_at)
  values (cur.workspace_id, 'answer.submitted', base || jsonb_build_object(
    'sequence', cur.last_sequence + 1,
    'question_id', p_question,
    'answer', p_answer,
    'progress', progress), stamp);
  if completes then
    -- created_at one microsecond later, so readers that order by it see the two in order.
    insert into outbox_events (workspace_id, type, data, created_at)
    values (cur.workspace_id, 'session.completed', base || jsonb_build_object(
      'sequence', cur.last_sequence + 2,
      'progress', progress,
      'respondent', jsonb_build_object('name', cur.name, 'email', cur.email),
      'answers', (select jsonb_agg(jsonb_build_object('question_id', a.question_id,
                                                      'answer', a.answer)
                                   order by qu.position)
                  from answers a join questions qu on qu.id = a.question_id
                  where a.session_id = p_session)),
      stamp + interval '1 microsecond');
  end if;

  -- Only integers and a boolean (to_json: true/false, where %s alone would print t/f), so
  -- nothing to escape. The same text is stored with the Idempotency-Key and sent, so a replay
  -- repeats the answer byte for byte.
  body := format('{"success":true,"isComplete":%s,"progress":{"answered":%s,"total":%s}}',
                 to_json(completes), answered_now, cur.total);
  perform onda_keep_idempotency(p_key, body);

  if not p_limits ? cur.plan then
    raise exception 'no monthly answer limit given for plan %', cur.plan;
  end if;
  answer_limit := (p_limits->>cur.plan)::integer;
  if answer_limit is null then
    insert into plan_usage (workspace_id, month, shard, answers)
    values (cur.workspace_id, p_month, p_shard, 1)
    on conflict (workspace_id, month, shard) do update set answers = plan_usage.answers + 1;
  else
    -- Answers counted in other shards (while the workspace was on an unlimited plan this
    -- month) count against the limit too.
    with others as (
      select coalesce(sum(u.answers), 0)::integer as n from plan_usage u
      where u.workspace_id = cur.workspace_id and u.month = p_month and u.shard <> 0
    )
    insert into plan_usage (workspace_id, month, shard, answers)
    select cur.workspace_id, p_month, 0, 1 from others where others.n < answer_limit
    on conflict (workspace_id, month, shard) do update set answers = plan_usage.answers + 1
    where plan_usage.answers + (select n from others) < answer_limit;
    if not found then
      raise exception 'monthly answer limit reached'
        using errcode = 'OD002', detail = cur.plan;
    end if;
  end if;
  outcome := 'ok';
end
$$;

-- One CSV field (RFC 4180): a value a spreadsheet would run as a formula (it starts with
-- = + - @, tab or carriage return) gets a leading ' (CSV injection), and a value holding a
-- quote, comma or line break is quoted with its quotes doubled (an unquoted value has no
-- quote to double). Exports build their rows in SQL with it, so the service streams finished
-- text instead of millions of row objects. One expression without FROM and not STRICT, so
-- the planner inlines it into the export query.
create function onda_csv_field(value text) returns text
language sql immutable parallel safe as $$
  select case when value = translate(value, E'",\r\n', '') then '' else '"' end
    || case when left(value, 1) in ('=', '+', '-', '@', E'\t', E'\r') then '''' else '' end
    || replace(value, '"', '""')
    || case when value = translate(value, E'",\r\n', '') then '' else '"' end
$$;
