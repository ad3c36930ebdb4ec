-- Placeholder for migration 006 (another branch's), so that 007 is in sequence on this branch.
-- Replaced by the real 006 at merge; never shipped.
select 1;
