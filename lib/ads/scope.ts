// The account scope of the ads API (ads-api.md §1, §4; contract.md §2), in one place. An
// occurrence is visible when it is confirmed, of an approved snapshot, on a granted station that
// is served, starts within the effective period (the request's period within the grant) and its
// brand set is one the account may see (the brand_id filter's, when given); it shows only the
// brands its set shows. Which sets an account may see, and what they show, is one SQL definition
// (ads_visible_sets, sql/015_id_order.sql): this module reads its result and applies it.

import type { AdsPrincipal } from "./apikey.ts";
import { frag, type Fragment, type Sql } from "../db/db.ts";
import { ApiError } from "../errors.ts";
import type { AdsCache } from "./cache.ts";
import { effectivePeriod, type Period, requestedPeriod } from "./period.ts";

interface ScopeQuery {
  since?: Date;
  until?: Date;
  station_id?: string;
  brand_id?: string;
}

/** What one request may see, after its filters: every list is a subset of the grant. */
export interface Scope {
  requested: Period;
  /** requested ∩ granted; null = nothing can match. */
  period: Period | null;
  /** The granted stations that are served (sorted), or the one of the station_id filter. */
  stations: string[];
  /** The station_id and brand_id filters, if any (a granted station and brand that are served). */
  stationId: string | null;
  brandId: string | null;
  /** The grant as the key lookup read it: its visible sets are read at this version only. */
  accountId: string;
  grantVersion: string;
  /** True when no row can match, so the handler need not ask the database. */
  empty: boolean;
}

function notInScope(what: "station" | "brand"): ApiError {
  const message = `No such ${what} in this account's scope.`;
  return new ApiError(404, "NOT_FOUND", { message, field: `${what}_id` });
}

/**
 * Resolves the request's period and filters against the grant. A filter id outside the scope
 * answers exactly as one that does not exist, so ids of other accounts cannot be probed.
 */
export function resolveScope(principal: AdsPrincipal, query: ScopeQuery, now: Date): Scope {
  return scopeOf(principal, requestedPeriod(query, now), query);
}

function scopeOf(principal: AdsPrincipal, requested: Period, query: ScopeQuery): Scope {
  const period = effectivePeriod(requested, principal.period);
  const { station_id: stationId = null, brand_id: brandId = null } = query;
  if (stationId !== null && !principal.stations.includes(stationId)) throw notInScope("station");
  if (brandId !== null && !principal.brandFilterGranted) throw notInScope("brand");
  const stations = stationId === null ? principal.stations : [stationId];
  return {
    requested,
    period,
    stations,
    stationId,
    brandId,
    accountId: principal.account.id,
    grantVersion: principal.grantVersion,
    empty: period === null || stations.length === 0,
  };
}

/** The whole grant, without filters (meta.snapshot_exported_at looks at it). */
export function grantScope(principal: AdsPrincipal): Scope | null {
  return principal.period && scopeOf(principal, principal.period, {});
}

/** The account's granted brands (SQL text[]) at the grant version the key lookup saw, else null. */
export function grantedBrandsSql(scope: Pick<Scope, "accountId" | "grantVersion">): Fragment {
  return frag`(select brand_ids from ads_grants
                where account_id = ${scope.accountId} and version = ${scope.grantVersion}::uuid)`;
}

/** What each brand set met so far shows the grant (null: not visible), as ads_visible_sets says. */
interface GrantSets {
  shown: Map<number, string[] | null>;
  /** Lists (a cached block's sets) whose every set is in `shown` already. */
  resolved: WeakSet<ArrayLike<number>>;
  bytes: number;
}

/** A grant's brand sets as one request sees them. */
export interface VisibleSets {
  /**
   * Looks up the sets of `lists` not met before (a set's visibility at a grant version never
   * changes).
   */
  resolve(lists: ArrayLike<number>[]): Promise<void>;
  /**
   * What a resolved set shows the request: its granted brands, or undefined when the request
   * may not see it (not visible to the grant, or without the brand_id filter's brand).
   */
  shown(set: number): string[] | undefined;
}

export function visibleSets(sql: Sql, cache: AdsCache, scope: Scope): VisibleSets {
  const key = `sets|${scope.accountId}|${scope.grantVersion}`;
  const kept = cache.get<GrantSets>(key) ??
    { shown: new Map(), resolved: new WeakSet(), bytes: 100 };
  const { brandId } = scope;
  return {
    async resolve(lists) {
      const unseen = new Set<number>();
      for (const list of lists) {
        if (kept.resolved.has(list)) continue;
        for (let i = 0; i < list.length; i++) if (!kept.shown.has(list[i])) unseen.add(list[i]);
      }
      const done = () => lists.forEach((list) => kept.resolved.add(list));
      if (!unseen.size) return done();
      const missing = [...unseen];
      const rows = await sql<{ brand_set: number; shown: string[] }>`
        select brand_set, shown
          from ads_visible_sets(${scope.accountId}, ${scope.grantVersion}::uuid)
         where brand_set = any(${missing}::int[])`;
      const found = new Map(rows.map((row) => [row.brand_set, row.shown]));
      for (const set of missing) {
        const shown = found.get(set) ?? null;
        kept.shown.set(set, shown);
        kept.bytes += 40 + (shown?.reduce((n, id) => n + 2 * id.length + 30, 0) ?? 0);
      }
      cache.set(key, kept, kept.bytes);
      done();
    },
    shown(set) {
      const brands = kept.shown.get(set);
      if (!brands) return undefined;
      return brandId === null || brands.includes(brandId) ? brands : undefined;
    },
  };
}

/**
 * The scope's visible occurrences starting in [from, until) (clipped to the effective period), of
 * approved snapshots, whose brand set is one of `sets`: id, station_id, ad_started_at,
 * ad_ended_at, duration_ms, duration_precision, snapshot_seq and brand_set. `sets` must be sets
 * the request may see, as `VisibleSets.shown` says (ads_visible_sets at the scope's grant
 * version), and what a row shows is what `shown` says of its set: the rule is asked once, not
 * again per statement. A grant replaced since the key lookup gives no row.
 */
export function scopedOccurrences(
  scope: Scope,
  from: Date,
  until: Date,
  sets: number[],
): Fragment {
  const range = effectivePeriod({ since: from, until }, scope.period);
  if (!range || scope.empty || !sets.length) {
    return frag`select null::uuid as id, null::text as station_id,
                       null::timestamptz as ad_started_at, null::timestamptz as ad_ended_at,
                       0 as duration_ms, null::text as duration_precision, 0 as snapshot_seq,
                       0 as brand_set where false`;
  }
  // Each part read once, the occurrences through their index and the sets through theirs, then
  // joined: so a kept generic plan (Db.keptPlans) is as good as one made for the values.
  return frag`
    with o as materialized (
      select o.id, o.station_id, o.ad_started_at, o.ad_ended_at, o.duration_ms,
             o.duration_precision, o.snapshot_seq, o.brand_ids
        from ads_occurrences o
       where o.review_state = 'confirmed' and o.station_id = any(${scope.stations}::text[])
         and o.ad_started_at >= ${range.since}::timestamptz
         and o.ad_started_at < ${range.until}::timestamptz
         and o.snapshot_seq in (select seq from ads_snapshots where approved_at is not null)
         and exists (select from ads_grants g where g.account_id = ${scope.accountId}
                                                and g.version = ${scope.grantVersion}::uuid)),
    b as materialized (select id, brand_ids from ads_brand_sets where id = any(${sets}::int[]))
    select o.id, o.station_id, o.ad_started_at, o.ad_ended_at, o.duration_ms,
           o.duration_precision, o.snapshot_seq, b.id as brand_set
      from o join b on b.brand_ids = o.brand_ids`;
}
