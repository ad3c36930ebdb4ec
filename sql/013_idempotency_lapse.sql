-- When an Idempotency-Key record stops holding its key, defined once (issue 33): every path
-- that stores or reads a record asks onda_idempotency_lapsed (lib/http/idempotency_record.ts
-- and onda_keep_idempotency below), so the routes that store their record in their own
-- statement and the others cannot disagree. `p_now` is the time of the request that asks.

-- Expired: a key is remembered for 24 hours from its first request.
create function onda_idempotency_expired(p_created_at timestamptz, p_now timestamptz)
returns boolean language sql stable as $$
  select p_created_at < p_now - interval '24 hours'
$$;

-- Lapsed: expired, or abandoned: a claim (status null) still unfinished after a minute belongs
-- to a crashed instance, and a new request may take the key over.
create function onda_idempotency_lapsed(
  p_created_at timestamptz,
  p_status integer,
  p_now timestamptz
) returns boolean language sql stable as $$
  select onda_idempotency_expired(p_created_at, p_now)
      or (p_status is null and p_created_at < p_now - interval '1 minute')
$$;

-- Inserts the Idempotency-Key record p_key (JSON, see lib/http/idempotency_record.ts), taking
-- over a lapsed one; false when a valid record of another request holds the key. p_body, when
-- given, is the stored answer's body: the caller's statement built it (the record then carries
-- none), so the record and the response are the same bytes. A record with status null is a
-- claim: its request is still running.
create function onda_insert_idempotency(p_key jsonb, p_body text default null)
returns boolean language plpgsql as $$
begin
  insert into idempotency_keys
    (principal, route, key, request_hash, created_at, status, headers, body)
  values (p_key->>'principal', p_key->>'route', p_key->>'key', p_key->>'request_hash',
          (p_key->>'created_at')::timestamptz, (p_key->>'status')::integer, p_key->'headers',
          coalesce(p_body, p_key->>'body'))
  on conflict (principal, route, key) do update
  set request_hash = excluded.request_hash, created_at = excluded.created_at,
      status = excluded.status, headers = excluded.headers, body = excluded.body
  where onda_idempotency_lapsed(idempotency_keys.created_at, idempotency_keys.status,
                                excluded.created_at);
  return found;
end
$$;

-- As in 003, through onda_insert_idempotency: inserts the finished record p_key in the
-- caller's statement; a valid record of another request raises OD001, which rolls back every
-- write of the statement. Null: nothing to keep.
create or replace function onda_keep_idempotency(p_key jsonb, p_body text default null)
returns void language plpgsql as $$
begin
  if p_key is null then
    return;
  end if;
  if not onda_insert_idempotency(p_key, p_body) then
    raise exception 'Idempotency-Key held by another request' using errcode = 'OD001';
  end if;
end
$$;
