// Waiting for a promise at most so long, without leaving its timer to keep the process alive.

/** What `within` returns when the time ran out first. */
export const EXPIRED: unique symbol = Symbol("expired");

/** The work's value, or EXPIRED after `ms`; the work itself goes on, the caller decides. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof EXPIRED> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<typeof EXPIRED>((resolve) => timer = setTimeout(() => resolve(EXPIRED), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
