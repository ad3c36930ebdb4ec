// The SQL template compiler (lib/db/template.ts): whatever the values and however fragments
// nest, a query's text is its templates' strings and `$n` placeholders only, and every value is
// a parameter, in order.

import assert from "node:assert/strict";
import fc from "fast-check";
import { compile, empty, frag, type Fragment, join } from "../../lib/db/template.ts";
import { test } from "../_server.ts";

/** A template as a tag receives it: n + 1 strings around n values, some of them fragments. */
interface Template {
  strings: string[];
  values: unknown[];
}

/** Values as hostile as they come: SQL, placeholders, quotes, objects, nothing at all. */
const value = fc.oneof(
  fc.string(),
  fc.constantFrom("'); drop table t; --", "$1", "$$", "\\", "\0", "' or '1'='1"),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

/**
 * Templates whose values are values or nested templates (fragments), a few levels deep. Their
 * own strings hold no `$` or digit, so that every `$n` in a compiled text is a placeholder.
 */
const { template } = fc.letrec<{ template: Template }>((tie) => ({
  template: fc.array(fc.oneof({ depthSize: "small" }, value, tie("template")), { maxLength: 5 })
    .chain((values) =>
      fc.array(fc.string({ maxLength: 8 }).map((s) => s.replace(/[$0-9]/g, "")), {
        minLength: values.length + 1,
        maxLength: values.length + 1,
      }).map((strings) => ({ strings, values }))
    ),
}));

function isTemplate(value: unknown): value is Template {
  return typeof value === "object" && value !== null && "strings" in value && "values" in value &&
    Array.isArray((value as Template).strings);
}

/** The same template built with frag, as code builds one. */
function asFragment(t: Template): Fragment {
  const strings = Object.assign([...t.strings], { raw: t.strings }) as TemplateStringsArray;
  return frag(strings, ...t.values.map((v) => (isTemplate(v) ? asFragment(v) : v)));
}

/** The template's strings, nested ones in place, with nothing between them. */
function stringsOf(t: Template): string {
  return t.strings[0] +
    t.values.map((v, i) => (isTemplate(v) ? stringsOf(v) : "") + t.strings[i + 1]).join("");
}

/** The values that are not fragments, in the order they appear (undefined sent as null). */
function valuesOf(t: Template): unknown[] {
  return t.values.flatMap((v) => isTemplate(v) ? valuesOf(v) : [v === undefined ? null : v]);
}

test("db template: the text is the templates' strings and $n only; every value is a parameter", () => {
  fc.assert(
    fc.property(template, (t) => {
      const fragment = asFragment(t);
      const { text, params } = compile(fragment.strings, fragment.values);
      // Placeholders out, the strings alone remain: no value reached the text.
      assert.equal(text.replace(/\$\d+/g, ""), stringsOf(t));
      const placeholders = text.match(/\$\d+/g) ?? [];
      assert.deepEqual(placeholders, params.map((_, i) => `$${i + 1}`), "$1 to $n, in order");
      assert.deepEqual(params, valuesOf(t));
    }),
    { numRuns: 2000 },
  );
});

test("db: compile turns values into $n parameters, fragments inline with their own", () => {
  const station = "s1";
  const where = join([frag`a = ${1}`, frag`b = ${station}`, empty], frag` and `);
  const { text, params } = compile(
    ...((s: TemplateStringsArray, ...v: unknown[]) =>
      [s, v] as const)`select ${"x"} where ${where} limit ${5}`,
  );
  assert.equal(text, "select $1 where a = $2 and b = $3 limit $4");
  assert.deepEqual(params, ["x", 1, "s1", 5]);
});
