// The question cache: published questions are kept (they never change), a draft's are read
// every time (PATCH replaces them), unknown ids are not kept, and the size stays bounded.

import assert from "node:assert/strict";
import { createQuestionCache } from "../../lib/forms/question_cache.ts";
import { startTestService, test } from "../_server.ts";
import { createQuestionnaire, publishedQuestionnaire, registerUser } from "./_forms.ts";

const service = await startTestService();
const owner = await registerUser(service);

/** Counts the reads the cache makes. */
function countingSql() {
  let reads = 0;
  const sql = ((strings: TemplateStringsArray, ...values: unknown[]) => {
    reads++;
    return service.db.sql(strings, ...values);
  }) as typeof service.db.sql;
  return { sql, reads: () => reads };
}

test("question cache: a published question is read once, with what validation needs", async () => {
  const form = await publishedQuestionnaire(service, owner, [
    { title: "Pick", type: "choice", options: ["a", "b"], required: false },
  ]);
  const counting = countingSql();
  const cache = createQuestionCache(counting.sql);
  const q = form.questions[0];
  const first = await cache.get(q.id);
  assert.deepEqual(first, {
    type: "choice",
    required: false,
    options: ["a", "b"],
  });
  assert.deepEqual(await cache.get(q.id), first);
  assert.equal(counting.reads(), 1);
});

test("question cache: a draft's questions and unknown ids are read every time", async () => {
  const draft = await createQuestionnaire(service, owner, [{ title: "T", type: "text" }]);
  const counting = countingSql();
  const cache = createQuestionCache(counting.sql);
  const q = draft.questions[0];
  assert.equal((await cache.get(q.id))?.type, "text");
  await service.db.sql`update questions set type = 'number' where id = ${q.id}`;
  assert.equal((await cache.get(q.id))?.type, "number", "a draft's question is never kept");
  assert.equal(await cache.get(987_654_321), null);
  assert.equal(await cache.get(987_654_321), null);
  assert.equal(counting.reads(), 4);
});

test("question cache: past its size the oldest entry makes room", async () => {
  const form = await publishedQuestionnaire(service, owner, [
    { title: "A", type: "text" },
    { title: "B", type: "text" },
    { title: "C", type: "text" },
  ]);
  const counting = countingSql();
  const cache = createQuestionCache(counting.sql, 2);
  const [a, b, c] = form.questions.map((q) => q.id);
  for (const id of [a, b, c]) await cache.get(id);
  assert.equal(counting.reads(), 3);
  await cache.get(c);
  await cache.get(b);
  assert.equal(counting.reads(), 3, "the two newest are kept");
  await cache.get(a);
  assert.equal(counting.reads(), 4, "the oldest was dropped");
});

test("question cache: close the service", async () => {
  await service.close();
});
