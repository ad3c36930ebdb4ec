-- onda_rate_hit, corrected: 001 locked a key's row in the statement that also read its oldest
-- slot, so a call that had waited for the lock read that slot as it was before the wait, and
-- concurrent calls could each let the same expired slot go (more than the limit accepted in a
-- window). Now the row is locked in a statement of its own and carries its oldest slot's time.

alter table rate_limit_keys add column oldest_ms bigint;
-- The counts of the last minute carry over: each key's oldest time from its head slot. The
-- table lock this migration holds keeps every call out until the new function is in place.
update rate_limit_keys r set oldest_ms = s.at_ms
  from rate_limit_slots s
 where s.key = r.key and s.slot = r.head and r.inside > 0;

-- Counts one request of p_key at p_now (ms, the instance's clock) against p_limit per p_window
-- ms, unless it is refused: a request is refused when the p_limit-th most recent accepted one
-- is less than p_window old, so at most p_limit are accepted in any window. The key's row is
-- locked first, in a statement of its own that reads nothing else, so every later statement
-- here reads the slots as the call before this one left them. The ring holds as many slots as
-- the key has had requests inside one window (at most p_limit), so a call costs the same
-- whatever the limit. reset_ms: when the oldest counted request leaves the window. Null key:
-- nothing done.
create or replace function onda_rate_hit(
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
  v_tail integer;
  v_new boolean := false;
  v_moved boolean := false;
begin
  loop
    select head, inside, slots, oldest_ms, expires_ms into k
      from rate_limit_keys where key = p_key for update;
    exit when found;
    -- A new key (or one removed since the select): insert it, then lock it.
    insert into rate_limit_keys (key, head, inside, slots, expires_ms)
    values (p_key, 0, 0, 0, p_now) on conflict (key) do nothing;
    v_new := true;
  end loop;
  -- The oldest counted requests that have left the window stop counting, in the order they
  -- were accepted; each is passed once, so this reads about one slot per call.
  while k.inside > 0 and k.oldest_ms <= p_now - p_window loop
    k.head := (k.head + 1) % k.slots;
    k.inside := k.inside - 1;
    k.oldest_ms := null;
    if k.inside > 0 then
      select at_ms into k.oldest_ms from rate_limit_slots where key = p_key and slot = k.head;
    end if;
    v_moved := true;
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
    k.inside := k.inside + 1;
    k.oldest_ms := coalesce(k.oldest_ms, p_now);
    k.expires_ms := greatest(k.expires_ms, p_now + p_window);
    -- The slot and the key in one statement (slots past the ring's old end are new ones).
    with slot as (
      insert into rate_limit_slots (key, slot, at_ms) values (p_key, v_tail, p_now)
      on conflict (key, slot) do update set at_ms = excluded.at_ms
    )
    update rate_limit_keys
       set head = k.head, inside = k.inside, slots = k.slots, oldest_ms = k.oldest_ms,
           expires_ms = k.expires_ms
     where key = p_key;
  elsif v_moved then
    update rate_limit_keys set head = k.head, inside = k.inside, oldest_ms = k.oldest_ms
     where key = p_key;
  end if;
  remaining := greatest(0, p_limit - k.inside);
  reset_ms := coalesce(k.oldest_ms, p_now) + p_window;
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
