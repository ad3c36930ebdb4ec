// Each account's figure brands (ads_grants.figure_brands: the brands of its per-brand running
// totals, as [id, name] pairs) kept in memory by version, with every brand's by_brand entry
// opened as JSON text, so that a summary neither reads nor escapes a thousand names per request.
//
// An entry never goes stale: a change to the pairs gives the grant a new figures_version
// (sql/008_summary_figures.sql), and a summary's query returns the pairs whenever the version it
// finds is not the one kept. Versions are random UUIDs: none is ever issued twice, to this account
// or another.

/** How many accounts' brands are kept; past that the oldest entry makes room. */
export const FIGURE_BRAND_ACCOUNTS = 256;

export interface FigureBrands {
  version: string;
  ids: string[];
  /** `{"brand_id":…,"brand_name":…,"occurrences":` of brand i, escaped once. */
  openings: string[];
  /** The ids are in strictly ascending order (as the refresh writes them), checked once. */
  sorted: boolean;
}

export interface FigureBrandCache {
  get(accountId: string): FigureBrands | undefined;
  /** Keeps the pairs a query returned with their version, and returns them ready to use. */
  put(accountId: string, version: string, pairs: [string, string][]): FigureBrands;
}

/** The start of a by_brand entry, up to its first figure. */
export function brandOpening(id: string, name: string | null): string {
  return `{"brand_id":${JSON.stringify(id)},"brand_name":${
    JSON.stringify(name ?? id)
  },"occurrences":`;
}

export function createFigureBrandCache(maxAccounts = FIGURE_BRAND_ACCOUNTS): FigureBrandCache {
  // A Map iterates in insertion order, so its first key is the oldest entry.
  const entries = new Map<string, FigureBrands>();
  return {
    get: (accountId) => entries.get(accountId),
    put(accountId, version, pairs) {
      const ids = pairs.map((pair) => pair[0]);
      const brands = {
        version,
        ids,
        openings: pairs.map(([id, name]) => brandOpening(id, name)),
        sorted: ids.every((id, i) => i === 0 || ids[i - 1] < id),
      };
      entries.delete(accountId);
      if (entries.size >= maxAccounts) entries.delete(entries.keys().next().value!);
      entries.set(accountId, brands);
      return brands;
    },
  };
}
