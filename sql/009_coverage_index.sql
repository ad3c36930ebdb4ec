-- 009_coverage_index: /api/v1/coverage is computed in the service from every approved capture,
-- kept in memory per station (lib/ads/capture_index.ts), instead of from ads_capture_runs.
--
-- A 31-day coverage of 50 stations read about 300 runs and a hundred runs' capture bounds per
-- request: 1.1 ms of PostgreSQL and 0.8 ms of the service, enough to keep its p99 near 100 ms at
-- 32 clients on two cores. The captures themselves are small (about 20 bytes each in memory: the
-- bench's 534,652 take 11 MB), change only when a snapshot is approved, and hold nothing of an
-- account: the scope (granted stations, the effective period) is applied to them per request
-- exactly as the query applied it.
--
-- ads_coverage_version: a new random version whenever something coverage shows may have changed:
-- a snapshot approved or removed, a station added, renamed or removed, an approved capture
-- changed. Each request reads it (one row) and the service reloads the captures when it is not
-- the version they were loaded at; the load reads it in the same statement as the captures, so
-- the two always match. Random, so no version is ever issued twice (not even after a restore from
-- a backup while the service runs). A new snapshot and its captures change nothing here: they
-- are served only once approved.

-- First the admin commands' lock (lib/ads/scope.ts lockAdsFigures), as 007 and 008 take it.
select pg_advisory_xact_lock(122519921164290);

create table ads_coverage_version (
  singleton boolean primary key default true check (singleton),
  version uuid not null default gen_random_uuid()
);
insert into ads_coverage_version default values;

-- The admin commands' lock before the version row: approval and a named import hold it already
-- when they fire this, and any other writer takes it here, so the version row is always locked
-- after it and never by an import that holds no lock (which a running approval would otherwise
-- wait for while the import waited for the approval's lock).
create function ads_new_coverage_version() returns trigger language plpgsql as $$
begin
  perform pg_advisory_xact_lock(122519921164290);
  update ads_coverage_version set version = gen_random_uuid();
  return null;
end $$;

-- Row triggers, not statement triggers: an import without station lines still runs the (empty)
-- upsert of its stations, which must not touch the version.
create trigger ads_snapshots_approved_coverage after update of approved_at on ads_snapshots
  for each row when (old.approved_at is distinct from new.approved_at)
  execute function ads_new_coverage_version();
create trigger ads_snapshots_removed_coverage after delete on ads_snapshots
  for each row when (old.approved_at is not null)
  execute function ads_new_coverage_version();
create trigger ads_stations_added_coverage after insert or delete on ads_stations
  for each row execute function ads_new_coverage_version();
create trigger ads_stations_renamed_coverage after update on ads_stations
  for each row when (old.id is distinct from new.id or old.name is distinct from new.name)
  execute function ads_new_coverage_version();
-- Captures are only ever inserted with a new, unapproved snapshot; a later change or purge of
-- them is covered all the same.
create trigger ads_captures_changed_coverage after update or delete or truncate on ads_captures
  for each statement execute function ads_new_coverage_version();

-- The runs are now built from the captures as they are loaded (lib/ads/capture_index.ts).
drop table ads_capture_runs;
drop function ads_rebuild_capture_runs(text[]);
