// What answering a question needs to know about it without asking the database: its
// questionnaire and the rules its answers follow, kept in memory, bounded, read on a miss.
//
// An entry never goes stale: only a draft's questions change (PATCH replaces them, with new ids),
// and a draft's questions are not kept. Once published, a questionnaire's questions stay as they
// are through closing and deleting; what does change (the questionnaire's state, the session) is
// checked by the database on every answer (onda_record_answer in sql/003_forms.sql).

import type { Sql } from "./db.ts";
import type { Question } from "./questions.ts";

/** How many questions are kept; past that the oldest entry makes room (a miss costs one read). */
export const QUESTION_CACHE_ENTRIES = 10_000;

export interface CachedQuestion extends Pick<Question, "type" | "required" | "options"> {
  questionnaireId: string;
}

export interface QuestionCache {
  /** The question with this id, or null when there is none. */
  get(id: number): Promise<CachedQuestion | null>;
}

export function createQuestionCache(sql: Sql, maxEntries = QUESTION_CACHE_ENTRIES): QuestionCache {
  // A Map iterates in insertion order, so its first key is the oldest entry.
  const entries = new Map<number, CachedQuestion>();
  return {
    async get(id) {
      const hit = entries.get(id);
      if (hit) return hit;
      const [row] = await sql<CachedQuestion & { state: string }>`
        select qu.questionnaire_id as "questionnaireId", qu.type, qu.required, qu.options, q.state
        from questions qu join questionnaires q on q.id = qu.questionnaire_id
        where qu.id = ${id}`;
      if (!row) return null; // not kept: an id that does not exist yet may exist later
      const question: CachedQuestion = {
        questionnaireId: row.questionnaireId,
        type: row.type,
        required: row.required,
        options: row.options,
      };
      if (row.state !== "draft") {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(id, question);
      }
      return question;
    },
  };
}
