// Data kept in memory at a version of ads_data_version (sql/002_ads.sql), loaded again when a
// request has read a version other than the one held: shared by the capture and figure indexes.

/**
 * `load` reads the version together with the data (one transaction), and may start from what is
 * held. A load started before a caller read its version may hold older data, so a caller that
 * finds one of those behind its version waits for a load started after it read the version;
 * callers arriving meanwhile share that load. One load at a time: a new one starts only once the
 * one under way has settled.
 */
export function createVersionedCache<T extends { version: string }>(
  load: (held: T | null) => Promise<T>,
): { at(version: string): Promise<T> } {
  let held: T | null = null;
  let loading: { promise: Promise<T>; ticket: number } | null = null;
  let tickets = 0;
  const start = () => {
    const ticket = ++tickets;
    const promise = load(held).then((data) => held = data).finally(() => loading = null);
    loading = { promise, ticket };
    return loading;
  };
  return {
    /** The data at `version`, which the caller read from the database, or at a newer one. */
    async at(version) {
      if (held?.version === version) return held;
      // Every load numbered above this one started after the caller read its version.
      const seen = tickets;
      const first = loading ?? start();
      const data = await first.promise;
      if (data.version === version || first.ticket > seen) return data;
      return await (loading && loading.ticket > seen ? loading : start()).promise;
    },
  };
}
