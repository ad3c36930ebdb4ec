-- Service-wide state shared by every instance on one database: the maintenance window, generated
-- secrets, and the rate limits counted for the whole deployment.

-- Single-row table: the maintenance window switched by `admin maintenance on|off`.
create table maintenance_window (
  singleton boolean primary key default true check (singleton),
  started_at timestamptz not null default now(),
  until timestamptz
);

-- Generated secrets that every instance must agree on (e.g. the cursor HMAC key when
-- SECRET_KEY is unset). Created once; never rotated silently.
create table service_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- Rate limits counted for the whole deployment (RATE_LIMIT_SCOPE=deployment on PostgreSQL):
-- every instance counts a key's requests here, so the limit holds whichever instance answers.
-- Unlogged: nothing here is worth a WAL record or a replica's copy, and a crash that empties
-- the tables only forgets the last minute's counts. Counting a request changes rows in place,
-- without new index entries (fillfactor leaves room for that), so the tables stay the same size
-- under load without waiting for a vacuum.

-- One row per limited key (an ads key, a user, a client address): its accepted requests still
-- counted are `inside` slots of its ring of `slots`, from `head` on, oldest first; expires_ms is
-- when the newest leaves the window (ms since 1970), after which the key is of no use.
create unlogged table rate_limit_keys (
  key text primary key,
  head integer not null,
  inside integer not null,
  slots integer not null,
  expires_ms bigint not null
) with (fillfactor = 50);

-- The time (ms since 1970) of the accepted request in each slot of a key's ring.
create unlogged table rate_limit_slots (
  key text not null,
  slot integer not null,
  at_ms bigint not null,
  primary key (key, slot)
) with (fillfactor = 50);

-- When keys of no use were last removed (ms since 1970): one call in ten seconds does it.
create unlogged table rate_limit_sweeps (
  singleton boolean primary key default true check (singleton),
  at_ms bigint not null
);
insert into rate_limit_sweeps (at_ms) values (0);

-- Counts one request of p_key at p_now (ms, the instance's clock) against p_limit per p_window
-- ms, unless it is refused: a request is refused when the p_limit-th most recent accepted one
-- is less than p_window old, so at most p_limit are accepted in any window. The key's row is
-- locked first, so concurrent calls for one key (from any instance) take turns and each sees
-- the others' requests. The ring holds as many slots as the key has had requests inside one
-- window (at most p_limit), so a call costs the same whatever the limit.
-- reset_ms: when the oldest counted request leaves the window. Null key: nothing done.
create function onda_rate_hit(
  p_key text,
  p_now bigint,
  p_limit integer,
  p_window integer,
  out allowed boolean,
  out remaining integer,
  out reset_ms bigint
) strict language plpgsql as $$
declare
  k record;
  v_at bigint;
  v_oldest bigint;
  v_tail integer;
  v_new boolean := false;
begin
  loop
    -- The key locked, with the time of its oldest counted request.
    select r.head, r.inside, r.slots, r.expires_ms, s.at_ms into k
    from rate_limit_keys r
    left join rate_limit_slots s on s.key = r.key and s.slot = r.head and r.inside > 0
    where r.key = p_key for update of r;
    exit when found;
    -- A new key (or one removed since the select): insert it, then lock it.
    insert into rate_limit_keys (key, head, inside, slots, expires_ms)
    values (p_key, 0, 0, 0, p_now) on conflict (key) do nothing;
    v_new := true;
  end loop;
  -- The oldest counted requests that have left the window stop counting, in the order they
  -- were accepted; each is passed once, so this reads about one slot per call.
  v_at := k.at_ms;
  while k.inside > 0 loop
    if v_at > p_now - p_window then
      v_oldest := v_at;
      exit;
    end if;
    k.head := (k.head + 1) % k.slots;
    k.inside := k.inside - 1;
    if k.inside > 0 then
      select at_ms into v_at from rate_limit_slots where key = p_key and slot = k.head;
    end if;
  end loop;
  allowed := k.inside < p_limit;
  if allowed then
    if k.inside = k.slots then
      -- Full and under the limit: the ring doubles (up to the limit), renumbered from its head
      -- first so that its order stays that of the slots. Rare: a key's busiest window so far.
      if k.head <> 0 then
        update rate_limit_slots set slot = -1 - (slot - k.head + k.slots) % k.slots
        where key = p_key;
        update rate_limit_slots set slot = -1 - slot where key = p_key;
        k.head := 0;
      end if;
      v_tail := k.slots;
      k.slots := least(p_limit, greatest(1, 2 * k.slots));
    else
      v_tail := (k.head + k.inside) % k.slots;
    end if;
    update rate_limit_slots set at_ms = p_now where key = p_key and slot = v_tail;
    if not found then
      insert into rate_limit_slots (key, slot, at_ms) values (p_key, v_tail, p_now);
    end if;
    k.inside := k.inside + 1;
    k.expires_ms := greatest(k.expires_ms, p_now + p_window);
  end if;
  update rate_limit_keys
  set head = k.head, inside = k.inside, slots = k.slots, expires_ms = k.expires_ms
  where key = p_key;
  remaining := greatest(0, p_limit - k.inside);
  reset_ms := coalesce(v_oldest, p_now) + p_window;
  -- Bounded under a flood of distinct keys (addresses): at most every ten seconds a call that
  -- added a key removes the keys whose requests have all left their window, so the rows are
  -- those of the keys seen in the last window and ten seconds. Neither step waits for a row
  -- another call holds, so calls never wait for each other here (nor deadlock with a sweep).
  if v_new then
    perform from rate_limit_sweeps where at_ms <= p_now - 10000 for update skip locked;
    if found then
      update rate_limit_sweeps set at_ms = p_now;
      with gone as (
        delete from rate_limit_keys
        where key in (select key from rate_limit_keys
                      where expires_ms <= p_now and key <> p_key for update skip locked)
        returning key
      )
      delete from rate_limit_slots where key in (select key from gone);
    end if;
  end if;
end
$$;
