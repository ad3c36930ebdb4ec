-- 003_forms: filled in by its issue.
select 1;
