// Accounts: registration, login and logout with the service_token cookie, and bearer tokens
// for scripts (contract.md §3).

import { issueToken, publicAccess, ROLES, sessionCookie, user } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import { ApiError } from "../../lib/errors.ts";
import { answeredInTransaction, storeInTransaction } from "../../lib/http/idempotency.ts";
import { beginLoginAttempt, forgetLoginAttempt } from "../../lib/forms/login_limit.ts";
import { hashPassword, verifyPassword } from "../../lib/forms/password.ts";
import { json } from "../../lib/http/router.ts";
import { conflict, formsRoutes, notFound } from "../../lib/forms/wing.ts";
import { PLANS } from "../../lib/forms/plan.ts";
import * as s from "../../lib/http/schema.ts";
import { newSigningSecret } from "../../lib/webhooks/signing.ts";

/** The account's routes: about the user alone, so no CORS (lib/forms/auth.ts says why). */
const accountRoute = formsRoutes({ tag: "auth" });

const userJson = s.named(
  "User",
  s.object({ id: s.uuid(), email: s.email(), name: s.string({ example: "Ana Lima" }) }),
);
export const workspaceJson = s.named(
  "WorkspaceMembership",
  s.object({
    id: s.uuid(),
    name: s.string({ example: "Ana Lima's workspace" }),
    role: s.enumOf(ROLES),
    plan: s.enumOf(PLANS),
  }, { description: "A workspace the user belongs to, with the user's role there." }),
);
const sessionJson = s.named(
  "SignedIn",
  s.object({ user: userJson, workspaces: s.array(workspaceJson) }),
);
const tokenName = s.string({ min: 1, max: 200, example: "nightly export" });
const tokenJson = s.named(
  "NewToken",
  s.object({
    id: s.uuid(),
    name: tokenName,
    token: s.string({
      description: "The bearer token; shown only in this answer.",
      example: "onda_pat_3q2v9Yk0bW7cQmR1sT5uXzA8dE4fG6hJ2kL0nP9rS1t",
    }),
    created_at: s.dateTime(),
  }),
);
const tokenListItem = s.named(
  "Token",
  s.object({ id: s.uuid(), name: tokenName, created_at: s.dateTime() }),
);

const password = s.string({
  min: 8,
  max: 1024,
  description: "At least 8 characters.",
  example: "correct horse battery staple",
});

const cookieHeader = {
  "Set-Cookie": "service_token (HttpOnly; SameSite=Lax; Path=/; Secure behind https)",
};

export const routes = [
  accountRoute({
    method: "POST",
    path: "/api/v1/auth/register",
    summary: "Register",
    description:
      "Creates a user and a workspace it owns (plan DEFAULT_PLAN), signs the user in (sets " +
      "the service_token cookie) and answers like login, 201. An e-mail already registered: " +
      "409 (field email). Accepts Idempotency-Key: a replay answers the same cookie and " +
      "creates nothing; the stored answer keeps the cookie encrypted (AES-GCM, key derived " +
      "from SECRET_KEY) and the request only as a keyed digest, never the password.",
    auth: publicAccess(),
    idempotent: true,
    sealed: { headers: ["set-cookie"] },
    body: s.named(
      "Registration",
      s.object({
        email: s.email(),
        password,
        name: s.string({ min: 1, max: 200, example: "Ana Lima" }),
      }),
    ),
    responses: { 201: { description: "Registered.", schema: sessionJson, headers: cookieHeader } },
    errors: [409, 429],
    handler: async ({ app, body, req }) => {
      const hash = await hashPassword(body.password);
      const now = app.clock();
      const answer = await app.db.begin(async (tx) => {
        const [created] = await tx<{ id: string; email: string; name: string }>`
          insert into users (email, name, password_hash, created_at)
          values (${body.email}, ${body.name}, ${hash}, ${now})
          on conflict do nothing
          returning id, email, name`;
        if (!created) throw conflict("This e-mail address is already registered.", "email");
        const [workspace] = await tx<{ id: string; name: string; role: "owner"; plan: string }>`
          insert into workspaces (name, plan, signing_secret, created_at)
          values (${`${body.name}'s workspace`}, ${app.config.defaultPlan}, ${newSigningSecret()},
                  ${now})
          returning id, name, 'owner' as role, plan`;
        await tx`insert into memberships (workspace_id, user_id, role, created_at)
                 values (${workspace.id}, ${created.id}, 'owner', ${now})`;
        const session = await issueToken(tx, created.id, "session", null, now);
        const payload = { user: created, workspaces: [workspace] };
        const headers = { "Set-Cookie": sessionCookie(app.config.publicBaseUrl, session.token) };
        // The Idempotency-Key's answer (cookie sealed) commits with the account.
        await storeInTransaction(tx, req, 201, payload, headers);
        return { payload, headers };
      });
      return json(answer.payload, 201, answer.headers);
    },
  }),

  accountRoute({
    method: "POST",
    path: "/api/v1/auth/login",
    summary: "Log in",
    description:
      "Checks e-mail and password and sets the service_token cookie (valid 14 days). A wrong " +
      "password and an unknown e-mail answer the same 401 after the same work. After " +
      "10 failures for one e-mail or 50 from one address within 15 minutes: 429, with " +
      "Retry-After the seconds until neither limit would refuse the same login. Not a creating POST (200, no resource to address): Idempotency-Key is " +
      "ignored, and a repeated login simply opens another session.",
    auth: publicAccess(),
    body: s.named(
      "Credentials",
      s.object({
        email: s.email(),
        password: s.string({ min: 1, max: 1024, example: "correct horse battery staple" }),
      }),
    ),
    responses: { 200: { description: "Signed in.", schema: sessionJson, headers: cookieHeader } },
    errors: [401, 429],
    handler: async ({ app, body, clientAddress }) => {
      const attempt = await beginLoginAttempt(app, body.email, clientAddress);
      const [found] = await app.db.sql<
        { id: string; email: string; name: string; password_hash: string }
      >`select id, email, name, password_hash from users where lower(email) = lower(${body.email})`;
      // The derivation runs whether or not the account exists (against a decoy hash), so the
      // answer and its timing do not tell which e-mails are registered.
      const ok = await verifyPassword(body.password, found?.password_hash ?? null);
      if (!ok || !found) {
        throw new ApiError(401, "UNAUTHENTICATED", { message: "E-mail or password is wrong." });
      }
      await forgetLoginAttempt(app, attempt);
      const session = await issueToken(app.db.sql, found.id, "session", null, app.clock());
      const workspaces = await app.db.sql`
        select w.id, w.name, m.role, w.plan from memberships m
        join workspaces w on w.id = m.workspace_id
        where m.user_id = ${found.id} order by m.created_at, w.id`;
      return json(
        { user: { id: found.id, email: found.email, name: found.name }, workspaces },
        200,
        { "Set-Cookie": sessionCookie(app.config.publicBaseUrl, session.token) },
      );
    },
  }),

  accountRoute({
    method: "POST",
    path: "/api/v1/auth/logout",
    summary: "Log out",
    description: "Revokes the credential of this request (cookie or bearer token) and clears " +
      "the cookie, 204.",
    auth: user("viewer"),
    responses: { 204: { description: "Signed out.", headers: cookieHeader } },
    handler: async ({ app, principal }) => {
      await app.db.sql`update auth_tokens set revoked_at = ${app.clock()}
                       where id = ${principal.tokenId} and revoked_at is null`;
      return json(null, 204, { "Set-Cookie": sessionCookie(app.config.publicBaseUrl) });
    },
  }),

  accountRoute({
    method: "POST",
    path: "/api/v1/auth/tokens",
    summary: "Create a bearer token",
    description:
      "Creates a token for scripts (Authorization: Bearer), valid until revoked, with the " +
      "user's access. The token is shown only in this answer; only its SHA-256 digest is " +
      "kept. Accepts Idempotency-Key: a replay within 24 h answers the same token and " +
      "creates no other; for that the stored answer keeps the token encrypted (AES-GCM, key " +
      "derived from SECRET_KEY) until the key expires.",
    auth: user("viewer"),
    idempotent: true,
    sealed: { body: ["token"] },
    body: s.named("TokenRequest", s.object({ name: tokenName })),
    responses: { 201: { description: "Created.", schema: tokenJson } },
    handler: ({ app, body, principal, req }) => {
      // The Idempotency-Key's answer (token sealed) commits with the token.
      return answeredInTransaction(app.db, req, 201, async (tx) => {
        const now = app.clock();
        const { id, token } = await issueToken(tx, principal.userId, "api", body.name, now);
        return { id, name: body.name, token, created_at: now };
      });
    },
  }),

  accountRoute({
    method: "GET",
    path: "/api/v1/auth/tokens",
    summary: "List bearer tokens",
    description: "The user's unrevoked bearer tokens (never the token values), newest first.",
    auth: user("viewer"),
    query: pageQuery,
    responses: { 200: { description: "A page.", schema: listEnvelope(tokenListItem) } },
    handler: async ({ app, query, principal }) => {
      const scope = { list: "tokens", filter: { user: principal.userId } };
      // JSON.stringify writes each Date as toISOString() does.
      const page = await listPage(
        app,
        scope,
        query,
        newestFirst,
        (after, fetch) =>
          app.db.sql<{ id: string; name: string; created_at: Date }>`
          select id, name, created_at from auth_tokens
          where user_id = ${principal.userId} and kind = 'api' and revoked_at is null ${after}
          order by created_at desc, id desc limit ${fetch}`,
        (r) => r,
      );
      return json(page);
    },
  }),

  accountRoute({
    method: "DELETE",
    path: "/api/v1/auth/tokens/{id}",
    summary: "Revoke a bearer token",
    description: "Revokes one of the user's bearer tokens, 204; effective on the next request.",
    auth: user("viewer"),
    params: { id: s.uuid() },
    responses: { 204: { description: "Revoked." } },
    handler: async ({ app, params, principal }) => {
      const rows = await app.db.sql`
        update auth_tokens set revoked_at = ${app.clock()}
        where id = ${params.id} and user_id = ${principal.userId} and kind = 'api'
          and revoked_at is null
        returning id`;
      if (!rows.length) throw notFound("No such token.");
      return json(null, 204);
    },
  }),
];
