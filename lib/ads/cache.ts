// The one cache of the ads API: everything an instance keeps of the ads data (parts of figures,
// starts and captures, names, each grant's visible brand sets), bounded by ADS_CACHE_MB. Typed
// arrays live in the cache's arena (lib/ads/arena.ts), the rest on the JavaScript heap.

import { type Arena, type Arrays, carve, createArena, type Shape, shapeBytes } from "./arena.ts";

/** An entry's value, the bytes it holds as estimated by whoever put it, and whether it was read. */
interface Entry {
  value: unknown;
  bytes: number;
  /** Read since it was put or last passed over by an eviction. */
  used: boolean;
  /** Where its arrays are in the arena (-1: it has none there), and their bytes. */
  at: number;
  arrayBytes: number;
}

export type AdsCache = ReturnType<typeof createAdsCache>;

/**
 * Entries not read since they were put (or last spared) go first, oldest first, once the bytes
 * held pass `maxBytes`; one that was read is spared once and moved to the end. A value larger than
 * the whole bound is not kept (its request uses it and lets it go).
 *
 * Arrays are kept in an arena of `maxBytes`, of which they fill seven eighths at most: the rest
 * is room for ranges held back for running requests and for the gaps between ranges. Every read
 * of kept arrays runs inside `reading`, so no range is given out again while a request that saw
 * it runs.
 */
export function createAdsCache(maxBytes: number) {
  // A Map iterates in insertion order: the first is the oldest. A read only sets a flag (a request
  // reads dozens of entries); moving an entry, a delete and an insert, waits for an eviction.
  const entries = new Map<string, Entry>();
  const arena: Arena = createArena(maxBytes);
  const arrayLimit = arena.buffer.byteLength - arena.buffer.byteLength / 8;
  let held = 0;
  let evictions = 0;
  let reading = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    held -= entry.bytes;
    if (entry.at >= 0) arena.release(entry.at, entry.arrayBytes);
  };
  /** Lets entries go until `bytes` more fit the bound, and `arrayBytes` more the arena's part. */
  const makeRoom = (bytes: number, arrayBytes: number) => {
    // Ends: an entry spared is unflagged and met again later; bytes alone fit the bound.
    for (const [oldest, entry] of entries) {
      if (held + bytes <= maxBytes && arena.given() + arrayBytes <= arrayLimit) break;
      if (entry.used) {
        entries.delete(oldest);
        entry.used = false;
        entries.set(oldest, entry);
        continue;
      }
      drop(oldest);
      evictions++;
    }
  };
  const insert = (key: string, value: unknown, bytes: number, at: number, arrayBytes: number) => {
    entries.set(key, { value, bytes, used: false, at, arrayBytes });
    held += bytes;
  };
  return {
    get<T>(key: string): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.at >= 0 && reading === 0) throw new Error("kept arrays read outside reading()");
      entry.used = true;
      return entry.value as T;
    },
    /** Keeps a value of the JavaScript heap (no typed arrays of the arena). */
    set(key: string, value: unknown, bytes: number): void {
      drop(key);
      if (bytes > maxBytes) return void evictions++;
      makeRoom(bytes, 0);
      insert(key, value, bytes, -1, 0);
    },
    /**
     * Keeps the value `build` makes of zeroed arrays of `shape`, which hold all its numbers
     * (`otherBytes` estimates the rest), and returns it. The arrays are in the arena when they
     * fit; else in memory of their own, and the value is not kept.
     */
    keep<T>(key: string, shape: Shape, otherBytes: number, build: (arrays: Arrays) => T): T {
      if (reading === 0) throw new Error("kept arrays made outside reading()");
      drop(key);
      const arrayBytes = shapeBytes(shape);
      const bytes = arrayBytes + otherBytes;
      if (bytes > maxBytes || arrayBytes > arrayLimit) {
        evictions++;
        return build(carve(shape));
      }
      makeRoom(bytes, arrayBytes);
      const at = arena.take(arrayBytes);
      if (at < 0) return build(carve(shape));
      let value: T;
      try {
        value = build(carve(shape, arena.buffer, at));
      } catch (err) {
        arena.release(at, arrayBytes);
        throw err;
      }
      insert(key, value, bytes, at, arrayBytes);
      return value;
    },
    /** Runs a request's reads: the arrays it gets stay its own until it ends. */
    async reading<T>(run: () => Promise<T>): Promise<T> {
      const entered = arena.enter();
      reading++;
      try {
        return await run();
      } finally {
        reading--;
        arena.leave(entered);
      }
    },
    /** The bytes held now (never more than the bound), and how many entries were let go so far. */
    held: () => held,
    evictions: () => evictions,
    /** The arena's bytes given to kept arrays, and released but held back for running requests. */
    arena: { given: arena.given, heldBack: arena.heldBack },
  };
}
