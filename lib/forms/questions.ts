// Question types of questionnaires, their questions as stored, and the server-side validation of
// answers to them.

import type { Sql } from "../db/db.ts";
import * as s from "../http/schema.ts";

export const QUESTION_TYPES = ["text", "email", "number", "choice", "rating"] as const;
export type QuestionType = typeof QUESTION_TYPES[number];

export interface QuestionInput {
  title: string;
  type: QuestionType;
  required?: boolean;
  options?: string[];
}

export interface Question {
  id: number;
  title: string;
  type: QuestionType;
  required: boolean;
  options: string[] | null;
}

/** A questionnaire's questions in order. */
export function questionsOf(sql: Sql, questionnaireId: string): Promise<Question[]> {
  return sql<Question>`
    select id, title, type, required, options from questions
    where questionnaire_id = ${questionnaireId} order by position`;
}

/** Rules a schema cannot express: choice questions need options, and only they take them. */
export function checkQuestions(questions: QuestionInput[], field = "questions") {
  questions.forEach((q, i) => {
    if (q.type === "choice") {
      const options = q.options ?? [];
      if (options.length < 2) {
        throw s.invalid(`${field}[${i}].options`, "A choice question needs at least 2 options.");
      }
      if (new Set(options).size !== options.length) {
        throw s.invalid(`${field}[${i}].options`, "Options of a question must be distinct.");
      }
    } else if (q.options !== undefined) {
      throw s.invalid(`${field}[${i}].options`, "Only choice questions take options.");
    }
  });
}

const NUMBER = /^-?\d{1,30}(\.\d{1,30})?$/;
const validEmail = s.email();

/**
 * Checks an answer against its question; returns the text to store. An empty answer is
 * accepted only for a question that is not required.
 */
export function checkAnswer(
  question: Pick<Question, "type" | "required" | "options">,
  text: string,
): string {
  const field = "answerText";
  if (text === "") {
    if (question.required) throw s.invalid(field, "This question requires an answer.");
    return "";
  }
  switch (question.type) {
    case "text":
      return text;
    case "email":
      return validEmail.parse(text, field);
    case "number":
      if (!NUMBER.test(text)) {
        throw s.invalid(field, "answerText must be a number, like 42 or 3.5.");
      }
      return text;
    case "choice":
      if (!(question.options ?? []).includes(text)) {
        throw s.invalid(field, "answerText must be one of the question's options.");
      }
      return text;
    case "rating":
      if (!/^[1-5]$/.test(text)) {
        throw s.invalid(field, "answerText must be an integer from 1 to 5.");
      }
      return text;
  }
}
