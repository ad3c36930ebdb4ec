// Schemas that several forms routes and the webhook payloads share: a question as it is
// answered, a session's progress and its respondent.

import { QUESTION_TYPES } from "./questions.ts";
import {
  array,
  boolean,
  email,
  enumOf,
  int,
  named,
  nullable,
  object,
  string,
} from "../http/schema.ts";

export const questionTitle = string({ min: 1, max: 500, example: "How did you hear about us?" });
export const questionOption = string({ min: 1, max: 200, example: "Radio" });

export const questionSchema = named(
  "Question",
  object({
    id: int({ min: 1, example: 101 }),
    title: questionTitle,
    type: enumOf(QUESTION_TYPES),
    required: boolean(),
    options: nullable(array(questionOption, { description: "choice only; else null." })),
  }),
);

export const progressSchema = named(
  "Progress",
  object({
    answered: int({ min: 0, example: 1, description: "Answers given so far." }),
    total: int({ min: 0, example: 2, description: "Questions in the questionnaire." }),
  }),
);

export const respondentSchema = named(
  "Respondent",
  object({ name: string({ example: "Ana Lima" }), email: email() }),
);
