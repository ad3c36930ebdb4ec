// lib/ads/iso_instant.ts: the import's digit-by-digit reading of the usual date-time shape answers
// exactly as the general reading (regular expression and Date.parse, checked against PostgreSQL
// in ads_admin_test.ts), or leaves the text to it.

import assert from "node:assert/strict";
import { generalInstant, parseInstant, quickInstant } from "../../lib/ads/iso_instant.ts";
import { seeded } from "./_fixture.ts";

const rand = seeded(20261125);
const random = rand.next;
const pick = rand.int;
const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** A date-time of the usual shape, every field sometimes just past its range. */
function randomDateTime(): string {
  const year = random() < 0.1 ? pick(10_000) : 1900 + pick(200);
  const fraction = pick(8); // 0 = none, 7 = one digit too many
  const zone = random() < 0.4
    ? "Z"
    : `${random() < 0.5 ? "+" : "-"}${pad(pick(17), 2)}:${pad(pick(61), 2)}`;
  return `${pad(year, 4)}-${pad(1 + pick(13), 2)}-${pad(pick(33), 2)}T${pad(pick(25), 2)}:` +
    `${pad(pick(61), 2)}:${pad(pick(61), 2)}` +
    (fraction ? `.${Array.from({ length: fraction }, () => pick(10)).join("")}` : "") + zone;
}

/** The text with one character replaced, removed or added. */
function mutated(text: string): string {
  const at = pick(text.length + 1);
  const char = "09-:T Z+.e\u00e9\u0660"[pick(13)];
  const edit = pick(3);
  return text.slice(0, at) + (edit === 2 ? "" : char) + text.slice(edit === 0 ? at + 1 : at);
}

Deno.test("import date-times: the quick reading agrees with the general one wherever it answers", () => {
  let answered = 0;
  const texts = Array.from({ length: 40_000 }, randomDateTime);
  assert.ok(new Set(texts).size > 39_000, "the texts are not the same few over and over");
  for (const text of [...texts, ...texts.slice(0, 20_000).map(mutated)]) {
    const quick = quickInstant(text);
    const general = generalInstant(text);
    if (quick !== null) {
      answered++;
      assert.deepEqual(quick, general, text);
    }
    assert.deepEqual(parseInstant(text), general, text);
  }
  // About two thirds of the random texts are in the everyday ranges; the quick reading must
  // answer those rather than leave every text to the general one.
  assert.ok(answered > 20_000, `the quick reading answered only ${answered} texts`);
});

Deno.test("import date-times: the usual export shapes are read digit by digit, to the microsecond", () => {
  const cases: [string, number, number][] = [
    ["2026-11-25T10:15:30.123Z", Date.UTC(2026, 10, 25, 10, 15, 30, 123), 0],
    ["2026-11-25T10:15:30Z", Date.UTC(2026, 10, 25, 10, 15, 30), 0],
    ["2026-11-25T10:15:30.123456+05:30", Date.UTC(2026, 10, 25, 4, 45, 30, 123), 456],
    ["2024-02-29T23:59:59.9-00:45", Date.UTC(2024, 2, 1, 0, 44, 59, 900), 0],
    ["0001-01-01T00:00:00.000001Z", -62_135_596_800_000, 1],
  ];
  for (const [text, ms, micros] of cases) assert.deepEqual(quickInstant(text), { ms, micros });
  // Left to the general reading, which accepts or refuses them.
  for (
    const text of [
      "2026-11-25T24:00:00Z",
      "2026-11-25T10:15Z",
      "2026-02-29T10:00:00Z",
      "2026-11-25T10:15:30.1234567Z",
      "2026-11-25T10:15:30+16:00",
      "2026-11-25 10:15:30Z",
    ]
  ) {
    assert.equal(quickInstant(text), null, text);
  }
});
