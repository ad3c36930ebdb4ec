-- Rate limits counted for the whole deployment (RATE_LIMIT_SCOPE=deployment on PostgreSQL):
-- every instance counts a key's requests here, so the limit holds whichever instance answers.
-- Unlogged: nothing here is worth a WAL record or a replica's copy, and a crash that empties
-- the tables only forgets the last minute's counts.

-- One row per limited key (an ads key, a user, a client address): how many of its accepted
-- requests are still inside the window, and when the newest of them leaves it (ms since 1970),
-- after which the row and its requests are useless. Not indexed but by key, so that counting
-- a request updates the row in place.
create unlogged table rate_limit_keys (
  key text primary key,
  inside integer not null,
  expires_ms bigint not null
);

-- One row per accepted request still inside its key's window.
create unlogged table rate_limit_hits (
  key text not null,
  at_ms bigint not null
);
create index rate_limit_hits_key_idx on rate_limit_hits (key, at_ms);

-- When useless keys were last removed (ms since 1970): one call in ten seconds does it.
create unlogged table rate_limit_sweeps (
  singleton boolean primary key default true check (singleton),
  at_ms bigint not null
);

-- Counts one request of p_key at p_now (ms) against p_limit per p_window ms, unless it is
-- refused: at most p_limit accepted in any window, since a request is accepted only while
-- fewer than p_limit accepted ones are less than p_window old. The key's row is locked first,
-- so concurrent calls for one key (from any instance) take turns and each sees the others'
-- requests; the counter spares counting the key's requests, which a large limit makes many.
-- reset_ms: when the oldest counted request leaves the window. Null key: no row, nothing done.
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
  v_inside integer;
  v_left integer;
begin
  loop
    select inside into v_inside from rate_limit_keys where key = p_key for update;
    exit when found;
    -- A new key (or one removed since the select): insert it, then lock it.
    insert into rate_limit_keys (key, inside, expires_ms) values (p_key, 0, p_now)
    on conflict (key) do nothing;
  end loop;
  delete from rate_limit_hits where key = p_key and at_ms <= p_now - p_window;
  get diagnostics v_left = row_count;
  v_inside := v_inside - v_left;
  allowed := v_inside < p_limit;
  if allowed then
    insert into rate_limit_hits (key, at_ms) values (p_key, p_now);
    v_inside := v_inside + 1;
  end if;
  update rate_limit_keys
  set inside = v_inside,
      expires_ms = case when allowed then greatest(expires_ms, p_now + p_window) else expires_ms end
  where key = p_key;
  remaining := greatest(0, p_limit - v_inside);
  select min(at_ms) + p_window into reset_ms from rate_limit_hits where key = p_key;
  reset_ms := coalesce(reset_ms, p_now + p_window);
  -- Bounded under a flood of distinct keys (addresses): every ten seconds one call removes the
  -- keys whose requests have all left their window, so the rows are those of the keys seen in
  -- the last window and ten seconds. The one row of the gate is only read by the others.
  update rate_limit_sweeps set at_ms = p_now where at_ms <= p_now - 10000;
  if found then
    with gone as (
      delete from rate_limit_keys where expires_ms <= p_now and key <> p_key returning key
    )
    delete from rate_limit_hits where key in (select key from gone);
  end if;
end
$$;

insert into rate_limit_sweeps (at_ms) values (0);

-- Failed logins (lib/forms/login_limit.ts) are pruned by age whatever their key, so that a
-- flood of distinct addresses or e-mails leaves only the attempts of the last window.
create index login_failures_at_idx on login_failures (at);
