-- 014_shared_figures: the ads read path keeps nothing per account that grows with the data.
--
-- Why: every account had its own copy of the rows and figures it may see (its visible
-- occurrences, its daily and per-brand running totals), rewritten by each grant and by each
-- approval for every account. Storage, grants and approvals grew with accounts times data, and
-- the scope was applied again in each copy. Now the scope is applied per request, in one module
-- (lib/ads/scope.ts), to data that is shared by every account:
-- * ads_occurrences, read through its station index (pages);
-- * ads_day_cells, the figures of each approved snapshot per station, UTC day and brand set,
--   which the service keeps in memory (lib/ads/figure_index.ts) for totals and summaries;
-- * ads_captures, kept in memory likewise for coverage (lib/ads/capture_index.ts).
-- A grant is one row; an approval adds its snapshot's figures, whatever the number of accounts.

-- First the admin commands' lock, as grant and approval take it before writing.
select pg_advisory_xact_lock(122519921164290);

drop table ads_account_occurrences, ads_account_daily, ads_account_day_totals,
  ads_account_brand_days;
drop trigger ads_grants_figures_version on ads_grants;
drop function ads_new_figures_version();
drop function ads_brand_days_changed();
drop function ads_all_brand_days_changed();

-- version: a new random value with every `grant`, read with the key. A request reads the
-- granted brands (thousands for some accounts) from the grant row of that version only, so it
-- never mixes the stations and period of one grant with the brands of another.
-- brand_keys: brand_ids as a JSON object of the same ids, for checks row by row
-- (lib/ads/scope.ts), written with them.
alter table ads_grants
  drop column snapshot_exported_at,
  drop column known_station_ids,
  drop column known_brand_ids,
  drop column scope_version,
  drop column figure_brands,
  drop column figures_version,
  add column version uuid not null default gen_random_uuid(),
  add column brand_keys jsonb not null default '{}';
update ads_grants
   set brand_keys = coalesce((select jsonb_object_agg(b, 1) from unnest(brand_ids) as b), '{}');

-- Every distinct brand list an occurrence carries (sorted, as the import stores it), numbered
-- once, so figures refer to a list by a small integer. Only ever added to.
create table ads_brand_sets (
  id serial primary key,
  brand_ids text[] not null unique
);

-- What the services keep in memory of each approved snapshot's confirmed occurrences
-- (lib/ads/figure_index.ts), one row per snapshot and station, written once by the approval and read
-- whole:
-- * cells: the occurrences counted per UTC day and brand set, what totals and summaries of whole
--   days add up after checking each set against the account's brands. Per cell the day (days
--   since 1970-01-01) and the brand set as int4, the occurrences as int4, duration_ms and human_ms
--   as int8, big-endian, 28 bytes, in the order of their days.
-- * starts: each occurrence's ad_started_at (PostgreSQL's binary timestamptz, microseconds since
--   2000) and brand set (int4), 12 bytes, in the order of their starts: where a page's rows are,
--   found in memory, so that a page reads only its own rows.
create table ads_day_cells (
  snapshot_seq integer not null,
  station_id text not null,
  cells bytea not null,
  starts bytea not null,
  primary key (snapshot_seq, station_id)
);

-- The packing of one snapshot, as the approval writes it (lib/ads/import.ts).
create function ads_pack_day_cells(seq integer) returns void language sql as $$
  insert into ads_brand_sets (brand_ids)
  select distinct brand_ids from ads_occurrences
   where snapshot_seq = seq and review_state = 'confirmed'
  on conflict (brand_ids) do nothing;
  insert into ads_day_cells (snapshot_seq, station_id, cells, starts)
  select seq, c.station_id, c.cells, s.starts
    from (select d.station_id,
                 string_agg(int4send(d.day) || int4send(d.brand_set) || int4send(d.occurrences) ||
                              int8send(d.duration_ms) || int8send(d.human_ms), '' order by d.day)
                   as cells
            from (select o.station_id,
                         (o.ad_started_at at time zone 'UTC')::date - date '1970-01-01' as day,
                         b.id as brand_set, count(*)::int4 as occurrences,
                         sum(o.duration_ms)::int8 as duration_ms,
                         sum(case when o.duration_precision = 'human_confirmed' then o.duration_ms
                                  else 0 end)::int8 as human_ms
                    from ads_occurrences o join ads_brand_sets b on b.brand_ids = o.brand_ids
                   where o.snapshot_seq = seq and o.review_state = 'confirmed'
                   group by 1, 2, 3) d
           group by d.station_id) c
    join (select o.station_id,
                 string_agg(timestamptz_send(o.ad_started_at) || int4send(b.id), ''
                            order by o.ad_started_at) as starts
            from ads_occurrences o join ads_brand_sets b on b.brand_ids = o.brand_ids
           where o.snapshot_seq = seq and o.review_state = 'confirmed'
           group by o.station_id) s on s.station_id = c.station_id;
$$;

select ads_pack_day_cells(seq) from ads_snapshots where approved_at is not null order by seq;

drop table ads_daily;

-- One version for everything the services keep in memory of the ads data (captures, figures,
-- station and brand names): 009's coverage version, now also renewed by a brand added or renamed.
alter table ads_coverage_version rename to ads_data_version;
create or replace function ads_new_coverage_version() returns trigger language plpgsql as $$
begin
  perform pg_advisory_xact_lock(122519921164290);
  update ads_data_version set version = gen_random_uuid();
  return null;
end $$;
create trigger ads_brands_added_version after insert or delete on ads_brands
  for each row execute function ads_new_coverage_version();
create trigger ads_brands_renamed_version after update on ads_brands
  for each row when (old.id is distinct from new.id or old.name is distinct from new.name)
  execute function ads_new_coverage_version();
