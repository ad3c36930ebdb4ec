// The account scope of an ads request as SQL: which occurrences and captures a caller may see,
// applied in the where clause before any count, aggregate or page (ads-api.md §1, §4).

import type { AdsPrincipal } from "./apikey.ts";
import { empty, frag, type Fragment, join, type Sql } from "./db.ts";
import { ApiError } from "./errors.ts";
import { dateTime, nullable, object, optional, string } from "./schema.ts";
import {
  ceilDay,
  DAY_MS,
  dayString,
  effectivePeriod,
  floorDay,
  type Period,
  periodJson,
  requestedPeriod,
} from "./period.ts";

export interface ScopeQuery {
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
  stations: string[];
  /**
   * As SQL text[] expressions: the brands an occurrence must carry one of (the brand_id
   * filter, or every granted brand), and the brands shown in an occurrence's list and in
   * by_brand (always the granted ones). The granted list is read from the grant row in the
   * query rather than sent: shipping and parsing thousands of ids in every query cost more
   * than the rest of an /ads request.
   */
  matchBrandsSql: Fragment;
  shownBrandsSql: Fragment;
  /** True when no row can match, so the handler need not ask the database. */
  empty: boolean;
  accountId: string;
  /** The grant version the key lookup saw (see grantedBrandsSql). */
  scopeVersion: number;
  /** The brand_id filter, if any. */
  brandId: string | null;
  /** No brand filter: whole days may come from the account's own pre-aggregates. */
  accountFigures: boolean;
  /** No station filter: pages may come from the account's own visible rows. */
  accountRows: boolean;
  /** No filter at all: so may the per-brand figures. */
  accountBrandFigures: boolean;
}

export const NOTICE_ADS = "An empty or short result does not prove that no advertisement aired: " +
  "only confirmed occurrences of approved snapshots within this account's scope are listed. " +
  "Check the period, the coverage (/api/v1/coverage), the freshness of the source " +
  "(snapshot_exported_at) and the data limits.";

export const NOTICE_COVERAGE = "Coverage counts only captures linked to the data granted to this " +
  "account (its stations, within its period); it does not measure continuous operation of a " +
  "station. An absence of captures or occurrences does not prove that no advertisement aired.";

/**
 * The account's granted brands that exist, as a SQL text[] read from its grant row, and only
 * from the version of the grant the key lookup saw: a grant replaced since then with other
 * ids (or an import that brought granted ids into existence) yields null, so a request never
 * mixes the stations and period of one grant with the brands of another.
 */
export function grantedBrandsSql(principal: AdsPrincipal): Fragment {
  return frag`(select known_brand_ids from ads_grants
                where account_id = ${principal.account.id}
                  and scope_version = ${principal.scopeVersion})`;
}

/**
 * Resolves the request's period and filters against the grant. A filter id outside the scope
 * answers exactly as one that does not exist, so ids of other accounts cannot be probed.
 */
export function resolveScope(principal: AdsPrincipal, query: ScopeQuery, now: Date): Scope {
  const requested = requestedPeriod(query, now);
  const period = effectivePeriod(requested, principal.period);
  let stations = principal.stations;
  if (query.station_id !== undefined) {
    if (!stations.includes(query.station_id)) {
      throw new ApiError(
        404,
        "NOT_FOUND",
        "No such station in this account's scope.",
        "station_id",
      );
    }
    stations = [query.station_id];
  }
  if (query.brand_id !== undefined && !principal.brandFilterGranted) {
    throw new ApiError(404, "NOT_FOUND", "No such brand in this account's scope.", "brand_id");
  }
  const grantedBrands = grantedBrandsSql(principal);
  return {
    requested,
    period,
    stations,
    matchBrandsSql: query.brand_id === undefined
      ? grantedBrands
      : frag`array[${query.brand_id}::text]`,
    shownBrandsSql: grantedBrands,
    empty: period === null || stations.length === 0 || principal.brandCount === 0,
    accountId: principal.account.id,
    scopeVersion: principal.scopeVersion,
    brandId: query.brand_id ?? null,
    accountFigures: query.brand_id === undefined,
    accountRows: query.station_id === undefined,
    accountBrandFigures: query.brand_id === undefined && query.station_id === undefined,
  };
}

/**
 * "At least one brand of `column` is in `brands`" in a form that stays fast for grants of
 * thousands of brands under generic (prepared) plans: `a && $1` compares every pair of
 * elements for every row, while `x in (select unnest($1))` outside the top-level where clause
 * becomes a hashed subplan, built once per query and probed in constant time. The first two
 * brands of a row (nearly always all of them) are probed directly.
 */
export function anyBrandIn(column: Fragment, brands: Fragment): Fragment {
  return frag`(${column}[1] in (select unnest(${brands}))
    or ${column}[2] in (select unnest(${brands}))
    or (cardinality(${column}) > 2 and (select bool_or(x in (select unnest(${brands})))
                                          from unnest(${column}[3:]) as x)))`;
}

/**
 * Conditions on `ads_occurrences o` for the rows visible in the scope between from and until.
 * Its stations are named, so the (station_id, ad_started_at) index reads only theirs: one (a
 * station_id filter, a page) in time order, ties sorted by id, or several (the partial days of a
 * report) in any.
 */
export function visibleOccurrences(scope: Scope, from: Date, until: Date): Fragment {
  return frag`o.review_state = 'confirmed'
    and ${
    scope.stations.length === 1
      ? frag`o.station_id = ${scope.stations[0]}`
      : frag`o.station_id = any(${scope.stations}::text[])`
  }
    and o.ad_started_at >= ${from}::timestamptz and o.ad_started_at < ${until}::timestamptz
    and ${anyBrandIn(frag`o.brand_ids`, scope.matchBrandsSql)}
    and o.snapshot_seq in (select seq from ads_snapshots where approved_at is not null)`;
}

/** The SQL of the scope's figures, as CTEs plus two row sources to aggregate. */
export interface FigureSql {
  /** Common table expressions (`name as (...)`) the row sources below refer to; maybe none. */
  ctes: Fragment[];
  /** Rows (station_id, occurrences, duration_ms, human_ms), to sum per station. */
  stations: Fragment;
  /** Rows (day, occurrences, duration_ms, human_ms), to sum per day: one count per occurrence. */
  days: Fragment;
  /**
   * Rows (brand_id, occurrences, duration_ms, human_ms): one per occurrence and shown brand,
   * or null when there are none to add to brandDays.
   */
  brands: Fragment | null;
  /**
   * For whole days without filters, the account's per-brand running totals as one row
   * (BrandDaysRow), to add to `brands`; null otherwise.
   */
  brandDays: Fragment | null;
}

/**
 * A brandDays row: the version of the account's figures, the brands as [id, name] pairs unless
 * that version is the one the caller said it holds (null then), and their running totals at the
 * last whole day and at the day before the first: each day's date (null when there is no data by
 * then) and its figures as base64 of the packed integers (sql/010_packed_brand_figures.sql: brand
 * i's occurrences, duration_ms and human_ms at bytes 24 i to 24 i + 23), null when there is no
 * data or when the caller said it holds that day's figures at that version.
 */
export interface BrandDaysRow {
  figures_version: string;
  figure_brands: [string, string][] | null;
  end_figures: string | null;
  start_figures: string | null;
}

/**
 * The two days a summary of whole days subtracts the running totals of (YYYY-MM-DD): the day
 * before the period's last whole day's end and the day before its first whole day. The query
 * clamps each to the account's last day with data, which is fixed for a figures_version.
 */
export interface RunningTotalDays {
  endDay: string;
  startDay: string;
}

/**
 * What a caller keeps of an account's figures: their version, and whether it holds the figures
 * of each of the two RunningTotalDays at that version.
 */
export interface HeldFigures {
  version: string;
  end: boolean;
  start: boolean;
}

const FIGURES = frag`occurrences, duration_ms, human_ms`;

/**
 * Where the scope's figures come from. Whole UTC days come from pre-aggregates: the
 * account's own (ads_account_daily, ads_account_brand_days, refreshed by `grant` and
 * `snapshot approve`) when no brand filter applies (and no station filter, for brands), else
 * ads_daily per station, day and brand set. The partial first and last day always come from
 * raw rows, so the figures stay exact to the millisecond.
 */
export function figureSql(scope: Scope, held: HeldFigures | null = null): FigureSql {
  const { since, until } = scope.period!;
  const raw = (from: Date, to: Date) =>
    frag`select o.station_id, (o.ad_started_at at time zone 'UTC')::date as day, o.brand_ids,
            1::int8 as occurrences, o.duration_ms::int8 as duration_ms,
            (case when o.duration_precision = 'human_confirmed' then o.duration_ms else 0 end)::int8
              as human_ms
       from ads_occurrences o where ${visibleOccurrences(scope, from, to)}`;
  const brandsOf = (source: Fragment) =>
    frag`select b.id as brand_id, r.occurrences, r.duration_ms, r.human_ms
       from ${source} r
       cross join lateral unnest(r.brand_ids) as b(id)
      where b.id in (select unnest(${scope.shownBrandsSql}))`;
  const firstDay = ceilDay(since);
  const endDay = floorDay(until);
  const totalDays = runningTotalDays(scope.period!);
  if (totalDays === null) {
    return {
      ctes: [frag`raw_rows as (${raw(since, until)})`],
      stations: frag`select station_id, ${FIGURES} from raw_rows`,
      days: frag`select day, ${FIGURES} from raw_rows`,
      brands: brandsOf(frag`raw_rows`),
      brandDays: null,
    };
  }
  const edges: Fragment[] = [];
  if (since < firstDay) edges.push(raw(since, firstDay));
  if (endDay < until) edges.push(raw(endDay, until));
  const inDays = frag`day >= ${dayString(firstDay)}::date and day < ${dayString(endDay)}::date`;
  // Whole days only (the usual report): no raw rows at all, so nothing to plan for them.
  const plusRaw = (rows: Fragment, fromRaw: Fragment) =>
    edges.length ? frag`${rows} union all ${fromRaw}` : rows;
  const ctes: Fragment[] = [];
  if (edges.length) ctes.push(frag`raw_rows as (${join(edges, frag` union all `)})`);
  if (!scope.accountFigures) {
    ctes.push(frag`daily_rows as (
      select d.station_id, d.day, d.brand_ids, d.occurrences, d.duration_ms, d.human_ms
        from ads_daily d
       where d.station_id = any(${scope.stations}::text[])
         and d.${inDays} and ${anyBrandIn(frag`d.brand_ids`, scope.matchBrandsSql)})`);
  }
  const rawStationDays = frag`select station_id, day, ${FIGURES} from raw_rows`;
  const stationDays = scope.accountFigures
    ? plusRaw(
      frag`select station_id, day, ${FIGURES} from ads_account_daily
            where account_id = ${scope.accountId} and station_id = any(${scope.stations}::text[])
              and ${inDays}`,
      rawStationDays,
    )
    : plusRaw(frag`select station_id, day, ${FIGURES} from daily_rows`, rawStationDays);
  const stations = scope.accountFigures
    // Running totals per station: the last day's minus the day before the first's, whatever
    // the length of the period, read as two ranges of the (account_id, day) index.
    ? plusRaw(
      frag`select e.station_id, e.cum_occurrences - coalesce(b.cum_occurrences, 0) as occurrences,
                  e.cum_duration_ms - coalesce(b.cum_duration_ms, 0) as duration_ms,
                  e.cum_human_ms - coalesce(b.cum_human_ms, 0) as human_ms
             from ads_account_daily e
             left join (select station_id, cum_occurrences, cum_duration_ms, cum_human_ms
                          from ads_account_daily
                         where account_id = ${scope.accountId}
                           and day = ${runningTotalDay(scope.accountId, totalDays.startDay)}) b
               on b.station_id = e.station_id
            where e.account_id = ${scope.accountId}
              and e.day = ${runningTotalDay(scope.accountId, totalDays.endDay)}
              and e.station_id in (select unnest(${scope.stations}::text[]))`,
      frag`select station_id, ${FIGURES} from raw_rows`,
    )
    : frag`select station_id, ${FIGURES} from (${stationDays}) s`;
  const dayFigures = scope.accountBrandFigures
    ? plusRaw(
      frag`select day, ${FIGURES} from ads_account_day_totals
            where account_id = ${scope.accountId} and ${inDays}`,
      frag`select day, ${FIGURES} from raw_rows`,
    )
    : frag`select day, ${FIGURES} from (${stationDays}) s`;
  const brandDays = scope.accountBrandFigures ? brandDaysSql(scope, totalDays, held) : null;
  const brands = scope.accountBrandFigures
    ? (edges.length ? brandsOf(frag`raw_rows`) : null)
    : scope.accountFigures
    // Account totals but a station filter: brands per station come from ads_daily.
    ? plusRaw(
      frag`select b.id as brand_id, d.occurrences, d.duration_ms, d.human_ms
             from ads_daily d cross join lateral unnest(d.brand_ids) as b(id)
            where d.station_id = any(${scope.stations}::text[]) and d.${inDays}
              and b.id in (select unnest(${scope.shownBrandsSql}))`,
      brandsOf(frag`raw_rows`),
    )
    : plusRaw(brandsOf(frag`daily_rows`), brandsOf(frag`raw_rows`));
  return { ctes, stations, days: dayFigures, brands, brandDays };
}

/**
 * The account's per-brand running totals at the last whole day and at the day before the first
 * (a BrandDaysRow): by_brand over whole days is their difference, two rows whatever the number
 * of brands. Read only at the grant version the key lookup saw, like grantedBrandsSql: a grant
 * replaced in between yields no row rather than another grant's brands. The [id, name] pairs and
 * each day's figures come along unless `held` says the caller keeps them at the version that is
 * current: read in the same statement as that version, kept ones always match it (within a
 * version, a day and the account's last day with data, so the row it is clamped to, are fixed).
 * A day's figures not sent are not read either (they are stored out of line).
 */
export function brandDaysSql(
  scope: Pick<Scope, "accountId" | "scopeVersion">,
  days: RunningTotalDays,
  held: HeldFigures | null = null,
): Fragment {
  const current = frag`g.figures_version = ${held?.version ?? null}::uuid`;
  return frag`
    select g.figures_version,
           case when ${current} then null else g.figure_brands end as figure_brands,
           case when ${current} and ${held?.end ?? false} then null else e.figures end
             as end_figures,
           case when ${current} and ${held?.start ?? false} then null else b.figures end
             as start_figures
      from ads_grants g
      left join ads_account_brand_days e
        on e.account_id = g.account_id and e.day = ${runningTotalDay(scope.accountId, days.endDay)}
      left join ads_account_brand_days b
        on b.account_id = g.account_id
       and b.day = ${runningTotalDay(scope.accountId, days.startDay)}
     where g.account_id = ${scope.accountId} and g.scope_version = ${scope.scopeVersion}`;
}

/** The RunningTotalDays of a period, the one definition of them; null with no whole day. */
export function runningTotalDays(period: Period): RunningTotalDays | null {
  const firstDay = ceilDay(period.since);
  const endDay = floorDay(period.until);
  if (firstDay >= endDay) return null;
  const dayBefore = (day: Date) => dayString(new Date(day.getTime() - DAY_MS));
  return { endDay: dayBefore(endDay), startDay: dayBefore(firstDay) };
}

/**
 * The row of running totals for a RunningTotalDays day: that day, or the account's last day with
 * data when that is earlier. Running-total rows stop there (one index probe finds it), not at
 * the grant's end, which may be decades away.
 */
function runningTotalDay(accountId: string, day: string): Fragment {
  return frag`least(${day}::date,
                    (select max(day) from ads_account_day_totals where account_id = ${accountId}))`;
}

/** `ctes` each followed by a comma, to open a `with` clause before a query's own CTEs. */
export function leadingCtes(ctes: Fragment[]): Fragment {
  return ctes.length ? frag`${join(ctes, frag`, `)},` : empty;
}

/**
 * The number of visible occurrences in the scope (one per occurrence, whatever its number of
 * brands), as a scalar subquery with its own CTEs, so a page and its total are one statement.
 */
export function totalSql(scope: Scope): Fragment {
  const figures = figureSql(scope);
  const ctes = figures.ctes.length ? frag`with ${join(figures.ctes, frag`, `)}` : empty;
  return frag`(${ctes} select coalesce(sum(f.occurrences), 0)::int8
                 from (${scope.accountBrandFigures ? figures.days : figures.stations}) f)`;
}

/**
 * The advisory lock (transaction-scoped) under which the derived ads figures are rewritten; also
 * taken, as the number 122519921164290, by the migrations that fill or alter them (006-010, 012)
 * and by the trigger that renews the coverage version (009).
 */
export const ADS_FIGURES_LOCK = 0x6f6e6461_0002;

/**
 * Makes the commands that rewrite derived figures (grant, import, approval) take turns: each
 * deletes and rebuilds an account's figures, and two at once would collide on the same keys.
 * Held to the end of the transaction; requests never take it.
 */
export async function lockAdsFigures(tx: Sql): Promise<void> {
  await tx`select pg_advisory_xact_lock(${ADS_FIGURES_LOCK})`;
}

/**
 * Recomputes the granted ids that exist (of one account, or of every account after an import
 * of stations or brands) and bumps a grant's scope version when they change. Only then: an
 * import repeats the stations and brands it refers to, and a bump on every import would fence
 * every request in flight out of its brands.
 */
export async function refreshKnownIds(tx: Sql, accountId: string | null): Promise<void> {
  await lockAdsFigures(tx);
  const which = accountId === null ? frag`true` : frag`account_id = ${accountId}`;
  await tx`
    update ads_grants g
       set scope_version = g.scope_version + (k.stations is distinct from g.known_station_ids or
                                              k.brands is distinct from g.known_brand_ids)::int,
           known_station_ids = k.stations,
           known_brand_ids = k.brands
      from (select account_id,
                   array(select x from unnest(station_ids) as x
                          where x in (select id from ads_stations) order by x) as stations,
                   array(select x from unnest(brand_ids) as x
                          where x in (select id from ads_brands) order by x) as brands
              from ads_grants where ${which}) k
     where g.account_id = k.account_id`;
}

/**
 * Puts the current brand names into every account's figure brand list, after an import (which
 * may rename a brand). The list's order, and so the arrays, do not change; an account whose names
 * did not change keeps its figures_version.
 */
export async function refreshFigureBrandNames(tx: Sql): Promise<void> {
  await tx`
    update ads_grants g
       set figure_brands = coalesce(
             (select json_agg(json_build_array(f.pair ->> 0, coalesce(b.name, f.pair ->> 0))
                              order by f.n)
                from json_array_elements(g.figure_brands) with ordinality as f(pair, n)
                left join ads_brands b on b.id = f.pair ->> 0),
             '[]')`;
}

/**
 * Recomputes an account's pre-aggregates from ads_daily: whole UTC days inside its granted
 * period, its granted stations, and occurrences with at least one granted brand. Called in
 * the transaction that replaces a grant or approves a snapshot.
 */
export async function refreshAccountFigures(tx: Sql, accountId: string): Promise<void> {
  await lockAdsFigures(tx);
  await tx`delete from ads_account_daily where account_id = ${accountId}`;
  await tx`delete from ads_account_day_totals where account_id = ${accountId}`;
  await tx`delete from ads_account_brand_days where account_id = ${accountId}`;
  const [grant] = await tx<
    { station_ids: string[]; brand_ids: string[]; period_since: Date; period_until: Date }
  >`select station_ids, brand_ids, period_since, period_until from ads_grants
     where account_id = ${accountId}`;
  if (!grant) return;
  await refreshKnownIds(tx, accountId);
  const from = dayString(ceilDay(grant.period_since));
  const to = dayString(floorDay(grant.period_until));
  // Dense from each station's first day with data to the account's last (not to the grant's
  // end, which may be decades away), with running totals, so any whole days of a station are
  // the difference of two rows (see runningTotalDay).
  await tx`
    insert into ads_account_daily (account_id, day, station_id, occurrences, duration_ms,
                                   human_ms, cum_occurrences, cum_duration_ms, cum_human_ms)
    with per_day as (
      select d.day, d.station_id, sum(d.occurrences) as occurrences,
             sum(d.duration_ms) as duration_ms, sum(d.human_ms) as human_ms
        from ads_daily d
       where d.station_id = any(${grant.station_ids}::text[])
         and d.day >= ${from}::date and d.day < ${to}::date
         and ${anyBrandIn(frag`d.brand_ids`, frag`${grant.brand_ids}::text[]`)}
       group by d.day, d.station_id
    ),
    grid as (
      select f.station_id, g.day::date as day
        from (select station_id, min(day) as first from per_day group by station_id) f
        cross join lateral generate_series(f.first, (select max(day) from per_day),
                                           interval '1 day') as g(day)
    )
    select ${accountId}, grid.day, grid.station_id, coalesce(p.occurrences, 0),
           coalesce(p.duration_ms, 0), coalesce(p.human_ms, 0),
           sum(coalesce(p.occurrences, 0)) over w, sum(coalesce(p.duration_ms, 0)) over w,
           sum(coalesce(p.human_ms, 0)) over w
      from grid left join per_day p on p.station_id = grid.station_id and p.day = grid.day
    window w as (partition by grid.station_id order by grid.day)
     order by grid.station_id, grid.day`;
  await tx`
    insert into ads_account_day_totals (account_id, day, occurrences, duration_ms, human_ms)
    select account_id, day, sum(occurrences), sum(duration_ms), sum(human_ms)
      from ads_account_daily where account_id = ${accountId}
     group by account_id, day
     order by day`;
  // Running totals per brand, packed in the order of figure_brands (the brands that occur, sorted;
  // sql/010_packed_brand_figures.sql), one row for every day from the account's first day with
  // data to its last, so that any whole days' figures are a difference of two rows (see
  // runningTotalDay). The list and the totals are written by one statement, so they cannot
  // disagree.
  await tx`
    with per_day as (
      select d.day, b.id as brand_id, sum(d.occurrences) as occurrences,
             sum(d.duration_ms) as duration_ms, sum(d.human_ms) as human_ms
        from ads_daily d cross join lateral unnest(d.brand_ids) as b(id)
       where d.station_id = any(${grant.station_ids}::text[])
         and d.day >= ${from}::date and d.day < ${to}::date
         and b.id in (select unnest(${grant.brand_ids}::text[]))
       group by d.day, b.id
    ),
    listed as (
      select brand_id, row_number() over (order by brand_id) as ord
        from (select distinct brand_id from per_day) x
    ),
    list as (
      -- With their names, as refreshFigureBrandNames writes them, written once. The rewritten
      -- running totals renew figures_version anyway (sql/012), so the service reads the pairs
      -- again once after each grant or approval.
      update ads_grants g
         set figure_brands = coalesce(
               (select json_agg(json_build_array(l.brand_id, coalesce(b.name, l.brand_id))
                                order by l.ord)
                  from listed l left join ads_brands b on b.id = l.brand_id),
               '[]')
       where g.account_id = ${accountId}
    ),
    running as (
      select grid.day::date as day, l.ord,
             (sum(coalesce(p.occurrences, 0)) over w)::int8 as occurrences,
             (sum(coalesce(p.duration_ms, 0)) over w)::int8 as duration_ms,
             (sum(coalesce(p.human_ms, 0)) over w)::int8 as human_ms
        from generate_series((select min(day) from per_day), (select max(day) from per_day),
                             interval '1 day') as grid(day)
       cross join listed l
        left join per_day p on p.day = grid.day::date and p.brand_id = l.brand_id
      window w as (partition by l.ord order by grid.day)
    )
    insert into ads_account_brand_days (account_id, day, figures)
    select ${accountId}, day,
           translate(encode(string_agg(int8send(occurrences) || int8send(duration_ms) ||
                                         int8send(human_ms), '' order by ord), 'base64'),
                     E'\n', '')
      from running
     group by day
     order by day`;
  // The newest approved snapshot with a visible occurrence anywhere in the grant. The probe
  // per snapshot is a LIMIT 1 scalar subquery, so it stops at the first visible row.
  await tx`
    update ads_grants g
       set snapshot_exported_at = (
         select s.exported_at from ads_snapshots s
          where s.approved_at is not null
            and (select true from ads_occurrences o
                  where o.snapshot_seq = s.seq and o.review_state = 'confirmed'
                    and o.station_id = any(${grant.station_ids}::text[])
                    and o.ad_started_at >= ${grant.period_since}::timestamptz
                    and o.ad_started_at < ${grant.period_until}::timestamptz
                    and ${anyBrandIn(frag`o.brand_ids`, frag`${grant.brand_ids}::text[]`)}
                  limit 1)
          order by s.exported_at desc
          limit 1)
     where g.account_id = ${accountId}`;
}

/**
 * exported_at of the newest approved snapshot that contributes occurrences to the account's
 * whole scope (granted stations, brands and period, not the request's filters); null if none.
 * Read with the key (ads_grants.snapshot_exported_at, kept by refreshAccountFigures).
 */
export function newestOccurrenceSnapshot(principal: AdsPrincipal): string | null {
  return principal.snapshotExportedAt;
}

/** The meta block shared by /ads, /reports/summary and /coverage. */
export function periodMeta(scope: Scope) {
  return { period: periodJson(scope.period), requested_period: periodJson(scope.requested) };
}

/** A station, brand, account or snapshot id (contract.md §2). */
export const SCOPE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A station, brand or account id (contract.md §2); another shape is a 422 naming the field. */
export function scopeId(what: string) {
  return optional(
    string({
      min: 1,
      max: 64,
      pattern: SCOPE_ID,
      patternHint: "1 to 64 letters, digits, dots, underscores or hyphens",
      description: `Only this ${what}; it must be in the account's scope (else 404).`,
    }),
  );
}

export const periodQuery = {
  since: optional(dateTime("Start of the period (inclusive); default until minus 7 days.")),
  until: optional(dateTime("End of the period (exclusive); default now. At most 31 days.")),
};

const periodSchema = nullable(
  object({ since: string(), until: string() }, {
    description: "null when the requested and granted periods do not overlap.",
  }),
);

/** meta fields shared by the three data routes, for the OpenAPI document. */
export const periodMetaSchema = {
  period: periodSchema,
  requested_period: periodSchema,
  snapshot_exported_at: nullable(string({
    description: "exported_at of the newest approved " +
      "snapshot contributing data to the account's scope",
  })),
  notice: string(),
};
