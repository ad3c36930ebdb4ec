-- 006_ads_blocks: the ads figures as compact parts read on demand, the visibility rule once, and
-- names served only from approved snapshots.
--
-- Services keep no copy of the data: they read the parts a request needs (lib/ads/blocks.ts)
-- into a cache bounded by ADS_CACHE_MB. An approval writes the parts of its own snapshot only,
-- so its cost follows the snapshot, never the history.

-- The approval's packing and the names it publishes take the ads data lock, as in 002.
select pg_advisory_xact_lock(122519921164290);

-- A grant's brands have one stored representation: brand_ids.
alter table ads_grants drop column brand_keys;

-- A grant changed by any means (not only `admin grant`) gets a new version, so nothing read at
-- the old one is used again.
create function ads_grant_new_version() returns trigger language plpgsql as $$
begin
  if (new.station_ids, new.brand_ids, new.period_since, new.period_until)
     is distinct from (old.station_ids, old.brand_ids, old.period_since, old.period_until)
     and new.version = old.version then
    new.version := gen_random_uuid();
  end if;
  return new;
end $$;
create trigger ads_grants_versioned before update on ads_grants
  for each row execute function ads_grant_new_version();

-- THE VISIBILITY RULE. The brand sets an account may see at a grant version, each with the
-- brands it shows: those of the set that the grant names. A set is visible when it shows at
-- least one. A grant at another version (replaced since) yields none. Every read of the ads
-- API applies this and nothing else for brands (lib/ads/scope.ts). Asked for some sets
-- (`where brand_set = ...`), it reads only those.
create function ads_visible_sets(account text, grant_version uuid)
returns table (brand_set integer, shown text[]) language sql stable as $$
  select b.id, array_agg(x order by x)
    from ads_brand_sets b cross join lateral unnest(b.brand_ids) as x
   where x in (select unnest(g.brand_ids) from ads_grants g
                where g.account_id = account and g.version = grant_version)
   group by b.id
$$;

-- What each import defines, kept per snapshot: a name is served (ads_stations, ads_brands) only
-- once a snapshot that gives it is approved. Names served before this migration stay served.
create table ads_snapshot_names (
  kind text not null check (kind in ('station', 'brand')),
  id text not null,
  snapshot_seq integer not null,
  name text not null,
  primary key (kind, id, snapshot_seq)
);
-- An approval reads its snapshot's names; an import, those of snapshots not approved yet.
create index ads_snapshot_names_snapshot on ads_snapshot_names (snapshot_seq, kind);
insert into ads_snapshot_names (kind, id, snapshot_seq, name)
select 'station', id, 0, name from ads_stations
union all
select 'brand', id, 0, name from ads_brands;
-- The snapshot whose name is served; a later one's approval replaces it, an earlier one's not.
alter table ads_stations add column named_seq integer not null default 0;
alter table ads_brands add column named_seq integer not null default 0;

-- One snapshot's confirmed occurrences of one station, packed:
-- * ads_cell_parts, per UTC month (months since 1970-01): cells, the figures per brand set and
--   UTC day (days since 1970-01-01): brand set, day, occurrences as int4, duration_ms and human_ms
--   as int8, big-endian, 28 bytes, sorted by set then day. sets: the brand sets it holds;
--   first_at, last_at: its first and last ad_started_at.
-- * ads_record_parts, per UTC day: each occurrence's ad_started_at (binary timestamptz), brand
--   set (int4) and duration_ms * 2 + 1 when human confirmed (int4), 16 bytes, in start order.
-- * ads_capture_parts, per UTC month: each capture overlapping the month: started_at, ended_at
--   (binary timestamptz) and snapshot seq (int4), 20 bytes, sorted by start then end.
create table ads_cell_parts (
  snapshot_seq integer not null,
  station_id text not null,
  month integer not null,
  cells bytea not null,
  sets integer[] not null,
  first_at timestamptz not null,
  last_at timestamptz not null,
  primary key (station_id, month, snapshot_seq)
);
create index ads_cell_parts_snapshot on ads_cell_parts (snapshot_seq, station_id);

create table ads_record_parts (
  snapshot_seq integer not null,
  station_id text not null,
  day integer not null,
  records bytea not null,
  primary key (station_id, day, snapshot_seq)
);

create table ads_capture_parts (
  snapshot_seq integer not null,
  station_id text not null,
  month integer not null,
  captures bytea not null,
  primary key (station_id, month, snapshot_seq)
);

-- An approval reads one snapshot's captures, as it reads its occurrences.
create index ads_captures_snapshot on ads_captures using brin (snapshot_seq);

create function ads_month_of(t timestamptz) returns integer language sql immutable as $$
  select ((extract(year from t at time zone 'UTC')::int - 1970) * 12
          + extract(month from t at time zone 'UTC')::int - 1)
$$;

create function ads_day_of(t timestamptz) returns integer language sql immutable as $$
  select (t at time zone 'UTC')::date - date '1970-01-01'
$$;

-- The packing of one snapshot, run by its approval. The planner's estimate of one snapshot's
-- rows is that of an average snapshot, which after one large import is most of the table: the
-- snapshot's rows are read with scans turned off, so that the block range indexes are used and
-- the cost follows the snapshot alone; what follows reads only them.
create function ads_pack_snapshot(seq integer) returns void language plpgsql as $$
declare scans text := current_setting('enable_seqscan');
begin
  perform set_config('enable_seqscan', 'off', true);
  -- Offset 0 keeps the state out of the scan, where it would make the index of served rows
  -- (all of them) look cheaper than the snapshot's own ranges.
  create temp table ads_pack_own on commit drop as
  select station_id, ad_started_at, brand_ids, duration_ms,
         duration_precision = 'human_confirmed' as human
    from (select * from ads_occurrences where snapshot_seq = seq offset 0) o
   where review_state = 'confirmed';
  create temp table ads_pack_captures on commit drop as
  select station_id, started_at, ended_at from ads_captures where snapshot_seq = seq;
  perform set_config('enable_seqscan', scans, true);
  analyze ads_pack_own;

  insert into ads_brand_sets (brand_ids)
  select distinct brand_ids from ads_pack_own
  on conflict (brand_ids) do nothing;

  create temp table ads_pack_rows on commit drop as
  select o.station_id, o.ad_started_at, b.id as brand_set, o.duration_ms, o.human
    from ads_pack_own o join ads_brand_sets b on b.brand_ids = o.brand_ids;

  insert into ads_cell_parts (snapshot_seq, station_id, month, cells, sets, first_at, last_at)
  select seq, c.station_id, c.month,
         string_agg(int4send(c.brand_set) || int4send(c.day) || int4send(c.occurrences) ||
                      int8send(c.duration_ms) || int8send(c.human_ms), ''
                    order by c.brand_set, c.day),
         array_agg(distinct c.brand_set), min(c.first_at), max(c.last_at)
    from (select station_id, ads_month_of(ad_started_at) as month,
                 ads_day_of(ad_started_at) as day, brand_set,
                 count(*)::int4 as occurrences, sum(duration_ms)::int8 as duration_ms,
                 sum(case when human then duration_ms else 0 end)::int8 as human_ms,
                 min(ad_started_at) as first_at, max(ad_started_at) as last_at
            from ads_pack_rows group by 1, 2, 3, 4) c
   group by c.station_id, c.month;

  insert into ads_record_parts (snapshot_seq, station_id, day, records)
  select seq, station_id, ads_day_of(ad_started_at),
         string_agg(timestamptz_send(ad_started_at) || int4send(brand_set) ||
                      int4send(duration_ms * 2 + case when human then 1 else 0 end), ''
                    order by ad_started_at)
    from ads_pack_rows group by 1, 2, 3;

  insert into ads_capture_parts (snapshot_seq, station_id, month, captures)
  select seq, c.station_id, m.month,
         string_agg(timestamptz_send(c.started_at) || timestamptz_send(c.ended_at) || int4send(seq), ''
                    order by c.started_at, c.ended_at)
    from ads_pack_captures c
   cross join lateral generate_series(ads_month_of(c.started_at),
                                      ads_month_of(c.ended_at - interval '1 microsecond'))
                        as m(month)
   group by 1, 2, 3;

  -- Names: those the snapshot gives, unless a later approved snapshot gave them already; then
  -- those of stations and brands its data refers to and no approved snapshot named: the latest
  -- name an approved snapshot gave, else the id itself. A name only a pending import gave is
  -- never served from here; that import's own approval serves it (named_seq 0 yields to it).
  insert into ads_stations (id, name, named_seq)
  select id, name, seq from ads_snapshot_names where kind = 'station' and snapshot_seq = seq
  on conflict (id) do update set name = excluded.name, named_seq = excluded.named_seq
   where ads_stations.named_seq <= excluded.named_seq;
  insert into ads_brands (id, name, named_seq)
  select id, name, seq from ads_snapshot_names where kind = 'brand' and snapshot_seq = seq
  on conflict (id) do update set name = excluded.name, named_seq = excluded.named_seq
   where ads_brands.named_seq <= excluded.named_seq;
  insert into ads_stations (id, name, named_seq)
  select r.id, coalesce((select n.name from ads_snapshot_names n
                          where n.kind = 'station' and n.id = r.id
                            and (n.snapshot_seq = 0
                                 or exists (select 1 from ads_snapshots a
                                             where a.seq = n.snapshot_seq
                                               and a.approved_at is not null))
                          order by n.snapshot_seq desc limit 1), r.id), 0
    from (select station_id as id from ads_pack_own
          union select station_id from ads_pack_captures) r
   where r.id not in (select id from ads_stations);
  insert into ads_brands (id, name, named_seq)
  select r.id, coalesce((select n.name from ads_snapshot_names n
                          where n.kind = 'brand' and n.id = r.id
                            and (n.snapshot_seq = 0
                                 or exists (select 1 from ads_snapshots a
                                             where a.seq = n.snapshot_seq
                                               and a.approved_at is not null))
                          order by n.snapshot_seq desc limit 1), r.id), 0
    from (select distinct unnest(b.brand_ids) as id from ads_brand_sets b
           where b.id in (select distinct brand_set from ads_pack_rows)) r
   where r.id not in (select id from ads_brands);
  drop table ads_pack_own, ads_pack_captures, ads_pack_rows;
end $$;

-- The parts of the snapshots approved so far; the per-snapshot packing they replace goes.
do $$
declare s integer;
begin
  for s in select seq from ads_snapshots where approved_at is not null order by seq loop
    perform ads_pack_snapshot(s);
  end loop;
end $$;
drop function ads_pack_day_cells(integer);
drop table ads_day_cells;

-- Captures are read from their parts, written once by the approval.
drop trigger ads_captures_changed on ads_captures;
