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
