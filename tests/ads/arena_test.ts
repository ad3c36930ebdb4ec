// The ads cache's arena: ranges never overlap, come back whole, and a range let go is not given
// out again while a request that could still read it runs; a request's arrays keep their values
// however much the cache turns over meanwhile. No database: the arena is plain memory.

import assert from "node:assert/strict";
import fc from "fast-check";
import { test } from "../_server.ts";
import { carve, createArena, shapeBytes } from "../../lib/ads/arena.ts";
import { createAdsCache } from "../../lib/ads/cache.ts";

test("ads arena: ranges given out never overlap, and all of them released merge back into one", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 3000 }), fc.nat()), {
        maxLength: 300,
      }),
      (steps) => {
        const arena = createArena(64 * 1024);
        const live: { at: number; bytes: number }[] = [];
        for (const [takes, bytes, pick] of steps) {
          if (takes || live.length === 0) {
            const at = arena.take(bytes);
            if (at < 0) continue;
            assert.equal(at % 8, 0, "aligned");
            assert.ok(at + bytes <= arena.buffer.byteLength, "inside the arena");
            for (const other of live) {
              assert.ok(at + bytes <= other.at || other.at + other.bytes <= at, "no overlap");
            }
            live.push({ at, bytes });
          } else {
            const [gone] = live.splice(pick % live.length, 1);
            arena.release(gone.at, gone.bytes);
          }
        }
        for (const range of live) arena.release(range.at, range.bytes);
        assert.deepEqual([arena.given(), arena.heldBack()], [0, 0]);
        assert.equal(arena.take(arena.buffer.byteLength), 0, "one free range again");
      },
    ),
    { numRuns: 200 },
  );
});

test("ads arena: a range released while an earlier request runs waits until every such request left", () => {
  const arena = createArena(1024);
  const first = arena.enter();
  const at = arena.take(1024);
  arena.release(at, 1024);
  // Entered after the release: it cannot hold the range, yet the first request may.
  const second = arena.enter();
  assert.deepEqual([arena.take(8), arena.heldBack()], [-1, 1024]);
  arena.leave(second);
  assert.equal(arena.take(8), -1, "the first request still runs");
  arena.leave(first);
  assert.deepEqual([arena.heldBack(), arena.take(1024)], [0, 0]);
  // With no request running, a range released is free at once.
  arena.release(0, 1024);
  assert.equal(arena.take(1024), 0);
});

test("ads cache: the arrays a request read keep their values while other requests evict them and reuse the arena", async () => {
  // Room for a few entries: each later request evicts what the first one read.
  const cache = createAdsCache(64 * 1024);
  const shape = { f64: [600], i32: [300] };
  const fill = (value: number) => ({ f64: [a], i32: [b] }: ReturnType<typeof carve>) => {
    a.fill(value);
    b.fill(value);
    return { a, b };
  };
  let release = () => {};
  const later = new Promise<void>((resolve) => release = resolve);
  const first = cache.reading(async () => {
    const mine = cache.keep("mine", shape, 0, fill(7));
    await later;
    return [mine.a.every((v) => v === 7), mine.b.every((v) => v === 7)];
  });
  for (let i = 0; i < 40; i++) {
    await cache.reading(async () => {
      cache.keep(`other${i}`, shape, 0, fill(i + 100));
      await Promise.resolve();
    });
  }
  assert.ok(cache.evictions() > 0 && cache.get("mine") === undefined, "evicted meanwhile");
  assert.ok(cache.arena.heldBack() > 0, "its range held back");
  release();
  assert.deepEqual(await first, [true, true]);
  assert.equal(cache.arena.heldBack(), 0, "free once it ended");
  assert.ok(cache.held() <= 64 * 1024 && cache.arena.given() <= 56 * 1024);
});

test("ads cache: kept arrays are read and made only inside reading(); a failed build gives its range back", async () => {
  const cache = createAdsCache(64 * 1024);
  const shape = { f64: [10], i32: [] };
  assert.throws(() => cache.keep("x", shape, 0, ({ f64: [a] }) => a), /outside reading/);
  await cache.reading(() => {
    cache.keep("x", shape, 0, ({ f64: [a] }) => a.fill(1));
    assert.throws(
      () =>
        cache.keep("y", shape, 0, () => {
          throw new Error("bad part");
        }),
      /bad part/,
    );
    return Promise.resolve();
  });
  assert.equal(cache.arena.given(), shapeBytes(shape), "only x's range is given");
  assert.throws(() => cache.get("x"), /outside reading/);
  // JavaScript values need no reading().
  cache.set("names", { a: 1 }, 100);
  assert.deepEqual(cache.get("names"), { a: 1 });
});

test("ads cache: arrays that do not fit the arena are the request's own and not kept; arrays are zeroed", async () => {
  const cache = createAdsCache(8 * 1024);
  await cache.reading(() => {
    const big = cache.keep("big", { f64: [2000], i32: [] }, 0, ({ f64: [a] }) => a);
    assert.deepEqual([big.length, cache.get("big"), cache.arena.given()], [2000, undefined, 0]);
    // A range used before comes back zeroed.
    cache.keep("a", { f64: [100], i32: [] }, 0, ({ f64: [a] }) => a.fill(5));
    cache.set("a", null, 0);
    return Promise.resolve();
  });
  await cache.reading(() => {
    const again = cache.keep("b", { f64: [100], i32: [] }, 0, ({ f64: [a] }) => a);
    assert.equal(again.byteOffset, 0, "a's range");
    assert.ok(again.every((v) => v === 0));
    return Promise.resolve();
  });
});
