// lib/figure_brands.ts: each account's figure brands kept by version, bounded, with every
// brand's by_brand entry opened as JSON text.

import assert from "node:assert/strict";
import { brandOpening, createFigureBrandCache } from "../lib/figure_brands.ts";

Deno.test("figure brands: kept per account with their version, the oldest account making room", () => {
  const cache = createFigureBrandCache(2);
  assert.equal(cache.get("a"), undefined);
  const a = cache.put("a", "v1", [["br.1", "One"], ["br.2", "Two"]]);
  assert.deepEqual(a.ids, ["br.1", "br.2"]);
  assert.equal(cache.get("a"), a);
  cache.put("b", "v2", [["br.3", "Three"]]);
  // A newer version of a kept account replaces it and makes it the newest entry.
  const a2 = cache.put("a", "v3", [["br.1", "Uno"]]);
  assert.equal(cache.get("a"), a2);
  assert.equal(cache.get("a")!.version, "v3");
  cache.put("c", "v4", []);
  assert.equal(cache.get("b"), undefined, "the oldest account made room");
  assert.equal(cache.get("a"), a2);
  assert.deepEqual(cache.get("c")!.ids, []);
});

Deno.test("figure brands: an entry's opening is the start of its by_brand object, names escaped", () => {
  for (
    const [id, name] of [
      ["br.1", "Plain"],
      ["br-2", 'Quote " and \\ backslash'],
      ["br_3", "Line\u2028separator, tab\t, NUL\u0000 and </script>"],
      ["x", "Ünïcödé 📻"],
    ]
  ) {
    const text = brandOpening(id, name) +
      '7,"duration_seconds":1.5,"human_confirmed_duration_seconds":0}';
    assert.deepEqual(JSON.parse(text), {
      brand_id: id,
      brand_name: name,
      occurrences: 7,
      duration_seconds: 1.5,
      human_confirmed_duration_seconds: 0,
    });
  }
});

Deno.test("figure brands: whether the ids are strictly ascending is checked once, when kept", () => {
  const cache = createFigureBrandCache();
  assert.equal(cache.put("a", "v1", [["br-1", "A"], ["br.0", "B"], ["br_2", "C"]]).sorted, true);
  // As a collation other than C may order them: by_brand must then be sorted by the service.
  assert.equal(cache.put("b", "v2", [["br.0", "B"], ["br-1", "A"]]).sorted, false);
  assert.equal(cache.put("c", "v3", [["br.0", "B"], ["br.0", "B"]]).sorted, false);
  assert.equal(cache.put("d", "v4", []).sorted, true);
});

Deno.test("figure brands: running-total days are kept per version within the byte budget, oldest out first", () => {
  const figures = (bytes: number) => new DataView(new ArrayBuffer(bytes));
  // Each day is charged 256 bytes of bookkeeping besides its figures: two 40-byte days fit in
  // 700, three do not.
  const cache = createFigureBrandCache(2, 700);
  const a = cache.put("a", "v1", [["br.1", "One"]]);
  const b = cache.put("b", "v2", [["br.2", "Two"]]);
  const first = figures(40);
  cache.keepDay("a", a, "2026-01-01", first);
  cache.keepDay("a", a, "2026-01-01", figures(40)); // already kept: neither replaced nor counted
  assert.equal(a.days.get("2026-01-01"), first);
  cache.keepDay("b", b, "2026-01-02", figures(40));
  cache.keepDay("a", a, "2026-01-03", figures(40)); // a third: the oldest day goes
  assert.deepEqual([...a.days.keys()], ["2026-01-03"]);
  assert.deepEqual([...b.days.keys()], ["2026-01-02"]);
  // A new version starts with no days and frees the old entry's bytes.
  const a2 = cache.put("a", "v3", [["br.1", "One"]]);
  assert.equal(a2.days.size, 0);
  assert.equal(a.days.size, 0);
  cache.keepDay("a", a, "2026-01-04", figures(40)); // the replaced entry: not kept
  assert.equal(a.days.size, 0);
  cache.keepDay("a", a2, "2026-01-04", figures(60)); // fits beside b's day, now that a's are freed
  assert.deepEqual([...b.days.keys()], ["2026-01-02"]);
  assert.deepEqual([...a2.days.keys()], ["2026-01-04"]);
  // The same version again (requests that started together): the entry, days and all, stays.
  assert.equal(cache.put("a", "v3", [["br.1", "One"]]), a2);
  assert.deepEqual([...a2.days.keys()], ["2026-01-04"]);
  // An account evicted from the cache takes its days along.
  cache.put("c", "v4", []);
  assert.equal(b.days.size, 0);
  cache.keepDay("a", a2, "2026-01-05", figures(40));
  assert.deepEqual([...a2.days.keys()], ["2026-01-04", "2026-01-05"]);
});
