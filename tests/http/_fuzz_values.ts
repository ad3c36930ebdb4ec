// Hostile and schema-shaped values for tests/http/fuzz_test.ts, as fast-check arbitraries. A
// value may hold markers: `known(name)` for a real credential or id of the fuzz's world, looked
// up when the request is sent, and a raw JSON literal that JSON.stringify cannot write.

import fc from "fast-check";
import type { JsonSchema } from "../../lib/http/schema.ts";

export const KNOWN = Symbol("known");
export const RAW = Symbol("raw JSON text");
export type Known = { [KNOWN]: string; mutate?: string; position?: unknown };
export type RawJson = { [RAW]: string };
export const known = (name: string, extra: Omit<Known, typeof KNOWN> = {}): Known => ({
  [KNOWN]: name,
  ...extra,
});

/** JSON text, with raw literals (numbers JSON.stringify cannot write) spliced in. */
export function toJson(value: unknown): string {
  if (value !== null && typeof value === "object" && RAW in value) return (value as RawJson)[RAW];
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${
      Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(",")
    }}`;
  }
  return JSON.stringify(value) ?? "null";
}

// ---------------------------------------------------------------------------------------------
// Hostile values.

/** `value` about once in `n` cases, `otherwise` the rest of the time. */
export function onceIn<T, U>(n: number, value: fc.Arbitrary<T>, otherwise: U): fc.Arbitrary<T | U> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(otherwise) }, {
    weight: 1,
    arbitrary: value,
  });
}

export const PROTOTYPE_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupSetter__",
];

export const NASTY_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\ud83d\ude00",
  "e\u0301",
  "\u202e",
  "\ufeff",
  "\u2028",
  "\uffff",
  "'",
  '"',
  "\\",
  "'; drop table users; --",
  "' or '1'='1",
  "$1",
  "%s%n",
  "${x}",
  "{}",
  "[]",
  "null",
  "true",
  '{"a":1}',
  "\\u0000",
  "%00",
  "%",
  "%zz",
  "%ud800",
  "../..",
  "/",
  "?#&=+*",
  "\r\n",
  "\t",
  "<script>alert(1)</script>",
  '=HYPERLINK("x")',
  "NaN",
  "Infinity",
  "-Infinity",
  "undefined",
  "0",
  "-0",
  "-1",
  "1e308",
  "1e309",
  "-1e309",
  "0x10",
  "1.5",
  "1e3",
  "007",
  "+1",
  " 1",
  "1 ",
  "9007199254740993",
  "99999999999999999999999",
  "١٢",
  "2026-13-45T25:61:61Z",
  "2026-10-01T00:00:00Z",
  "2026-10-15T00:00:00.123Z",
  "2026-10-01T00:00:00+14:00",
  "2026-02-30T00:00:00Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59.999999999Z",
  "275760-09-13T00:00:00Z",
  "onda_ads_AAAAAAAAAAAAAAAAAAAA",
  "onda_pat_",
  "onda_s_x",
  "eyJhbGciOiJub25lIn0.e30.",
  "a.b",
  "https://93.184.216.34/x",
  "https://[::ffff:127.0.0.1]/x",
  "https://0x7f.1/x",
  "https://2130706433/x",
  "https://[fe80::1%25eth0]/x",
  "http://localhost/x",
  "https://user:pw@93.184.216.34/x",
  "https://example.invalid/x",
  "javascript:alert(1)",
  "https://a.example:99999/",
  "x@y.z",
  "a@b",
  "@",
  ...PROTOTYPE_NAMES,
];

const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const anyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: surrogate },
  { weight: 1, arbitrary: fc.constantFrom("\u0000", "'", '"', "\\", "%", "/", "\n", ".") },
);
const hugeText = fc.tuple(fc.constantFrom("x", "é", "\u0000", "9", "😀"), fc.nat(70_000)).map((
  [c, n],
) => c.repeat(n));

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 3, arbitrary: fc.string({ unit: anyUnit, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 300 }) },
  { weight: 1, arbitrary: hugeText },
);

/** Hostile text for URLs and headers, whose length servers cap before any application sees it. */
export const shortText = hostileText.filter((t) => t.length < 2000);

const RAW_NUMBERS = [
  "1e999",
  "-1e999",
  "1E2",
  "1.0",
  "-0",
  "-0.0",
  "00",
  "01",
  "1.",
  ".5",
  "+1",
  "NaN",
  "Infinity",
  "0x10",
  "1_000",
  "9007199254740993",
  "123456789012345678901234567890",
  "4.0000000000000001",
  "1e-400",
];

const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 5e-324, 1e21),
  fc.constantFrom(...RAW_NUMBERS).map((text): RawJson => ({ [RAW]: text })),
);

function protoObject(inner: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES, "a", ""), inner), {
    maxLength: 3,
  }).map((pairs) => {
    const out = Object.create(null);
    for (const [k, v] of pairs) out[k] = v;
    return out;
  });
}

export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 4, arbitrary: hostileText },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 2, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 3 }) },
    { weight: 1, arbitrary: protoObject(tie("value")) },
  ),
})).value;

// ---------------------------------------------------------------------------------------------
// Values shaped by the schemas, valid or nearly, so that requests get past validation too.

export const isoInstant = fc.date({
  min: new Date("2026-09-01T00:00:00Z"),
  max: new Date("2026-11-30T00:00:00Z"),
  noInvalidDate: true,
}).map((d) => d.toISOString());

export const FIELD_HINTS: Record<string, fc.Arbitrary<unknown>> = {
  loaded_at: fc.oneof(
    fc.constant(known("now-ms")),
    fc.integer({ min: 0, max: 2 ** 53 - 1 }),
  ),
  questionId: fc.constantFrom(known("question"), known("last-question"), 1, 2 ** 53 - 1),
  questionnaire_id: fc.constantFrom(known("questionnaire"), known("draft")),
  email: fc.oneof(
    fc.constantFrom(known("owner-email"), known("member-email"), "nobody@example.com"),
    fc.emailAddress(),
  ),
  password: fc.oneof(fc.constant(known("owner-password")), fc.string({ maxLength: 20 })),
  url: fc.oneof(
    fc.ipV4().map((ip) => `https://${ip}/h`),
    fc.ipV4Extended().map((ip) => `https://${ip}/h`),
    fc.ipV6().map((ip) => `https://[${ip}]:443/h`),
    fc.webUrl({ validSchemes: ["https", "http"] }).filter((u) => /^https?:\/\/[\d.\[]/.test(u)),
    fc.constantFrom(
      "https://93.184.216.34/hook",
      "https://[2606:2800:220:1:248:1893:25c8:1946]/h",
      "https://10.0.0.1/h",
      "https://169.254.169.254/latest",
      "https://[::1]/h",
      "https://[::ffff:10.0.0.1]/h",
      "https://0177.0.0.1/h",
      "https://unknown-host.invalid/h",
    ),
  ),
  answerText: fc.constantFrom("Fine.", "4", "pro", "someone@example.com", "42", "", "6"),
  role: fc.constantFrom("viewer", "editor", "admin", "owner"),
  allowed_origins: fc.array(
    fc.constantFrom("https://example.com", "http://localhost:8080", "https://a.b:443"),
    { maxLength: 3 },
  ),
};

export function fromSchema(
  schema: JsonSchema,
  field: string | null,
  depth = 0,
): fc.Arbitrary<unknown> {
  const hint = field !== null ? FIELD_HINTS[field] : undefined;
  return fc.oneof(
    { weight: 10, arbitrary: hint ?? shaped(schema, depth) },
    { weight: 1, arbitrary: shaped(schema, depth) },
    { weight: 2, arbitrary: hostileJson },
  );
}

export function shaped(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object":
      return objectOf(schema, depth);
    case "array":
      return fc.array(fromSchema(schema.items ?? {}, null, depth + 1), {
        maxLength: depth > 1 ? 2 : 4,
      });
    case "integer":
      return fc.integer({
        min: Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 53)),
        max: Math.min(schema.maximum ?? 2 ** 31, 2 ** 53),
      });
    case "boolean":
      return fc.boolean();
    case "string":
      if (schema.format === "uuid") return fc.uuid();
      if (schema.format === "email") return fc.emailAddress();
      if (schema.format === "date-time") return isoInstant;
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { maxLength: 80 });
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: 30 });
  }
  return hostileJson;
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const entries = Object.entries(schema.properties ?? {}) as [string, JsonSchema][];
  return fc.tuple(
    fc.tuple(...entries.map(([name, s]) =>
      fc.option(fromSchema(s, name, depth + 1), {
        freq: 12,
        nil: undefined,
      })
    )),
    onceIn(8, fc.tuple(fc.constantFrom(...PROTOTYPE_NAMES, "unknown", "Name"), hostileJson), null),
  ).map(([values, extra]) => {
    const out = Object.create(null);
    entries.forEach(([name], i) => {
      if (values[i] !== undefined) out[name] = values[i];
    });
    if (extra) out[extra[0]] = extra[1];
    return out;
  });
}
