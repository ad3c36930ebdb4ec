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

-- Upgrading: stop the instances of an older build before starting this one. They read such
-- pages from ads_occurrences in time order and, without this index, would scan the table.
--
-- One lock only, and not the admin commands' lock: an import writes ads_occurrences before it
-- takes that lock, so holding it here while waiting for the table would deadlock with an import
-- in progress. Dropping the index needs the table to itself, and every request reading the table
-- queues behind the wait: past the timeout this migration fails (nothing of it is kept) and the
-- instance stops with the error, instead of stalling the running ones for a whole import; start
-- it again once the import is done.
set local lock_timeout = '10s';

drop index if exists ads_occurrences_time;
