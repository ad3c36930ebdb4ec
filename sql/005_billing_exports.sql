-- 005_billing_exports: filled in by its issue.
select 1;
