// Each account's figure brands (ads_grants.figure_brands: the brands of its per-brand running
// totals, as [id, name] pairs) kept in memory by version, with every brand's by_brand entry
// opened as JSON text, so that a summary neither reads nor escapes a thousand names per request;
// and the days of running totals it has read, decoded, so that it need not read them again.
//
// An entry never goes stale: a change to the pairs or to the running totals gives the grant a new
// figures_version (sql/008_summary_figures.sql, sql/012_brand_days_version.sql), and a summary's
// query returns the pairs and the days whenever the version it finds is not the one kept.
// Versions are random UUIDs: none is ever issued twice, to this account or another.

/** How many accounts' brands are kept; past that the oldest entry makes room. */
export const FIGURE_BRAND_ACCOUNTS = 256;

/**
 * Bytes of decoded running totals kept for all accounts together (24 kB a day for 1,000
 * brands: some 2,700 days), each day charged DAY_OVERHEAD more for its bookkeeping; past that
 * the day kept longest ago makes room.
 */
export const FIGURE_DAY_BYTES = 64 * 1024 * 1024;
const DAY_OVERHEAD = 256;

export interface FigureBrands {
  version: string;
  ids: string[];
  /** `{"brand_id":…,"brand_name":…,"occurrences":` of brand i, escaped once. */
  openings: string[];
  /** The ids are in strictly ascending order (as the refresh writes them), checked once. */
  sorted: boolean;
  /**
   * Running totals decoded, read at this version, by the day a summary asked for
   * (RunningTotalDays in lib/ads_scope.ts): its query leaves out the days the service holds.
   */
  days: Map<string, DataView>;
}

export interface FigureBrandCache {
  get(accountId: string): FigureBrands | undefined;
  /**
   * Keeps the pairs a query returned with their version, and returns them ready to use; the entry
   * already kept, days included, when it is of that version (requests that started together).
   */
  put(accountId: string, version: string, pairs: [string, string][]): FigureBrands;
  /**
   * Keeps a day's running totals read at `brands.version` with the account's entry, if `brands`
   * is still that entry, within FIGURE_DAY_BYTES.
   */
  keepDay(accountId: string, brands: FigureBrands, day: string, figures: DataView): void;
}

/** The start of a by_brand entry, up to its first figure. */
export function brandOpening(id: string, name: string | null): string {
  return `{"brand_id":${JSON.stringify(id)},"brand_name":${
    JSON.stringify(name ?? id)
  },"occurrences":`;
}

export function createFigureBrandCache(
  maxAccounts = FIGURE_BRAND_ACCOUNTS,
  maxDayBytes = FIGURE_DAY_BYTES,
): FigureBrandCache {
  // A Map iterates in insertion order, so its first key is the oldest. Days are keyed by version
  // and day: a version belongs to one entry only (put keeps the entry of an unchanged version).
  const entries = new Map<string, FigureBrands>();
  const keptDays = new Map<string, { brands: FigureBrands; day: string; bytes: number }>();
  const dayKey = (version: string, day: string) => `${version} ${day}`;
  let dayBytes = 0;
  const forget = (key: string) => {
    const kept = keptDays.get(key)!;
    keptDays.delete(key);
    kept.brands.days.delete(kept.day);
    dayBytes -= kept.bytes;
  };
  const drop = (brands: FigureBrands | undefined) => {
    for (const day of [...(brands?.days.keys() ?? [])]) forget(dayKey(brands!.version, day));
  };
  return {
    get: (accountId) => entries.get(accountId),
    put(accountId, version, pairs) {
      const kept = entries.get(accountId);
      if (kept?.version === version) return kept;
      const ids = pairs.map((pair) => pair[0]);
      const brands = {
        version,
        ids,
        openings: pairs.map(([id, name]) => brandOpening(id, name)),
        sorted: ids.every((id, i) => i === 0 || ids[i - 1] < id),
        days: new Map<string, DataView>(),
      };
      drop(kept);
      entries.delete(accountId);
      if (entries.size >= maxAccounts) {
        const oldest = entries.keys().next().value!;
        drop(entries.get(oldest));
        entries.delete(oldest);
      }
      entries.set(accountId, brands);
      return brands;
    },
    keepDay(accountId, brands, day, figures) {
      // Only for the entry in use: a replaced one would hold bytes nobody reads.
      if (entries.get(accountId) !== brands || brands.days.has(day)) return;
      brands.days.set(day, figures);
      const bytes = figures.byteLength + DAY_OVERHEAD;
      keptDays.set(dayKey(brands.version, day), { brands, day, bytes });
      dayBytes += bytes;
      while (dayBytes > maxDayBytes) forget(keptDays.keys().next().value!);
    },
  };
}
