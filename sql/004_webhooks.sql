-- 004_webhooks: filled in by its issue.
select 1;
