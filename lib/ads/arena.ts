// The memory of the ads cache's arrays: one ArrayBuffer, given out in ranges. Kept arrays then
// never sit between the allocator's short-lived buffers (the driver's, a request's), which is what
// kept freed memory resident. A range let go is given out again only after every request that
// could still be reading it has ended.

export type Arena = ReturnType<typeof createArena>;

/** Ranges start and end on multiples of 8, so a Float64Array may start anywhere one ends. */
const ALIGN = 8;

export const alignedBytes = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;

/** The typed arrays of a kept value, by element type and length, laid out in one range. */
export interface Shape {
  f64: number[];
  i32: number[];
}

export interface Arrays {
  f64: Float64Array[];
  i32: Int32Array[];
}

/** The bytes a shape takes in a range: 8-byte elements first, so every array is aligned. */
export const shapeBytes = (shape: Shape) => alignedBytes(8 * sum(shape.f64) + 4 * sum(shape.i32));

function sum(lengths: number[]) {
  return lengths.reduce((n, length) => n + length, 0);
}

/** A shape's arrays, zeroed, from `at` in `buffer` (or in a buffer of their own). */
export function carve(shape: Shape, buffer = new ArrayBuffer(shapeBytes(shape)), at = 0): Arrays {
  new Uint8Array(buffer, at, shapeBytes(shape)).fill(0);
  const f64 = shape.f64.map((length) => {
    const array = new Float64Array(buffer, at, length);
    at += 8 * length;
    return array;
  });
  const i32 = shape.i32.map((length) => {
    const array = new Int32Array(buffer, at, length);
    at += 4 * length;
    return array;
  });
  return { f64, i32 };
}

/**
 * `size` bytes handed out first fit. `enter` and `leave` bracket every request that reads arrays
 * of the arena: a range `release`d is held back while a request that entered before it is still
 * running (it may hold the arrays it read from the cache before they were let go).
 */
export function createArena(size: number) {
  const buffer = new ArrayBuffer(alignedBytes(size));
  // Free ranges [starts[i], ends[i]) in address order; neighbours are always merged.
  const starts: number[] = [0];
  const ends: number[] = [buffer.byteLength];
  // Released ranges not given out yet, oldest first: `epoch` is the release's.
  const heldBack: { start: number; end: number; epoch: number }[] = [];
  let epoch = 0;
  // Running requests per epoch they entered at; a Map iterates oldest epoch first (an epoch only
  // grows, and one re-added after all its requests left is the newest).
  const readers = new Map<number, number>();
  let given = 0;
  let rover = 0;

  const free = (start: number, end: number) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    const joinsBefore = lo > 0 && ends[lo - 1] === start;
    const joinsAfter = lo < starts.length && starts[lo] === end;
    if (joinsBefore && joinsAfter) {
      ends[lo - 1] = ends[lo];
      starts.splice(lo, 1);
      ends.splice(lo, 1);
    } else if (joinsBefore) ends[lo - 1] = end;
    else if (joinsAfter) starts[lo] = start;
    else {
      starts.splice(lo, 0, start);
      ends.splice(lo, 0, end);
    }
  };

  /** Frees the ranges held back that no running request entered before. */
  const reclaim = () => {
    const oldest = readers.size ? readers.keys().next().value! : Infinity;
    let n = 0;
    while (n < heldBack.length && heldBack[n].epoch < oldest) {
      free(heldBack[n].start, heldBack[n].end);
      n++;
    }
    if (n) heldBack.splice(0, n);
  };

  return {
    buffer,
    /** A request starts reading: what is released from now on waits for it. */
    enter(): number {
      readers.set(epoch, (readers.get(epoch) ?? 0) + 1);
      return epoch;
    },
    leave(entered: number): void {
      const left = readers.get(entered)! - 1;
      if (left > 0) readers.set(entered, left);
      else readers.delete(entered);
      reclaim();
    },
    /** The start of a free range of `bytes` (rounded up to 8), or -1 when none is that long. */
    take(bytes: number): number {
      const length = alignedBytes(bytes);
      // Next fit: from the range the last take used, where the free space usually is, rather
      // than past every small gap from the start again.
      for (let seen = 0; seen < starts.length; seen++) {
        const i = (rover + seen) % starts.length;
        if (ends[i] - starts[i] < length) continue;
        const start = starts[i];
        if (ends[i] - start === length) {
          starts.splice(i, 1);
          ends.splice(i, 1);
        } else starts[i] += length;
        rover = i;
        given += length;
        return start;
      }
      return -1;
    },
    /** Gives back a range taken with `take(bytes)`, free once no earlier request reads it. */
    release(start: number, bytes: number): void {
      const length = alignedBytes(bytes);
      given -= length;
      heldBack.push({ start, end: start + length, epoch: epoch++ });
      reclaim();
    },
    /** Bytes given out and not released, and released but held back for running requests. */
    given: () => given,
    heldBack: () => heldBack.reduce((n, range) => n + range.end - range.start, 0),
  };
}
