// Each account's visible occurrences (ads_account_occurrences, sql/006): written by the admin
// commands that change what an account may see, read by /ads pages without a station filter.
//
// The page trusts these rows: any change to what an account may see must rewrite them in the
// same transaction. Today that is a grant, an approval and a rename; a future command that
// retracts a snapshot or purges old occurrences must delete them here too.

import { frag, type Fragment, type Sql } from "./db.ts";
import { anyBrandIn, lockAdsFigures } from "./ads_scope.ts";

interface KnownGrant {
  known_station_ids: string[];
  known_brand_ids: string[];
  period_since: Date;
  period_until: Date;
}

/** The brands of `ids` (those meeting `keep`) as served: a JSON array of {id, name}, by id. */
function brandsJson(ids: Fragment, keep: Fragment = frag`true`): Fragment {
  return frag`coalesce((select json_agg(json_build_object('id', b.id, 'name', b.name)
                                        order by b.id)
                          from ads_brands b where b.id = any(${ids}) and ${keep}), '[]')`;
}

/**
 * Inserts the account's visible occurrences that also meet `only`: confirmed, of an approved
 * snapshot, on a granted station, within the granted period, with at least one granted brand
 * (the rules of visibleOccurrences, with the grant as it is now), keeping only the granted
 * brands of each, with the current names.
 */
async function insertVisible(tx: Sql, accountId: string, only: Fragment): Promise<void> {
  const [grant] = await tx<KnownGrant>`
    select known_station_ids, known_brand_ids, period_since, period_until
      from ads_grants where account_id = ${accountId}`;
  if (!grant || !grant.known_station_ids.length || !grant.known_brand_ids.length) return;
  const brands = frag`${grant.known_brand_ids}::text[]`;
  // `(x in (select unnest(brands))) is true` keeps the check a hashed subplan, built once for
  // the statement; as a plain `in`, the planner would turn it into a join hashing the granted
  // list again for every occurrence with two brands.
  const granted = (id: Fragment) => frag`(${id} in (select unnest(${brands}))) is true`;
  await tx`
    insert into ads_account_occurrences (account_id, ad_started_at, id, station_id, station_name,
                                         ad_ended_at, duration_ms, duration_precision,
                                         brand_ids, brands)
    select ${accountId}, o.ad_started_at, o.id, o.station_id, s.name, o.ad_ended_at,
           o.duration_ms, o.duration_precision,
           -- A single brand passed the check below, so it is granted.
           case when cardinality(o.brand_ids) = 1 then o.brand_ids
                else array(select x from unnest(o.brand_ids) as x where ${granted(frag`x`)}) end,
           ${brandsJson(frag`o.brand_ids`, granted(frag`b.id`))}
      from ads_occurrences o
      join ads_stations s on s.id = o.station_id
     where o.review_state = 'confirmed'
       and o.station_id = any(${grant.known_station_ids}::text[])
       and o.ad_started_at >= ${grant.period_since}::timestamptz
       and o.ad_started_at < ${grant.period_until}::timestamptz
       and ${anyBrandIn(frag`o.brand_ids`, brands)}
       and o.snapshot_seq in (select seq from ads_snapshots where approved_at is not null)
       and ${only}
     order by o.ad_started_at, o.id`;
}

/**
 * After an import renamed stations or brands (ids whose stored name changed): every account's
 * rows show the new names. A rename is rare; an import that repeats the same names (the usual
 * case) changes nothing here.
 */
export async function renameInAccountOccurrences(
  tx: Sql,
  kind: "station" | "brand",
  ids: string[],
): Promise<void> {
  if (!ids.length) return;
  if (kind === "station") {
    await tx`
      update ads_account_occurrences v set station_name = s.name
        from ads_stations s
       where s.id = v.station_id and v.station_id = any(${ids}::text[])`;
  } else {
    await tx`
      update ads_account_occurrences v set brands = ${brandsJson(frag`v.brand_ids`)}
       where v.brand_ids && ${ids}::text[]`;
  }
}

/** After `grant`: the account's rows, rewritten for its new grant. */
export async function rewriteAccountOccurrences(tx: Sql, accountId: string): Promise<void> {
  await lockAdsFigures(tx);
  await tx`delete from ads_account_occurrences where account_id = ${accountId}`;
  await insertVisible(tx, accountId, frag`true`);
}

/** After approving snapshot `seq`: its visible rows join the account's. */
export async function addApprovedOccurrences(
  tx: Sql,
  accountId: string,
  seq: number,
): Promise<void> {
  await lockAdsFigures(tx);
  await insertVisible(tx, accountId, frag`o.snapshot_seq = ${seq}`);
}
