// The account scope of the ads API, in one place (ads-api.md §1, §4; contract.md §2): which
// occurrences, figures and stations a request may see. Every ads read goes through this module:
// pages and partial days read scopedOccurrences, whole days read scopedFigures, coverage reads
// scope.stations within scope.period. An occurrence is visible when it is confirmed, of an
// approved snapshot, on a granted station, starts within the effective period (the request's
// period within the grant) and carries at least one granted brand (the brand_id filter's, when
// given); it shows only its granted brands. Nothing is kept per account but the grant itself.

import type { AdsPrincipal } from "./apikey.ts";
import { frag, type Fragment, join, type Sql } from "../db/db.ts";
import { ApiError } from "../errors.ts";
import type { FigureIndex, StationFigures } from "./figure_index.ts";
import { DAY_MS, effectivePeriod, isoUtc, type Period, requestedPeriod } from "./period.ts";

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
  /** The granted stations that exist (sorted), or the one of the station_id filter. */
  stations: string[];
  /** The station_id and brand_id filters, if any (a granted station and brand that exist). */
  stationId: string | null;
  brandId: string | null;
  /** The grant as the key lookup read it: queries read its brands at this version only. */
  accountId: string;
  grantVersion: string;
  /** True when no row can match, so the handler need not ask the database. */
  empty: boolean;
}

/**
 * Resolves the request's period and filters against the grant. A filter id outside the scope
 * answers exactly as one that does not exist, so ids of other accounts cannot be probed.
 */
export function resolveScope(principal: AdsPrincipal, query: ScopeQuery, now: Date): Scope {
  return scopeOf(principal, requestedPeriod(query, now), query);
}

function notInScope(what: "station" | "brand"): ApiError {
  const message = `No such ${what} in this account's scope.`;
  return new ApiError(404, "NOT_FOUND", { message, field: `${what}_id` });
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

/** The whole grant, as meta.snapshot_exported_at looks at it. */
function grantScope(principal: AdsPrincipal): Scope | null {
  return principal.period && scopeOf(principal, principal.period, {});
}

/** `value` of the account's grant row at the version the key lookup saw; null once replaced. */
function fromGrant(scope: Pick<Scope, "accountId" | "grantVersion">, value: Fragment): Fragment {
  return frag`(select ${value} from ads_grants
                where account_id = ${scope.accountId} and version = ${scope.grantVersion}::uuid)`;
}

/**
 * The account's granted brands as a SQL text[], read from its grant row at the version the key
 * lookup saw: a grant replaced since then yields null, which matches nothing, so a request never
 * mixes the stations and period of one grant with the brands of another. Read in the query
 * rather than sent: shipping thousands of ids with every query cost more than the query.
 */
export function grantedBrandsSql(scope: Pick<Scope, "accountId" | "grantVersion">): Fragment {
  return fromGrant(scope, frag`brand_ids`);
}

/**
 * The same brands as a JSON object keyed by brand id (ads_grants.brand_keys), for the checks made
 * row by row: `keys ? id` is a binary search among the sorted keys, where a text[] would be
 * scanned, or hashed anew by every statement. `|| '{}'` makes the statement hold one copy of the
 * object, which the row checks then read in place instead of fetching it again each time.
 */
function grantedKeysSql(scope: Pick<Scope, "accountId" | "grantVersion">): Fragment {
  return fromGrant(scope, frag`brand_keys || '{}'`);
}

/** "At least one brand of `column` is a key of `keys`"; the first two checked directly. */
function anyBrandIn(column: Fragment, keys: Fragment): Fragment {
  return frag`(${keys} ? ${column}[1] or ${keys} ? ${column}[2]
    or (cardinality(${column}) > 2
        and exists (select from unnest(${column}[3:]) as x where ${keys} ? x)))`;
}

/**
 * The brands an occurrence must carry one of, as keys: the granted ones, or the brand_id filter's
 * (a granted one), both only while the grant is at the version the key lookup saw.
 */
function matchedKeysSql(scope: Scope): Fragment {
  if (scope.brandId === null) return grantedKeysSql(scope);
  return fromGrant(scope, frag`jsonb_build_object(${scope.brandId}::text, 1)`);
}

/**
 * The scope's visible occurrences that start in [from, until) (clipped to the effective period):
 * id, station_id, ad_started_at, ad_ended_at, duration_ms, duration_precision, snapshot_seq and
 * brand_ids, the granted brands only. The stations are probed in the station index, each for its
 * range of time.
 */
export function scopedOccurrences(scope: Scope, from: Date, until: Date): Fragment {
  // Outside the effective period: an empty range, which the query reads as no row.
  const range = effectivePeriod({ since: from, until }, scope.period) ??
    { since: from, until: from };
  const stations = scope.stations.length === 1
    ? frag`o.station_id = ${scope.stations[0]}`
    : frag`o.station_id = any(${scope.stations}::text[])`;
  return frag`
    select o.id, o.station_id, o.ad_started_at, o.ad_ended_at, o.duration_ms,
           o.duration_precision, o.snapshot_seq,
           -- A single brand passed the brand check, so it is granted (a brand_id filter is).
           case when cardinality(o.brand_ids) = 1 then o.brand_ids
                else array(select x from unnest(o.brand_ids) as x
                            where ${grantedKeysSql(scope)} ? x) end
             as brand_ids
      from ads_occurrences o
     where o.review_state = 'confirmed' and ${stations}
       and o.ad_started_at >= ${range.since}::timestamptz
       and o.ad_started_at < ${range.until}::timestamptz
       and ${anyBrandIn(frag`o.brand_ids`, matchedKeysSql(scope))}
       and o.snapshot_seq in (select seq from ads_snapshots where approved_at is not null)`;
}

/** The whole UTC days of the effective period, as day numbers [first, end); null when none. */
export function wholeDays(scope: Scope): { first: number; end: number } | null {
  if (!scope.period) return null;
  const first = Math.ceil(scope.period.since.getTime() / DAY_MS);
  const end = Math.floor(scope.period.until.getTime() / DAY_MS);
  return first < end ? { first, end } : null;
}

/**
 * The parts of the effective period outside its whole days (the partial first and last day, or
 * all of it when it holds no whole day), which are read from raw rows.
 */
export function partialDays(scope: Scope): Period[] {
  const { period } = scope;
  const days = wholeDays(scope);
  if (!period || !days) return period ? [period] : [];
  return [
    { since: period.since, until: new Date(days.first * DAY_MS) },
    { since: new Date(days.end * DAY_MS), until: period.until },
  ].filter((edge) => edge.since < edge.until);
}

/** The scope's visible occurrences of its partial days (it must have some). */
export function partialOccurrences(scope: Scope): Fragment {
  const edges = partialDays(scope).map((edge) => scopedOccurrences(scope, edge.since, edge.until));
  return join(edges, frag` union all `);
}

/**
 * The figure index as one request sees it: its scope, and its grant's brands as a byte per brand
 * code of `index` (1 = granted), as the grant cache's brandCodes gives them.
 */
export interface ScopedIndex {
  scope: Scope;
  index: FigureIndex;
  granted: Uint8Array;
}

/**
 * The scope's brand rule over the figure index: `count(brand)` takes the brands of a cell or
 * occurrence (a code, or -1 - a set's id), puts those it shows (the granted ones) in `shown`
 * and returns how many, or 0 when it is not visible (no granted brand, or not the filter's).
 * Null when the brand_id filter is a brand the index does not hold: nothing is visible.
 */
function brandRule({ scope, index, granted }: ScopedIndex) {
  // The brand_id filter as a code; -1 for none.
  const filter = scope.brandId === null ? -1 : index.brandCodes.get(scope.brandId);
  if (filter === undefined) return null;
  const shown = new Int32Array(Math.max(index.largestSet, 1));
  const count = (brand: number): number => {
    let count = 0;
    let matched = filter === -1;
    if (brand >= 0) {
      if (granted[brand] === 1) shown[count++] = brand;
      matched ||= brand === filter;
    } else {
      for (let k = index.setStart[-1 - brand]; k < index.setStart[-brand]; k++) {
        const code = index.setBrands[k];
        if (granted[code] === 1) shown[count++] = code;
        matched ||= code === filter;
      }
    }
    return matched ? count : 0;
  };
  return { shown, count };
}

/**
 * Calls `visit` for every cell of the figure index that is visible in the scope's whole days:
 * the station's position in scope.stations, the day's number, the cell, and the brands it shows
 * (codes of `index`): shown[0] to shown[count - 1], valid during the call only.
 */
export function scopedFigures(
  v: ScopedIndex,
  visit: (
    station: number,
    day: number,
    figures: StationFigures,
    cell: number,
    shown: Int32Array,
    count: number,
  ) => void,
): void {
  const { scope, index } = v;
  const days = wholeDays(scope);
  const rule = brandRule(v);
  if (!days || scope.empty || !rule) return;
  for (let position = 0; position < scope.stations.length; position++) {
    const figures = index.stations.get(scope.stations[position]);
    if (!figures) continue;
    const { dayStart, brands } = figures;
    const from = Math.max(days.first, figures.firstDay) - figures.firstDay;
    const to = Math.min(days.end, figures.firstDay + dayStart.length - 1) - figures.firstDay;
    for (let i = from; i < to; i++) {
      for (let cell = dayStart[i]; cell < dayStart[i + 1]; cell++) {
        const count = rule.count(brands[cell]);
        if (count > 0) visit(position, figures.firstDay + i, figures, cell, rule.shown, count);
      }
    }
  }
}

/** The first position of a station's starts at or after `t` (microseconds since 1970). */
function firstStartAtOrAfter(figures: StationFigures, t: number): number {
  const day = Math.floor(t / 86_400_000_000) - figures.firstDay;
  const days = figures.startOfDay.length - 1;
  if (day < 0) return 0;
  if (day >= days) return figures.starts.length;
  let lo = figures.startOfDay[day];
  let hi = figures.startOfDay[day + 1];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (figures.starts[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The scope's visible occurrences starting in [from, until) (within the effective period), from
 * the figure index, in the order of their starts (ties in any order): calls `visit` with each
 * start (microseconds since 1970) and its station's position in scope.stations until it returns
 * false.
 */
function scopedStarts(
  v: ScopedIndex,
  from: Date,
  until: Date,
  visit: (startUs: number, station: number) => boolean,
): void {
  const { scope, index } = v;
  const range = effectivePeriod({ since: from, until }, scope.period);
  const rule = brandRule(v);
  if (!range || !rule) return;
  const fromUs = range.since.getTime() * 1000;
  const untilUs = range.until.getTime() * 1000;
  // A k-way merge of the stations' starts: a binary heap of cursors, by their next start.
  const cursors: { starts: Float64Array; brands: Int32Array; at: number; station: number }[] = [];
  scope.stations.forEach((id, station) => {
    const figures = index.stations.get(id);
    if (!figures) return;
    const at = firstStartAtOrAfter(figures, fromUs);
    if (figures.starts[at] < untilUs) {
      cursors.push({ starts: figures.starts, brands: figures.startBrands, at, station });
    }
  });
  const next = (i: number) => cursors[i].starts[cursors[i].at];
  const sink = (i: number) => {
    for (;;) {
      let least = i;
      const left = 2 * i + 1;
      const right = left + 1;
      if (left < cursors.length && next(left) < next(least)) least = left;
      if (right < cursors.length && next(right) < next(least)) least = right;
      if (least === i) return;
      [cursors[i], cursors[least]] = [cursors[least], cursors[i]];
      i = least;
    }
  };
  for (let i = (cursors.length >>> 1) - 1; i >= 0; i--) sink(i);
  while (cursors.length) {
    const cursor = cursors[0];
    const start = cursor.starts[cursor.at];
    const visible = rule.count(cursor.brands[cursor.at]) > 0;
    if (visible && !visit(start, cursor.station)) return;
    if (!(cursor.starts[++cursor.at] < untilUs)) {
      cursors[0] = cursors[cursors.length - 1];
      cursors.pop();
    }
    if (cursors.length) sink(0);
  }
}

/** How many of the scope's visible occurrences start in [from, until). */
export function countVisible(v: ScopedIndex, from: Date, until: Date): number {
  let count = 0;
  scopedStarts(v, from, until, () => (count++, true));
  return count;
}

/**
 * Where the page of up to `limit` visible occurrences after the first `offset` from `from` on
 * lies, found in the figure index: rows of `scope` (narrowed to the stations the page has rows
 * of) starting in [since, until), after `skip` of them in (ad_started_at, id) order. The range
 * holds no more rows than the page's and those sharing its first and last millisecond, so the
 * page's query reads about as many rows as it returns. Null when there are no more than `offset`
 * rows.
 */
export function locatePage(v: ScopedIndex, from: Date, offset: number, limit: number) {
  const { scope } = v;
  let position = 0;
  let first = -1;
  let last = -1;
  // Rows before the page that share the millisecond the page starts in: the query reads them too.
  let millisecond = -1;
  let before: number[] = [];
  let skip = 0;
  const stations = new Set<number>();
  scopedStarts(v, from, scope.period?.until ?? from, (start, station) => {
    const ms = Math.floor(start / 1000);
    if (ms !== millisecond) [millisecond, before] = [ms, []];
    if (position === offset) {
      [first, skip] = [ms, before.length];
      for (const earlier of before) stations.add(earlier);
    }
    // Past the page, rows of its last millisecond: the query reads them too, and orders ties
    // by id, which the index does not know.
    if (position >= offset + limit && ms !== last) return false;
    if (position >= offset) stations.add(station);
    else before.push(station);
    if (position < offset + limit) last = ms;
    position++;
    return true;
  });
  if (first < 0) return null;
  const involved = scope.stations.filter((_, i) => stations.has(i));
  return {
    scope: { ...scope, stations: involved },
    since: new Date(first),
    until: new Date(last + 1),
    skip,
  };
}

/** How many accounts' grants are kept; past that the one used longest ago makes room. */
const GRANT_CACHE_ACCOUNTS = 1000;

interface GrantEntry {
  version: string;
  brands: string[] | null;
  codes: { index: FigureIndex; codes: Uint8Array } | null;
  newest: { dataVersion: string; exportedAt: string | null } | null;
  /** The grant's visible occurrences per day (from day `first`), at the version of `index`. */
  days: { index: FigureIndex; first: number; counts: Float64Array } | null;
}

/** Visible occurrences per day of `scope`, for days [first, end). */
function perDay(v: ScopedIndex, first: number, end: number) {
  const counts = new Float64Array(Math.max(0, end - first));
  scopedFigures(v, (_station, day, figures, cell) => {
    if (day >= first && day < end) counts[day - first] += figures.occurrences[cell];
  });
  return counts;
}

/** What the service keeps of each grant: its brand list at its version (a few kB an account). */
export function createGrantCache() {
  // A Map iterates in insertion order: an entry used is moved to the end, the first is the oldest.
  const entries = new Map<string, GrantEntry>();
  const entry = (accountId: string, version: string): GrantEntry => {
    let found = entries.get(accountId);
    entries.delete(accountId);
    if (found?.version !== version) {
      found = { version, brands: null, codes: null, newest: null, days: null };
    }
    entries.set(accountId, found);
    if (entries.size > GRANT_CACHE_ACCOUNTS) entries.delete(entries.keys().next().value!);
    return found;
  };

  /** The grant's brands as a byte per brand code of `index` (1 = granted). */
  async function brandCodes(sql: Sql, scope: Scope, index: FigureIndex): Promise<Uint8Array> {
    const kept = entry(scope.accountId, scope.grantVersion);
    if (kept.codes?.index === index) return kept.codes.codes;
    if (!kept.brands) {
      const [grant] = await sql<{ brand_ids: string[] }>`
        select ${grantedBrandsSql(scope)} as brand_ids`;
      // A grant replaced since the key lookup: nothing of it is kept, nothing is visible.
      if (!grant.brand_ids) return new Uint8Array(index.brandIds.length);
      kept.brands = grant.brand_ids;
    }
    const codes = new Uint8Array(index.brandIds.length);
    for (const id of kept.brands) {
      const code = index.brandCodes.get(id);
      if (code !== undefined) codes[code] = 1;
    }
    kept.codes = { index, codes };
    return codes;
  }

  /**
   * meta.snapshot_exported_at: exported_at of the newest approved snapshot with a visible
   * occurrence anywhere in the principal's grant (not only the request's filters), at the data
   * version of `index`.
   */
  async function newestSnapshot(principal: AdsPrincipal, index: FigureIndex) {
    const scope = grantScope(principal);
    if (!scope || scope.empty) return null;
    const kept = entry(scope.accountId, scope.grantVersion);
    if (kept.newest?.dataVersion === index.version) return kept.newest.exportedAt;
    const { sql } = principal.reads;
    let newest = -Infinity;
    const granted = await brandCodes(sql, scope, index);
    scopedFigures({ scope, index, granted }, (_s, _d, f, cell) => {
      newest = Math.max(newest, index.exportedAt.get(f.snapshots[cell]) ?? -Infinity);
    });
    // The grant's partial first and last day, from raw rows, at the same data version.
    let current = true;
    if (partialDays(scope).length) {
      const [row] = await sql<{ exported_at: Date | null; data_version: string }>`
        select (select version::text from ads_data_version) as data_version,
               (select max(s.exported_at)
                  from (${partialOccurrences(scope)}) v
                  join ads_snapshots s on s.seq = v.snapshot_seq) as exported_at`;
      if (row.exported_at) newest = Math.max(newest, row.exported_at.getTime());
      current = row.data_version === index.version;
    }
    const exportedAt = newest === -Infinity ? null : isoUtc(newest);
    if (current) kept.newest = { dataVersion: index.version, exportedAt };
    return exportedAt;
  }

  /**
   * The visible occurrences of each whole day of the scope (see wholeDays), from the figure
   * index. Without filters, from the grant's counts per day, which are added up once per data
   * version: a row per account and day.
   */
  async function occurrencesPerDay(principal: AdsPrincipal, scope: Scope, index: FigureIndex) {
    const days = wholeDays(scope);
    if (!days) return new Float64Array(0);
    const granted = await brandCodes(principal.reads.sql, scope, index);
    const grant = grantScope(principal);
    const grantDays = grant && wholeDays(grant);
    if (scope.stationId !== null || scope.brandId !== null || !grantDays) {
      return perDay({ scope, index, granted }, days.first, days.end);
    }
    const kept = entry(scope.accountId, scope.grantVersion);
    if (kept.days?.index !== index) {
      // The grant's whole days as far as the data reaches (a grant may run for decades).
      let first = grantDays.end;
      let end = grantDays.first;
      for (const figures of index.stations.values()) {
        first = Math.min(first, Math.max(grantDays.first, figures.firstDay));
        end = Math.max(
          end,
          Math.min(grantDays.end, figures.firstDay + figures.dayStart.length - 1),
        );
      }
      kept.days = { index, first, counts: perDay({ scope: grant, index, granted }, first, end) };
    }
    const counts = new Float64Array(days.end - days.first);
    for (let day = days.first; day < days.end; day++) {
      counts[day - days.first] = kept.days.counts[day - kept.days.first] ?? 0;
    }
    return counts;
  }

  return { brandCodes, occurrencesPerDay, newestSnapshot };
}
