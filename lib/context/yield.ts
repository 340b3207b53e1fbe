// Long synchronous work on the server's one thread goes in slices: between two, timers and I/O
// that are due run (a health check, another user's request, PGlite's next query).

/** Lets timers and I/O that are due run before the work goes on. */
export function yieldToLoop(): Promise<void> {
  // setImmediate runs after pending I/O; a browser bundle (this layer may reach one) has none.
  return new Promise<void>((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

/** How long a slice of synchronous work may hold the thread. */
export const SLICE_MS = 15;

/**
 * A clock for work done in slices: `await slicer.tick()` between two items yields once the
 * slice's time is spent, and costs a clock read otherwise.
 */
export class Slicer {
  private start = performance.now();
  constructor(private readonly sliceMs = SLICE_MS) {}

  async tick(): Promise<void> {
    if (performance.now() - this.start < this.sliceMs) return;
    await yieldToLoop();
    this.start = performance.now();
  }
}

/** `fn` over `items`, yielding whenever a slice's time is spent. */
export async function mapSliced<T, R>(items: readonly T[], fn: (item: T, index: number) => R, slicer = new Slicer()): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) {
    await slicer.tick();
    out.push(fn(items[i], i));
  }
  return out;
}

/**
 * Work written once as a generator that yields between items, run either at once (callers
 * that need the answer synchronously, tests) or in slices (the server): the same steps, so the
 * same answer.
 */
export type Steps<R> = Generator<void, R, void>;

export function runAll<R>(steps: Steps<R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

export async function runSliced<R>(steps: Steps<R>, slicer = new Slicer()): Promise<R> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await slicer.tick();
  }
}
