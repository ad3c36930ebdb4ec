// Ads API keys: their shape and permissions, and the apiKey(permission) AuthRule with its
// per-key rate limit (contract.md §2 "API keys", "Order of checks"). How a key is made, stored
// and found: lib/http/credentials.ts.

import { ApiError } from "../errors.ts";
import { SCOPE_ID } from "./params.ts";
import type { Period } from "./period.ts";
import type { AuthRule, RequestContext } from "../http/router.ts";
import { type Db, empty, frag, type Fragment } from "../db/db.ts";
import { credentialNamed, liveCredential, newSecret, secretDigest } from "../http/credentials.ts";
import {
  countInStatement,
  limitHeaders,
  rateLimited,
  type SharedCount,
  type StatementCount,
} from "../http/ratelimit.ts";

export const PERMISSIONS = ["ads:read", "reports:read", "coverage:read"] as const;
export type Permission = typeof PERMISSIONS[number];

/** Recognisable in logs, leaks and secret scanners; 32 random bytes follow (43 base64url chars). */
const KEY_PREFIX = "onda_ads_";
const KEY_SHAPE = /^onda_ads_[A-Za-z0-9_-]{43}$/;
/** How much of a key `key list` and whoami show: enough to recognise it, useless to use it. */
const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 4;

/** Query parameters that look like a credential: refused so keys never travel in URLs. */
const KEY_QUERY_PARAMS = ["api_key", "key", "token", "access_token"];

/** A new key, the part of it that is shown again, and the digest stored instead of it. */
export function generateKey(): { key: string; prefix: string; digest: Uint8Array } {
  const key = newSecret(KEY_PREFIX);
  return { key, prefix: key.slice(0, SHOWN_PREFIX_LENGTH), digest: secretDigest(key) };
}

/** The caller of an ads route: its key, account and grant, read in one query per request. */
export interface AdsPrincipal {
  key: { id: string; prefix: string; label: string | null; created_at: Date };
  account: { id: string; name: string };
  permissions: Permission[];
  /** Granted stations that exist, sorted; the grant period, null when the account has no grant. */
  stations: string[];
  /**
   * Whether the request's brand_id (if any) is a granted brand that exists. The granted list
   * itself (thousands of ids for some accounts) stays in the database: queries read it from the
   * grant row at grantVersion (lib/ads/scope.ts), so a request never ships it back and forth.
   */
  brandFilterGranted: boolean;
  /** The grant's version when this was read (ads_grants.version); NO_GRANT without one. */
  grantVersion: string;
  period: Period | null;
  /** The version of the ads data (ads_data_version) when this was read. */
  dataVersion: string;
  /**
   * Where the request reads: the replica (DATABASE_READ_URL) that gave the grant and versions
   * above, so that what it reads next is of the same moment (the primary while the replica is
   * down); the primary when there is no replica.
   */
  reads: Db;
}

/** How long a request waits for the replica to replay a key it has not yet: 20 x 50 ms. */
const REPLICA_KEY_WAITS = 20;
const REPLICA_KEY_WAIT_MS = 50;

/** The grant version of an account without a grant: no grant row has it. */
const NO_GRANT = "00000000-0000-0000-0000-000000000000";

interface KeyRow extends SharedCount {
  id: string;
  prefix: string;
  label: string | null;
  created_at: Date;
  permissions: string[];
  account_id: string;
  account_name: string;
  period_since: Date | null;
  period_until: Date | null;
  station_ids: string[];
  brand_filter_granted: boolean | null;
  grant_version: string | null;
  data_version: string;
}

function unauthenticated(message: string): ApiError {
  const headers = { "WWW-Authenticate": 'Bearer realm="ads"' };
  return new ApiError(401, "UNAUTHENTICATED", { message, headers });
}

/**
 * Order of checks (contract.md §2): a key in the URL, then a missing, invalid or revoked key
 * (401), then the permission (403), then the rate limit (429). Every request with a valid key
 * counts and gets the rate-limit headers, on errors too (ctx.headers). There is no cache of
 * key validity, so a revocation holds from the very next request.
 */
export function apiKey(permission: Permission | null): AuthRule<AdsPrincipal> {
  return {
    security: [{ adsKey: [] }],
    securitySchemes: {
      adsKey: {
        type: "http",
        scheme: "bearer",
        bearerFormat: "onda_ads_ and 43 base64url characters",
        description: "Ads API key, sent as Authorization: Bearer onda_ads_... (never in the " +
          "URL); created by the operator with `deno task admin key create`.",
      },
    },
    describe: permission
      ? `API key (Authorization: Bearer) with the ${permission} permission.`
      : "Any valid API key (Authorization: Bearer); no permission needed.",
    errors: [401, 403, 429],
    responseHeaders: [
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "RateLimit-Policy",
      "RateLimit",
    ],
    authenticate: (ctx) => authenticate(ctx, permission),
  };
}

async function authenticate(
  ctx: RequestContext,
  permission: Permission | null,
): Promise<AdsPrincipal> {
  if (KEY_QUERY_PARAMS.some((name) => ctx.url.searchParams.has(name))) {
    // The value is never echoed or logged; the log line carries the route pattern only.
    throw unauthenticated(
      "API keys are not accepted in the URL; send Authorization: Bearer <key> and revoke " +
        "the key that was exposed.",
    );
  }
  const header = ctx.req.headers.get("authorization");
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  if (!match) throw unauthenticated("Send the API key as Authorization: Bearer <key>.");
  const key = match[1];
  if (!KEY_SHAPE.test(key)) throw unauthenticated("The API key is invalid or revoked.");
  // Compared here only when well formed: the route answers a malformed one with its 422, which
  // comes after 401, 403 and 429 in the order of checks (and a byte the database refuses, such
  // as NUL, must not reach it before the key is checked).
  const rawBrand = ctx.url.searchParams.get("brand_id");
  const brandFilter = rawBrand !== null && SCOPE_ID.test(rawBrand) ? rawBrand : null;
  const { app } = ctx;
  // Counted in the statement that checks the key: only for a valid key (a 401 does not count).
  const count = countInStatement(
    app,
    frag`'ads-key:' || k.id::text`,
    app.config.rateLimitKeyPerMinute,
  );
  const live = liveCredential(frag`k`, key);
  let row: KeyRow | undefined;
  let reads: Db = app.db;
  if (!app.replica) {
    [row] = await app.db.keptPlans<KeyRow>`${lookupSql(live, brandFilter, count)}`;
  } else {
    // The replica reads the grant of the key with this digest; the primary checks the key itself
    // and counts it, at the same time: a revocation holds from the next request however far the
    // replica is behind.
    const replicatedSql = lookupSql(credentialNamed(frag`k`, key), brandFilter, null);
    const lookup = () => app.replica!.db.keptPlans<KeyRow>`${replicatedSql}`;
    let [[checked], [replicated]] = await Promise.all([
      app.db.keptPlans<Pick<KeyRow, "id"> & SharedCount>`
        select k.id ${count.columns} from ads_api_keys k ${count.join} where ${live}`,
      lookup(),
    ]);
    // A revoked key is not found on the primary: refused below at once, however far behind the
    // replica is.
    if (checked) {
      // A key newer than what the replica has replayed (created a moment ago): its grant and
      // data are not there yet, and the primary's are of another moment than the data this
      // service holds in memory, which follows the replica. It waits for the replica a little.
      for (let wait = 0; !replicated && wait < REPLICA_KEY_WAITS; wait++) {
        await new Promise((resolve) => setTimeout(resolve, REPLICA_KEY_WAIT_MS));
        [replicated] = await lookup();
      }
      if (!replicated) {
        throw new ApiError(503, "UNAVAILABLE", {
          message:
            "This key is newer than the data source's copy; retry after Retry-After seconds.",
          headers: { "Retry-After": "1" },
        });
      }
      reads = app.replica.db;
      row = Object.assign(replicated, checked);
    }
  }
  if (!row) throw unauthenticated("The API key is invalid or revoked.");

  ctx.caller.account_id = row.account_id;
  ctx.caller.key_id = row.id;
  const limited = count.outcome(row);
  limitHeaders(ctx.headers, limited, "per-key");

  if (permission && !row.permissions.includes(permission)) {
    throw new ApiError(403, "FORBIDDEN", {
      message: `This API key lacks the ${permission} permission.`,
    });
  }
  if (!limited.allowed) {
    throw rateLimited(
      app.metrics,
      "ads-key",
      `At most ${limited.limit} requests per minute per key; retry after Retry-After seconds.`,
      limited.retryAfter,
    );
  }
  return {
    key: { id: row.id, prefix: row.prefix, label: row.label, created_at: row.created_at },
    account: { id: row.account_id, name: row.account_name },
    permissions: PERMISSIONS.filter((p) => row.permissions.includes(p)),
    stations: row.station_ids,
    brandFilterGranted: row.brand_filter_granted === true,
    grantVersion: row.grant_version ?? NO_GRANT,
    period: row.period_since && row.period_until
      ? { since: row.period_since, until: row.period_until }
      : null,
    dataVersion: row.data_version,
    reads,
  };
}

/**
 * The key `found` finds with its account and grant, in one statement. The granted ids that exist: a grant may
 * name ids not imported yet, which match nothing. Run on connections that keep its generic plan
 * (Db.keptPlans): it is the same for every key.
 */
function lookupSql(
  found: Fragment,
  brandFilter: string | null,
  count: StatementCount | null,
): Fragment {
  return frag`
    select k.id, k.prefix, k.label, k.created_at, k.permissions,
           a.id as account_id, a.name as account_name,
           g.period_since, g.period_until, g.version::text as grant_version,
           coalesce(array(select x from unnest(g.station_ids) as x
                           where x in (select id from ads_stations) order by x collate "C"), '{}')
             as station_ids,
           ${brandFilter}::text = any(g.brand_ids)
             and exists (select from ads_brands where id = ${brandFilter}::text)
             as brand_filter_granted,
           (select version::text from ads_data_version) as data_version
           ${count?.columns ?? empty}
      from ads_api_keys k
      join ads_accounts a on a.id = k.account_id
      left join ads_grants g on g.account_id = a.id
      ${count?.join ?? empty}
     where ${found}`;
}
