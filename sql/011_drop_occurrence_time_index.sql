-- 011_drop_occurrence_time_index: ads_occurrences loses its (ad_started_at, id) index.
--
-- Why: it served one query only, an /ads page filtered by brand across the granted stations,
-- read in time order with every row's station, brand and snapshot checked. Such a page now
-- reads the account's own visible rows (ads_account_occurrences, whose brand_ids are the
-- occurrence's granted brands) in the same order, checking the brand alone: a quarter of the
-- rows for a 50-of-200-station grant, and no scope check per row. Every other read of
-- ads_occurrences names its stations (the station index) or its snapshot (the block range
-- index). Keeping the index up to date was a fifth of an import's time (measured: 3 M
-- occurrences in 36-37 s without it, 45-48 s with it).

-- First the admin commands' lock, as the other migrations of the ads tables take it.
select pg_advisory_xact_lock(122519921164290);

drop index if exists ads_occurrences_time;
