/**
 * Time as the run engine sees it: a clock, a sleep that ends early when a signal fires, and a random
 * source for jitter. Injected everywhere waiting happens so unit tests can run without real time.
 */

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

/**
 * A manual clock for tests: time moves only when every sleeper is waiting, jumping to the earliest wake-up
 * (`runUntilIdle` style). `advance(ms)` moves time by hand.
 */
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

/**
 * A signal that fires `ms` after the call on `clock`; the wait ends early (the signal then never fires) when
 * `until` fires, so no timer outlives its user.
 */
export function timeoutSignal(clock: Clock, ms: number, until: AbortSignal): AbortSignal {
  const controller = new AbortController();
  void clock.sleep(ms, until).then(() => {
    if (!until.aborted) controller.abort();
  });
  return controller.signal;
}

/**
 * A real-time timer that never keeps the process alive by itself (unref'd): for the process backstops,
 * which must fire whatever the injected clock does. Returns a function that clears it.
 */
export function unrefTimer(ms: number, onExpire: () => void): () => void {
  const timer = setTimeout(onExpire, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
