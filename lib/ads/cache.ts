// The one cache of the ads API: everything an instance keeps of the ads data (parts of figures,
// starts and captures, names, each grant's visible brand sets), bounded by ADS_CACHE_MB.

/** An entry's value, the bytes it holds as estimated by whoever put it, and whether it was read. */
interface Entry {
  value: unknown;
  bytes: number;
  /** Read since it was put or last passed over by an eviction. */
  used: boolean;
}

export type AdsCache = ReturnType<typeof createAdsCache>;

/**
 * Entries not read since they were put (or last spared) go first, oldest first, once the bytes
 * held pass `maxBytes`; one that was read is spared once and moved to the end. A value larger than
 * the whole bound is not kept (its request uses it and lets it go).
 */
export function createAdsCache(maxBytes: number) {
  // A Map iterates in insertion order: the first is the oldest. A read only sets a flag (a request
  // reads dozens of entries); moving an entry, a delete and an insert, waits for an eviction.
  const entries = new Map<string, Entry>();
  let held = 0;
  let evictions = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    held -= entry.bytes;
  };
  return {
    get<T>(key: string): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entry.used = true;
      return entry.value as T;
    },
    set(key: string, value: unknown, bytes: number): void {
      drop(key);
      if (bytes > maxBytes) return void evictions++;
      entries.set(key, { value, bytes, used: false });
      held += bytes;
      // Ends: an entry spared is unflagged and met again after the one just put, which is never let
      // go (it fits the bound alone).
      for (const [oldest, entry] of entries) {
        if (held <= maxBytes) break;
        if (oldest === key) continue;
        if (entry.used) {
          entries.delete(oldest);
          entry.used = false;
          entries.set(oldest, entry);
          continue;
        }
        drop(oldest);
        evictions++;
      }
    },
    /** The bytes held now (never more than the bound), and how many entries were let go so far. */
    held: () => held,
    evictions: () => evictions,
  };
}
