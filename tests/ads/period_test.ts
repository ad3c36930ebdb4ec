// lib/ads/period.ts: instants are written as ISO 8601 UTC, exactly as toISOString would write them.

import assert from "node:assert/strict";
import { isoUtc } from "../../lib/ads/period.ts";
import { seeded } from "./_fixture.ts";

Deno.test("isoUtc: the instant toISOString writes, with whole seconds written without .000", () => {
  const reference = (d: Date) => d.toISOString().replace(".000Z", "Z");
  const fixed = [
    "1970-01-01T00:00:00.000Z",
    "1969-12-31T23:59:59.999Z",
    "2000-02-29T12:00:00.001Z",
    "2024-02-29T23:59:59.010Z",
    "2026-12-31T23:59:59.100Z",
    "1000-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
  ].map((s) => new Date(s));
  const random = seeded(20261122).next;
  const min = Date.UTC(1000, 0, 1);
  const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  const randomDates = Array.from(
    { length: 20_000 },
    () => new Date(Math.floor(min + random() * (max - min))),
  );
  for (const date of [...fixed, ...randomDates]) assert.equal(isoUtc(date), reference(date));
  assert.equal(isoUtc(new Date("2026-03-01T02:20:34Z")), "2026-03-01T02:20:34Z");
  assert.equal(isoUtc(new Date(Date.UTC(12000, 0, 1))), "+012000-01-01T00:00:00Z");
  assert.throws(() => isoUtc(new Date(NaN)), RangeError);
});

Deno.test("isoUtc: epoch milliseconds are written as the Date they make, fraction dropped", () => {
  const random = seeded(20261123).next;
  const millis = [
    0,
    -1,
    -0.5,
    1772409600123.456,
    -1772409600123.456,
    ...Array.from({ length: 5_000 }, () => (random() - 0.3) * 4e12),
  ];
  for (const ms of millis) assert.equal(isoUtc(ms), isoUtc(new Date(ms)), String(ms));
  assert.throws(() => isoUtc(NaN), RangeError);
});
