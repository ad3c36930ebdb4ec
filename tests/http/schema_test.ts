// Schema helpers: each validates, names the offending field, and describes itself in OpenAPI.

import assert from "node:assert/strict";
import { ApiError } from "../../lib/errors.ts";
import {
  array,
  componentName,
  date,
  dateTime,
  email,
  enumOf,
  int,
  named,
  nullable,
  object,
  optional,
  parseQuery,
  repeatable,
  string,
  uuid,
} from "../../lib/http/schema.ts";
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
  const s = int({ min: 1, max: 100 });
  assert.equal(s.parse(5, "limit"), 5);
  assert.equal(s.fromString("100", "limit"), 100);
  failsOn(() => s.parse("5", "limit"), "limit");
  failsOn(() => s.parse(1.5, "limit"), "limit");
  failsOn(() => s.fromString("0", "limit"), "limit");
  failsOn(() => s.fromString("1e2", "limit"), "limit");
  failsOn(() => s.fromString("", "limit"), "limit");
  assert.equal(s.json.type, "integer");
  assert.equal(s.json.maximum, 100);
});

test("schema: dateTime requires a time zone and a real date", () => {
  const s = dateTime();
  assert.equal(s.parse("2026-11-20T08:15:30Z", "since").toISOString(), "2026-11-20T08:15:30.000Z");
  assert.equal(
    s.parse("2026-11-20T10:15:30+02:00", "since").toISOString(),
    "2026-11-20T08:15:30.000Z",
  );
  failsOn(() => s.parse("2026-11-20T08:15:30", "since"), "since");
  failsOn(() => s.parse("2026-11-20", "since"), "since");
  failsOn(() => s.parse("2026-02-30T00:00:00Z", "since"), "since");
  failsOn(() => s.parse(1700000000, "since"), "since");
});

test("schema: email, uuid v4 and enum reject what they do not describe", () => {
  assert.equal(email().parse("a@b.co", "email"), "a@b.co");
  failsOn(() => email().parse("a@b", "email"), "email");
  failsOn(() => email().parse("a b@c.de", "email"), "email");
  const v4 = "3f1c8b52-9a4e-4d2b-8f3a-2b1c0d9e8f7a";
  assert.equal(uuid({ v4: true }).parse(v4, "key"), v4);
  failsOn(() => uuid({ v4: true }).parse("3f1c8b52-9a4e-1d2b-8f3a-2b1c0d9e8f7a", "key"), "key");
  assert.equal(enumOf(["csv", "ndjson"]).parse("csv", "format"), "csv");
  failsOn(() => enumOf(["csv", "ndjson"]).parse("xml", "format"), "format");
});

test("schema: object names nested fields and rejects unknown ones", () => {
  const s = object({
    title: string({ min: 1, max: 10 }),
    questions: array(
      object({ type: enumOf(["text", "rating"]), options: optional(array(string())) }),
      {
        min: 1,
      },
    ),
    note: optional(nullable(string())),
  });
  const ok = s.parse({ title: "T", questions: [{ type: "text" }], note: null }, "body");
  assert.deepEqual(ok, { title: "T", questions: [{ type: "text" }], note: null });
  failsOn(() => s.parse({ questions: [{ type: "text" }] }, "body"), "title");
  failsOn(() => s.parse({ title: "T", questions: [{ type: "x" }] }, "body"), "questions[0].type");
  failsOn(() => s.parse({ title: "T", questions: [], x: 1 }, "body"), "x");
  failsOn(() => s.parse({ title: "T", questions: [] }, "body"), "questions");
  failsOn(
    () => s.parse({ title: "T", questions: [{ type: "text", options: [1] }] }, "body"),
    "questions[0].options[0]",
  );
  assert.deepEqual(s.json.required, ["title", "questions"]);
});

test("schema: optional with a default fills it in", () => {
  const q = parseQuery(new URLSearchParams(""), { limit: optional(int({ min: 1, max: 100 }), 25) });
  assert.deepEqual(q, { limit: 25 });
  assert.equal(optional(int(), 25).json.default, 25);
});

test("schema: a repeatable list parameter reads repeats and commas alike; any other repeat is refused", () => {
  const shape = {
    type: repeatable(optional(array(enumOf(["a", "b", "c"]), { min: 1 })), "Types."),
    limit: optional(int()),
  };
  const read = (query: string) => parseQuery(new URLSearchParams(query), shape);
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
  const body = object({ name: optional(string()) });
  for (const name of names) {
    failsOn(() => body.parse(JSON.parse(`{"${name}":1}`), "body"), name);
    failsOn(() => parseQuery(new URLSearchParams(`${name}=1`), { limit: optional(int()) }), name);
  }
});

test("schema: strings PostgreSQL cannot hold (NUL, an unpaired surrogate) are refused by name", () => {
  // Else they reach the database and answer 500 (issue 19, items 2 and 3).
  for (const text of ["a\0b", "\ud800", "x\udc00y", "\ud800\ud800"]) {
    failsOn(() => string().parse(text, "name"), "name");
    failsOn(() => string().fromString(text, "q"), "q");
    failsOn(() => object({ title: string() }).parse({ title: text }, "body"), "title");
  }
  failsOn(() => email().parse("a\0@example.com", "email"), "email");
  assert.equal(string().parse("\ud83d\ude00 ok", "name"), "\ud83d\ude00 ok");
});

test("schema: a description shows only the bounds that are rules", () => {
  assert.deepEqual(string().json, { type: "string" });
  assert.deepEqual(int().json, { type: "integer" });
  assert.deepEqual(array(int()).json, { type: "array", items: { type: "integer" } });
  assert.deepEqual(string({ min: 1, max: 64 }).json, {
    type: "string",
    minLength: 1,
    maxLength: 64,
  });
  // Without a documented bound, JavaScript's safe range still holds.
  failsOn(() => int().parse(2 ** 53, "n"), "n");
});

test("schema: nullable lets null in, enums included, and keeps a named schema one component", () => {
  const state = nullable(enumOf(["draft", "published"]));
  assert.deepEqual(state.json.enum, ["draft", "published", null]);
  assert.equal(state.parse(null, "state"), null);
  const period = named("Period", object({ since: dateTime() }));
  assert.equal(componentName(period.json), "Period");
  assert.equal(JSON.stringify(period.json).includes("Period"), false, "the name is no JSON");
  assert.deepEqual(nullable(period).json, { anyOf: [period.json, { type: "null" }] });
  assert.equal(componentName(optional(period, { since: new Date(0) }).json), undefined);
});

test("schema: date accepts real calendar dates only", () => {
  assert.equal(date().parse("2026-02-28", "day"), "2026-02-28");
  for (const bad of ["2026-02-30", "2026-13-01", "20260228", 20260228]) {
    failsOn(() => date().parse(bad, "day"), "day");
  }
  assert.equal(date().json.format, "date");
});
