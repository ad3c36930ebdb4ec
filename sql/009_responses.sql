-- 009_responses: reading and erasing what respondents gave (routes/forms/sessions.ts,
-- routes/forms/erasures.ts): a respondent's sessions found by address, a session's events found
-- by its id, the record of each erasure, and the erasure itself in one function.

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
  v_events uuid[];
begin
  -- The webhook fan-out's turn (lib/webhooks/feed.ts), held to the commit: a fan-out under way
  -- commits its deliveries before the statements below read them, and a later one finds the
  -- events already gone, so no delivery of an erased event is written after this one.
  perform 1 from event_positions for update;
  with gone as (
    delete from sessions where workspace_id = p_workspace and id = any(p_sessions)
    returning id
  )
  select coalesce(array_agg(id::text), '{}') into v_erased from gone;
  if cardinality(v_erased) = 0 then
    return 0;
  end if;
  with gone as (
    delete from outbox_events
    where workspace_id = p_workspace and data ? 'session_id'
      and (data->>'session_id') = any(v_erased)
    returning id
  )
  select coalesce(array_agg(id), '{}') into v_events from gone;
  delete from webhook_deliveries d using webhooks h
  where h.workspace_id = p_workspace and d.webhook_id = h.id and d.event_id = any(v_events);
  return cardinality(v_erased);
end
$$;
