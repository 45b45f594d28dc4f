/** Time as the engine sees it (now, an abortable sleep, randomness), injected so tests need no real time. */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms` milliseconds; resolves early (never rejects) when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1). */
  random(): number;
}

/** Real time. */
export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted || ms <= 0) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** A manual clock for tests: time moves only by `advance(ms)`, waking the sleepers due in order. */
export class ManualClock implements Clock {
  private time: number;
  private sleepers: Array<{ at: number; resolve: () => void }> = [];
  constructor(
    start = 0,
    private readonly rand: () => number = () => 0.5,
  ) {
    this.time = start;
  }
  now(): number {
    return this.time;
  }
  random(): number {
    return this.rand();
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const entry = { at: this.time + ms, resolve };
      this.sleepers.push(entry);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== entry);
          resolve();
        },
        { once: true },
      );
    });
  }
  /** Moves time forward by `ms`, waking every sleeper due by then, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      this.sleepers.sort((a, b) => a.at - b.at);
      const next = this.sleepers[0];
      if (!next || next.at > target) break;
      this.sleepers.shift();
      this.time = next.at;
      next.resolve();
      // Let the woken task run until it sleeps again.
      await new Promise((r) => setImmediate(r));
    }
    this.time = target;
  }
  /** Number of pending sleeps. */
  get pending(): number {
    return this.sleepers.length;
  }
}

/** A signal that fires `ms` after the call on `clock`, or never if `until` fires first. */
export function timeoutSignal(clock: Clock, ms: number, until: AbortSignal): AbortSignal {
  const controller = new AbortController();
  void clock.sleep(ms, until).then(() => {
    if (!until.aborted) controller.abort();
  });
  return controller.signal;
}

/** An unref'd real-time timer for the process backstops (whatever the clock does); returns its clear. */
export function unrefTimer(ms: number, onExpire: () => void): () => void {
  const timer = setTimeout(onExpire, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
