// The rules answers to a question follow (type, required, options), kept in memory, bounded,
// read on a miss, so that an answer is checked without asking the database.
//
// An entry never goes stale: only a draft's questions change (PATCH replaces them, with new ids),
// and a draft's questions are not kept. Once published, a questionnaire's questions stay as they
// are through closing and deleting; what does change (the questionnaire's state, the session),
// and whether the question belongs to the session's questionnaire, is decided by the database on
// every answer (onda_record_answer in sql/003_forms.sql).

import type { Sql } from "../db/db.ts";
import type { Question } from "./questions.ts";

/** How many questions are kept; past that the oldest entry makes room (a miss costs one read). */
export const QUESTION_CACHE_ENTRIES = 10_000;

type CachedQuestion = Pick<Question, "type" | "required" | "options">;

export function createQuestionCache(sql: Sql, maxEntries = QUESTION_CACHE_ENTRIES) {
  // A Map iterates in insertion order, so its first key is the oldest entry.
  const entries = new Map<number, CachedQuestion>();
  return {
    /** The question with this id, or null when there is none. */
    async get(id: number): Promise<CachedQuestion | null> {
      const hit = entries.get(id);
      if (hit) return hit;
      const [row] = await sql<CachedQuestion & { state: string }>`
        select qu.type, qu.required, qu.options, q.state
        from questions qu join questionnaires q on q.id = qu.questionnaire_id
        where qu.id = ${id}`;
      if (!row) return null; // not kept: an id that does not exist yet may exist later
      const { state, ...question } = row;
      if (state !== "draft") {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(id, question);
      }
      return question;
    },
  };
}
