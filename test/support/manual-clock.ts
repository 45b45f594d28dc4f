/** A clock for tests whose time moves only when the test says so. */
import type { Clock } from '../../src/common/clock.js';

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
