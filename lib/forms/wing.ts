// What the forms API adds to the service: its state in memory, how its requests fail, and how its
// route files define their routes.

import { ApiError } from "../errors.ts";
import type { Sql } from "../db/db.ts";
import { storeInTransaction } from "../http/idempotency.ts";
import { type AppContext, json, type Route, type RouteDef, routeDefiner } from "../http/router.ts";
import type { Shape } from "../http/schema.ts";
import { createQuestionCache } from "./question_cache.ts";
import { WORKSPACE_HEADER } from "./auth.ts";
import { formTokenKey } from "./form_token.ts";

export type FormsApp = AppContext & { forms: ReturnType<typeof createFormsState> };

export function createFormsState(sql: Sql, secretKey: string) {
  return {
    // Questions as answering them needs them (they never change once published).
    questions: createQuestionCache(sql),
    // Signs the form tokens of bot protection; derived once, as every token read uses it.
    formTokenKey: formTokenKey(secretKey),
  };
}

/**
 * The forms API answers invalid input with 400, and a database that cannot be reached or misses
 * the deadline with 500 INTERNAL: forms-api.md §7 gives an unavailable dependency that status,
 * and contract.md keeps 503 UNAVAILABLE for the ads data source.
 */
export const defineFormsRoute = routeDefiner<FormsApp>({
  invalidQueryStatus: 400,
  unavailable: () =>
    new ApiError(500, "INTERNAL", { message: "Internal error; retry with exponential backoff." }),
  deadlineMs: (config) => config.databaseTimeoutMs,
  // A preflight's or a 401's origin is allowed when some workspace lists it (lib/http/cors.ts).
  credentialedCors: {
    originListed: async (app, origin) =>
      (await app.db.sql`
        select 1 from workspaces where allowed_origins @> array[${origin}]::text[] limit 1`)
        .length > 0,
    requestHeaders: [WORKSPACE_HEADER.name],
  },
  // The public questionnaire routes: a 404 or 405 under them is readable by any embed.
  publicPrefix: "/api/v1/public/",
});

/**
 * The definer of one area of the forms API (a route file): its tag and CORS policy, said once for
 * all its routes. A workspace's resources answer the origins the workspace allows
 * ("credentialed"); routes about the user alone leave `cors` out, so only the service's own
 * origin may call them with credentials (lib/forms/auth.ts says why).
 */
export function formsRoutes(shared: { tag: string; cors?: "public" | "credentialed" }) {
  return <QS extends Shape = Shape, PS extends Shape = Shape, B = undefined, PR = null>(
    def: Omit<RouteDef<QS, PS, B, PR, FormsApp>, "tag" | "cors">,
  ): Route => defineFormsRoute({ ...def, ...shared });
}

/** The 404 of what the caller cannot see (another workspace's is the same as none). */
export function notFound(message: string, field: string | null = null): ApiError {
  return new ApiError(404, "NOT_FOUND", { message, field });
}

/** The 409 of a request that the resource's current state refuses. */
export function conflict(message: string, field: string | null = null): ApiError {
  return new ApiError(409, "CONFLICT", { message, field });
}

/**
 * The answer to a request that created `payload` in the transaction `tx`, with a Location of
 * `${collection}/${id}`. Its Idempotency-Key record is stored in `tx`, so it commits with the
 * resource: a retry after a crash replays it instead of creating a second one.
 */
export async function createdAnswer(
  tx: Sql,
  req: Request,
  status: number,
  collection: string,
  payload: { id: string },
): Promise<Response> {
  const headers = { Location: `${collection}/${payload.id}` };
  await storeInTransaction(tx, req, status, payload, headers);
  return json(payload, status, headers);
}
