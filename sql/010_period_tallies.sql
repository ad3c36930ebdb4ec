-- 010_period_tallies: the summary of a period (GET /api/v1/questionnaires/{id}/summary with
-- since/until) adds up tallies per day and per hour of the sessions' start for the days and
-- hours the period holds whole, and reads only the sessions of its partial first and last
-- hours. The triggers of 009_responses.sql keep these tallies too, in the same transactions, so
-- they are exact whenever a change commits. Days as well as hours: a period of days would
-- otherwise add up a row per hour for every value given in it.
--
-- hours: the stretch a row counts, 1 (an hour) or 24 (a day, UTC); hour: its first hour, in
-- whole hours since 1970-01-01 UTC (onda_session_hour), the same whatever the connection's time
-- zone. value: as in answer_tallies ('' for a skipped answer, null for a non-empty answer to a
-- text or e-mail question).
--
-- Shards: concurrent answers to one question would wait for each other's row until they commit.
-- Instead of a fixed number of shards per key (every hour of every value would then hold that
-- many rows, and a period's summary read them all), a writer takes whichever row of its key no
-- other transaction holds, and adds a row only when all are held. A key has one row unless
-- answers to it really ran at the same moment. Readers add up the rows of a key.

create function onda_session_hour(started_at timestamptz) returns integer
language sql immutable parallel safe as $$
  select floor(extract(epoch from started_at) / 3600)::integer
$$;

create table answer_period_tallies (
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  hours smallint not null check (hours in (1, 24)),
  hour integer not null,
  question_id bigint not null,
  value text,
  shard smallint not null,
  n bigint not null,
  constraint answer_period_tallies_key unique nulls not distinct
    (questionnaire_id, hours, hour, question_id, value, shard)
);

create table session_period_tallies (
  questionnaire_id uuid not null references questionnaires(id) on delete cascade,
  hours smallint not null check (hours in (1, 24)),
  hour integer not null,
  shard smallint not null,
  started bigint not null,
  completed bigint not null,
  primary key (questionnaire_id, hours, hour, shard)
);

-- Adds p_n answers of a value to the stretch of p_hours from p_hour: to a row no other
-- transaction holds, else to a new one. The update adds to exactly one row or to none, and then
-- the insert adds them (or, if another writer made that shard meanwhile, adds to it), so each
-- call counts once.
create function onda_period_tally_answer(
  p_questionnaire uuid, p_hours smallint, p_hour integer, p_question bigint, p_value text,
  p_n bigint
) returns void language plpgsql as $$
begin
  -- Two forms, as "is not distinct from" cannot use the index.
  if p_value is null then
    update answer_period_tallies t set n = t.n + p_n
    where t.ctid = (select ctid from answer_period_tallies
                    where questionnaire_id = p_questionnaire and hours = p_hours
                      and hour = p_hour and question_id = p_question and value is null
                    limit 1 for update skip locked);
  else
    update answer_period_tallies t set n = t.n + p_n
    where t.ctid = (select ctid from answer_period_tallies
                    where questionnaire_id = p_questionnaire and hours = p_hours
                      and hour = p_hour and question_id = p_question and value = p_value
                    limit 1 for update skip locked);
  end if;
  if not found then
    insert into answer_period_tallies as t
      (questionnaire_id, hours, hour, question_id, value, shard, n)
    select p_questionnaire, p_hours, p_hour, p_question, p_value, count(*), p_n
    from answer_period_tallies
    where questionnaire_id = p_questionnaire and hours = p_hours and hour = p_hour
      and question_id = p_question and value is not distinct from p_value
    on conflict (questionnaire_id, hours, hour, question_id, value, shard)
    do update set n = t.n + excluded.n;
  end if;
end
$$;

-- The same for the sessions started and completed.
create function onda_period_tally_session(
  p_questionnaire uuid, p_hours smallint, p_hour integer, p_started bigint, p_completed bigint
) returns void language plpgsql as $$
begin
  update session_period_tallies t
  set started = t.started + p_started, completed = t.completed + p_completed
  where t.ctid = (select ctid from session_period_tallies
                  where questionnaire_id = p_questionnaire and hours = p_hours
                    and hour = p_hour
                  limit 1 for update skip locked);
  if not found then
    insert into session_period_tallies as t
      (questionnaire_id, hours, hour, shard, started, completed)
    select p_questionnaire, p_hours, p_hour, count(*), p_started, p_completed
    from session_period_tallies
    where questionnaire_id = p_questionnaire and hours = p_hours and hour = p_hour
    on conflict (questionnaire_id, hours, hour, shard)
    do update set started = t.started + excluded.started,
                  completed = t.completed + excluded.completed;
  end if;
end
$$;

-- A session's hour and day (its first hour), by its start.
create function onda_session_day(started_at timestamptz) returns integer
language sql immutable parallel safe as $$
  select (floor(extract(epoch from started_at) / 86400) * 24)::integer
$$;

-- One answer, in every tally: of all time (009), of its session's hour and of its day.
create or replace function onda_tally_answer() returns trigger language plpgsql as $$
declare
  v_value text;
  v_started timestamptz;
begin
  select case when new.answer <> '' and q.type in ('text', 'email') then null
              else new.answer end,
         s.started_at
  into v_value, v_started
  from questions q, sessions s
  where q.id = new.question_id and s.id = new.session_id;
  insert into answer_tallies as t (questionnaire_id, question_id, shard, value, n)
  values (new.questionnaire_id, new.question_id, (new.session_id % 16)::smallint, v_value, 1)
  on conflict (questionnaire_id, question_id, shard, value) do update set n = t.n + 1;
  perform onda_period_tally_answer(new.questionnaire_id, 1::smallint,
                                   onda_session_hour(v_started), new.question_id, v_value, 1);
  perform onda_period_tally_answer(new.questionnaire_id, 24::smallint,
                                   onda_session_day(v_started), new.question_id, v_value, 1);
  return null;
end
$$;

create or replace function onda_tally_session() returns trigger language plpgsql as $$
declare
  v_completed bigint := case when new.completed_at is null then 0 else 1 end;
begin
  insert into session_tallies as t (questionnaire_id, shard, started, completed)
  values (new.questionnaire_id, (new.id % 16)::smallint, 1, v_completed)
  on conflict (questionnaire_id, shard)
  do update set started = t.started + 1, completed = t.completed + excluded.completed;
  perform onda_period_tally_session(new.questionnaire_id, 1::smallint,
                                    onda_session_hour(new.started_at), 1, v_completed);
  perform onda_period_tally_session(new.questionnaire_id, 24::smallint,
                                    onda_session_day(new.started_at), 1, v_completed);
  return null;
end
$$;

create or replace function onda_tally_completion() returns trigger language plpgsql as $$
declare
  v_delta bigint := case when new.completed_at is null then -1 else 1 end;
begin
  update session_tallies
  set completed = completed + v_delta
  where questionnaire_id = new.questionnaire_id and shard = (new.id % 16)::smallint;
  perform onda_period_tally_session(new.questionnaire_id, 1::smallint,
                                    onda_session_hour(new.started_at), 0, v_delta);
  perform onda_period_tally_session(new.questionnaire_id, 24::smallint,
                                    onda_session_day(new.started_at), 0, v_delta);
  return null;
end
$$;

-- A session deleted (an erasure, or its questionnaire's or workspace's deletion): its answers
-- and itself counted off their hour and day. Before the delete, as the cascade takes the
-- answers first and the answers' own trigger can no longer read their session's start. Only
-- rows that exist are changed: within a cascade from the questionnaire, they are going too.
create function onda_untally_session_period() returns trigger language plpgsql as $$
begin
  update answer_period_tallies t set n = t.n - d.n
  from (
    select p.hours, p.hour, a.question_id,
           case when a.answer <> '' and q.type in ('text', 'email') then null
                else a.answer end as value,
           count(*) as n
    from answers a
    join questions q on q.id = a.question_id
    cross join (values (1::smallint, onda_session_hour(old.started_at)),
                       (24::smallint, onda_session_day(old.started_at))) as p(hours, hour)
    where a.session_id = old.id
    group by 1, 2, 3, 4
  ) d
  where t.questionnaire_id = old.questionnaire_id and t.hours = d.hours and t.hour = d.hour
    and t.question_id = d.question_id and t.value is not distinct from d.value
    and t.shard = (select min(m.shard) from answer_period_tallies m
                   where m.questionnaire_id = old.questionnaire_id and m.hours = d.hours
                     and m.hour = d.hour and m.question_id = d.question_id
                     and m.value is not distinct from d.value);
  update session_period_tallies t
  set started = t.started - 1,
      completed = t.completed - case when old.completed_at is null then 0 else 1 end
  from (values (1::smallint, onda_session_hour(old.started_at)),
               (24::smallint, onda_session_day(old.started_at))) as p(hours, hour)
  where t.questionnaire_id = old.questionnaire_id and t.hours = p.hours and t.hour = p.hour
    and t.shard = (select min(m.shard) from session_period_tallies m
                   where m.questionnaire_id = old.questionnaire_id and m.hours = p.hours
                     and m.hour = p.hour);
  return old;
end
$$;
create trigger sessions_period_untally before delete on sessions
  for each row execute function onda_untally_session_period();

-- The period tallies counted from the answers and sessions, one row per key.
create function onda_count_period_tallies() returns void language sql as $$
  insert into answer_period_tallies (questionnaire_id, hours, hour, question_id, value, shard, n)
  select a.questionnaire_id, p.hours, p.hour, a.question_id,
         case when a.answer <> '' and q.type in ('text', 'email') then null else a.answer end,
         0, count(*)
  from answers a
  join sessions s on s.id = a.session_id
  join questions q on q.id = a.question_id
  cross join lateral (values (1::smallint, onda_session_hour(s.started_at)),
                             (24::smallint, onda_session_day(s.started_at))) as p(hours, hour)
  group by 1, 2, 3, 4, 5
  -- In the order live writes would leave them: a period's rows side by side.
  order by 1, 2, 3, 4, 5;
  insert into session_period_tallies (questionnaire_id, hours, hour, shard, started, completed)
  select s.questionnaire_id, p.hours, p.hour, 0, count(*), count(s.completed_at)
  from sessions s
  cross join lateral (values (1::smallint, onda_session_hour(s.started_at)),
                             (24::smallint, onda_session_day(s.started_at))) as p(hours, hour)
  group by 1, 2, 3;
$$;

-- Every tally counted again (the all-time ones as 009's did, and the period ones): for a bulk
-- load with the triggers disabled, as the bench does.
create or replace function onda_recount_tallies() returns void language sql as $$
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
  delete from answer_period_tallies;
  delete from session_period_tallies;
  select onda_count_period_tallies();
$$;

select onda_count_period_tallies();
