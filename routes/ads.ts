// GET /api/v1/ads: confirmed occurrences within the account's scope, one page at a time.

import { apiKey } from "../lib/apikey.ts";
import {
  newestOccurrenceSnapshot,
  NOTICE_ADS,
  periodMeta,
  periodMetaSchema,
  periodQuery,
  resolveScope,
  type Scope,
  scopeId,
  totalSql,
  visibleOccurrences,
} from "../lib/ads_scope.ts";
import { empty, frag, type Fragment } from "../lib/db.ts";
import { isoUtc } from "../lib/period.ts";
import { defineRoute, json } from "../lib/router.ts";
import { array, boolean, enumOf, int, number, object, optional, string } from "../lib/schema.ts";

const occurrenceSchema = object({
  id: string({ description: "UUID" }),
  station_id: string(),
  station_name: string(),
  ad_started_at: string({ description: "UTC, ISO 8601 with Z" }),
  ad_ended_at: string({ description: "UTC, ISO 8601 with Z" }),
  duration_seconds: number(),
  duration_precision: enumOf(["estimated", "detected", "human_confirmed"]),
  review_state: enumOf(["confirmed"]),
  brands: array(object({ id: string(), name: string() })),
});

const pageSchema = object({
  data: array(occurrenceSchema),
  meta: object({
    limit: int(),
    offset: int(),
    total: int(),
    has_more: boolean(),
    ...periodMetaSchema,
  }),
});

interface OccurrenceRow {
  id: string;
  station_id: string;
  station_name: string;
  ad_started_at: Date;
  ad_ended_at: Date;
  duration_ms: number;
  duration_precision: string;
  review_state: string;
  brands: { id: string; name: string }[];
}

/**
 * The page: OccurrenceRow columns and `total` (the scalar subquery given, evaluated once) in
 * (ad_started_at, id) order. Without a station filter, the account's own visible rows
 * (ads_account_occurrences), which already hold the station name and the granted brands with
 * their names: read in page order, every entry is served as it is, or, with a brand filter, once
 * its brands are checked. With a station filter, that station's rows of ads_occurrences in time
 * order (its index; the rare rows starting together sorted by id), with the scope checked row by
 * row (see visibleOccurrences), and the names looked up for the page's rows only.
 */
export function pageSql(
  scope: Scope,
  since: Date,
  until: Date,
  limit: number,
  offset: number,
  total: Fragment,
) {
  if (scope.accountRows) {
    return frag`
      select v.id, v.station_id, v.station_name, v.ad_started_at, v.ad_ended_at, v.duration_ms,
             v.duration_precision, 'confirmed'::text as review_state, v.brands, ${total} as total
        from ads_account_occurrences v
       where v.account_id = ${scope.accountId}
         and v.ad_started_at >= ${since}::timestamptz and v.ad_started_at < ${until}::timestamptz
         ${scope.brandId === null ? empty : frag`and ${scope.brandId}::text = any(v.brand_ids)`}
         -- The grant version the key lookup saw, as the filtered path and the total ask for:
         -- a grant replaced meanwhile gives an empty page, never rows of two grants.
         and exists (select from ads_grants g where g.account_id = ${scope.accountId}
                                                and g.scope_version = ${scope.scopeVersion})
       order by v.ad_started_at, v.id
       limit ${limit} offset ${offset}`;
  }
  return frag`
    select p.id, p.station_id, s.name as station_name, p.ad_started_at, p.ad_ended_at,
           p.duration_ms, p.duration_precision, p.review_state,
           coalesce((select json_agg(json_build_object('id', b.id, 'name', b.name) order by b.id)
                       from ads_brands b
                      where b.id = any(p.brand_ids)
                        -- Not a join: a hashed subplan, built once per query.
                        and (b.id in (select unnest(${scope.shownBrandsSql}))) is true),
                    '[]') as brands,
           ${total} as total
      from (select o.id, o.station_id, o.ad_started_at, o.ad_ended_at, o.duration_ms,
                   o.duration_precision, o.review_state, o.brand_ids
              from ads_occurrences o
             where ${visibleOccurrences(scope, since, until)}
             order by o.ad_started_at, o.id
             limit ${limit} offset ${offset}) p
      join ads_stations s on s.id = p.station_id
     order by p.ad_started_at, p.id`;
}

export const routes = [
  defineRoute({
    method: "GET",
    path: "/api/v1/ads",
    api: "ads",
    tag: "ads",
    summary: "Confirmed occurrences within the account scope",
    description: "Only confirmed occurrences of approved snapshots whose station is granted, " +
      "whose ad_started_at lies in the granted period and that carry at least one granted " +
      "brand; brands lists only the granted ones. The scope is applied in SQL before counting " +
      "and paging. Ordered by ad_started_at, then id. The effective period is the requested " +
      "one (default: the 7 days before until; until defaults to now and is exclusive; at most " +
      "31 days) intersected with the grant: meta shows both, and period is null when they do " +
      "not overlap (empty result). duration_seconds = ad_ended_at - ad_started_at. A page past " +
      "the end is empty, with the total and has_more false. " +
      "Order of checks: 401, 403, 429, 422, 404.",
    auth: apiKey("ads:read"),
    query: {
      ...periodQuery,
      station_id: scopeId("station"),
      brand_id: scopeId("brand"),
      limit: optional(int({ min: 1, max: 100, description: "Page size." }), 50),
      offset: optional(int({ min: 0, max: 100_000 }), 0),
    },
    responses: { 200: { description: "One page.", schema: pageSchema } },
    errors: [401, 403, 404, 422, 429, 503],
    handler: async ({ app, principal, query }) => {
      const scope = resolveScope(principal, query, app.clock());
      const meta = {
        limit: query.limit,
        offset: query.offset,
        total: 0,
        has_more: false,
        ...periodMeta(scope),
        snapshot_exported_at: null as string | null,
        notice: NOTICE_ADS,
      };
      if (scope.empty) {
        meta.snapshot_exported_at = newestOccurrenceSnapshot(principal);
        return json({ data: [], meta });
      }
      const { since, until } = scope.period!;
      const total = totalSql(scope);
      // One statement: the page (read in time order, stopping after offset + limit rows) with the
      // total on every row. Only a page past the end needs a second one, for the total alone.
      const data = await app.db.sql<OccurrenceRow & { total: number }>`
          ${pageSql(scope, since, until, query.limit, query.offset, total)}`;
      meta.total = data.length
        ? data[0].total
        : (await app.db.sql<{ total: number }>`select ${total} as total`)[0].total;
      // An empty page has nothing after it, even if an approval committed between the two
      // statements and its total counts more.
      meta.has_more = data.length > 0 && query.offset + data.length < meta.total;
      meta.snapshot_exported_at = newestOccurrenceSnapshot(principal);
      return json({
        data: data.map((row) => ({
          id: row.id,
          station_id: row.station_id,
          station_name: row.station_name,
          ad_started_at: isoUtc(row.ad_started_at),
          ad_ended_at: isoUtc(row.ad_ended_at),
          duration_seconds: row.duration_ms / 1000,
          duration_precision: row.duration_precision,
          review_state: row.review_state,
          // Only the granted brands, selected in the query above.
          brands: row.brands,
        })),
        meta,
      });
    },
  }),
];
