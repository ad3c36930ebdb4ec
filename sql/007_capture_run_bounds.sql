-- 007_capture_run_bounds: what /api/v1/coverage needs of a capture run, kept with the run.
--
-- * capture_starts, capture_ends: the starts and the ends of its captures, each sorted, so that
--   the captures of a run crossing the period's start or end are counted with two binary searches
--   (width_bucket) instead of being read. A 31-day coverage of 50 stations meets about 100 such
--   runs, and reading their captures was two fifths of the query's time. A capture overlaps
--   [since, until) when it starts before until and does not end by since; the second set is
--   inside the first, so the count is (starts < until) - (ends <= since). 16 bytes per approved
--   capture (9 MB for the bench's 534,652 captures).
-- * prev_ended_at: the end of the station's previous run (null for its first), where the gap
--   before this run starts; reading it spares each request a window over its runs, a sixth of
--   the query's time.
-- First the admin commands' lock (lib/ads/scope.ts lockAdsFigures), as they take it: before the
-- table lock below, so that an approval still running (it takes this lock, then writes the runs)
-- finishes first instead of deadlocking with this migration, and its captures are read below.
select pg_advisory_xact_lock(122519921164290);

alter table ads_capture_runs
  add column capture_starts timestamptz[] not null default '{}',
  add column capture_ends timestamptz[] not null default '{}',
  add column prev_ended_at timestamptz;

-- The runs of some stations rebuilt from all their approved captures: the one definition of a
-- run, called by the approval (lib/capture_runs.ts) and below for the runs already there.
-- reach: the latest end among the captures before this one (in start order); a capture
-- starting after it begins a new run, one starting at it or before joins the current run.
create function ads_rebuild_capture_runs(stations text[]) returns void language sql as $$
  delete from ads_capture_runs where station_id = any(stations);
  insert into ads_capture_runs (station_id, started_at, ended_at, captures, snapshot_seqs,
                                capture_starts, capture_ends, prev_ended_at)
  select runs.*, lag(runs.ended_at) over (partition by runs.station_id order by runs.started_at)
    from (
      select n.station_id, min(n.started_at) as started_at, max(n.ended_at) as ended_at,
             count(*)::int, array_agg(distinct n.snapshot_seq order by n.snapshot_seq),
             array_agg(n.started_at order by n.started_at),
             array_agg(n.ended_at order by n.ended_at)
        from (
          select m.*, count(*) filter (where m.started_at > m.reach)
                        over (partition by m.station_id order by m.started_at, m.ended_at
                              rows unbounded preceding) as run
            from (
              select c.station_id, c.started_at, c.ended_at, c.snapshot_seq,
                     max(c.ended_at) over (partition by c.station_id
                                           order by c.started_at, c.ended_at
                                           rows between unbounded preceding and 1 preceding)
                       as reach
                from ads_captures c
               where c.station_id = any(stations)
                 and c.snapshot_seq in (select seq from ads_snapshots
                                         where approved_at is not null)
            ) m
        ) n
       group by n.station_id, n.run
    ) runs;
$$;

-- The runs already there, rebuilt with their bounds.
select ads_rebuild_capture_runs(array(select distinct station_id from ads_capture_runs));
alter table ads_capture_runs
  alter column capture_starts drop default,
  alter column capture_ends drop default;
