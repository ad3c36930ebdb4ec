-- 013_station_index_without_id: ads_occurrences' station index loses its last column, id:
-- (station_id, ad_started_at, id) becomes (station_id, ad_started_at).
--
-- Why: keeping this index up to date is most of what an import costs PostgreSQL, since each
-- station's rows arrive at their own place in it. Without the id, an import of the bench's 3 M
-- occurrences took 37.9-42.4 s instead of 44.8-45.9 s (alternating runs on one machine), and the
-- index takes 87 MB instead of 229 MB (16 bytes less per entry, and pages left fuller by their
-- splits: measured, the reason not checked).
--
-- The one read that relied on the id's order, an /ads page filtered by station, still reads that
-- station's rows in time order from this index and sorts only the rows that share a start time
-- (an incremental sort; one station airs one advertisement at a time, so such ties are rare).
-- Every other reader (a report's partial days, a station's total) aggregates and needs no order.
--
-- Locks: as 011, not the admin commands' lock (an import writes ads_occurrences before it takes
-- that lock), and a bounded wait for the table. Building the index blocks imports, not reads;
-- dropping the old one then needs the table to itself for an instant, so it waits for the reads
-- in progress (an approval reads it for minutes) while new reads queue behind it. Past 10 s of
-- either wait the migration fails, nothing of it is kept, and the instance stops with the error:
-- start it again when no import or approval runs.
set local lock_timeout = '10s';

create index ads_occurrences_station_time_new on ads_occurrences (station_id, ad_started_at)
  where review_state = 'confirmed';
drop index ads_occurrences_station_time;
alter index ads_occurrences_station_time_new rename to ads_occurrences_station_time;
