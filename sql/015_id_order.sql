-- THE VISIBILITY RULE, as 006 wrote it, with one change: a set's brands are listed by character
-- code, whatever the server's default collation (under an ICU one, `order by x` would list
-- "br.10" before "Zeta", and the same data would read differently on two servers).
--
-- The brand sets an account may see at a grant version, each with the brands it shows: those of
-- the set that the grant names. A set is visible when it shows at least one. A grant at another
-- version (replaced since) yields none. Every read of the ads API applies this and nothing else
-- for brands (lib/ads/scope.ts). Asked for some sets (`where brand_set = ...`), it reads only
-- those.
create or replace function ads_visible_sets(account text, grant_version uuid)
returns table (brand_set integer, shown text[]) language sql stable as $$
  select b.id, array_agg(x order by x collate "C")
    from ads_brand_sets b cross join lateral unnest(b.brand_ids) as x
   where x in (select unnest(g.brand_ids) from ads_grants g
                where g.account_id = account and g.version = grant_version)
   group by b.id
$$;
