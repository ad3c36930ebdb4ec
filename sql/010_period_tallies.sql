-- 010_period_tallies: the summary of a questionnaire (GET /api/v1/questionnaires/{id}/summary)
-- adds up tallies of all time, per day and per hour of the sessions' start: without since/until
-- the ones of all time; with them, those of the days and hours the period holds whole, and only
-- the sessions of its partial first and last hours are read one by one. Days as well as hours:
-- a period of days would otherwise add up a row per hour for every value given in it. Triggers
-- keep them in the transaction of every answer, session, completion and erasure, so they are
-- exact whenever it commits. They replace 009's tallies of all time (answer_tallies,
-- session_tallies), whose fixed 16 shards per key would multiply every hour's rows.
--
-- hours: the stretch a row counts: 0 (all time, hour 0), 1 (an hour) or 24 (a day, UTC); hour:
-- its first hour, in whole hours since 1970-01-01 UTC (onda_session_hour), the same whatever the
-- connection's time zone. value: the answer for choice, number and rating questions; '' for an
-- empty (skipped) answer; null for a non-empty answer to a text or e-mail question, which is
-- counted, never kept.
--
-- Shards: concurrent answers to one question would wait for each other's row until they commit.
-- So a writer takes whichever row of its key no other transaction holds, and adds a row only
-- when all are held: a key has one row unless answers to it really ran at the same moment.
-- Readers add up the rows of a key. The first rows of a key are the exception: a second writer
-- waits for the first to commit (once per key and hour).

drop trigger answers_tally_insert on answers;
drop trigger answers_tally_delete on answers;
drop trigger sessions_tally_insert on sessions;
drop trigger sessions_tally_delete on sessions;
drop trigger sessions_tally_completion on sessions;
drop function onda_tally_answer();
drop function onda_untally_answers();
drop function onda_tally_session();
drop function onda_untally_sessions();
drop function onda_tally_completion();
drop function onda_recount_tallies();
drop table answer_tallies;
drop table session_tallies;

create function onda_session_hour(started_at timestamptz) returns integer
language sql immutable parallel safe as $$
  select floor(extract(epoch from started_at) / 3600)::integer
$$;

-- The first hour of a session's day (UTC).
create function onda_session_day(started_at timestamptz) returns integer
language sql immutable parallel safe as $$
  select (floor(extract(epoch from started_at) / 86400) * 24)::integer
$$;

create table answer_tallies (
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  hours smallint not null check (hours in (0, 1, 24)),
  hour integer not null,
  question_id bigint not null,
  value text,
  shard smallint not null,
  n bigint not null,
  constraint answer_tallies_key unique nulls not distinct
    (questionnaire_id, hours, hour, question_id, value, shard)
);

create table session_tallies (
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  hours smallint not null check (hours in (0, 1, 24)),
  hour integer not null,
  shard smallint not null,
  started bigint not null,
  completed bigint not null,
  primary key (questionnaire_id, hours, hour, shard)
);

-- Adds p_n answers of a value to one stretch when its rows are all held or none exists yet: to
-- a free row if one was let go meanwhile, else to a new one. If another writer made the same
-- new shard meanwhile, the insert adds to it: each call counts once.
create function onda_tally_answer_in(
  p_questionnaire uuid, p_hours smallint, p_hour integer, p_question bigint, p_value text,
  p_n bigint
) returns void language plpgsql as $$
begin
  update answer_tallies t set n = t.n + p_n
  where t.ctid = (select ctid from answer_tallies
                  where questionnaire_id = p_questionnaire and hours = p_hours
                    and hour = p_hour and question_id = p_question
                    and value is not distinct from p_value
                  limit 1 for update skip locked);
  if not found then
    insert into answer_tallies as t (questionnaire_id, hours, hour, question_id, value, shard, n)
    select p_questionnaire, p_hours, p_hour, p_question, p_value, count(*), p_n
    from answer_tallies
    where questionnaire_id = p_questionnaire and hours = p_hours and hour = p_hour
      and question_id = p_question and value is not distinct from p_value
    on conflict (questionnaire_id, hours, hour, question_id, value, shard)
    do update set n = t.n + excluded.n;
  end if;
end
$$;

create function onda_tally_session_in(
  p_questionnaire uuid, p_hours smallint, p_hour integer, p_started bigint, p_completed bigint
) returns void language plpgsql as $$
begin
  update session_tallies t
  set started = t.started + p_started, completed = t.completed + p_completed
  where t.ctid = (select ctid from session_tallies
                  where questionnaire_id = p_questionnaire and hours = p_hours
                    and hour = p_hour
                  limit 1 for update skip locked);
  if not found then
    insert into session_tallies as t (questionnaire_id, hours, hour, shard, started, completed)
    select p_questionnaire, p_hours, p_hour, count(*), p_started, p_completed
    from session_tallies
    where questionnaire_id = p_questionnaire and hours = p_hours and hour = p_hour
    on conflict (questionnaire_id, hours, hour, shard)
    do update set started = t.started + excluded.started,
                  completed = t.completed + excluded.completed;
  end if;
end
$$;

-- One answer, counted in its three stretches (all time, its session's hour and day) by one
-- statement that takes a free row of each; a stretch with none goes through
-- onda_tally_answer_in. Two forms, as "is not distinct from" cannot use the index.
create function onda_tally_answer() returns trigger language plpgsql as $$
declare
  v_value text;
  v_hour integer;
  v_day integer;
  v_done smallint[];
begin
  select case when new.answer <> '' and q.type in ('text', 'email') then null
              else new.answer end,
         onda_session_hour(s.started_at), onda_session_day(s.started_at)
  into v_value, v_hour, v_day
  from questions q, sessions s
  where q.id = new.question_id and s.id = new.session_id;
  if v_value is null then
    with counted as (
      update answer_tallies t set n = t.n + 1
      where t.ctid in (
        (select ctid from answer_tallies
         where questionnaire_id = new.questionnaire_id and hours = 0 and hour = 0
           and question_id = new.question_id and value is null
         limit 1 for update skip locked),
        (select ctid from answer_tallies
         where questionnaire_id = new.questionnaire_id and hours = 1 and hour = v_hour
           and question_id = new.question_id and value is null
         limit 1 for update skip locked),
        (select ctid from answer_tallies
         where questionnaire_id = new.questionnaire_id and hours = 24 and hour = v_day
           and question_id = new.question_id and value is null
         limit 1 for update skip locked))
      returning t.hours)
    select coalesce(array_agg(hours), '{}') into v_done from counted;
  else
    with counted as (
      update answer_tallies t set n = t.n + 1
      where t.ctid in (
        (select ctid from answer_tallies
         where questionnaire_id = new.questionnaire_id and hours = 0 and hour = 0
           and question_id = new.question_id and value = v_value
         limit 1 for update skip locked),
        (select ctid from answer_tallies
         where questionnaire_id = new.questionnaire_id and hours = 1 and hour = v_hour
           and question_id = new.question_id and value = v_value
         limit 1 for update skip locked),
        (select ctid from answer_tallies
         where questionnaire_id = new.questionnaire_id and hours = 24 and hour = v_day
           and question_id = new.question_id and value = v_value
         limit 1 for update skip locked))
      returning t.hours)
    select coalesce(array_agg(hours), '{}') into v_done from counted;
  end if;
  if cardinality(v_done) < 3 then
    perform onda_tally_answer_in(new.questionnaire_id, p.hours, p.hour, new.question_id,
                                 v_value, 1)
    from (values (0::smallint, 0), (1::smallint, v_hour), (24::smallint, v_day)) as p(hours, hour)
    where not p.hours = any(v_done);
  end if;
  return null;
end
$$;
create trigger answers_tally_insert after insert on answers
  for each row execute function onda_tally_answer();

-- A session started, or its completion set (or cleared), in its three stretches.
create function onda_tally_session_change(
  p_questionnaire uuid, p_started_at timestamptz, p_started bigint, p_completed bigint
) returns void language plpgsql as $$
declare
  v_hour integer := onda_session_hour(p_started_at);
  v_day integer := onda_session_day(p_started_at);
  v_done smallint[];
begin
  with counted as (
    update session_tallies t
    set started = t.started + p_started, completed = t.completed + p_completed
    where t.ctid in (
      (select ctid from session_tallies
       where questionnaire_id = p_questionnaire and hours = 0 and hour = 0
       limit 1 for update skip locked),
      (select ctid from session_tallies
       where questionnaire_id = p_questionnaire and hours = 1 and hour = v_hour
       limit 1 for update skip locked),
      (select ctid from session_tallies
       where questionnaire_id = p_questionnaire and hours = 24 and hour = v_day
       limit 1 for update skip locked))
    returning t.hours)
  select coalesce(array_agg(hours), '{}') into v_done from counted;
  if cardinality(v_done) < 3 then
    perform onda_tally_session_in(p_questionnaire, p.hours, p.hour, p_started, p_completed)
    from (values (0::smallint, 0), (1::smallint, v_hour), (24::smallint, v_day)) as p(hours, hour)
    where not p.hours = any(v_done);
  end if;
end
$$;

create function onda_tally_session() returns trigger language plpgsql as $$
begin
  perform onda_tally_session_change(new.questionnaire_id, new.started_at, 1,
                                    case when new.completed_at is null then 0 else 1 end);
  return null;
end
$$;
create trigger sessions_tally_insert after insert on sessions
  for each row execute function onda_tally_session();

-- A completion (the answer that finishes a session sets completed_at): a row trigger whose
-- condition is checked without running it, so the other answers' updates cost nothing here.
create function onda_tally_completion() returns trigger language plpgsql as $$
begin
  perform onda_tally_session_change(new.questionnaire_id, new.started_at, 0,
                                    case when new.completed_at is null then -1 else 1 end);
  return null;
end
$$;
create trigger sessions_tally_completion after update on sessions
  for each row when ((old.completed_at is null) <> (new.completed_at is null))
  execute function onda_tally_completion();

-- A session deleted (an erasure, or its questionnaire's or workspace's deletion): its answers
-- and itself counted off their three stretches. Before the delete, as the cascade takes the
-- answers first and an answer's own trigger could no longer read its session's start. Only
-- rows that exist are changed (the lowest shard of each key): within a cascade from the
-- questionnaire, they are going too.
create function onda_untally_session() returns trigger language plpgsql as $$
begin
  update answer_tallies t set n = t.n - d.n
  from (
    select p.hours, p.hour, a.question_id,
           case when a.answer <> '' and q.type in ('text', 'email') then null
                else a.answer end as value,
           count(*) as n
    from answers a
    join questions q on q.id = a.question_id
    cross join (values (0::smallint, 0), (1::smallint, onda_session_hour(old.started_at)),
                       (24::smallint, onda_session_day(old.started_at))) as p(hours, hour)
    where a.session_id = old.id
    group by 1, 2, 3, 4
  ) d
  where t.questionnaire_id = old.questionnaire_id and t.hours = d.hours and t.hour = d.hour
    and t.question_id = d.question_id and t.value is not distinct from d.value
    and t.shard = (select min(m.shard) from answer_tallies m
                   where m.questionnaire_id = old.questionnaire_id and m.hours = d.hours
                     and m.hour = d.hour and m.question_id = d.question_id
                     and m.value is not distinct from d.value);
  update session_tallies t
  set started = t.started - 1,
      completed = t.completed - case when old.completed_at is null then 0 else 1 end
  from (values (0::smallint, 0), (1::smallint, onda_session_hour(old.started_at)),
               (24::smallint, onda_session_day(old.started_at))) as p(hours, hour)
  where t.questionnaire_id = old.questionnaire_id and t.hours = p.hours and t.hour = p.hour
    and t.shard = (select min(m.shard) from session_tallies m
                   where m.questionnaire_id = old.questionnaire_id and m.hours = p.hours
                     and m.hour = p.hour);
  return old;
end
$$;
create trigger sessions_untally before delete on sessions
  for each row execute function onda_untally_session();

-- Every tally counted again from the answers and sessions, one row per key: what is there when
-- this migration runs, and after a bulk load with the triggers disabled (as the bench does: row
-- triggers in one transaction cost far more than one count).
create function onda_recount_tallies() returns void language sql as $$
  delete from answer_tallies;
  insert into answer_tallies (questionnaire_id, hours, hour, question_id, value, shard, n)
  select a.questionnaire_id, p.hours, p.hour, a.question_id,
         case when a.answer <> '' and q.type in ('text', 'email') then null else a.answer end,
         0, count(*)
  from answers a
  join sessions s on s.id = a.session_id
  join questions q on q.id = a.question_id
  cross join lateral (values (0::smallint, 0), (1::smallint, onda_session_hour(s.started_at)),
                             (24::smallint, onda_session_day(s.started_at))) as p(hours, hour)
  group by 1, 2, 3, 4, 5
  -- In the order live writes leave them: a stretch's rows side by side.
  order by 1, 2, 3, 4, 5;
  delete from session_tallies;
  insert into session_tallies (questionnaire_id, hours, hour, shard, started, completed)
  select s.questionnaire_id, p.hours, p.hour, 0, count(*), count(s.completed_at)
  from sessions s
  cross join lateral (values (0::smallint, 0), (1::smallint, onda_session_hour(s.started_at)),
                             (24::smallint, onda_session_day(s.started_at))) as p(hours, hour)
  group by 1, 2, 3;
$$;

select onda_recount_tallies();
