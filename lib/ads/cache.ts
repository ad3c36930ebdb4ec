// The one cache of the ads API: everything an instance keeps of the ads data (parts of figures,
// starts and captures, names, each grant's visible brand sets), bounded by ADS_CACHE_MB.

/** An entry's value, the bytes it holds as estimated by whoever put it, and when it was put. */
interface Entry {
  value: unknown;
  bytes: number;
  /** The count of entries put before it, when it was put or last moved to the end. */
  at: number;
}

export type AdsCache = ReturnType<typeof createAdsCache>;

/**
 * Least recently used entries go first once the bytes held pass `maxBytes`. A value larger than
 * the whole bound is not kept (its request uses it and lets it go).
 */
export function createAdsCache(maxBytes: number) {
  // A Map iterates in insertion order: an entry used is moved to the end, the first is the oldest.
  // Moving is a delete and an insert, so an entry is moved only once it is in the older half
  // (more entries put after it than half the entries held): a request reads dozens of entries,
  // mostly just put or just used, and they stay where they are.
  const entries = new Map<string, Entry>();
  let held = 0;
  let evictions = 0;
  let put = 0;
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
      if (put - entry.at > entries.size / 2) {
        entries.delete(key);
        entry.at = put++;
        entries.set(key, entry);
      }
      return entry.value as T;
    },
    set(key: string, value: unknown, bytes: number): void {
      drop(key);
      if (bytes > maxBytes) return void evictions++;
      entries.set(key, { value, bytes, at: put++ });
      held += bytes;
      for (const oldest of entries.keys()) {
        if (held <= maxBytes) break;
        drop(oldest);
        evictions++;
      }
    },
    /** The bytes held now (never more than the bound), and how many entries were let go so far. */
    held: () => held,
    evictions: () => evictions,
  };
}
