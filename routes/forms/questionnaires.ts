// Questionnaires of the workspace: create (draft), read, list, change (draft only), publish,
// close and delete (soft). States: draft -> published -> closed; any -> deleted.

import { user, type UserPrincipal } from "../../lib/forms/auth.ts";
import { listEnvelope, listPage, newestFirst, pageQuery } from "../../lib/http/cursor.ts";
import { empty, frag, type Sql } from "../../lib/db/db.ts";
import { answeredInTransaction } from "../../lib/http/idempotency.ts";
import {
  checkQuestions,
  type Question,
  QUESTION_TYPES,
  type QuestionInput,
  questionsOf,
} from "../../lib/forms/questions.ts";
import { questionOption, questionSchema, questionTitle } from "../../lib/forms/schemas.ts";
import { DEFAULT_MIN_FILL_SECONDS } from "../../lib/forms/form_token.ts";
import { json } from "../../lib/http/router.ts";
import { conflict, type FormsApp, formsRoutes, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";

/** The workspace's questionnaires, from the origins it allows. */
const questionnaireRoute = formsRoutes({ tag: "questionnaires", cors: "credentialed" });

const STATES = ["draft", "published", "closed", "deleted"] as const;
type State = typeof STATES[number];

const slug = s.string({
  min: 3,
  max: 64,
  pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/,
  patternHint: "lowercase letters, digits and single hyphens, like customer-feedback",
  example: "customer-feedback",
});
const questionInput = s.named(
  "QuestionInput",
  s.object({
    title: questionTitle,
    type: s.enumOf(QUESTION_TYPES),
    required: s.optional(s.boolean(), true),
    options: s.optional(
      s.array(questionOption, {
        max: 50,
        description: "choice only: at least 2 distinct options.",
      }),
    ),
  }),
);
const questionsExample = [
  {
    title: "How did you hear about us?",
    type: "choice",
    required: true,
    options: ["Radio", "A friend"],
  },
  { title: "How likely are you to recommend us?", type: "rating", required: false },
];
const title = s.string({ min: 1, max: 200, example: "Customer feedback" });
const botProtection = s.boolean({
  example: true,
  description: "Bot protection of public session starts, with no third party: the public read " +
    "hands out a signed, single-use form token with a proof of work that a session start must " +
    "solve, no sooner than min_fill_seconds after the read (embed.js does it all). Off by " +
    "default, so that server-to-server starts keep working with name, email and loaded_at.",
});
const minFillSeconds = s.int({
  min: 0,
  max: 3600,
  description: "With bot_protection: the least time between the public read and the session " +
    "start, as a person takes at least this long to fill in name and e-mail.",
  example: DEFAULT_MIN_FILL_SECONDS,
});
const summaryShape = {
  id: s.uuid(),
  title,
  slug,
  state: s.enumOf(STATES),
  question_count: s.int({ min: 0, example: 2 }),
  bot_protection: botProtection,
  min_fill_seconds: minFillSeconds,
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
  published_at: s.nullable(s.dateTime()),
  closed_at: s.nullable(s.dateTime()),
};
const summaryJson = s.named("QuestionnaireSummary", s.object(summaryShape));
const questionnaireJson = s.named(
  "Questionnaire",
  s.object({ ...summaryShape, questions: s.array(questionSchema) }),
);

interface Row {
  id: string;
  title: string;
  slug: string;
  state: State;
  question_count: number;
  bot_protection: boolean;
  min_fill_seconds: number;
  created_at: Date;
}

/** The columns of a questionnaire as the API shows it (JSON writes each Date as ISO 8601). */
const COLUMNS = frag`id, title, slug, state, question_count, bot_protection, min_fill_seconds,
  created_at, updated_at, published_at, closed_at`;

/** A slug from the title plus a random suffix, so two forms with one title never collide. */
function slugFrom(title: string): string {
  const base = title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "") || "form";
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => (b % 36).toString(36))
    .join("");
  return `${base}-${suffix}`;
}

/** The questions as stored, in order (their ids are new ones). */
async function insertQuestions(tx: Sql, questionnaireId: string, questions: QuestionInput[]) {
  if (!questions.length) return [];
  return await tx<Question>`
    with added as (
      insert into questions (questionnaire_id, position, title, type, required, options)
      select ${questionnaireId}, e.ordinality, e.value->>'title', e.value->>'type',
             (e.value->>'required')::boolean, e.value->'options'
      from jsonb_array_elements(${JSON.stringify(questions)}::jsonb) with ordinality as e
      returning id, position, title, type, required, options)
    select id, title, type, required, options from added order by position`;
}

/** The workspace's questionnaire, locked; another workspace's or a deleted one is 404. */
async function lockOwn(tx: Sql, principal: UserPrincipal, id: string, allowDeleted = false) {
  const [row] = await tx<Row>`
    select ${COLUMNS} from questionnaires
    where id = ${id} and workspace_id = ${principal.workspaceId}
    for update`;
  if (!row || (row.state === "deleted" && !allowDeleted)) throw notFound("No such questionnaire.");
  return row;
}

/**
 * Publishes a draft that has questions, or closes a published questionnaire, stamping
 * published_at or closed_at; from any other state 409 (field state). A deleted questionnaire
 * is 409 on publish but 404 on close (forms-api.md).
 */
async function moveTo(
  app: FormsApp,
  principal: UserPrincipal,
  id: string,
  state: "published" | "closed",
) {
  const publishing = state === "published";
  return await app.db.begin(async (tx) => {
    const current = await lockOwn(tx, principal, id, publishing);
    if (current.state !== (publishing ? "draft" : "published")) {
      const again = publishing && current.state !== "deleted" ? " again" : "";
      throw conflict(`A ${current.state} questionnaire cannot be ${state}${again}.`, "state");
    }
    if (publishing && current.question_count === 0) {
      throw conflict("Add at least one question before publishing.", "questions");
    }
    const now = app.clock();
    const stamp = publishing ? frag`published_at = ${now}` : frag`closed_at = ${now}`;
    const [row] = await tx`
      update questionnaires set state = ${state}, ${stamp}, updated_at = ${now}
      where id = ${current.id} returning ${COLUMNS}`;
    return row;
  });
}

const idParam = { id: s.uuid() };

export const routes = [
  questionnaireRoute({
    method: "POST",
    path: "/api/v1/questionnaires",
    summary: "Create a questionnaire",
    description:
      "Creates a draft, 201. slug defaults to one made from the title plus a random suffix; " +
      "slugs are unique across the service (they are public URLs): a taken slug is 409 " +
      "(field slug). Question types: text, email, number, choice (needs at least 2 distinct " +
      "options; answers must be one of them), rating (integer 1 to 5). required defaults to " +
      "true. bot_protection (default false) and min_fill_seconds (default 3) set the bot " +
      "protection of its public session starts. Needs editor. Accepts Idempotency-Key.",
    auth: user("editor"),
    idempotent: true,
    body: s.named(
      "NewQuestionnaire",
      s.object({
        title,
        slug: s.optional(slug),
        questions: s.optional(s.array(questionInput, { max: 100 }), []),
        bot_protection: s.optional(botProtection, false),
        min_fill_seconds: s.optional(minFillSeconds, DEFAULT_MIN_FILL_SECONDS),
      }, {
        example: {
          title: "Customer feedback",
          slug: "customer-feedback",
          questions: questionsExample,
          bot_protection: true,
        },
      }),
    ),
    responses: { 201: { description: "Created.", schema: questionnaireJson } },
    errors: [409, 422],
    handler: ({ app, body, principal, req }) => {
      checkQuestions(body.questions);
      const now = app.clock();
      // The Idempotency-Key's answer commits with the questionnaire (lib/http/idempotency.ts).
      return answeredInTransaction(app.db, req, 201, async (tx) => {
        const [row] = await tx<Row>`
          insert into questionnaires
            (workspace_id, title, slug, question_count, bot_protection, min_fill_seconds,
             created_at, updated_at)
          values (${principal.workspaceId}, ${body.title}, ${body.slug ?? slugFrom(body.title)},
                  ${body.questions.length}, ${body.bot_protection}, ${body.min_fill_seconds},
                  ${now}, ${now})
          on conflict (slug) do nothing
          returning ${COLUMNS}`;
        if (!row) throw conflict("This slug is already taken.", "slug");
        return { ...row, questions: await insertQuestions(tx, row.id, body.questions) };
      });
    },
  }),

  questionnaireRoute({
    method: "GET",
    path: "/api/v1/questionnaires",
    summary: "List questionnaires",
    description: "The workspace's questionnaires (deleted ones excluded), newest first, in the " +
      "list envelope; optional filter by state. Keyset pagination: stable under concurrent " +
      "changes.",
    auth: user("viewer"),
    query: { ...pageQuery, state: s.optional(s.enumOf(["draft", "published", "closed"])) },
    responses: { 200: { description: "A page.", schema: listEnvelope(summaryJson) } },
    handler: async ({ app, query, principal }) => {
      const scope = {
        list: "questionnaires",
        filter: { workspace: principal.workspaceId, state: query.state ?? null },
      };
      const page = await listPage(app, scope, query, newestFirst, (after, fetch) =>
        app.db.sql<Row>`
          select ${COLUMNS} from questionnaires
          where workspace_id = ${principal.workspaceId} and state <> 'deleted'
          ${query.state ? frag`and state = ${query.state}` : empty} ${after}
          order by created_at desc, id desc limit ${fetch}`, (r) => r);
      return json(page);
    },
  }),

  questionnaireRoute({
    method: "GET",
    path: "/api/v1/questionnaires/{id}",
    summary: "Read a questionnaire",
    description: "With its questions. Another workspace's or a deleted questionnaire: 404.",
    auth: user("viewer"),
    params: idParam,
    responses: { 200: { description: "The questionnaire.", schema: questionnaireJson } },
    handler: async ({ app, params, principal }) => {
      const [row] = await app.db.sql<Row>`
        select ${COLUMNS} from questionnaires
        where id = ${params.id} and workspace_id = ${principal.workspaceId}
          and state <> 'deleted'`;
      if (!row) throw notFound("No such questionnaire.");
      return json({ ...row, questions: await questionsOf(app.db.sql, row.id) });
    },
  }),

  questionnaireRoute({
    method: "PATCH",
    path: "/api/v1/questionnaires/{id}",
    summary: "Change a draft",
    description: "Changes title, slug, questions (they replace the whole list; their ids " +
      "change), bot_protection and/or min_fill_seconds. Only a draft can change: otherwise 409 " +
      "(field state). Needs editor.",
    auth: user("editor"),
    params: idParam,
    body: s.named(
      "QuestionnaireChange",
      s.object({
        title: s.optional(title),
        slug: s.optional(slug),
        questions: s.optional(s.array(questionInput, { max: 100 })),
        bot_protection: s.optional(botProtection),
        min_fill_seconds: s.optional(minFillSeconds),
      }, {
        example: {
          title: "Customer feedback 2026",
          questions: questionsExample,
          bot_protection: true,
          min_fill_seconds: 5,
        },
      }),
    ),
    responses: { 200: { description: "The questionnaire.", schema: questionnaireJson } },
    errors: [409],
    handler: async ({ app, body, params, principal }) => {
      if (body.questions) checkQuestions(body.questions);
      const changed = await app.db.begin(async (tx) => {
        const current = await lockOwn(tx, principal, params.id);
        if (current.state !== "draft") {
          throw conflict(`A ${current.state} questionnaire cannot change.`, "state");
        }
        let questions;
        if (body.questions) {
          await tx`delete from questions where questionnaire_id = ${current.id}`;
          questions = await insertQuestions(tx, current.id, body.questions);
        } else {
          questions = await questionsOf(tx, current.id);
        }
        // The unique index on slug decides whether it is taken, even by a concurrent request.
        const [row] = await tx<Row>`
          update questionnaires
          set title = ${body.title ?? current.title}, slug = ${body.slug ?? current.slug},
              question_count = ${questions.length},
              bot_protection = ${body.bot_protection ?? current.bot_protection},
              min_fill_seconds = ${body.min_fill_seconds ?? current.min_fill_seconds},
              updated_at = ${app.clock()}
          where id = ${current.id}
          returning ${COLUMNS}`.catch((err) => {
          if (err?.code === "23505") throw conflict("This slug is already taken.", "slug");
          throw err;
        });
        return { ...row, questions };
      });
      return json(changed);
    },
  }),

  questionnaireRoute({
    method: "POST",
    path: "/api/v1/questionnaires/{id}/publish",
    summary: "Publish a draft",
    description: "draft -> published: visitors can then start sessions under its slug. A " +
      "deleted questionnaire: 409 CONFLICT (field state), as is one that is not a draft; a " +
      "draft without questions: 409 (field questions). Needs editor.",
    auth: user("editor"),
    params: idParam,
    responses: { 200: { description: "Published.", schema: summaryJson } },
    errors: [409],
    handler: async ({ app, params, principal }) =>
      json(await moveTo(app, principal, params.id, "published")),
  }),

  questionnaireRoute({
    method: "POST",
    path: "/api/v1/questionnaires/{id}/close",
    summary: "Close a published questionnaire",
    description: "published -> closed: no new sessions and no further answers. Otherwise 409 " +
      "(field state). Needs editor.",
    auth: user("editor"),
    params: idParam,
    responses: { 200: { description: "Closed.", schema: summaryJson } },
    errors: [409],
    handler: async ({ app, params, principal }) =>
      json(await moveTo(app, principal, params.id, "closed")),
  }),

  questionnaireRoute({
    method: "DELETE",
    path: "/api/v1/questionnaires/{id}",
    summary: "Delete a questionnaire",
    description: "Soft delete from any state, 204; afterwards it is 404 everywhere (and 409 on " +
      "publish). Its sessions and answers are kept. Needs editor.",
    auth: user("editor"),
    params: idParam,
    responses: { 204: { description: "Deleted." } },
    handler: async ({ app, params, principal }) => {
      const now = app.clock();
      const rows = await app.db.sql`
        update questionnaires set state = 'deleted', deleted_at = ${now}, updated_at = ${now}
        where id = ${params.id} and workspace_id = ${principal.workspaceId} and state <> 'deleted'
        returning id`;
      if (!rows.length) throw notFound("No such questionnaire.");
      return json(null, 204);
    },
  }),
];
