-- 002_ads: filled in by its issue.
select 1;
