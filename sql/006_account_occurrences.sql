-- 006_account_occurrences: each account's visible occurrences, so that an /ads page without
-- filters is one index range of the account's own rows.
--
-- Why: the same page read from ads_occurrences walks every station's rows in time order and
-- checks each against the scope (granted station, granted brand among up to thousands, approved
-- snapshot). For a 50-of-200-station grant that is eight rows read per row served, and
-- the scope checks cost more than the rest of the request. Here the scope was applied once,
-- when the rows were written, by the same rules (lib/account_occurrences.ts).
--
-- Kept by the admin commands only, in the transaction that changes what an account may see:
-- `grant` rewrites the account's rows; `snapshot approve` (and `import --approve`) adds the
-- snapshot's rows to every account. Occurrences never change once imported, and their stations
-- and brands always exist, so nothing else changes visibility. The names are copied too (looking
-- them up cost a page more than reading its rows); an import that renames a station or a brand
-- rewrites them.
--
-- Cost: about 230 bytes per visible row and account with its index (270 MB for an account that
-- sees 1.2 M occurrences). Filtered pages (station_id, brand_id) still read
-- ads_occurrences through its station index.
--
-- * primary key (account_id, ad_started_at, id): the page order; offset + limit entries are
--   read and every one of them is served.
create table ads_account_occurrences (
  account_id text not null references ads_accounts (id) on delete cascade,
  ad_started_at timestamptz not null,
  id uuid not null,
  station_id text not null,
  station_name text not null,
  ad_ended_at timestamptz not null,
  duration_ms integer not null,
  duration_precision text not null,
  -- The granted brands of the occurrence only, as ids and as served ({id, name}, by id).
  brand_ids text[] not null,
  brands json not null,
  primary key (account_id, ad_started_at, id)
);

-- An approval adds one snapshot's rows to every account; snapshots are imported one after
-- another into an append-only table, so a block range index finds them for a few kilobytes
-- and costs the import next to nothing.
create index ads_occurrences_snapshot on ads_occurrences using brin (snapshot_seq);

-- Data imported before this migration: every account's visible rows, by the rules above. First
-- the admin commands' lock (lib/ads/scope.ts lockAdsFigures), so that a grant or an approval of
-- an older version still running commits before the rows are read, and fresh statistics, since
-- names are looked up per row by primary key.
select pg_advisory_xact_lock(122519921164290);
analyze ads_stations;
analyze ads_brands;
insert into ads_account_occurrences (account_id, ad_started_at, id, station_id, station_name,
                                     ad_ended_at, duration_ms, duration_precision, brand_ids,
                                     brands)
select v.account_id, v.ad_started_at, v.id, v.station_id, s.name, v.ad_ended_at, v.duration_ms,
       v.duration_precision, v.brand_ids,
       coalesce((select json_agg(json_build_object('id', b.id, 'name', b.name) order by b.id)
                   from ads_brands b where b.id = any(v.brand_ids)), '[]')
  from (select g.account_id, o.ad_started_at, o.id, o.station_id, o.ad_ended_at, o.duration_ms,
               o.duration_precision,
               array(select x from unnest(o.brand_ids) as x
                      where x = any(g.known_brand_ids)) as brand_ids
          from ads_grants g
          join ads_occurrences o
            on o.station_id = any(g.known_station_ids)
           and o.ad_started_at >= g.period_since and o.ad_started_at < g.period_until
         where o.review_state = 'confirmed'
           and o.brand_ids && g.known_brand_ids
           and o.snapshot_seq in (select seq from ads_snapshots where approved_at is not null)) v
  join ads_stations s on s.id = v.station_id;
