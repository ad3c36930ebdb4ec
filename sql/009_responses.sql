-- 009_responses: reading and erasing what respondents gave (routes/forms/sessions.ts,
-- routes/forms/erasures.ts): a respondent's sessions found by address, a session's events found
-- by its id, the record of each erasure, the erasure itself in one function, and the running
-- tallies that the summary of a questionnaire reads instead of every answer.

-- A respondent's sessions in a workspace, by address compared case-insensitively.
create index sessions_respondent_idx on sessions (workspace_id, lower(email));

-- A session's events in the outbox (and so in the feed and the delivery log), for erasure.
create index outbox_events_session_idx on outbox_events (workspace_id, (data->>'session_id'))
  where data ? 'session_id';

-- Who erased what, when, and how many sessions it removed. Never the address itself: for an
-- erasure by address, a keyed digest of it (HMAC under a key derived from the service secret,
-- bound to the workspace), so a later request can be matched to it and a leaked table cannot be
-- searched with a list of addresses.
create table erasures (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null references workspaces(id) on delete cascade,
  requested_by uuid references users(id) on delete set null,
  kind text not null check (kind in ('respondent', 'session')),
  email_digest text,
  sessions integer not null,
  created_at timestamptz not null
);
create index erasures_workspace_idx on erasures (workspace_id, created_at desc, id desc);

-- Erases the sessions p_sessions of the workspace p_workspace with everything written from
-- them: their answers (by cascade), their events (so the feed stops serving them and no
-- webhook sends them later) and the deliveries of those events (their stored bodies hold the
-- same data). Answers how many sessions it erased. The caller's transaction holds it all, so
-- it commits whole or not at all.
create function onda_erase_sessions(p_workspace uuid, p_sessions bigint[])
returns integer language plpgsql as $$
declare
  v_erased text[];
  v_slugs text[];
  v_session text;
  v_events uuid[] := '{}';
begin
  -- The webhook fan-out's turn (lib/webhooks/feed.ts), held to the commit: a fan-out under way
  -- commits its deliveries before the statements below read them, and a later one finds the
  -- events already gone, so no delivery of an erased event is written after this one.
  perform 1 from event_positions for update;
  with gone as (
    delete from sessions s using questionnaires q
    where s.workspace_id = p_workspace and s.id = any(p_sessions) and q.id = s.questionnaire_id
    returning s.id, q.slug
  )
  select coalesce(array_agg(id::text), '{}'), coalesce(array_agg(slug), '{}')
    into v_erased, v_slugs from gone;
  if cardinality(v_erased) = 0 then
    return 0;
  end if;
  -- One statement per session: each finds its events by the index whatever the plan, where one
  -- statement for all of them may be planned (once, for any list) to read every event.
  foreach v_session in array v_erased loop
    with gone as (
      delete from outbox_events
      where workspace_id = p_workspace and data ? 'session_id'
        and (data->>'session_id') = v_session
      returning id
    )
    select v_events || coalesce(array_agg(id), '{}') into v_events from gone;
  end loop;
  delete from webhook_deliveries
  where webhook_id = any(array(select id from webhooks where workspace_id = p_workspace))
    and event_id = any(v_events);
  -- The visitors' Idempotency-Key records of the start and the answers: the start's keeps an
  -- unkeyed digest of the name and address, and a retry would replay an erased session. Their
  -- routes are the concrete paths (lib/http/idempotency.ts routeKey), the start's answer its id.
  delete from idempotency_keys k
  using unnest(v_erased, v_slugs) as e(id, slug)
  where k.principal = 'public'
    and ((k.route = 'POST /api/v1/public/q/' || e.slug || '/sessions'
          and k.body = '{"sessionId":' || e.id || '}')
      or k.route = 'POST /api/v1/public/q/' || e.slug || '/sessions/' || e.id || '/answers');
  return cardinality(v_erased);
end
$$;

-- The summary of a questionnaire (GET /api/v1/questionnaires/{id}/summary) without since/until
-- adds up these tallies instead of reading every answer. They are kept by triggers on answers
-- and sessions in the transaction of every change, so they are exact whenever it commits: an
-- answer, a session, a completion, an erasure. Each is split into 16 shards by session id, so
-- that concurrent answers to one question rarely wait for each other's row (as plan_usage).
--
-- value: the answer for choice, number and rating questions; '' for an empty (skipped) answer;
-- null for a non-empty answer to a text or e-mail question, which is counted, never kept.
create table answer_tallies (
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  question_id bigint not null,
  shard smallint not null,
  value text,
  n bigint not null,
  constraint answer_tallies_key unique nulls not distinct
    (questionnaire_id, question_id, shard, value)
);

create table session_tallies (
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  shard smallint not null,
  started bigint not null,
  completed bigint not null,
  primary key (questionnaire_id, shard)
);

-- One answer: counted by a row trigger, which costs the answer path much less than a statement
-- trigger with a transition table. Its question's type decides whether the value is kept.
create function onda_tally_answer() returns trigger language plpgsql as $$
begin
  insert into answer_tallies as t (questionnaire_id, question_id, shard, value, n)
  select new.questionnaire_id, new.question_id, (new.session_id % 16)::smallint,
         case when new.answer <> '' and q.type in ('text', 'email') then null
              else new.answer end,
         1
  from questions q where q.id = new.question_id
  on conflict (questionnaire_id, question_id, shard, value) do update set n = t.n + 1;
  return null;
end
$$;
create trigger answers_tally_insert after insert on answers
  for each row execute function onda_tally_answer();

-- Answers deleted by one statement (an erasure's cascade), counted off in one statement.
create function onda_untally_answers() returns trigger language plpgsql as $$
begin
  update answer_tallies t set n = t.n - d.n
  from (
    select a.questionnaire_id, a.question_id, (a.session_id % 16)::smallint as shard,
           case when a.answer <> '' and q.type in ('text', 'email') then null
                else a.answer end as value,
           count(*) as n
    from gone_answers a join questions q on q.id = a.question_id
    group by 1, 2, 3, 4
  ) d
  where t.questionnaire_id = d.questionnaire_id and t.question_id = d.question_id
    and t.shard = d.shard and t.value is not distinct from d.value;
  return null;
end
$$;
create trigger answers_tally_delete after delete on answers
  referencing old table as gone_answers
  for each statement execute function onda_untally_answers();

create function onda_tally_session() returns trigger language plpgsql as $$
begin
  insert into session_tallies as t (questionnaire_id, shard, started, completed)
  values (new.questionnaire_id, (new.id % 16)::smallint, 1,
          case when new.completed_at is null then 0 else 1 end)
  on conflict (questionnaire_id, shard)
  do update set started = t.started + 1, completed = t.completed + excluded.completed;
  return null;
end
$$;
create trigger sessions_tally_insert after insert on sessions
  for each row execute function onda_tally_session();

create function onda_untally_sessions() returns trigger language plpgsql as $$
begin
  update session_tallies t
  set started = t.started - d.started, completed = t.completed - d.completed
  from (
    select questionnaire_id, (id % 16)::smallint as shard, count(*) as started,
           count(completed_at) as completed
    from gone_sessions group by 1, 2
  ) d
  where t.questionnaire_id = d.questionnaire_id and t.shard = d.shard;
  return null;
end
$$;
create trigger sessions_tally_delete after delete on sessions
  referencing old table as gone_sessions
  for each statement execute function onda_untally_sessions();

-- A completion (the answer that finishes a session sets completed_at): a row trigger whose
-- condition is checked without running it, so the other answers' updates cost nothing here.
create function onda_tally_completion() returns trigger language plpgsql as $$
begin
  update session_tallies
  set completed = completed + case when new.completed_at is null then -1 else 1 end
  where questionnaire_id = new.questionnaire_id and shard = (new.id % 16)::smallint;
  return null;
end
$$;
create trigger sessions_tally_completion after update on sessions
  for each row when ((old.completed_at is null) <> (new.completed_at is null))
  execute function onda_tally_completion();

-- Counts every tally again from the answers and sessions (what is there when this migration
-- runs; a bulk load with the triggers disabled calls it after, as the bench does: row triggers
-- update each tally row once per answer, and in one transaction that costs far more than one
-- count).
create function onda_recount_tallies() returns void language sql as $$
  delete from answer_tallies;
  insert into answer_tallies (questionnaire_id, question_id, shard, value, n)
  select a.questionnaire_id, a.question_id, (a.session_id % 16)::smallint,
         case when a.answer <> '' and q.type in ('text', 'email') then null else a.answer end,
         count(*)
  from answers a join questions q on q.id = a.question_id
  group by 1, 2, 3, 4;
  delete from session_tallies;
  insert into session_tallies (questionnaire_id, shard, started, completed)
  select questionnaire_id, (id % 16)::smallint, count(*), count(completed_at)
  from sessions group by 1, 2;
$$;
select onda_recount_tallies();
