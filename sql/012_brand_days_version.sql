-- 012_brand_days_version: an account's figures_version is renewed whenever its per-brand running
-- totals (ads_account_brand_days) change, not only its figure brands.
--
-- Why: a summary's by_brand reads two of those rows, 24 kB each for 1,000 brands, and reading
-- them out of line and sending them cost PostgreSQL and the service more than the rest of the
-- statement (measured: 0.67-0.70 ms per statement with them against 0.28-0.30 ms without). The
-- service now keeps the days it has decoded with the version they were read at
-- (lib/figure_brands.ts) and the query sends a day's figures only when that version is no longer
-- current. A version that changes with every rewrite of the rows is what makes a kept day safe.
-- Statement triggers: `grant` and an approval rewrite an account's 730 rows in two statements,
-- and each renews the version once, not per row.

-- First the admin commands' lock, as grant and approval take it before writing these rows.
select pg_advisory_xact_lock(122519921164290);

create function ads_brand_days_changed() returns trigger language plpgsql as $$
begin
  update ads_grants set figures_version = gen_random_uuid()
   where account_id in (select account_id from changed);
  return null;
end $$;

create function ads_all_brand_days_changed() returns trigger language plpgsql as $$
begin
  update ads_grants set figures_version = gen_random_uuid();
  return null;
end $$;

create trigger ads_brand_days_inserted after insert on ads_account_brand_days
  referencing new table as changed for each statement
  execute function ads_brand_days_changed();
create trigger ads_brand_days_updated after update on ads_account_brand_days
  referencing new table as changed for each statement
  execute function ads_brand_days_changed();
create trigger ads_brand_days_deleted after delete on ads_account_brand_days
  referencing old table as changed for each statement
  execute function ads_brand_days_changed();
create trigger ads_brand_days_truncated after truncate on ads_account_brand_days
  for each statement execute function ads_all_brand_days_changed();
