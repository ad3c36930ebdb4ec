// The parameters and meta fields the ads data routes share (ads-api.md §4, contract.md §2): ids,
// the period, the notices, as the schemas that validate them and the OpenAPI document shows.

import * as s from "../http/schema.ts";
import { type Period, periodJson } from "./period.ts";

export const NOTICE_ADS = "An empty or short result does not prove that no advertisement aired: " +
  "only confirmed occurrences of approved snapshots within this account's scope are listed. " +
  "Check the period, the coverage (/api/v1/coverage), the freshness of the source " +
  "(snapshot_exported_at) and the data limits.";

export const NOTICE_COVERAGE = "Coverage counts only captures linked to the data granted to this " +
  "account (its stations, within its period); it does not measure continuous operation of a " +
  "station. An absence of captures or occurrences does not prove that no advertisement aired.";

/** The meta block shared by /ads, /reports/summary and /coverage. */
export function periodMeta(scope: { period: Period | null; requested: Period }) {
  return { period: periodJson(scope.period), requested_period: periodJson(scope.requested) };
}

/** A station, brand, account or snapshot id (contract.md §2). */
export const SCOPE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A station, brand or account id (contract.md §2); another shape is a 422 naming the field. */
function scopeId(what: string) {
  return s.optional(
    s.string({
      min: 1,
      max: 64,
      pattern: SCOPE_ID,
      patternHint: "1 to 64 letters, digits, dots, underscores or hyphens",
      description: `Only this ${what}; it must be in the account's scope (else 404).`,
      example: what === "brand" ? "brand-7" : "radio-nord",
    }),
  );
}

// A period the examples can send together: since before until, a week apart.
const SINCE_EXAMPLE = "2026-11-13T00:00:00Z";
const UNTIL_EXAMPLE = "2026-11-20T00:00:00Z";

/** The filters of the data routes: the period, a station and a brand (coverage takes no brand). */
export const scopeQuery = {
  since: s.optional(
    s.dateTime("Start of the period (inclusive); default until minus 7 days.", SINCE_EXAMPLE),
  ),
  until: s.optional(
    s.dateTime("End of the period (exclusive); default now. At most 31 days.", UNTIL_EXAMPLE),
  ),
  station_id: scopeId("station"),
  brand_id: scopeId("brand"),
};

export const stationSchema = s.named(
  "Station",
  s.object({ id: s.string({ example: "radio-nord" }), name: s.string({ example: "Radio Nord" }) }),
);

export const brandSchema = s.named(
  "Brand",
  s.object({ id: s.string({ example: "brand-7" }), name: s.string({ example: "Fresh Cola" }) }),
);

/** A period of time: since inclusive, until exclusive. */
export const periodSchema = s.named(
  "Period",
  s.object({
    since: s.dateTime("Inclusive."),
    until: s.dateTime("Exclusive."),
  }, { example: { since: "2026-11-13T00:00:00Z", until: "2026-11-20T00:00:00Z" } }),
);

const metaPeriod = s.nullable(periodSchema);

/** meta fields shared by the three data routes, for the OpenAPI document. */
export const periodMetaSchema = {
  period: metaPeriod,
  requested_period: metaPeriod,
  snapshot_exported_at: s.nullable(s.dateTime(
    "exported_at of the newest approved snapshot contributing data to the account's scope; " +
      "null when none does.",
  )),
  notice: s.string({ example: NOTICE_ADS }),
};
