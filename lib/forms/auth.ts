// Who is calling the forms API: the service_token cookie or a bearer token resolved to a user,
// the workspace of the request (X-Workspace-Id) and the user's role there, the per-user and
// per-address rate limits, and the CSRF rule for cookie-authenticated unsafe requests.

import { ApiError } from "../errors.ts";
import type { AuthRule, HeaderParam, RequestContext } from "../http/router.ts";
import * as s from "../http/schema.ts";
import { frag, type Fragment, type Sql } from "../db/db.ts";
import * as limits from "../http/ratelimit.ts";
import { applyCredentialedCors, applyUnresolvedCors } from "../http/cors.ts";
import { liveCredential, newSecret, secretDigest } from "../http/credentials.ts";

export type Role = "viewer" | "editor" | "admin" | "owner";

export const ROLES: readonly Role[] = ["viewer", "editor", "admin", "owner"];

export interface UserPrincipal {
  userId: string;
  workspaceId: string;
  role: Role;
  /** The auth token used for this request (logout revokes it). */
  tokenId: string;
}

const COOKIE_NAME = "service_token";
/** Lifetime of a login cookie; bearer tokens live until revoked. */
const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Creates a login session ("session") or a bearer token ("api") and answers the token, which
 * exists only in this answer: the database keeps its digest (lib/http/credentials.ts).
 */
export async function issueToken(
  sql: Sql,
  userId: string,
  kind: "session" | "api",
  name: string | null,
  now: Date,
): Promise<{ id: string; token: string }> {
  const token = newSecret(kind === "session" ? "onda_s_" : "onda_pat_");
  const expires = kind === "session" ? new Date(now.getTime() + SESSION_TTL_MS) : null;
  const [row] = await sql<{ id: string }>`
    insert into auth_tokens (user_id, kind, name, digest, created_at, expires_at)
    values (${userId}, ${kind}, ${name}, ${secretDigest(token)}, ${now}, ${expires})
    returning id`;
  return { id: row.id, token };
}

/** The Set-Cookie value of a login (no token: of a logout); Secure when served over https. */
export function sessionCookie(publicBaseUrl: string, token = ""): string {
  const maxAge = token ? SESSION_TTL_MS / 1000 : 0;
  const secure = publicBaseUrl.startsWith("https:") ? "; Secure" : "";
  return `${COOKIE_NAME}=${token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAge}${secure}`;
}

function credential(req: Request): { token: string; viaCookie: boolean } | null {
  const authorization = req.headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    return match ? { token: match[1], viaCookie: false } : null;
  }
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE_NAME) {
      const token = part.slice(eq + 1).trim();
      return token ? { token, viaCookie: true } : null;
    }
  }
  return null;
}

/** How a signed-in user's requests authenticate, for the OpenAPI document. */
// Bearer first: tools that take an operation's first scheme (Postman's converter) then send the
// token a script holds, not a cookie header.
const USER_SECURITY: Record<string, string[]>[] = [{ bearerToken: [] }, { sessionCookie: [] }];

const USER_SCHEMES = {
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: COOKIE_NAME,
    description: "The HttpOnly session cookie that register and login set (valid 14 days).",
  },
  bearerToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "onda_pat_ and 43 base64url characters",
    description: "Forms API token for scripts, from POST /api/v1/auth/tokens; accepted " +
      "wherever the session cookie is.",
  },
};

/** The headers enforceLimit sends. */
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];

export const WORKSPACE_HEADER: HeaderParam = {
  name: "X-Workspace-Id",
  description: "The workspace of the request (its id); default: the user's first workspace. " +
    "One the user is not a member of: 404 (field X-Workspace-Id).",
  schema: s.uuid(),
};

/** Adds the rate-limit headers to the response and refuses with 429 when over the limit. */
export function enforceLimit(
  ctx: RequestContext,
  result: limits.LimitResult,
  limit: "user" | "public",
) {
  limits.limitHeaders(ctx.headers, result);
  if (!result.allowed) {
    const what = limit === "user" ? "for this user" : "from this address";
    throw limits.rateLimited(
      ctx.app.metrics,
      limit,
      `Too many requests ${what}; retry after Retry-After seconds.`,
      result.retryAfter,
    );
  }
}

interface TokenRow extends limits.SharedCount {
  token_id: string;
  user_id: string;
  workspace_id: string | null;
  role: Role | null;
  allowed_origins: string[] | null;
}

/**
 * A signed-in user with at least `minRole` in the request's workspace. Order of checks:
 * credential (401), rate limit (429), workspace (404: a workspace the user is not in does
 * not exist for them), CSRF (403), role (403).
 */
export function user(minRole: Role): AuthRule<UserPrincipal> {
  return {
    security: USER_SECURITY,
    securitySchemes: USER_SCHEMES,
    describe:
      `Authorization: Bearer (a token) or the service_token cookie; role ${minRole} or higher in ` +
      "the workspace of X-Workspace-Id (default: the user's first workspace).",
    // 404: a workspace the user is not in does not exist for them.
    errors: [401, 403, 404, 429],
    requestHeaders: [WORKSPACE_HEADER],
    responseHeaders: RATE_LIMIT_HEADERS,
    // A user's keys are theirs in one workspace. Visitors (publicAccess) share one namespace: a
    // UUID v4 is unguessable, and scoping by address would let a visitor whose address changed
    // (mobile networks) create a second session on retry.
    idempotencyScope: (principal) => `user:${principal.userId}:${principal.workspaceId}`,
    authenticate: (ctx) =>
      resolvingCors(ctx, authenticateUser(ctx, minRole) as Promise<UserPrincipal>),
  };
}

/** Who a route about the user alone serves: no workspace needed. */
export type SignedInUser = Pick<UserPrincipal, "userId" | "tokenId">;

/**
 * Any signed-in user, member of a workspace or of none (one who left them all must still see
 * and accept invitations): for routes about the user alone, where X-Workspace-Id means nothing.
 * Order of checks: credential (401), rate limit (429), CSRF (403).
 */
export function signedIn(): AuthRule<SignedInUser> {
  return {
    security: USER_SECURITY,
    securitySchemes: USER_SCHEMES,
    describe: "Authorization: Bearer (a token) or the service_token cookie; any signed-in user.",
    errors: [401, 403, 429],
    responseHeaders: RATE_LIMIT_HEADERS,
    idempotencyScope: (principal) => `user:${principal.userId}`,
    authenticate: (ctx) => resolvingCors(ctx, authenticateUser(ctx, null)),
  };
}

/** A credentialed route's 401 or 404 still carries the CORS headers its origin may read. */
async function resolvingCors<P>(ctx: RequestContext, authenticated: Promise<P>): Promise<P> {
  try {
    return await authenticated;
  } catch (err) {
    const unresolved = err instanceof ApiError && (err.status === 401 || err.status === 404);
    if (
      unresolved && ctx.route.cors === "credentialed" &&
      !ctx.headers.has("Access-Control-Allow-Origin")
    ) {
      await applyUnresolvedCors(ctx.app, ctx.req, ctx.headers, ctx.route.rules);
    }
    throw err;
  }
}

/** The user of the request and, unless `minRole` is null, their role in its workspace. */
async function authenticateUser(
  ctx: RequestContext,
  minRole: Role | null,
): Promise<SignedInUser & Partial<UserPrincipal>> {
  const { app, req } = ctx;
  const found = credential(req);
  if (!found) {
    throw new ApiError(401, "UNAUTHENTICATED", {
      message: "Sign in: send the service_token cookie or a bearer token.",
    });
  }
  // A route about the user alone reads no workspace: its header is not this request's business.
  const wanted = minRole === null ? null : req.headers.get("x-workspace-id");
  if (wanted !== null && !UUID.test(wanted)) {
    throw new ApiError(404, "NOT_FOUND", {
      message: "No such workspace.",
      field: "X-Workspace-Id",
    });
  }
  // The per-user count is made in the statement that finds the user: only for a valid
  // credential (a 401 does not count).
  const now = app.clock();
  const count = limits.countInStatement(
    app,
    frag`'user:' || t.user_id::text`,
    app.config.rateLimitUserPerMinute,
  );
  const [row] = await app.db.sql<TokenRow>`
        select t.id as token_id, t.user_id, m.workspace_id, m.role, w.allowed_origins
               ${count.columns}
        from auth_tokens t
        left join lateral (
          select workspace_id, role from memberships
          where user_id = t.user_id
            and (${wanted}::uuid is null or workspace_id = ${wanted}::uuid)
          order by created_at, workspace_id limit 1
        ) m on true
        left join workspaces w on w.id = m.workspace_id
        ${count.join}
        where ${liveCredential(frag`t`, found.token)}
          and (t.expires_at is null or t.expires_at > ${now})`;
  if (!row) {
    throw new ApiError(401, "UNAUTHENTICATED", {
      message: "The token is invalid, revoked or expired; sign in again.",
    });
  }
  ctx.caller.user_id = row.user_id;
  ctx.caller.token_id = row.token_id;
  if (row.workspace_id) ctx.caller.workspace_id = row.workspace_id;
  // A workspace's allowed origins vouch only for that workspace's resources. User-wide
  // routes (tokens, logout) trust the service's own origin alone: any admin can add a user
  // to a workspace whose origins they choose, and must not gain the user's tokens by it.
  const workspaceScoped = ctx.route.cors === "credentialed";
  const allowedOrigins = row.allowed_origins ?? [];
  if (workspaceScoped) applyCredentialedCors(req, ctx.headers, allowedOrigins);
  enforceLimit(ctx, count.outcome(row), "user");
  if (minRole === null) {
    if (found.viaCookie && !SAFE_METHODS.has(req.method)) {
      checkCsrf(req, app.config.publicBaseUrl, []);
    }
    return { userId: row.user_id, tokenId: row.token_id };
  }
  if (!row.workspace_id || !row.role) {
    throw new ApiError(404, "NOT_FOUND", {
      message: "No such workspace.",
      field: wanted ? "X-Workspace-Id" : null,
    });
  }
  if (found.viaCookie && !SAFE_METHODS.has(req.method)) {
    checkCsrf(req, app.config.publicBaseUrl, workspaceScoped ? allowedOrigins : []);
  }
  if (ROLES.indexOf(row.role) < ROLES.indexOf(minRole)) {
    throw new ApiError(403, "FORBIDDEN", {
      message: `This needs the ${minRole} role or higher in this workspace.`,
    });
  }
  return {
    userId: row.user_id,
    workspaceId: row.workspace_id,
    role: row.role,
    tokenId: row.token_id,
  };
}

/**
 * CSRF: a browser sends Origin on cross-site unsafe requests, and SameSite=Lax does not stop
 * every such request, so a cookie-authenticated write from an origin that is neither the
 * service's own nor allowed by the workspace is refused. No Origin: not a browser's
 * cross-site request (scripts, curl), so it passes.
 */
function checkCsrf(req: Request, publicBaseUrl: string, allowedOrigins: string[]) {
  const origin = req.headers.get("origin");
  if (origin === null) return;
  if (origin === new URL(publicBaseUrl).origin || allowedOrigins.includes(origin)) return;
  throw new ApiError(403, "FORBIDDEN", {
    message: "Cross-site request refused: the Origin is not allowed for this workspace.",
    field: "Origin",
  });
}

/**
 * A public request whose count is made in its handler's statement (publicAccess("in
 * statement") when the count is deferred): the client's key, the limit and the time to count at.
 */
export interface PublicCount extends limits.DeferredCount {
  /** Set once the request has been counted (see settle below). */
  counted: boolean;
}

/**
 * Anyone, within the per-address limit of the public endpoints. "in statement": where counting
 * costs a round trip (limits.deferCount), the count is left to the handler's one statement
 * (countedStatement), so that it costs no round trip and no commit of its own; the principal
 * then says what to count. A request
 * whose statement never ran or rolled back (an invalid body or loaded_at, a key held by another
 * request, a full month) is counted on its own when it is answered (settle): every request
 * counts, as with the limit counted here, so invalid requests cannot pass the limit.
 */
export function publicAccess(
  counted: "here" | "in statement" = "here",
): AuthRule<PublicCount | null> {
  return {
    security: [],
    describe: "No authentication; rate limited per client address (IPv6: per /64).",
    errors: [429],
    responseHeaders: RATE_LIMIT_HEADERS,
    async authenticate(ctx) {
      const { app } = ctx;
      const key = `public:${limits.addressKey(ctx.clientAddress)}`;
      const limit = app.config.rateLimitPublicPerMinute;
      const deferred = counted === "in statement" ? limits.deferCount(app, key, limit) : null;
      if (deferred) return { ...deferred, counted: false };
      enforceLimit(ctx, await limits.countRequest(app, key, limit), "public");
      return null;
    },
    settle: countUncounted,
  };
}

/**
 * The handler's statement `body` (a select) preceded by the request's count (limits.countAhead:
 * `body` runs only if the count allows it); `body` alone when the request was counted already
 * (count null).
 */
export function countedStatement(count: PublicCount | null, body: Fragment): Fragment {
  return count ? limits.countAhead(count, body) : body;
}

/**
 * Counts the request on its own unless it was counted already; 429 when over the limit. After a
 * countedStatement that raised a refusal of its own (a key held by another request, a full
 * month) the rollback took its count with it: the handler calls this before answering, so that
 * a 429 wins and nothing is stored under its Idempotency-Key. Every other request whose
 * statement did not count it is counted here once it is answered (publicAccess's settle).
 */
export async function countUncounted(ctx: RequestContext, count: PublicCount | null) {
  if (!count || count.counted) return;
  count.counted = true;
  enforceLimit(ctx, await limits.countRequest(ctx.app, count.key, count.limit), "public");
}

/** After a countedStatement: the limit's headers, and 429 when the count refused the request. */
export function enforceCounted(
  ctx: RequestContext,
  count: PublicCount | null,
  row: limits.SharedCount,
) {
  if (!count) return;
  count.counted = true;
  enforceLimit(ctx, limits.deferredOutcome(count, row), "public");
}
