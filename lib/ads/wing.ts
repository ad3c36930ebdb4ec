// What the ads API adds to the service: its state in memory and how its requests fail.

import { ApiError } from "../errors.ts";
import type { Db } from "../db/db.ts";
import { type AppContext, routeDefiner, type WingRules } from "../http/router.ts";
import { createCaptureIndexCache } from "./capture_index.ts";
import { createFigureIndexCache } from "./figure_index.ts";
import { createGrantCache } from "./scope.ts";

export type AdsApp = AppContext & { ads: ReturnType<typeof createAdsState> };

export function createAdsState(db: Db) {
  return {
    /** Every approved snapshot's figures per station, day and brand set, by data version. */
    figureIndex: createFigureIndexCache(db),
    /** Every approved capture per station, by data version (coverage). */
    captureIndex: createCaptureIndexCache(db.sql),
    /** Each ads grant's brand list at its version, and its newest contributing snapshot. */
    grants: createGrantCache(),
  };
}

/** ads-api.md §7: invalid filters are 422, and a database that does not answer is a 503. */
const adsRules: WingRules = {
  invalidQueryStatus: 422,
  unavailable: () =>
    new ApiError(503, "UNAVAILABLE", {
      message: "The data source is unavailable; retry after Retry-After seconds.",
      headers: { "Retry-After": "5" },
    }),
  deadlineMs: (config) => config.adsDatabaseTimeoutMs,
};

export const defineAdsRoute = routeDefiner<AdsApp>(adsRules);
