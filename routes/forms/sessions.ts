// What respondents gave to a questionnaire of the workspace: its sessions with their answers
// (a list, newest first, and one), erasing one session, and a summary of the answers.

import { user, type UserPrincipal } from "../../lib/forms/auth.ts";
import { eraseSessions } from "../../lib/forms/erasure.ts";
import {
  MAX_SESSION_ID,
  SESSION_COLUMNS,
  SESSION_ID_EXAMPLE,
  sessionJson,
  type SessionRow,
  withQuestionHeads,
} from "../../lib/forms/session_json.ts";
import {
  FEW_VALUES,
  rangeQuery,
  startedWithin,
  summarize,
  summaryJson,
} from "../../lib/forms/summary.ts";
import {
  badCursor,
  type CursorScope,
  encodeCursor,
  listEnvelope,
  pageQuery,
  verifyCursor,
} from "../../lib/http/cursor.ts";
import { empty, frag, type Sql } from "../../lib/db/db.ts";
import { json, jsonText } from "../../lib/http/router.ts";
import { type FormsApp, formsRoutes, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";

const responsesRoute = formsRoutes({ tag: "responses", cors: "credentialed" });

/** A cursor unused this long has expired (forms-api.md §8), as every list's. */
const CURSOR_TTL_MS = 24 * 3600 * 1000;

const ERASED_COPIES = "Copies are the integrator's to erase: webhook deliveries already " +
  "made, events already read from GET /api/v1/events and exports already downloaded hold " +
  "the same data, and the service cannot take them back.";

/** The workspace's questionnaire (not deleted), or 404. */
async function ownQuestionnaire(sql: Sql, principal: UserPrincipal, id: string) {
  const [row] = await sql`
    select id from questionnaires
    where id = ${id} and workspace_id = ${principal.workspaceId} and state <> 'deleted'`;
  if (!row) throw notFound("No such questionnaire.");
}

const STARTED_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * The sessions after a cursor of `scope`: (started_at, id) below the last one served. The sort
 * key keeps started_at to the microsecond, so it is unique with the id and exact, and the walk
 * neither skips nor repeats a session that exists throughout it.
 */
async function afterCursor(app: FormsApp, scope: CursorScope, cursor: string | undefined) {
  if (cursor === undefined) return empty;
  const { key, issuedAt } = await verifyCursor(app, scope, cursor);
  // Signed by this service, but still input: only a well-formed key reaches the query.
  const [at, id] = key;
  if (
    key.length !== 2 || typeof at !== "string" || !STARTED_KEY.test(at) ||
    Number.isNaN(Date.parse(at)) ||
    // A day the month lacks parses (rolled over) here but fails in the database.
    new Date(at).toISOString().slice(0, 23) !== at.slice(0, 23) ||
    typeof id !== "number" || !Number.isSafeInteger(id) || id < 1
  ) {
    throw badCursor();
  }
  if (Math.abs(app.clock().getTime() - issuedAt) > CURSOR_TTL_MS) throw badCursor();
  return frag`and (s.started_at, s.id) < (${at}::timestamptz, ${id}::int8)`;
}

const questionnaireParam = { id: s.uuid() };
const sessionParams = {
  id: s.uuid(),
  sessionId: s.int({ min: 1, max: MAX_SESSION_ID, example: SESSION_ID_EXAMPLE }),
};
export const routes = [
  responsesRoute({
    method: "GET",
    path: "/api/v1/questionnaires/{id}/sessions",
    summary: "List a questionnaire's sessions",
    description: "The sessions of a questionnaire of the workspace with their answers, newest " +
      "first (by start time), in the list envelope with a signed cursor (keyset: sessions " +
      "that start during the walk are not served, and none is skipped or repeated). " +
      "state=started lists the sessions not yet completed, state=completed the completed " +
      "ones; since (inclusive) and until (exclusive) bound the start time. A cursor works " +
      "only with the filters it was issued for. Another workspace's or a deleted " +
      "questionnaire: 404. Needs viewer.",
    auth: user("viewer"),
    params: questionnaireParam,
    query: { ...pageQuery, state: s.optional(s.enumOf(["started", "completed"])), ...rangeQuery },
    responses: { 200: { description: "A page.", schema: listEnvelope(sessionJson) } },
    handler: async ({ app, params, principal, query }) => {
      const within = startedWithin(query);
      const scope = {
        list: "sessions",
        filter: {
          workspace: principal.workspaceId,
          questionnaire: params.id,
          state: query.state ?? null,
          since: query.since?.toISOString() ?? null,
          until: query.until?.toISOString() ?? null,
        },
      };
      const after = await afterCursor(app, scope, query.cursor);
      const state = query.state === "completed"
        ? frag`and s.completed_at is not null`
        : query.state === "started"
        ? frag`and s.completed_at is null`
        : empty;
      // The questionnaire's check rides along (evaluated once); only an empty page asks which
      // it is: none of the workspace's (404) or no session.
      const rows = await app.db.sql<SessionRow>`
        ${withQuestionHeads(params.id)}
        select ${SESSION_COLUMNS} from sessions s
        where s.questionnaire_id = ${params.id} and s.workspace_id = ${principal.workspaceId}
          and exists (
            select 1 from questionnaires
            where id = ${params.id} and workspace_id = ${principal.workspaceId}
              and state <> 'deleted')
          ${state} ${within} ${after}
        order by s.started_at desc, s.id desc
        limit ${query.limit + 1}`;
      if (!rows.length) await ownQuestionnaire(app.db.sql, principal, params.id);
      const hasMore = rows.length > query.limit;
      const shown = hasMore ? rows.slice(0, query.limit) : rows;
      const last = shown[shown.length - 1];
      const next = hasMore ? await encodeCursor(app, scope, [last.started_key, last.id]) : null;
      return jsonText(
        `{"data":[${shown.map((r) => r.session).join(",")}],` +
          `"next_cursor":${JSON.stringify(next)},"has_more":${hasMore}}`,
      );
    },
  }),

  responsesRoute({
    method: "GET",
    path: "/api/v1/questionnaires/{id}/sessions/{sessionId}",
    summary: "Read a session",
    description: "One session of a questionnaire of the workspace with its answers, as the " +
      "list shows it. Another workspace's or a deleted questionnaire, or a session of " +
      "another questionnaire or erased: 404. Needs viewer.",
    auth: user("viewer"),
    params: sessionParams,
    responses: { 200: { description: "The session.", schema: sessionJson } },
    handler: async ({ app, params, principal }) => {
      const [row] = await app.db.sql<SessionRow>`
        ${withQuestionHeads(params.id)}
        select ${SESSION_COLUMNS} from sessions s
        join questionnaires q on q.id = s.questionnaire_id
        where s.id = ${params.sessionId} and s.questionnaire_id = ${params.id}
          and q.workspace_id = ${principal.workspaceId} and q.state <> 'deleted'`;
      if (!row) throw notFound("No such session.");
      return jsonText(row.session);
    },
  }),

  responsesRoute({
    method: "DELETE",
    path: "/api/v1/questionnaires/{id}/sessions/{sessionId}",
    summary: "Erase a session",
    description: "Erases the session with its answers, 204: it is gone from every route, " +
      "from exports downloaded afterwards and from the events feed, and its events' " +
      "deliveries (with their stored bodies) leave the delivery log; an event not yet " +
      "delivered is never sent. Deliveries already made stay made (one in flight may still " +
      `arrive). ${ERASED_COPIES} The erasure is recorded (who, when). Not found, as for ` +
      "reading it: 404. Needs admin.",
    auth: user("admin"),
    params: sessionParams,
    responses: { 204: { description: "Erased." } },
    handler: async ({ app, params, principal }) => {
      await app.db.begin(async (tx) => {
        const erased = await eraseSessions(
          tx,
          principal,
          "session",
          frag`select s.id from sessions s join questionnaires q on q.id = s.questionnaire_id
            where s.id = ${params.sessionId} and s.questionnaire_id = ${params.id}
              and q.workspace_id = ${principal.workspaceId} and q.state <> 'deleted'`,
          null,
          app.clock(),
        );
        // Rolls the record back with the rest: nothing was erased.
        if (erased.sessions === 0) throw notFound("No such session.");
      });
      return json(null, 204);
    },
  }),

  responsesRoute({
    method: "GET",
    path: "/api/v1/questionnaires/{id}/summary",
    summary: "Summarize a questionnaire's answers",
    description: "Per question: how many answered (and skipped an optional question); for " +
      "choice questions the count of each option; for number and rating questions min, max, " +
      `mean and the count of each value (rating always, number when at most ${FEW_VALUES} ` +
      "distinct values were given). Overall: sessions started, completed and the completion " +
      "rate. since (inclusive) and until (exclusive) bound the sessions' start time; answers " +
      "count with their session. Exact, nothing sampled: the database adds up counts it " +
      "keeps in the transaction of every answer, session and erasure, of all time and per " +
      "hour of the sessions' start (UTC); with since/until, only the sessions of the " +
      "period's partial first and last hours are read one by one, so the time taken does " +
      "not grow with the period. Another workspace's or a deleted questionnaire: 404. Needs " +
      "viewer.",
    auth: user("viewer"),
    params: questionnaireParam,
    query: rangeQuery,
    responses: { 200: { description: "The summary.", schema: summaryJson } },
    handler: async ({ app, params, principal, query }) => {
      // Without a period one plan serves every questionnaire: kept, it is not made again per
      // request. A period's partial hours need a plan made for their instants: planned for
      // any instants, they read every session of the questionnaire.
      const sql = query.since || query.until ? app.db.sql : app.db.keptPlans;
      return jsonText(await summarize(sql, principal.workspaceId, params.id, query));
    },
  }),
];
