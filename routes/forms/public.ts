// Public endpoints of published questionnaires: read one by slug, start a session, answer its
// questions one at a time. Every state change writes its webhook event in the same transaction.

import {
  countedStatement,
  countUncounted,
  enforceCounted,
  publicAccess,
  type PublicCount,
} from "../../lib/forms/auth.ts";
import { frag } from "../../lib/db/db.ts";
import type { SharedCount } from "../../lib/http/ratelimit.ts";
import { ApiError } from "../../lib/errors.ts";
import {
  keyTaken,
  pendingRecord,
  pendingRecordOfStatement,
  recordCommitted,
} from "../../lib/http/idempotency.ts";
import {
  answerLimits,
  monthFull,
  monthOf,
  type Plan,
  unlimitedShard,
} from "../../lib/forms/plan.ts";
import { checkAnswer, questionsOf } from "../../lib/forms/questions.ts";
import {
  type FormToken,
  honeypotFilled,
  issueFormToken,
  POW_DIFFICULTY,
  tokenRefusal,
  verifyFormToken,
} from "../../lib/forms/form_token.ts";
import { progressSchema, questionSchema } from "../../lib/forms/schemas.ts";
import { json, jsonText, type RequestContext } from "../../lib/http/router.ts";
import { conflict, formsRoutes, notFound } from "../../lib/forms/wing.ts";
import * as s from "../../lib/http/schema.ts";

/** The visitors' routes, readable from any origin (an embed on any site). */
const publicRoute = formsRoutes({ tag: "public", cors: "public" });

/** loaded_at may lie this far in the future (client clock skew) ... */
const LOADED_AT_SKEW_MS = 5 * 60 * 1000;
/** ... and at most this far in the past (a page left open longer must be reloaded). */
const LOADED_AT_MAX_AGE_MS = 24 * 3600 * 1000;

const slugParam = { slug: s.string({ min: 1, max: 64, example: "customer-feedback" }) };
const MAX_SESSION_ID = 2 ** 53 - 1;
const SESSION_ID_EXAMPLE = 4_503_599_627_370_497;

const formTokenJson = s.named(
  "FormToken",
  s.object({
    token: s.string({
      description: "Send it as form_token when starting a session. Single use; signed.",
      example:
        "ft1.eyJpIjoiM3FfVzdYb0RfVnhLX2c0c0xQb0NaUSJ9.q8Xf0Xh2Yt2m3m0n5tQeJtq8cYbXo1gVfWq2o4mZbV8",
    }),
    challenge: s.string({
      description: "The proof-of-work challenge: find pow_nonce, decimal digits, such that " +
        "SHA-256 of the UTF-8 text challenge + pow_nonce starts with difficulty zero bits.",
      example: "3q_W7XoD_VxK_g4sLPoCZQ",
    }),
    difficulty: s.int({ min: 1, max: 64, example: POW_DIFFICULTY }),
    min_fill_seconds: s.int({
      min: 0,
      description: "A session start with this token sooner than this after the read: 422 " +
        "FILLED_TOO_FAST with Retry-After.",
      example: 3,
    }),
    expires_at: s.dateTime("After this the token is refused (FORM_TOKEN_EXPIRED)."),
  }, {
    description: "Handed out by the public read of a questionnaire with bot_protection; null " +
      "otherwise.",
  }),
);
const publicQuestionnaire = s.named(
  "PublicQuestionnaire",
  s.object({
    title: s.string({ example: "Customer feedback" }),
    slug: s.string({ example: "customer-feedback" }),
    questions: s.array(questionSchema),
    form_token: s.nullable(formTokenJson),
  }),
);
const answerResult = s.named(
  "AnswerResult",
  s.object({
    success: s.boolean(),
    isComplete: s.boolean(),
    progress: progressSchema,
  }, {
    example: { success: true, isComplete: false, progress: { answered: 1, total: 2 } },
  }),
);

/** A random id in [1, 2^53): not guessable from another session's id, and safe in JavaScript. */
function randomSessionId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0x1fffff) * 2 ** 32 + low || 1;
}

function noSuchQuestion(): ApiError {
  return notFound("This questionnaire has no such question.", "questionId");
}

/**
 * What to throw for the error `err` of a public statement: a refusal the statement raised itself
 * (SQLSTATE OD001: another request holds the Idempotency-Key; OD002: the workspace's month is
 * full) once the request is counted on its own, since the rollback took the statement's count
 * with it and a 429 wins; any other error as it is.
 */
async function refusal(ctx: RequestContext, count: PublicCount | null, err: unknown) {
  const { code, detail } = (err ?? {}) as { code?: string; detail?: string };
  if (code !== "OD001" && code !== "OD002") return err;
  await countUncounted(ctx, count);
  return code === "OD001" ? keyTaken() : monthFull(ctx.app.config, detail as Plan);
}

export const routes = [
  publicRoute({
    method: "GET",
    path: "/api/v1/public/q/{slug}",
    summary: "Read a published questionnaire",
    description: "Title and questions (ids, titles, types, options, required) of a published " +
      "questionnaire; a draft, closed, deleted or unknown slug: 404. CORS: any origin. With " +
      "bot_protection on, each read also hands out a new form_token (then Cache-Control: " +
      "no-store) that a session start must carry with the solution of its proof of work.",
    auth: publicAccess(),
    params: slugParam,
    responses: { 200: { description: "The questionnaire.", schema: publicQuestionnaire } },
    handler: async ({ app, params }) => {
      const [row] = await app.db.sql<
        { id: string; title: string; slug: string; bot_protection: boolean; min_fill: number }
      >`
        select id, title, slug, bot_protection, min_fill_seconds as min_fill
        from questionnaires where slug = ${params.slug} and state = 'published'`;
      if (!row) throw notFound("No published questionnaire has this slug.");
      const token = row.bot_protection
        ? issueFormToken(
          app.forms.formTokenKey,
          { id: row.id, minFillSeconds: row.min_fill },
          app.clock(),
        )
        : null;
      return json(
        {
          title: row.title,
          slug: row.slug,
          questions: await questionsOf(app.db.sql, row.id),
          form_token: token,
        },
        200,
        // Every token is for one visitor: no cache may hand it to a second.
        token ? { "Cache-Control": "no-store" } : {},
      );
    },
  }),

  publicRoute({
    method: "POST",
    path: "/api/v1/public/q/{slug}/sessions",
    summary: "Start a session",
    description:
      "Starts a visitor's session on a published questionnaire, 201 {sessionId}. name, email " +
      "(an e-mail address) and loaded_at (epoch ms when the form was loaded) are all " +
      "required; loaded_at more than 5 minutes in the future or older than 24 hours: 400 " +
      "(field loaded_at). sessionId is a random integer below 2^53. A closed, draft or " +
      "unknown questionnaire: 404. Emits session.started. Accepts Idempotency-Key. " +
      "Bot protection: a questionnaire with bot_protection needs form_token (from its public " +
      "read) and pow_nonce (the proof of work's solution); each refusal below writes nothing " +
      "(no session, event, webhook delivery or Idempotency-Key record) and spends no answer: " +
      "no token 400 FORM_TOKEN_REQUIRED; forged, malformed or another questionnaire's 400 " +
      "FORM_TOKEN_INVALID; expired 400 FORM_TOKEN_EXPIRED; already used 409 FORM_TOKEN_USED; " +
      "a wrong or missing solution 400 PROOF_OF_WORK_INVALID (field pow_nonce); sooner than the " +
      "questionnaire's min_fill_seconds after the read 422 FILLED_TOO_FAST with Retry-After " +
      "(the token stays good). A token sent to any questionnaire is checked the same way. " +
      "honeypot, on any questionnaire, must be absent or empty: else 400 HONEYPOT_FILLED " +
      "(field honeypot).",
    // Counted in the statement that starts the session (lib/forms/auth.ts).
    auth: publicAccess("in statement"),
    idempotent: "transactional",
    params: slugParam,
    body: s.named(
      "SessionStart",
      s.object({
        name: s.string({ min: 1, max: 200, example: "Ana Lima" }),
        email: s.email(),
        loaded_at: s.int({
          min: 0,
          description: "Milliseconds since the Unix epoch.",
          example: 1795162500000,
        }),
        form_token: s.optional(s.string({
          max: 1000,
          description: "form_token.token of the questionnaire's public read; required when " +
            "the questionnaire has bot_protection.",
        })),
        pow_nonce: s.optional(s.string({
          pattern: /^[0-9]{1,16}$/,
          patternHint: "1 to 16 decimal digits",
          description: "Solution of form_token's proof of work: SHA-256 of challenge + " +
            "pow_nonce starts with difficulty zero bits.",
          example: "48213",
        })),
        honeypot: s.optional(s.string({
          max: 1000,
          description: "What the embed's hidden field holds: absent or empty. A person never " +
            "sees that field; a script that fills in every field fills it.",
          example: "",
        })),
      }, {
        example: {
          name: "Ana Lima",
          email: "ana@example.com",
          loaded_at: 1795162500000,
        },
      }),
    ),
    errors: [409, 422],
    responses: {
      201: {
        description: "Started.",
        schema: s.named(
          "StartedSession",
          s.object({
            sessionId: s.int({ min: 1, max: MAX_SESSION_ID, example: SESSION_ID_EXAMPLE }),
          }),
        ),
      },
    },
    handler: async (ctx) => {
      const { app, body, params, req, principal } = ctx;
      const now = app.clock();
      const refused = async (err: ApiError) => {
        await countUncounted(ctx, principal); // a 429 wins, as when counted before the handler
        return err;
      };
      const age = now.getTime() - body.loaded_at;
      if (age < -LOADED_AT_SKEW_MS || age > LOADED_AT_MAX_AGE_MS) {
        throw await refused(
          new ApiError(400, "VALIDATION_FAILED", {
            message:
              "loaded_at must be the time the form was loaded: not in the future, at most 24 hours ago.",
            field: "loaded_at",
          }),
        );
      }
      if (body.honeypot) throw await refused(honeypotFilled());
      let token: FormToken | null = null;
      if (body.form_token !== undefined) {
        try {
          token = verifyFormToken(app.forms.formTokenKey, body.form_token, body.pow_nonce, now);
        } catch (err) {
          throw err instanceof ApiError ? await refused(err) : err;
        }
      }
      for (;;) {
        const id = randomSessionId();
        const answer = { sessionId: id };
        // One statement, one round trip and one commit: the session, its session.started
        // event and the Idempotency-Key record (see onda_start_session in sql/003_forms.sql).
        let row: { outcome: string } & SharedCount;
        try {
          [row] = await app.db.sql<{ outcome: string } & SharedCount>`${
            countedStatement(
              principal,
              frag`select onda_start_session(
                ${id}::bigint, ${params.slug}::text, ${body.name}::text, ${body.email}::text,
                ${new Date(body.loaded_at)}::timestamptz, ${now}::timestamptz,
                ${pendingRecord(req, 201, answer)}::jsonb, ${token?.id ?? null}::text,
                ${token?.form ?? null}::uuid,
                ${token ? new Date(token.expiresAt) : null}::timestamptz
              ) as outcome`,
            )
          }`;
        } catch (err) {
          // An id collision below 2^53 (unique violation, all rolled back): draw again.
          if ((err as { code?: string })?.code === "23505") continue;
          throw await refusal(ctx, principal, err);
        }
        enforceCounted(ctx, principal, row);
        switch (row.outcome) {
          case "started":
            recordCommitted(req);
            return json(answer, 201);
          case "no_form":
            throw notFound("No published questionnaire has this slug.");
          case "token_required":
          case "token_foreign":
          case "token_used":
            throw tokenRefusal(row.outcome);
        }
        throw new Error(`onda_start_session: unexpected outcome ${row.outcome}`);
      }
    },
  }),

  publicRoute({
    method: "POST",
    path: "/api/v1/public/q/{slug}/sessions/{sessionId}/answers",
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
    // Counted in the statement that records the answer (lib/forms/auth.ts).
    auth: publicAccess("in statement"),
    idempotent: "transactional",
    params: {
      ...slugParam,
      sessionId: s.int({ min: 1, max: MAX_SESSION_ID, example: SESSION_ID_EXAMPLE }),
    },
    body: s.named(
      "AnswerSubmission",
      s.object({
        questionId: s.int({ min: 1, example: 101 }),
        answerText: s.string({ max: 10_000, example: "Radio" }),
      }),
    ),
    responses: { 201: { description: "Stored.", schema: answerResult } },
    errors: [409, 422],
    handler: async (ctx) => {
      const { app, body, params, req, principal } = ctx;
      // One round trip and one commit in the normal case: the question's rules come from the
      // cache (they never change once published), and onda_record_answer (sql/003_forms.sql)
      // decides everything else under the session's row lock, whether the question belongs to
      // the session's questionnaire included, and writes it all.
      const question = await app.forms.questions.get(body.questionId);
      // null: nothing to store, as the answer was not checked (no such question) or is invalid.
      // The 404s and 409s come first: the statement then checks those only and writes nothing.
      let text: string | null = null;
      let invalid: ApiError | null = null;
      if (question) {
        try {
          text = checkAnswer(question, body.answerText);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          invalid = err;
        }
      }
      const now = app.clock();
      let row: { outcome: string; body: string } & SharedCount;
      try {
        [row] = await app.db.sql<{ outcome: string; body: string } & SharedCount>`${
          countedStatement(
            principal,
            frag`select outcome, body from onda_record_answer(
              ${params.sessionId}::bigint, ${params.slug}::text, ${body.questionId}::bigint,
              ${text}::text, ${now}::timestamptz,
              ${pendingRecordOfStatement(req, 201)}::jsonb, ${answerLimits(app.config)}::jsonb,
              ${monthOf(now)}::date, ${unlimitedShard()}::smallint
            )`,
          )
        }`;
      } catch (err) {
        throw await refusal(ctx, principal, err);
      }
      enforceCounted(ctx, principal, row);
      switch (row.outcome) {
        case "ok":
          recordCommitted(req);
          return jsonText(row.body, 201);
        case "no_session":
          throw notFound("No such session.");
        case "completed":
          throw conflict("This session is already completed.");
        case "closed":
          throw conflict("This questionnaire no longer accepts answers.");
        case "no_question":
          throw noSuchQuestion();
        case "answered":
          throw conflict("This question is already answered.", "questionId");
        case "invalid":
          throw invalid ?? noSuchQuestion();
      }
      throw new Error(`onda_record_answer: unexpected outcome ${row.outcome}`);
    },
  }),
];
