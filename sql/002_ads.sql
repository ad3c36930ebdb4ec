-- 002_ads: the advertising occurrence API (ads-api.md, contract.md §2 and §4).
--
-- Accounts, their one grant and their keys are written only by `deno task admin`; stations,
-- brands, occurrences and captures arrive only through `admin import`, one snapshot per
-- import, and are served only once that snapshot is approved. Nothing here is kept per
-- account but the grant row: the scope is applied per request (lib/ads/scope.ts) to data
-- every account shares, so storage, grants and approvals do not grow with accounts.

create table ads_accounts (
  id text primary key check (id ~ '^[A-Za-z0-9._-]{1,64}$'),
  name text not null,
  created_at timestamptz not null default now()
);

-- One grant per account, replaced as a whole by `admin grant`; ids never imported match
-- nothing. version: new and random with every grant, read with the key, so a request reads
-- the granted brands (thousands for some accounts) of that grant only and never mixes one
-- grant's stations with another's brands. brand_keys: brand_ids as a JSON object of the same
-- ids, for checks row by row.
create table ads_grants (
  account_id text primary key references ads_accounts (id) on delete cascade,
  station_ids text[] not null,
  brand_ids text[] not null,
  brand_keys jsonb not null default '{}',
  period_since timestamptz not null,
  period_until timestamptz not null check (period_until > period_since),
  version uuid not null default gen_random_uuid(),
  updated_at timestamptz not null default now()
);

-- Only the SHA-256 digest of a key is kept (one indexed lookup per request); the prefix
-- recognises a key in a list without being usable.
create table ads_api_keys (
  id uuid primary key default gen_random_uuid(),
  account_id text not null references ads_accounts (id) on delete cascade,
  digest bytea not null unique,
  prefix text not null,
  label text,
  permissions text[] not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index ads_api_keys_account on ads_api_keys (account_id);

create table ads_snapshots (
  seq serial primary key,
  id text not null unique,
  exported_at timestamptz not null,
  imported_at timestamptz not null default now(),
  approved_at timestamptz,
  occurrences bigint not null default 0,
  captures bigint not null default 0
);

create table ads_stations (
  id text primary key,
  name text not null
);

create table ads_brands (
  id text primary key,
  name text not null
);

-- brand_ids: sorted, a handful at most; "at least one granted brand" is checked on rows the
-- station index already narrowed, where a join table would double the rows read and written.
create table ads_occurrences (
  id uuid primary key,
  snapshot_seq integer not null,
  station_id text not null,
  ad_started_at timestamptz not null,
  ad_ended_at timestamptz not null,
  duration_ms integer not null,
  duration_precision text not null
    check (duration_precision in ('estimated', 'detected', 'human_confirmed')),
  review_state text not null check (review_state in ('pending', 'confirmed', 'rejected')),
  brand_ids text[] not null
);
-- Every read of served rows names its stations: a page reads one station's rows in time order
-- (rows sharing a start are sorted, rare on one station). No id column: keeping this index up
-- to date is most of an import's cost, and it is much smaller without one. Pending and
-- rejected rows stay out.
create index ads_occurrences_station_time on ads_occurrences (station_id, ad_started_at)
  where review_state = 'confirmed';
-- An approval reads one snapshot's rows; snapshots are appended one after another, so a block
-- range index finds them for a few kilobytes and costs the import next to nothing.
create index ads_occurrences_snapshot on ads_occurrences using brin (snapshot_seq);

-- The covering index serves coverage's load of a station's captures without the table.
create table ads_captures (
  id text primary key,
  snapshot_seq integer not null,
  station_id text not null,
  started_at timestamptz not null,
  ended_at timestamptz not null check (ended_at > started_at)
);
create index ads_captures_station_time on ads_captures (station_id, started_at)
  include (ended_at, snapshot_seq);

-- Every distinct brand list an occurrence carries, numbered once, so figures refer to a list
-- by a small integer. Only ever added to.
create table ads_brand_sets (
  id serial primary key,
  brand_ids text[] not null unique
);

-- What each service keeps in memory of an approved snapshot's confirmed occurrences
-- (lib/ads/figure_index.ts), one row per snapshot and station, written once by the approval:
-- * cells: the figures per UTC day and brand set, which totals and summaries of whole days add
--   up after checking each set against the account's brands. Per cell: day (days since
--   1970-01-01), brand set and occurrences as int4, duration_ms and human_ms as int8,
--   big-endian, 28 bytes, in day order.
-- * starts: each occurrence's ad_started_at (binary timestamptz, microseconds since 2000) and
--   brand set (int4), 12 bytes, in start order: where a page's rows are, found in memory, so
--   that a page reads only its own rows.
create table ads_day_cells (
  snapshot_seq integer not null,
  station_id text not null,
  cells bytea not null,
  starts bytea not null,
  primary key (snapshot_seq, station_id)
);

-- The packing of one snapshot, run by its approval (lib/ads/import.ts).
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

-- One version for everything the services keep in memory of the ads data (figures, captures,
-- station and brand names), renewed by whatever may change it. Each request reads it with its
-- key, and a service reloads what it holds when it differs. Random, so no version is ever
-- issued twice, not even after a restore from a backup while the services run.
create table ads_data_version (
  singleton boolean primary key default true check (singleton),
  version uuid not null default gen_random_uuid()
);
insert into ads_data_version default values;

-- The admin commands' lock (lib/ads/import.ts ADS_DATA_LOCK) before the version row: approval
-- and a named import hold it already, any other writer takes it here, so the two are always
-- locked in that order and never deadlock.
create function ads_new_data_version() returns trigger language plpgsql as $$
begin
  perform pg_advisory_xact_lock(122519921164290);
  update ads_data_version set version = gen_random_uuid();
  return null;
end $$;

-- Row triggers where an import runs an upsert that may change nothing, which must not renew
-- the version. A new snapshot changes nothing until it is approved.
create trigger ads_snapshots_approved after update of approved_at on ads_snapshots
  for each row when (old.approved_at is distinct from new.approved_at)
  execute function ads_new_data_version();
create trigger ads_snapshots_removed after delete on ads_snapshots
  for each row when (old.approved_at is not null) execute function ads_new_data_version();
create trigger ads_stations_added after insert or delete on ads_stations
  for each row execute function ads_new_data_version();
create trigger ads_stations_renamed after update on ads_stations
  for each row when (old.id is distinct from new.id or old.name is distinct from new.name)
  execute function ads_new_data_version();
create trigger ads_brands_added after insert or delete on ads_brands
  for each row execute function ads_new_data_version();
create trigger ads_brands_renamed after update on ads_brands
  for each row when (old.id is distinct from new.id or old.name is distinct from new.name)
  execute function ads_new_data_version();
create trigger ads_captures_changed after update or delete or truncate on ads_captures
  for each statement execute function ads_new_data_version();
