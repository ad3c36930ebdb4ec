-- 008_bot_protection: public questionnaires that resist bots without a third party (issue 31).
-- A questionnaire with bot_protection hands out signed form tokens (lib/forms/form_token.ts);
-- a session start must spend one, once. The signature, the age and the proof of work are checked
-- by the service; what needs the database is checked here, in the statement that starts the
-- session, so a refused start writes nothing (no session, event or Idempotency-Key record).

alter table questionnaires
  add column bot_protection boolean not null default false,
  -- The least time between handing out a form token and starting a session with it.
  add column min_fill_seconds integer not null default 3
    check (min_fill_seconds between 0 and 3600);

-- Form tokens already spent, by token id: the primary key makes two starts with one token
-- (even at the same moment) end with exactly one winner. A row is useless once its token has
-- expired (the service refuses an expired token before asking here), so starts delete expired
-- rows as they go.
create table form_tokens_used (
  id text primary key,
  expires_at timestamptz not null
);
create index form_tokens_used_expires_idx on form_tokens_used (expires_at);

drop function onda_start_session(bigint, text, text, text, timestamptz, timestamptz, jsonb);

-- A visitor's session on a published questionnaire, its session.started event and the
-- Idempotency-Key record, in one statement (one round trip, one commit), when the form token
-- (p_token: its id, questionnaire and expiry, already verified by the service; null when none
-- was sent) allows it. The outcome, and nothing written unless 'started':
--   'no_form'       no published questionnaire has the slug;
--   'token_required' the questionnaire has bot_protection and no token was sent;
--   'token_foreign' the token was handed out for another questionnaire;
--   'token_used'    the token was spent already (a concurrent start with it waits for the
--                   first one's commit, then finds its row).
-- An id already taken raises 23505 and rolls everything back, the token's row included.
create function onda_start_session(
  p_id bigint,
  p_slug text,
  p_name text,
  p_email text,
  p_loaded_at timestamptz,
  p_at timestamptz,
  p_key jsonb,
  p_token_id text,
  p_token_form uuid,
  p_token_expires timestamptz
) returns text language plpgsql as $$
declare
  f record;
begin
  select id, workspace_id, slug, question_count, bot_protection into f
  from questionnaires where slug = p_slug and state = 'published';
  if not found then
    return 'no_form';
  end if;
  if p_token_id is null then
    if f.bot_protection then
      return 'token_required';
    end if;
  else
    if p_token_form is distinct from f.id then
      return 'token_foreign';
    end if;
    insert into form_tokens_used (id, expires_at) values (p_token_id, p_token_expires)
    on conflict (id) do nothing;
    if not found then
      return 'token_used';
    end if;
    -- A few expired rows per start keep the table to the tokens still alive. Kept a while past
    -- expiry, so that an instance whose clock lags still finds a token spent; skip locked, so
    -- concurrent starts never queue on each other's deletions.
    delete from form_tokens_used where id in (
      select id from form_tokens_used where expires_at < p_at - interval '10 minutes'
      limit 8 for update skip locked);
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
  return 'started';
end
$$;
