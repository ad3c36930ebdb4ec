// What respondents gave to a questionnaire of the workspace: its sessions with their answers
// (a list, newest first, and one), erasing one session, and a summary of the answers.

import { user, type UserPrincipal } from "../../lib/forms/auth.ts";
import { eraseSessions } from "../../lib/forms/erasure.ts";
import { progressSchema, respondentSchema } from "../../lib/forms/schemas.ts";
import { QUESTION_TYPES } from "../../lib/forms/questions.ts";
import {
  badCursor,
  type CursorScope,
  encodeCursor,
  listEnvelope,
  pageQuery,
  verifyCursor,
} from "../../lib/http/cursor.ts";
import { empty, frag, type Fragment, type Sql } from "../../lib/db/db.ts";
import { json, jsonText } from "../../lib/http/router.ts";
import { defineFormsRoute, type FormsApp, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";

const MAX_SESSION_ID = 2 ** 53 - 1;
const SESSION_ID_EXAMPLE = 4_503_599_627_370_497;
/** A cursor unused this long has expired (forms-api.md §8), as every list's. */
const CURSOR_TTL_MS = 24 * 3600 * 1000;
/** Number questions list their counts per value up to this many distinct values. */
const FEW_VALUES = 20;

const ERASED_COPIES = "Copies are the integrator's to erase: webhook deliveries already " +
  "made, events already read from GET /api/v1/events and exports already downloaded hold " +
  "the same data, and the service cannot take them back.";

const answerJson = s.named(
  "SessionAnswer",
  s.object({
    question_id: s.int({ min: 1, example: 101 }),
    question_title: s.string({ example: "How did you hear about us?" }),
    answer: s.string({
      example: "Radio",
      description: "The answer as stored (empty for a skipped optional question).",
    }),
    answered_at: s.dateTime(),
  }),
);
const sessionJson = s.named(
  "Session",
  s.object({
    id: s.int({ min: 1, example: SESSION_ID_EXAMPLE }),
    questionnaire_id: s.uuid(),
    state: s.enumOf(["started", "completed"]),
    respondent: respondentSchema,
    loaded_at: s.int({
      min: 0,
      example: 1795162512000,
      description: "When the visitor's page loaded, as the visitor sent it: epoch milliseconds.",
    }),
    started_at: s.dateTime(),
    completed_at: s.nullable(s.dateTime()),
    progress: progressSchema,
    answers: s.array(answerJson, { description: "In question order." }),
  }),
);

interface SessionRow {
  id: number;
  /** started_at to the microsecond, as the cursor keeps it. */
  started_key: string;
  /** The session as the API shows it: JSON text built by the database. */
  session: string;
}

const UTC_MS = frag`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * A session with its answers in question order, as JSON text built in the query: a page of
 * sessions is sent without the service parsing and writing it again.
 */
const SESSION_COLUMNS = frag`
  s.id,
  to_char(s.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as started_key,
  json_build_object(
    'id', s.id,
    'questionnaire_id', s.questionnaire_id,
    'state', case when s.completed_at is null then 'started' else 'completed' end,
    'respondent', json_build_object('name', s.name, 'email', s.email),
    'loaded_at', floor(extract(epoch from s.loaded_at) * 1000)::int8,
    'started_at', to_char(s.started_at at time zone 'UTC', ${UTC_MS}),
    'completed_at', to_char(s.completed_at at time zone 'UTC', ${UTC_MS}),
    'progress', json_build_object('answered', s.answered, 'total', s.total),
    'answers', coalesce((
      select json_agg(json_build_object(
               'question_id', a.question_id,
               'question_title', q.title,
               'answer', a.answer,
               'answered_at', to_char(a.created_at at time zone 'UTC', ${UTC_MS}))
             order by q.position, a.question_id)
      from answers a join questions q on q.id = a.question_id
      where a.session_id = s.id), '[]'::json)
  )::text as session`;

/** The workspace's questionnaire (not deleted), or 404. */
async function ownQuestionnaire(sql: Sql, principal: UserPrincipal, id: string) {
  const [row] = await sql`
    select id from questionnaires
    where id = ${id} and workspace_id = ${principal.workspaceId} and state <> 'deleted'`;
  if (!row) throw notFound("No such questionnaire.");
}

/** since (inclusive) and until (exclusive) on the sessions' start time, as a condition. */
function startedWithin(range: { since?: Date; until?: Date }): Fragment {
  if (range.since && range.until && range.since >= range.until) {
    throw s.invalid("until", "until must be later than since.");
  }
  return frag`${range.since ? frag`and s.started_at >= ${range.since}` : empty}
    ${range.until ? frag`and s.started_at < ${range.until}` : empty}`;
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
const rangeQuery = {
  since: s.optional(
    s.dateTime("Sessions started at or after this instant.", "2026-11-13T00:00:00Z"),
  ),
  until: s.optional(s.dateTime("Sessions started before this instant.", "2026-11-20T00:00:00Z")),
};

const countSchema = s.int({ min: 0, example: 12 });
const questionSummary = s.named(
  "QuestionSummary",
  s.object({
    id: s.int({ min: 1, example: 101 }),
    title: s.string({ example: "How did you hear about us?" }),
    type: s.enumOf(QUESTION_TYPES),
    answered: s.int({ min: 0, example: 12, description: "Non-empty answers." }),
    skipped: s.int({
      min: 0,
      example: 0,
      description: "Empty answers (an optional question passed over).",
    }),
    options: s.nullable(s.array(
      s.object({ option: s.string({ example: "Radio" }), count: countSchema }),
      { description: "choice: every option in question order with its count; else null." },
    )),
    min: s.nullable(s.number({ example: 1, description: "number and rating; else null." })),
    max: s.nullable(s.number({ example: 5, description: "number and rating; else null." })),
    mean: s.nullable(s.number({ example: 4.25, description: "number and rating; else null." })),
    values: s.nullable(s.array(
      s.object({ value: s.number({ example: 5 }), count: countSchema }),
      {
        description: `rating: the count of each value 1 to 5; number: the count of each value ` +
          `given, in order, when there are at most ${FEW_VALUES} distinct ones; else null.`,
      },
    )),
  }),
);
const summaryJson = s.named(
  "ResponseSummary",
  s.object({
    questionnaire_id: s.uuid(),
    since: s.nullable(s.dateTime("The since given, if any.")),
    until: s.nullable(s.dateTime("The until given, if any.")),
    sessions: s.object({
      started: s.int({ min: 0, example: 16, description: "Sessions started in the period." }),
      completed: s.int({ min: 0, example: 12, description: "Of those, the completed ones." }),
      completion_rate: s.nullable(s.number({
        min: 0,
        max: 1,
        example: 0.75,
        description: "completed / started; null when none started.",
      })),
    }),
    questions: s.array(questionSummary, { description: "In question order." }),
  }),
);

/**
 * The summary of a questionnaire's answers, every figure aggregated by the database. Without
 * since/until it adds up the running tallies (sql/009_responses.sql), which the triggers keep
 * exact in the transaction of every change; with them, it reads the answers of the sessions
 * started in the period.
 */
async function summarize(
  sql: Sql,
  workspaceId: string,
  questionnaireId: string,
  range: { since?: Date; until?: Date },
) {
  const within = startedWithin(range);
  const ranged = range.since !== undefined || range.until !== undefined;
  // Per question, one row per value for choice, number and rating questions, one for the
  // non-empty answers of a text or e-mail question (value null, not summarized by value), and
  // one for the skipped ones.
  const groups = ranged
    ? frag`
      select a.question_id,
             case when a.answer = '' or qu.type in ('text', 'email') then null
                  else a.answer end as value,
             a.answer = '' as skipped,
             count(*)::int as n
      from answers a
      join questions qu on qu.id = a.question_id
      join sessions s on s.id = a.session_id ${within}
      where a.questionnaire_id = ${questionnaireId} and qu.questionnaire_id = ${questionnaireId}
      group by 1, 2, 3`
    : frag`
      select question_id, nullif(value, '') as value, coalesce(value = '', false) as skipped,
             sum(n)::int as n
      from answer_tallies
      where questionnaire_id = ${questionnaireId}
      group by 1, 2, 3
      having sum(n) > 0`;
  const counts = ranged
    ? frag`select count(*) as started, count(s.completed_at) as completed from sessions s
        where s.questionnaire_id = ${questionnaireId} ${within}`
    : frag`select coalesce(sum(started), 0) as started, coalesce(sum(completed), 0) as completed
        from session_tallies where questionnaire_id = ${questionnaireId}`;
  // One statement, its parts as JSON text: nothing of it is parsed and written again here.
  const [row] = await sql<{ sessions: string; questions: string }>`
    with groups as (${groups}), counts as (${counts}),
    per_question as (
      select qu.position, qu.id, qu.title, qu.type,
        coalesce((select sum(g.n) from groups g where g.question_id = qu.id and not g.skipped),
                 0)::int as answered,
        coalesce((select sum(g.n) from groups g where g.question_id = qu.id and g.skipped),
                 0)::int as skipped,
        case when qu.type = 'choice' then (
          select json_agg(json_build_object('option', o.value, 'count', coalesce(g.n, 0))
                          order by o.n)
          from jsonb_array_elements_text(qu.options) with ordinality as o(value, n)
          left join groups g on g.question_id = qu.id and g.value = o.value) end as options,
        m.min, m.max, m.mean,
        case when qu.type = 'rating' then (
          select json_agg(json_build_object('value', v, 'count', coalesce(g.n, 0)) order by v)
          from generate_series(1, 5) as v
          left join groups g on g.question_id = qu.id and g.value = v::text)
        when qu.type = 'number' and m.distinct_values <= ${FEW_VALUES} then (
          select json_agg(json_build_object('value', g.value::numeric::float8, 'count', g.n)
                          order by g.value::numeric)
          from groups g where g.question_id = qu.id and g.value is not null) end as per_value
      from questions qu
      left join lateral (
        select min(g.value::numeric)::float8 as min, max(g.value::numeric)::float8 as max,
               (sum(g.value::numeric * g.n) / sum(g.n))::float8 as mean,
               count(*) as distinct_values
        from groups g
        where qu.type in ('number', 'rating') and g.question_id = qu.id and g.value is not null
      ) m on true
      where qu.questionnaire_id = ${questionnaireId}
    )
    select
      (select json_build_object(
         'started', started::int,
         'completed', completed::int,
         'completion_rate', case when started = 0 then null
                                 else completed::float8 / started end)
       from counts)::text as sessions,
      coalesce((select json_agg(json_build_object(
                  'id', p.id, 'title', p.title, 'type', p.type, 'answered', p.answered,
                  'skipped', p.skipped, 'options', p.options, 'min', p.min, 'max', p.max,
                  'mean', p.mean, 'values', p.per_value) order by p.position)
                from per_question p), '[]'::json)::text as questions
    where exists (
      select 1 from questionnaires
      where id = ${questionnaireId} and workspace_id = ${workspaceId} and state <> 'deleted')`;
  if (!row) throw notFound("No such questionnaire.");
  return `{"questionnaire_id":${JSON.stringify(questionnaireId)},` +
    `"since":${JSON.stringify(range.since ?? null)},"until":${
      JSON.stringify(range.until ?? null)
    },` +
    `"sessions":${row.sessions},"questions":${row.questions}}`;
}

export const routes = [
  defineFormsRoute({
    method: "GET",
    path: "/api/v1/questionnaires/{id}/sessions",
    tag: "responses",
    summary: "List a questionnaire's sessions",
    description: "The sessions of a questionnaire of the workspace with their answers, newest " +
      "first (by start time), in the list envelope with a signed cursor (keyset: sessions " +
      "that start during the walk are not served, and none is skipped or repeated). " +
      "state=started lists the sessions not yet completed, state=completed the completed " +
      "ones; since (inclusive) and until (exclusive) bound the start time. A cursor works " +
      "only with the filters it was issued for. Another workspace's or a deleted " +
      "questionnaire: 404. Needs viewer.",
    auth: user("viewer"),
    cors: "credentialed",
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

  defineFormsRoute({
    method: "GET",
    path: "/api/v1/questionnaires/{id}/sessions/{sessionId}",
    tag: "responses",
    summary: "Read a session",
    description: "One session of a questionnaire of the workspace with its answers, as the " +
      "list shows it. Another workspace's or a deleted questionnaire, or a session of " +
      "another questionnaire or erased: 404. Needs viewer.",
    auth: user("viewer"),
    cors: "credentialed",
    params: sessionParams,
    responses: { 200: { description: "The session.", schema: sessionJson } },
    handler: async ({ app, params, principal }) => {
      const [row] = await app.db.sql<SessionRow>`
        select ${SESSION_COLUMNS} from sessions s
        join questionnaires q on q.id = s.questionnaire_id
        where s.id = ${params.sessionId} and s.questionnaire_id = ${params.id}
          and q.workspace_id = ${principal.workspaceId} and q.state <> 'deleted'`;
      if (!row) throw notFound("No such session.");
      return jsonText(row.session);
    },
  }),

  defineFormsRoute({
    method: "DELETE",
    path: "/api/v1/questionnaires/{id}/sessions/{sessionId}",
    tag: "responses",
    summary: "Erase a session",
    description: "Erases the session with its answers, 204: it is gone from every route, " +
      "from exports downloaded afterwards and from the events feed, and its events' " +
      "deliveries (with their stored bodies) leave the delivery log; an event not yet " +
      "delivered is never sent. Deliveries already made stay made (one in flight may still " +
      `arrive). ${ERASED_COPIES} The erasure is recorded (who, when). Not found, as for ` +
      "reading it: 404. Needs admin.",
    auth: user("admin"),
    cors: "credentialed",
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

  defineFormsRoute({
    method: "GET",
    path: "/api/v1/questionnaires/{id}/summary",
    tag: "responses",
    summary: "Summarize a questionnaire's answers",
    description: "Per question: how many answered (and skipped an optional question); for " +
      "choice questions the count of each option; for number and rating questions min, max, " +
      `mean and the count of each value (rating always, number when at most ${FEW_VALUES} ` +
      "distinct values were given). Overall: sessions started, completed and the completion " +
      "rate. since (inclusive) and until (exclusive) bound the sessions' start time; answers " +
      "count with their session. Exact, nothing sampled: without since/until the database adds " +
      "up counts it keeps in the transaction of every answer, session and erasure (fast at " +
      "any size); with them it reads the answers of the period (time grows with it). Another workspace's or a deleted questionnaire: 404. Needs viewer.",
    auth: user("viewer"),
    cors: "credentialed",
    params: questionnaireParam,
    query: rangeQuery,
    responses: { 200: { description: "The summary.", schema: summaryJson } },
    handler: async ({ app, params, principal, query }) => {
      // Without a period one plan serves every questionnaire: kept, it is not made again per
      // request. A period's best plan depends on its length.
      const sql = query.since || query.until ? app.db.sql : app.db.keptPlans;
      return jsonText(await summarize(sql, principal.workspaceId, params.id, query));
    },
  }),
];
