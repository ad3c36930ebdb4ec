-- 014_ads_approved_frozen: what a request reads from packed parts (figures, records, captures)
-- and what it reads from rows (a page) always agree.
--
-- An approval packs its snapshot's rows once (006). A row of an approved snapshot changed or
-- removed afterwards by SQL would change pages but not totals, summaries or coverage, so it is
-- refused. Corrections go through the snapshot: withdraw its approval (its parts go with it),
-- correct its rows, approve it again (it is packed anew). Rows inserted by SQL straight into an
-- approved snapshot are not checked: a row trigger on insert would tax every import's COPY.

select pg_advisory_xact_lock(122519921164290);

create function ads_refuse_approved_change() returns trigger language plpgsql as $$
begin
  -- A row moved into an approved snapshot is as much a change of it as one moved out.
  if exists (select from ads_snapshots
              where approved_at is not null
                and (seq = old.snapshot_seq
                     or (tg_op = 'UPDATE' and seq = new.snapshot_seq))) then
    raise exception 'rows of approved snapshot % cannot change: withdraw its approval (set approved_at to null), correct them, then approve it again', old.snapshot_seq
      using errcode = 'check_violation';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end $$;
create trigger ads_occurrences_frozen before update or delete on ads_occurrences
  for each row execute function ads_refuse_approved_change();
create trigger ads_captures_frozen before update or delete on ads_captures
  for each row execute function ads_refuse_approved_change();

create function ads_refuse_approved_truncate() returns trigger language plpgsql as $$
begin
  if exists (select from ads_snapshots where approved_at is not null) then
    raise exception '% cannot be emptied while snapshots are approved', tg_table_name
      using errcode = 'check_violation';
  end if;
  return null;
end $$;
create trigger ads_occurrences_not_emptied before truncate on ads_occurrences
  for each statement execute function ads_refuse_approved_truncate();
create trigger ads_captures_not_emptied before truncate on ads_captures
  for each statement execute function ads_refuse_approved_truncate();

-- A snapshot whose approval is withdrawn, or which is removed, leaves no parts behind: they
-- were read only while it was approved, and approving it again packs its rows as they are then.
create function ads_drop_withdrawn_parts() returns trigger language plpgsql as $$
begin
  delete from ads_cell_parts where snapshot_seq = old.seq;
  delete from ads_record_parts where snapshot_seq = old.seq;
  delete from ads_capture_parts where snapshot_seq = old.seq;
  return null;
end $$;
create trigger ads_snapshots_withdrawn after update of approved_at on ads_snapshots
  for each row when (old.approved_at is not null and new.approved_at is null)
  execute function ads_drop_withdrawn_parts();
create trigger ads_snapshots_parts_removed after delete on ads_snapshots
  for each row when (old.approved_at is not null) execute function ads_drop_withdrawn_parts();

-- A grant's bounds in whole milliseconds, as the service computes periods: a bound between two
-- milliseconds would let the SQL of a page and the service's day arithmetic disagree about a row
-- at that instant. Bounds written by SQL with finer precision are narrowed, never widened.
update ads_grants
   set period_since = date_trunc('milliseconds', period_since)
                      + case when date_trunc('milliseconds', period_since) < period_since
                             then interval '1 millisecond' else interval '0' end,
       period_until = date_trunc('milliseconds', period_until)
 where date_trunc('milliseconds', period_since) <> period_since
    or date_trunc('milliseconds', period_until) <> period_until;
alter table ads_grants add constraint ads_grants_whole_milliseconds
  check (date_trunc('milliseconds', period_since) = period_since
         and date_trunc('milliseconds', period_until) = period_until);
