// The served names of stations and brands and the approved snapshots, at one data version, and
// each grant's newest contributing snapshot: read on demand, kept in the ads cache.

import type { Sql } from "../db/db.ts";
import type { AdsCache } from "./cache.ts";
import { DataMoved } from "./blocks.ts";
import { isoUtc } from "./period.ts";
import type { Scope } from "./scope.ts";

/** A summary's by_brand item as JSON text, up to its figures. */
export function brandHead(id: string, name: string): string {
  return `{"brand_id":${JSON.stringify(id)},"brand_name":${JSON.stringify(name)},`;
}

export interface Catalog {
  version: string;
  stationNames: Map<string, string>;
  brandNames: Map<string, string>;
  /** A summary's by_brand item up to its figures, per served brand: written once, used often. */
  brandHeads: Map<string, string>;
  /** Approved snapshots by seq: id and exported_at (epoch ms). */
  snapshots: Map<number, { id: string; exportedMs: number }>;
}

/** Names and approved snapshots at data version `version` (stations and brands are served ones). */
export async function catalogAt(sql: Sql, cache: AdsCache, version: string): Promise<Catalog> {
  const kept = cache.get<Catalog>("catalog");
  if (kept?.version === version) return kept;
  const rows = await sql<
    { data_version: string; kind: string | null; id: string; name: string; ms: number }
  >`
    select v.version::text as data_version, n.kind, n.id, n.name, n.ms
      from ads_data_version v
      left join (select 'station' as kind, id, name, 0::float8 as ms from ads_stations
                 union all
                 select 'brand', id, name, 0 from ads_brands
                 union all
                 select 'snapshot', seq::text, id, (extract(epoch from exported_at) * 1000)::float8
                   from ads_snapshots where approved_at is not null) n on true`;
  if (rows[0].data_version !== version) throw new DataMoved(rows[0].data_version);
  const catalog: Catalog = {
    version,
    stationNames: new Map(),
    brandNames: new Map(),
    brandHeads: new Map(),
    snapshots: new Map(),
  };
  let bytes = 200;
  for (const row of rows) {
    if (row.kind === null) continue;
    bytes += 80 + 2 * (row.id.length + row.name.length);
    if (row.kind === "station") catalog.stationNames.set(row.id, row.name);
    else if (row.kind === "brand") {
      catalog.brandNames.set(row.id, row.name);
      const head = brandHead(row.id, row.name);
      catalog.brandHeads.set(row.id, head);
      bytes += 40 + 2 * head.length;
    } else catalog.snapshots.set(Number(row.id), { id: row.name, exportedMs: row.ms });
  }
  cache.set("catalog", catalog, bytes);
  return catalog;
}

/**
 * meta.snapshot_exported_at: exported_at of the newest approved snapshot with a visible
 * occurrence anywhere in the grant (`grant`: the whole grant, no filters), at data version
 * `version`. A snapshot part wholly inside the grant period with a visible set counts at once;
 * one crossing an edge of it counts when one of its visible occurrences lies inside.
 */
export async function newestSnapshot(
  sql: Sql,
  cache: AdsCache,
  grant: Scope | null,
  version: string,
): Promise<string | null> {
  if (!grant || grant.empty || !grant.period) return null;
  const key = `newest|${grant.accountId}|${grant.grantVersion}`;
  const kept = cache.get<{ version: string; exportedAt: string | null }>(key);
  if (kept?.version === version) return kept.exportedAt;
  const { since, until } = grant.period;
  // The rule is asked about the sets of the parts looked at only, never about all of them (brand
  // sets are many: every combination aired). Scalar subqueries, not exists: a semi join would
  // work out every visible set to match them, a subquery looks its sets up by id.
  const [row] = await sql<{ data_version: string; exported_at: Date | null }>`
    select (select version::text from ads_data_version) as data_version,
           (select s.exported_at from ads_snapshots s
             where s.approved_at is not null
               and exists (
                 select from ads_cell_parts p
                  where p.snapshot_seq = s.seq and p.station_id = any(${grant.stations}::text[])
                    and p.last_at >= ${since}::timestamptz and p.first_at < ${until}::timestamptz
                    and (select true
                           from ads_visible_sets(${grant.accountId}, ${grant.grantVersion}::uuid) v
                          where v.brand_set = any(p.sets) limit 1)
                    and ((p.first_at >= ${since}::timestamptz and p.last_at < ${until}::timestamptz)
                         or exists (
                           select from ads_occurrences o
                             join ads_brand_sets b on b.brand_ids = o.brand_ids
                            where o.station_id = p.station_id and o.snapshot_seq = p.snapshot_seq
                              and o.review_state = 'confirmed'
                              and o.ad_started_at >= greatest(${since}::timestamptz, p.first_at)
                              and o.ad_started_at <= least(${until}::timestamptz, p.last_at)
                              and o.ad_started_at < ${until}::timestamptz
                              and (select true
                                     from ads_visible_sets(${grant.accountId},
                                                           ${grant.grantVersion}::uuid) v
                                    where v.brand_set = b.id))))
             order by s.exported_at desc limit 1) as exported_at`;
  if (row.data_version !== version) throw new DataMoved(row.data_version);
  const exportedAt = row.exported_at ? isoUtc(row.exported_at) : null;
  cache.set(key, { version, exportedAt }, 200);
  return exportedAt;
}
