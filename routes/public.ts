// Public endpoints of published questionnaires: read one by slug, start a session, answer its
// questions one at a time. Every state change writes its webhook event in the same transaction.

import { publicAccess } from "../lib/auth.ts";
import { ApiError } from "../lib/errors.ts";
import { keyTaken, pendingRecord, recordCommitted } from "../lib/idempotency.ts";
import type { OutboxEvent } from "../lib/outbox.ts";
import { answerCounter, monthFull, type Plan } from "../lib/plan.ts";
import { checkAnswer, type Question, QUESTION_TYPES } from "../lib/questions.ts";
import { defineRoute, json } from "../lib/router.ts";
import { array, boolean, email, enumOf, int, nullable, object, string } from "../lib/schema.ts";

/** loaded_at may lie this far in the future (client clock skew) ... */
const LOADED_AT_SKEW_MS = 5 * 60 * 1000;
/** ... and at most this far in the past (a page left open longer must be reloaded). */
const LOADED_AT_MAX_AGE_MS = 24 * 3600 * 1000;

const slugParam = { slug: string({ min: 1, max: 64 }) };
const MAX_SESSION_ID = 2 ** 53 - 1;
/** An answer re-reads its session at most this often when other answers of it commit first. */
const STALE_RETRIES = 20;

const publicQuestionnaire = object({
  title: string(),
  slug: string(),
  questions: array(object({
    id: int(),
    title: string(),
    type: enumOf(QUESTION_TYPES),
    required: boolean(),
    options: nullable(array(string())),
  })),
});
const progress = object({ answered: int(), total: int() });
const answerResult = object({ success: boolean(), isComplete: boolean(), progress });

/** A random id in [1, 2^53): not guessable from another session's id, and safe in JavaScript. */
function randomSessionId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0x1fffff) * 2 ** 32 + low || 1;
}

function notFound(): ApiError {
  return new ApiError(404, "NOT_FOUND", "No published questionnaire has this slug.");
}

interface SessionRow {
  workspace_id: string;
  questionnaire_id: string;
  state: string;
  plan: Plan;
  name: string;
  email: string;
  completed_at: Date | null;
  answered: number;
  total: number;
  last_sequence: number;
  question_id: number | null;
  type: Question["type"] | null;
  required: boolean | null;
  options: string[] | null;
  position: number | null;
  already: boolean;
  prior: { question_id: number; answer: string; position: number }[] | null;
}

export const routes = [
  defineRoute({
    method: "GET",
    path: "/api/v1/public/q/{slug}",
    api: "forms",
    tag: "public",
    summary: "Read a published questionnaire",
    description: "Title and questions (ids, titles, types, options, required) of a published " +
      "questionnaire; a draft, closed, deleted or unknown slug: 404. CORS: any origin.",
    auth: publicAccess(),
    cors: "public",
    params: slugParam,
    responses: { 200: { description: "The questionnaire.", schema: publicQuestionnaire } },
    handler: async ({ app, params }) => {
      const [row] = await app.db.sql<{ id: string; title: string; slug: string }>`
        select id, title, slug from questionnaires where slug = ${params.slug} and state = 'published'`;
      if (!row) throw notFound();
      const questions = await app.db.sql<Question>`
        select id, title, type, required, options from questions
        where questionnaire_id = ${row.id} order by position`;
      return json({ title: row.title, slug: row.slug, questions });
    },
  }),

  defineRoute({
    method: "POST",
    path: "/api/v1/public/q/{slug}/sessions",
    api: "forms",
    tag: "public",
    summary: "Start a session",
    description:
      "Starts a visitor's session on a published questionnaire, 201 {sessionId}. name, email " +
      "(an e-mail address) and loaded_at (epoch ms when the form was loaded) are all " +
      "required; loaded_at more than 5 minutes in the future or older than 24 hours: 400 " +
      "(field loaded_at). sessionId is a random integer below 2^53. A closed, draft or " +
      "unknown questionnaire: 404. Emits session.started. Accepts Idempotency-Key.",
    auth: publicAccess(),
    cors: "public",
    idempotent: "transactional",
    params: slugParam,
    body: object({
      name: string({ min: 1, max: 200 }),
      email: email(),
      loaded_at: int({ min: 0, description: "Milliseconds since the Unix epoch." }),
    }),
    responses: { 201: { description: "Started.", schema: object({ sessionId: int() }) } },
    handler: async ({ app, body, params, req }) => {
      const now = app.clock();
      const age = now.getTime() - body.loaded_at;
      if (age < -LOADED_AT_SKEW_MS || age > LOADED_AT_MAX_AGE_MS) {
        throw new ApiError(
          400,
          "VALIDATION_FAILED",
          "loaded_at must be the time the form was loaded: not in the future, at most 24 hours ago.",
          "loaded_at",
        );
      }
      for (;;) {
        const id = randomSessionId();
        const answer = { sessionId: id };
        // One statement, one round trip and one commit: the session, its session.started
        // event and the Idempotency-Key record (see onda_start_session in sql/003_forms.sql).
        let started: boolean;
        try {
          [{ started }] = await app.db.sql<{ started: boolean }>`
            select onda_start_session(
              ${id}::bigint, ${params.slug}::text, ${body.name}::text, ${body.email}::text,
              ${new Date(body.loaded_at)}::timestamptz, ${now}::timestamptz,
              ${pendingRecord(req, 201, answer)}::jsonb
            ) as started`;
        } catch (err) {
          const code = (err as { code?: string })?.code;
          if (code === "OD001") throw keyTaken();
          // An id collision below 2^53 (unique violation, all rolled back): draw again.
          if (code !== "23505") throw err;
          continue;
        }
        if (!started) throw notFound();
        recordCommitted(req);
        return json(answer, 201);
      }
    },
  }),

  defineRoute({
    method: "POST",
    path: "/api/v1/public/q/{slug}/sessions/{sessionId}/answers",
    api: "forms",
    tag: "public",
    summary: "Answer a question",
    description:
      "Stores the answer to one question, 201 {success, isComplete, progress}. The answer " +
      "to the last open question completes the session. Unknown session: 404; a questionId " +
      "not in this questionnaire: 404 (field questionId); a second answer to a question: " +
      "409 (field questionId); a completed session or a closed questionnaire: 409; an " +
      "answer invalid for the question type: 400 (field answerText; empty only when not " +
      "required); over the workspace's monthly answers: 422 (field plan.answers_per_month), " +
      "nothing stored. Emits answer.submitted, and session.completed once. Accepts " +
      "Idempotency-Key.",
    auth: publicAccess(),
    cors: "public",
    idempotent: "transactional",
    params: { ...slugParam, sessionId: int({ min: 1, max: MAX_SESSION_ID }) },
    body: object({ questionId: int({ min: 1 }), answerText: string({ max: 10_000 }) }),
    responses: { 201: { description: "Stored.", schema: answerResult } },
    errors: [409, 422],
    handler: async ({ app, body, params, req }) => {
      // Two round trips and one commit: read the session (no transaction, no lock), check the
      // answer, then write everything in one statement that applies only if the session's
      // last_sequence is still the one read ('stale' otherwise: read again). Answers of one
      // session thus apply one after the other, so progress, sequence numbers and completion
      // are exact, as they were with the row locked for a whole transaction.
      for (let attempt = 0; attempt < STALE_RETRIES; attempt++) {
        const now = app.clock();
        const [s] = await app.db.sql<SessionRow>`
          select s.workspace_id, s.questionnaire_id, q.state, w.plan, s.name, s.email,
                 s.completed_at, s.answered, s.total, s.last_sequence,
                 qu.id as question_id, qu.type, qu.required, qu.options, qu.position,
                 exists (select 1 from answers a
                         where a.session_id = s.id and a.question_id = ${body.questionId}) as already,
                 -- The earlier answers, only when this one may complete the session (for the
                 -- session.completed event), so completion needs no query of its own.
                 case when s.answered + 1 >= s.total then (
                   select coalesce(jsonb_agg(jsonb_build_object(
                     'question_id', a.question_id, 'answer', a.answer, 'position', p.position)),
                     '[]'::jsonb)
                   from answers a join questions p on p.id = a.question_id
                   where a.session_id = s.id
                 ) end as prior
          from sessions s
          join questionnaires q on q.id = s.questionnaire_id
          join workspaces w on w.id = s.workspace_id
          left join questions qu on qu.id = ${body.questionId}
                                and qu.questionnaire_id = s.questionnaire_id
          where s.id = ${params.sessionId} and q.slug = ${params.slug} and q.state <> 'deleted'`;
        if (!s) throw new ApiError(404, "NOT_FOUND", "No such session.");
        if (s.completed_at) {
          throw new ApiError(409, "CONFLICT", "This session is already completed.");
        }
        if (s.state !== "published") {
          throw new ApiError(409, "CONFLICT", "This questionnaire no longer accepts answers.");
        }
        if (s.question_id === null) {
          throw new ApiError(
            404,
            "NOT_FOUND",
            "This questionnaire has no such question.",
            "questionId",
          );
        }
        if (s.already) {
          throw new ApiError(409, "CONFLICT", "This question is already answered.", "questionId");
        }
        const text = checkAnswer({
          id: s.question_id,
          title: "",
          type: s.type!,
          required: s.required!,
          options: s.options,
        }, body.answerText);

        const answered = s.answered + 1;
        const complete = answered >= s.total;
        const base = {
          questionnaire_id: s.questionnaire_id,
          questionnaire_slug: params.slug,
          session_id: params.sessionId,
        };
        const progress = { answered, total: s.total };
        const out: OutboxEvent[] = [{
          type: "answer.submitted",
          data: {
            ...base,
            sequence: s.last_sequence + 1,
            question_id: s.question_id,
            answer: text,
            progress,
          },
        }];
        if (complete) {
          const answers = [
            ...(s.prior ?? []),
            { question_id: s.question_id, answer: text, position: s.position! },
          ].sort((a, b) => a.position - b.position)
            .map(({ question_id, answer }) => ({ question_id, answer }));
          out.push({
            type: "session.completed",
            data: {
              ...base,
              sequence: s.last_sequence + 2,
              progress,
              respondent: { name: s.name, email: s.email },
              answers,
            },
          });
        }
        const answer = { success: true, isComplete: complete, progress };
        const counter = answerCounter(app.config, s.plan, now);
        let outcome: string;
        try {
          [{ outcome }] = await app.db.sql<{ outcome: string }>`
            select onda_record_answer(
              ${params.sessionId}::bigint, ${s.last_sequence}::integer, ${s.question_id}::bigint,
              ${s.questionnaire_id}::uuid, ${s.workspace_id}::uuid, ${text}::text,
              ${now}::timestamptz, ${answered}::integer, ${complete}::boolean,
              ${JSON.stringify(out)}::jsonb, ${pendingRecord(req, 201, answer)}::jsonb,
              ${counter.month}::date, ${counter.shard}::smallint, ${counter.limit}::integer
            ) as outcome`;
        } catch (err) {
          const code = (err as { code?: string })?.code;
          if (code === "OD002") throw monthFull(s.plan, counter.limit!);
          if (code === "OD001") throw keyTaken();
          throw err;
        }
        if (outcome === "ok") {
          recordCommitted(req);
          return json(answer, 201);
        }
        // 'stale': another answer of this session committed since the read; read again.
      }
      throw new ApiError(409, "CONFLICT", "This session is busy; retry shortly.");
    },
  }),
];
