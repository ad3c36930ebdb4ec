// Schema helpers: each validates, names the offending field, and describes itself in OpenAPI.

import assert from "node:assert/strict";
import { ApiError } from "../../lib/errors.ts";
import * as s from "../../lib/http/schema.ts";
import { test } from "../_server.ts";

function failsOn(fn: () => unknown, field: string) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, 400);
    assert.equal(err.code, "VALIDATION_FAILED");
    assert.equal(err.field, field);
    return true;
  });
}

test("schema: int accepts integers in range only, from JSON and from query strings", () => {
  const schema = s.int({ min: 1, max: 100 });
  assert.equal(schema.parse(5, "limit"), 5);
  assert.equal(schema.fromString("100", "limit"), 100);
  failsOn(() => schema.parse("5", "limit"), "limit");
  failsOn(() => schema.parse(1.5, "limit"), "limit");
  failsOn(() => schema.fromString("0", "limit"), "limit");
  failsOn(() => schema.fromString("1e2", "limit"), "limit");
  failsOn(() => schema.fromString("", "limit"), "limit");
  assert.equal(schema.json.type, "integer");
  assert.equal(schema.json.maximum, 100);
});

test("schema: dateTime requires a time zone and a real date", () => {
  const schema = s.dateTime();
  assert.equal(
    schema.parse("2026-11-20T08:15:30Z", "since").toISOString(),
    "2026-11-20T08:15:30.000Z",
  );
  assert.equal(
    schema.parse("2026-11-20T10:15:30+02:00", "since").toISOString(),
    "2026-11-20T08:15:30.000Z",
  );
  failsOn(() => schema.parse("2026-11-20T08:15:30", "since"), "since");
  failsOn(() => schema.parse("2026-11-20", "since"), "since");
  failsOn(() => schema.parse("2026-02-30T00:00:00Z", "since"), "since");
  failsOn(() => schema.parse(1700000000, "since"), "since");
  // Year 0, directly or through an offset: PostgreSQL has none.
  failsOn(() => schema.parse("0000-01-01T00:00:00Z", "since"), "since");
  failsOn(() => schema.parse("0001-01-01T00:30:00+01:00", "since"), "since");
  assert.equal(schema.parse("0001-01-01T00:00:00Z", "since").getUTCFullYear(), 1);
});

test("schema: email, uuid v4 and enum reject what they do not describe", () => {
  assert.equal(s.email().parse("a@b.co", "email"), "a@b.co");
  failsOn(() => s.email().parse("a@b", "email"), "email");
  failsOn(() => s.email().parse("a b@c.de", "email"), "email");
  const v4 = "3f1c8b52-9a4e-4d2b-8f3a-2b1c0d9e8f7a";
  assert.equal(s.uuid({ v4: true }).parse(v4, "key"), v4);
  failsOn(() => s.uuid({ v4: true }).parse("3f1c8b52-9a4e-1d2b-8f3a-2b1c0d9e8f7a", "key"), "key");
  assert.equal(s.enumOf(["csv", "ndjson"]).parse("csv", "format"), "csv");
  failsOn(() => s.enumOf(["csv", "ndjson"]).parse("xml", "format"), "format");
});

test("schema: object names nested fields and rejects unknown ones", () => {
  const schema = s.object({
    title: s.string({ min: 1, max: 10 }),
    questions: s.array(
      s.object({ type: s.enumOf(["text", "rating"]), options: s.optional(s.array(s.string())) }),
      {
        min: 1,
      },
    ),
    note: s.optional(s.nullable(s.string())),
  });
  const ok = schema.parse({ title: "T", questions: [{ type: "text" }], note: null }, "body");
  assert.deepEqual(ok, { title: "T", questions: [{ type: "text" }], note: null });
  failsOn(() => schema.parse({ questions: [{ type: "text" }] }, "body"), "title");
  failsOn(
    () => schema.parse({ title: "T", questions: [{ type: "x" }] }, "body"),
    "questions[0].type",
  );
  failsOn(() => schema.parse({ title: "T", questions: [], x: 1 }, "body"), "x");
  failsOn(() => schema.parse({ title: "T", questions: [] }, "body"), "questions");
  failsOn(
    () => schema.parse({ title: "T", questions: [{ type: "text", options: [1] }] }, "body"),
    "questions[0].options[0]",
  );
  assert.deepEqual(schema.json.required, ["title", "questions"]);
});

test("schema: optional with a default fills it in", () => {
  const q = s.parseQuery(new URLSearchParams(""), {
    limit: s.optional(s.int({ min: 1, max: 100 }), 25),
  });
  assert.deepEqual(q, { limit: 25 });
  assert.equal(s.optional(s.int(), 25).json.default, 25);
});

test("schema: a repeatable list parameter reads repeats and commas alike; any other repeat is refused", () => {
  const shape = {
    type: s.repeatable(s.optional(s.array(s.enumOf(["a", "b", "c"]), { min: 1 })), "Types."),
    limit: s.optional(s.int()),
  };
  const read = (query: string) => s.parseQuery(new URLSearchParams(query), shape);
  assert.deepEqual(read("type=a&type=c"), { type: ["a", "c"] });
  assert.deepEqual(read("type=a,b&type=c"), { type: ["a", "b", "c"] });
  assert.deepEqual(read(""), {});
  failsOn(() => read("type=a&type=d"), "type[1]");
  failsOn(() => read("type=a&limit=1&limit=2"), "limit");
  assert.equal(shape.type.json.description, "Types.");
});

test("schema: names of Object.prototype are unknown fields and parameters like any other", () => {
  // `key in shape` would find them on the prototype and let them through (issue 19, item 5).
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
  const body = s.object({ name: s.optional(s.string()) });
  for (const name of names) {
    failsOn(() => body.parse(JSON.parse(`{"${name}":1}`), "body"), name);
    failsOn(
      () => s.parseQuery(new URLSearchParams(`${name}=1`), { limit: s.optional(s.int()) }),
      name,
    );
  }
});

test("schema: strings PostgreSQL cannot hold (NUL, an unpaired surrogate) are refused by name", () => {
  // Else they reach the database and answer 500 (issue 19, items 2 and 3).
  for (const text of ["a\0b", "\ud800", "x\udc00y", "\ud800\ud800"]) {
    failsOn(() => s.string().parse(text, "name"), "name");
    failsOn(() => s.string().fromString(text, "q"), "q");
    failsOn(() => s.object({ title: s.string() }).parse({ title: text }, "body"), "title");
  }
  failsOn(() => s.email().parse("a\0@example.com", "email"), "email");
  assert.equal(s.string().parse("\ud83d\ude00 ok", "name"), "\ud83d\ude00 ok");
});

test("schema: a description shows only the bounds that are rules", () => {
  assert.deepEqual(s.string().json, { type: "string" });
  assert.deepEqual(s.int().json, { type: "integer" });
  assert.deepEqual(s.array(s.int()).json, { type: "array", items: { type: "integer" } });
  assert.deepEqual(s.string({ min: 1, max: 64 }).json, {
    type: "string",
    minLength: 1,
    maxLength: 64,
  });
  // Without a documented bound, JavaScript's safe range still holds.
  failsOn(() => s.int().parse(2 ** 53, "n"), "n");
});

test("schema: nullable lets null in, enums included, and keeps a named schema one component", () => {
  const state = s.nullable(s.enumOf(["draft", "published"]));
  assert.deepEqual(state.json.enum, ["draft", "published", null]);
  assert.equal(state.parse(null, "state"), null);
  const period = s.named("Period", s.object({ since: s.dateTime() }));
  assert.equal(s.componentName(period.json), "Period");
  assert.equal(JSON.stringify(period.json).includes("Period"), false, "the name is no JSON");
  assert.deepEqual(s.nullable(period).json, { anyOf: [period.json, { type: "null" }] });
  assert.equal(s.componentName(s.optional(period, { since: new Date(0) }).json), undefined);
});

test("schema: date accepts real calendar dates only", () => {
  assert.equal(s.date().parse("2026-02-28", "day"), "2026-02-28");
  for (const bad of ["2026-02-30", "2026-13-01", "20260228", 20260228]) {
    failsOn(() => s.date().parse(bad, "day"), "day");
  }
  assert.equal(s.date().json.format, "date");
});

test("schema: discriminated reads the branch its type names, and refuses another type by name", () => {
  const started = s.named("Started", s.object({ type: s.enumOf(["started"]), at: s.int() }));
  const ended = s.named("Ended", s.object({ type: s.enumOf(["ended"]), why: s.string() }));
  const event = s.discriminated("type", { started, ended });
  assert.deepEqual(event.parse({ type: "ended", why: "done" }, "body"), {
    type: "ended",
    why: "done",
  });
  failsOn(() => event.parse({ type: "ended", at: 1 }, "body"), "at");
  failsOn(() => event.parse({ type: "paused" }, "body"), "type");
  failsOn(() => event.parse({ type: "paused" }, "item"), "item.type");
  assert.deepEqual(event.json.discriminator, {
    propertyName: "type",
    mapping: { started: "#/components/schemas/Started", ended: "#/components/schemas/Ended" },
  });
  assert.throws(() => s.discriminated("type", { started: s.object({}) }), /must be named/);
});
