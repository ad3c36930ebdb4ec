// Schemas that several forms routes and the webhook payloads share: a question as it is
// answered, a session's progress and its respondent.

import { QUESTION_TYPES } from "./questions.ts";
import * as s from "../http/schema.ts";

export const questionTitle = s.string({ min: 1, max: 500, example: "How did you hear about us?" });
export const questionOption = s.string({ min: 1, max: 200, example: "Radio" });

export const questionSchema = s.named(
  "Question",
  s.object({
    id: s.int({ min: 1, example: 101 }),
    title: questionTitle,
    type: s.enumOf(QUESTION_TYPES),
    required: s.boolean(),
    options: s.nullable(s.array(questionOption, { description: "choice only; else null." })),
  }),
);

export const progressSchema = s.named(
  "Progress",
  s.object({
    answered: s.int({ min: 0, example: 1, description: "Answers given so far." }),
    total: s.int({ min: 0, example: 2, description: "Questions in the questionnaire." }),
  }),
);

export const respondentSchema = s.named(
  "Respondent",
  s.object({ name: s.string({ example: "Ana Lima" }), email: s.email() }),
);
