// What the ads API adds to the service: its cache and how its requests fail.

import { ApiError } from "../errors.ts";
import { type AppContext, routeDefiner, type WingRules } from "../http/router.ts";
import type { AdsPrincipal } from "./apikey.ts";
import { type AdsCache, createAdsCache } from "./cache.ts";
import { DataMoved } from "./blocks.ts";

export type AdsApp = AppContext & { ads: { cache: AdsCache } };

/** The ads state of an instance: one cache of at most `cacheMb` megabytes, empty at start. */
export function createAdsState(cacheMb: number) {
  return { cache: createAdsCache(Math.floor(cacheMb * 1024 * 1024)) };
}

function unavailable(message: string, retryAfter: number): ApiError {
  return new ApiError(503, "UNAVAILABLE", {
    message,
    headers: { "Retry-After": String(retryAfter) },
  });
}

/** ads-api.md §7: invalid filters are 422, and a database that does not answer is a 503. */
const adsRules: WingRules = {
  invalidQueryStatus: 422,
  unavailable: () =>
    unavailable("The data source is unavailable; retry after Retry-After seconds.", 5),
  deadlineMs: (config) => config.adsDatabaseTimeoutMs,
};

export const defineAdsRoute = routeDefiner<AdsApp>(adsRules);

/** How often a request starts again when the data changes under it (the deadline bounds it too). */
const DATA_ATTEMPTS = 5;

/**
 * Runs `read` at the data version the key lookup saw; when an approval or a rename moves the data
 * under it, runs it again at the new version, so every figure of an answer is of one version.
 * Data that keeps moving answers 503 UNAVAILABLE with Retry-After.
 */
export async function atOneDataVersion<T>(
  principal: AdsPrincipal,
  read: (version: string) => Promise<T>,
): Promise<T> {
  let version = principal.dataVersion;
  for (let attempt = 1; attempt <= DATA_ATTEMPTS; attempt++) {
    try {
      return await read(version);
    } catch (err) {
      if (!(err instanceof DataMoved)) throw err;
      version = err.version;
    }
  }
  throw unavailable("The data changed during the request; retry after Retry-After seconds.", 1);
}
