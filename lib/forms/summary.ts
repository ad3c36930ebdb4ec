// The summary of a questionnaire's answers (GET /api/v1/questionnaires/{id}/summary), computed
// by the database from the tallies that sql/010_period_tallies.sql keeps, and the period
// (since/until on the sessions' start) that it and the sessions list share.

import { empty, frag, type Fragment, join, type Sql } from "../db/db.ts";
import { QUESTION_TYPES } from "./questions.ts";
import { notFound } from "./wing.ts";
import * as s from "../http/schema.ts";

/** Number questions list their counts per value up to this many distinct values. */
export const FEW_VALUES = 20;
const HOUR_MS = 3600 * 1000;

export interface Period {
  since?: Date;
  until?: Date;
}

export const rangeQuery = {
  since: s.optional(
    s.dateTime("Sessions started at or after this instant.", "2026-11-13T00:00:00Z"),
  ),
  until: s.optional(s.dateTime("Sessions started before this instant.", "2026-11-20T00:00:00Z")),
};

/** since (inclusive) and until (exclusive) on the sessions' start time, as a condition. */
export function startedWithin(range: Period): Fragment {
  if (range.since && range.until && range.since >= range.until) {
    throw s.invalid("until", "until must be later than since.");
  }
  return frag`${range.since ? frag`and s.started_at >= ${range.since}` : empty}
    ${range.until ? frag`and s.started_at < ${range.until}` : empty}`;
}

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
export const summaryJson = s.named(
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
 * Tallied stretches: `hours` long (1 or 24; 0: all time), first hours from `from` up to `to`.
 */
export interface TallyRange {
  hours: 0 | 1 | 24;
  /** Hours since 1970-01-01 UTC, as onda_session_hour counts them; null: unbounded. */
  from: number | null;
  to: number | null;
}

/**
 * A period cut where the tallies can count it (sql/010_period_tallies.sql): the days (UTC) it
 * holds whole, the whole hours left at either end, and the stretches of partial hours at its
 * ends, whose sessions are read one by one (a period within one hour is one such stretch).
 */
export function splitPeriod(range: Period): { tallies: TallyRange[]; stretches: [Date, Date][] } {
  if (!range.since && !range.until) {
    return { tallies: [{ hours: 0, from: null, to: null }], stretches: [] };
  }
  const since = range.since?.getTime();
  const until = range.until?.getTime();
  const first = since === undefined ? null : Math.ceil(since / HOUR_MS);
  const end = until === undefined ? null : Math.floor(until / HOUR_MS);
  if (first !== null && end !== null && first >= end) {
    return { tallies: [], stretches: [[range.since!, range.until!]] };
  }
  const stretches: [Date, Date][] = [];
  if (first !== null && since! < first * HOUR_MS) {
    stretches.push([range.since!, new Date(first * HOUR_MS)]);
  }
  if (end !== null && end * HOUR_MS < until!) {
    stretches.push([new Date(end * HOUR_MS), range.until!]);
  }
  const firstDay = first === null ? null : Math.ceil(first / 24) * 24;
  const endDay = end === null ? null : Math.floor(end / 24) * 24;
  if (firstDay !== null && endDay !== null && firstDay >= endDay) {
    return { tallies: [{ hours: 1, from: first, to: end }], stretches };
  }
  const tallies: TallyRange[] = [{ hours: 24, from: firstDay, to: endDay }];
  if (first !== null && first < firstDay!) tallies.push({ hours: 1, from: first, to: firstDay });
  if (end !== null && endDay! < end) tallies.push({ hours: 1, from: endDay, to: end });
  return { tallies, stretches };
}

/**
 * A stretch's length as SQL text, not a parameter: a plan kept for any value (the summary of all
 * time) would not know how few rows "all time" picks among the tallies and read them all.
 */
const STRETCH = { 0: frag`hours = 0`, 1: frag`hours = 1`, 24: frag`hours = 24` };

/** The rows of a tally table within `range`. */
function within(range: TallyRange): Fragment {
  return frag`${STRETCH[range.hours]}
    ${range.from === null ? empty : frag`and hour >= ${range.from}`}
    ${range.to === null ? empty : frag`and hour < ${range.to}`}`;
}

/**
 * Per question, value and whether skipped, the answers of the sessions started in `range` (all
 * time without one): value null for the non-empty answers of a text or e-mail question, which
 * are counted, never summarized by value.
 */
function answerGroups(questionnaireId: string, range: Period): Fragment {
  const { tallies, stretches } = splitPeriod(range);
  const parts: Fragment[] = tallies.map((r) =>
    frag`
      select question_id, value, n from answer_tallies
      where questionnaire_id = ${questionnaireId} and ${within(r)}`
  );
  for (const [from, to] of stretches) {
    parts.push(frag`
      select a.question_id,
             case when a.answer <> '' and qu.type in ('text', 'email') then null
                  else a.answer end as value,
             1 as n
      from sessions s
      join answers a on a.session_id = s.id
      join questions qu on qu.id = a.question_id
      where s.questionnaire_id = ${questionnaireId}
        and s.started_at >= ${from} and s.started_at < ${to}`);
  }
  // Grouped by the stored value first: fewer and cheaper keys for the rows of many hours.
  return frag`
    select question_id, nullif(value, '') as value, coalesce(value = '', false) as skipped,
           n::int as n
    from (
      select question_id, value, sum(n) as n
      from (${join(parts, frag` union all `)}) t
      group by 1, 2
    ) v
    where n > 0`;
}

/** Sessions started and completed in `range` (all time without one). */
function sessionCounts(questionnaireId: string, range: Period): Fragment {
  const { tallies, stretches } = splitPeriod(range);
  const parts: Fragment[] = tallies.map((r) =>
    frag`
      select started, completed from session_tallies
      where questionnaire_id = ${questionnaireId} and ${within(r)}`
  );
  for (const [from, to] of stretches) {
    parts.push(frag`
      select 1, case when s.completed_at is null then 0 else 1 end from sessions s
      where s.questionnaire_id = ${questionnaireId}
        and s.started_at >= ${from} and s.started_at < ${to}`);
  }
  return frag`
    select coalesce(sum(started), 0) as started, coalesce(sum(completed), 0) as completed
    from (${join(parts, frag` union all `)}) t (started, completed)`;
}

/**
 * The summary of a questionnaire's answers as JSON text, every figure aggregated by the database
 * from tallies kept exact in the transaction of every change: of all time without since/until;
 * with them, of the days and hours the period holds whole, plus the sessions of its partial
 * first and last hours, read one by one.
 */
export async function summarize(
  sql: Sql,
  workspaceId: string,
  questionnaireId: string,
  range: Period,
) {
  startedWithin(range);
  const groups = answerGroups(questionnaireId, range);
  const counts = sessionCounts(questionnaireId, range);
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
