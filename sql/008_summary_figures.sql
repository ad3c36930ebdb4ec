-- 008_summary_figures: what a summary without filters reads, made cheaper.

-- First the admin commands' lock (lib/ads/scope.ts lockAdsFigures), before the table locks
-- below, which grant and approval take after it: this way round they cannot deadlock.
select pg_advisory_xact_lock(122519921164290);

-- An account's running totals of every station on one day, as one index range. A summary reads
-- two days of them (the last day and the day before the first); through the primary key,
-- (account_id, station_id, day), that was two lookups per station: a hundred for a 50-station
-- grant, a fifth of the summary's time in the database.
create index ads_account_daily_day on ads_account_daily (account_id, day)
  include (station_id, cum_occurrences, cum_duration_ms, cum_human_ms);

-- A new version whenever an account's figure_brands changes (a grant, an approval, an import that
-- renames a brand). The service keeps each account's [id, name] pairs in memory
-- (lib/figure_brands.ts) and asks for them again only when this differs from the version it kept:
-- reading and escaping a thousand names was a fifth of a summary's time in the service. Random,
-- so a version is never issued twice, even for a grant deleted and created again or a database
-- restored from a backup while the service runs (a sequence would count again from where the
-- backup was taken).
alter table ads_grants add column figures_version uuid not null default gen_random_uuid();

create function ads_new_figures_version() returns trigger language plpgsql as $$
begin
  new.figures_version := gen_random_uuid();
  return new;
end $$;

create trigger ads_grants_figures_version before update of figure_brands on ads_grants
  for each row when (new.figure_brands::text is distinct from old.figure_brands::text)
  execute function ads_new_figures_version();
