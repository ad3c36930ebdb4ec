// A session with its answers as the API shows it (routes/forms/sessions.ts): its schema, and the
// SQL that writes it as JSON text, so that a page of sessions is sent without the service parsing
// and writing it again.

import { frag, type Fragment } from "../db/db.ts";
import { progressSchema, respondentSchema } from "./schemas.ts";
import * as s from "../http/schema.ts";

export const MAX_SESSION_ID = 2 ** 53 - 1;
export const SESSION_ID_EXAMPLE = 4_503_599_627_370_497;

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

export const sessionJson = s.named(
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

export interface SessionRow {
  id: number;
  /** started_at to the microsecond, as the cursor keeps it. */
  started_key: string;
  /** The session as the API shows it: JSON text built by the database. */
  session: string;
}

/** An instant as toISOString writes it (UTC, milliseconds), whatever the session's time zone. */
const UTC_MS = frag`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The statement's first clause: each question of the questionnaire with the start of its
 * answers' JSON (id and title) written once, instead of once per answer. SESSION_COLUMNS reads
 * it as `heads`.
 */
export function withQuestionHeads(questionnaireId: string): Fragment {
  return frag`with heads as materialized (
    select id, position,
           '{"question_id" : ' || id || ', "question_title" : ' || to_json(title)::text ||
           ', "answer" : ' as head
    from questions where questionnaire_id = ${questionnaireId})`;
}

/**
 * The columns of SessionRow for a session `s`, after withQuestionHeads. The text is the one
 * json_build_object and json_agg write (their " : " and ", " included), put together with ||
 * from parts escaped by to_json: the same bytes for a fraction of the work per answer.
 */
export const SESSION_COLUMNS = frag`
  s.id,
  to_char(s.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as started_key,
  '{"id" : ' || s.id ||
  ', "questionnaire_id" : "' || s.questionnaire_id ||
  '", "state" : ' || case when s.completed_at is null then '"started"' else '"completed"' end ||
  ', "respondent" : {"name" : ' || to_json(s.name)::text ||
  ', "email" : ' || to_json(s.email)::text ||
  '}, "loaded_at" : ' || floor(extract(epoch from s.loaded_at) * 1000)::int8 ||
  ', "started_at" : "' || to_char(s.started_at at time zone 'UTC', ${UTC_MS}) ||
  '", "completed_at" : ' ||
    coalesce('"' || to_char(s.completed_at at time zone 'UTC', ${UTC_MS}) || '"', 'null') ||
  ', "progress" : {"answered" : ' || s.answered || ', "total" : ' || s.total ||
  '}, "answers" : [' || coalesce((
    select string_agg(
             h.head || to_json(a.answer)::text || ', "answered_at" : "' ||
               to_char(a.created_at at time zone 'UTC', ${UTC_MS}) || '"}',
             ', ' order by h.position, a.question_id)
    from answers a join heads h on h.id = a.question_id
    where a.session_id = s.id), '') || ']}' as session`;
