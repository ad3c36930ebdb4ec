-- 002_ads: the advertising occurrence API (ads-api.md, contract.md §2 and §4).
--
-- Accounts, their one grant and their API keys are written only by `deno task admin`;
-- stations, brands, occurrences and captures arrive only through `admin import`, one
-- snapshot per import, and are served only once that snapshot is approved.
--
-- Index choices (every API query is scoped by granted stations and a period of at most
-- 31 days, and serves only confirmed occurrences of approved snapshots):
-- * ads_occurrences (ad_started_at, id) where confirmed: /ads pages across many granted
--   stations are read in the response order (ad_started_at, id), stopping after
--   offset + limit visible rows instead of sorting the whole window.
-- * ads_occurrences (station_id, ad_started_at, id) where confirmed: the same for one
--   station (station_id filter), and the raw-row edges of the summary and of the total.
-- * The partial predicate keeps pending and rejected rows out of both indexes.
-- * Brands are an array on the occurrence (sorted, at most a handful): "at least one
--   granted brand" is `brand_ids && granted`, checked on rows the indexes above already
--   narrowed; a separate join table would double the rows read and written for 10 M rows.
-- * ads_daily (station_id, day, brand_ids): pre-aggregated confirmed figures of approved
--   snapshots per station, UTC day and brand set, so totals and summaries read whole days
--   from a few thousand rows and only the partial first and last day from raw rows.
--   Keeping the brand set (not one row per brand) keeps an occurrence with two brands
--   counted once in totals and once per granted brand.
-- * ads_account_daily (account_id, station_id, day): the same figures already restricted to
--   one account's grant, dense per station and day up to the account's last day with data, with
--   running totals, so by_station and a station's total over whole days read two rows per
--   station (the last day and the day before the first, each clamped to that last day), and a
--   station's by_day at most 31. Station before day: the granted
--   stations are probed as an index condition, each probe reading only its day(s).
-- * ads_account_day_totals (account_id, day): those figures summed over the stations, so the
--   total of /ads and the totals and by_day of a summary without filters read 31 rows.
-- * ads_account_brand_days (account_id, day): running totals of every brand in the account's
--   figures, one row per day holding one packed array per figure, in the order of
--   ads_grants.figure_brands. by_brand over whole days is two rows (the last day
--   minus the day before the first), whatever the number of brands: returning a row per brand
--   (1,000 for a large grant) cost more than the rest of a summary. The arrays are JSON, which
--   the service parses natively: PostgreSQL arrays or packed bytea of that size took it longer
--   to decode (text parsing in JavaScript, hex). Stored out of line uncompressed, so reading
--   them decompresses nothing.
-- * ads_captures (station_id, started_at): coverage reads a station's raw captures only
--   within a run that crosses the period's start or end, from the period's start less the
--   longest capture of approved snapshots (ads_snapshots.max_capture_seconds), so the range
--   starts near the edge, never at the beginning of a long run. It includes ended_at and
--   snapshot_seq, the rest of what those reads check, so they need not visit the table.
-- * ads_capture_runs (station_id, started_at) primary key: coverage reads runs, not captures.
--   A station's runs are disjoint and never touch, so ordering by start also orders by end:
--   the run holding the period's start, if any, is the last one starting before it (one
--   backward probe per station), and every other run in the period starts inside it (one
--   index range over the granted stations). No bound on a run's length is needed, and a run
--   may last months.
-- * ads_api_keys (digest) unique: one indexed lookup per request by SHA-256 digest.

create table ads_accounts (
  id text primary key check (id ~ '^[A-Za-z0-9._-]{1,64}$'),
  name text not null,
  created_at timestamptz not null default now()
);

-- One grant per account, replaced as a whole by `admin grant`. Ids that were never
-- imported simply match nothing. snapshot_exported_at: exported_at of the newest approved
-- snapshot with a visible occurrence in the whole grant (meta.snapshot_exported_at), null if
-- none; recomputed with the account's figures by `grant` and `snapshot approve`, the only
-- two changes that can alter it, so a request reads it with the key instead of probing.
create table ads_grants (
  account_id text primary key references ads_accounts (id) on delete cascade,
  station_ids text[] not null,
  brand_ids text[] not null,
  period_since timestamptz not null,
  period_until timestamptz not null check (period_until > period_since),
  updated_at timestamptz not null default now(),
  snapshot_exported_at timestamptz,
  -- The granted ids that exist (imported), sorted: the scope a request works with, kept by
  -- the same refresh, so a request reads it with its key instead of intersecting the grant
  -- with every station and brand on each call.
  known_station_ids text[] not null default '{}',
  known_brand_ids text[] not null default '{}',
  -- Bumped whenever the lists above change: a request reads the brand list and the per-brand
  -- figures from the version its key lookup saw, never from a later grant.
  scope_version bigint not null default 0,
  -- The granted brands with occurrences in the account's figures, as a JSON array of [id, name]
  -- pairs: the order of the arrays in ads_account_brand_days (sorted in the database's
  -- collation; the service sorts by_brand itself). Refreshed with those figures; the names also
  -- by an import, which may rename a brand. JSON, so the service reads a thousand pairs with
  -- one JSON.parse.
  figure_brands json not null default '[]'
);

-- Only the SHA-256 digest of a key is kept; the prefix is the first characters, to
-- recognise a key in a list without being able to use it.
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
  captures bigint not null default 0,
  max_capture_seconds double precision not null default 0
);

create table ads_stations (
  id text primary key,
  name text not null
);

create table ads_brands (
  id text primary key,
  name text not null
);

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
create index ads_occurrences_time on ads_occurrences (ad_started_at, id)
  where review_state = 'confirmed';
create index ads_occurrences_station_time on ads_occurrences (station_id, ad_started_at, id)
  where review_state = 'confirmed';

create table ads_daily (
  station_id text not null,
  day date not null,
  brand_ids text[] not null,
  occurrences bigint not null,
  duration_ms bigint not null,
  human_ms bigint not null,
  primary key (station_id, day, brand_ids)
);

-- One account's figures per whole UTC day inside its granted period, for its granted
-- stations and brands (an occurrence counted once per station and day, and once per granted
-- brand): summaries and totals without a brand filter read 31 rows per station instead of
-- every brand set. Recomputed from ads_daily by `grant` and `snapshot approve`.
create table ads_account_daily (
  account_id text not null references ads_accounts (id) on delete cascade,
  day date not null,
  station_id text not null,
  occurrences bigint not null,
  duration_ms bigint not null,
  human_ms bigint not null,
  -- Running totals of the station from its first day with data (rows are dense from there to
  -- the account's last day with data, not to the grant's end, which may be decades away):
  -- by_station over whole days is two rows per station.
  cum_occurrences bigint not null,
  cum_duration_ms bigint not null,
  cum_human_ms bigint not null,
  primary key (account_id, station_id, day)
);

-- The same figures summed over the account's stations, one row per whole day: the total and
-- by_day of a request without filters read at most 31 rows.
create table ads_account_day_totals (
  account_id text not null references ads_accounts (id) on delete cascade,
  day date not null,
  occurrences bigint not null,
  duration_ms bigint not null,
  human_ms bigint not null,
  primary key (account_id, day)
);

-- Running totals of the brands of ads_grants.figure_brands, element i for brand i: the figures
-- from the grant's first whole day through `day`, as JSON arrays of integers. Dense from the
-- account's first day with data to its last, so every day in between has its row.
create table ads_account_brand_days (
  account_id text not null references ads_accounts (id) on delete cascade,
  day date not null,
  occurrences json not null,
  duration_ms json not null,
  human_ms json not null,
  primary key (account_id, day)
);
alter table ads_account_brand_days
  alter column occurrences set storage external,
  alter column duration_ms set storage external,
  alter column human_ms set storage external;

create table ads_captures (
  id text primary key,
  snapshot_seq integer not null,
  station_id text not null,
  started_at timestamptz not null,
  ended_at timestamptz not null check (ended_at > started_at)
);
create index ads_captures_station_time on ads_captures (station_id, started_at)
  include (ended_at, snapshot_seq);

-- Per station, the maximal unions of overlapping or touching captures of approved snapshots:
-- coverage counts whole runs inside the period from here and reads raw captures only for a
-- run that crosses one of the period's edges. Recomputed for the stations of a snapshot in the
-- transaction that approves it (lib/capture_runs.ts), the only change to approved captures.
create table ads_capture_runs (
  station_id text not null,
  started_at timestamptz not null,
  ended_at timestamptz not null check (ended_at > started_at),
  captures integer not null check (captures > 0),
  snapshot_seqs integer[] not null,
  primary key (station_id, started_at)
);
