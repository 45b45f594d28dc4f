/**
 * The emulator's time: every time-driven part (the simulated executor's run progress, run durations and the
 * dates records carry, the run-time limit, the not-found window, the rate limiter's refill, the suite execute
 * wait, the `slow` fault) reads `now()` and waits through one injected clock. Real time by default; tests
 * pass a virtual clock shared with the action's engine so that minutes of runs take milliseconds.
 *
 * The shape is that of the action's `Clock` (`src/common/clock.ts`) without `random`, so one clock object can
 * drive both.
 */
import { abortError } from './util.js';

export interface EmulatorClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms` milliseconds; resolves early (never rejects) when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Real time: `Date.now()` and `setTimeout` (a non-positive `ms` resolves on the next macrotask). */
export const realClock: EmulatorClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/**
 * Waits `ms` on `clock`; rejects with an `AbortError` when `signal` fires before or during the wait (the
 * emulator's runs end that way when cancelled or cut at the run-time limit).
 */
export async function sleepOn(clock: EmulatorClock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw abortError();
  await clock.sleep(Math.max(0, ms), signal);
  if (signal?.aborted) throw abortError();
}

/**
 * The requests the emulator is answering, for a virtual clock's idleness check: `answering` counts requests
 * received and not yet answered that are being worked on; `waiting` those parked on the clock (a `slow`
 * fault's delay, an execute that is not immediate waiting for its runs), which only time moves on.
 */
export class RequestsInFlight {
  answering = 0;
  waiting = 0;

  /** Counts a request from its arrival until `answered` fires (the response finished or the socket closed). */
  begin(): () => void {
    this.answering += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.answering -= 1;
    };
  }

  /** Moves one answering request to `waiting` while `wait` is pending; resolves or rejects as `wait` does. */
  async parked<T>(wait: Promise<T>): Promise<T> {
    this.answering -= 1;
    this.waiting += 1;
    try {
      return await wait;
    } finally {
      this.waiting -= 1;
      this.answering += 1;
    }
  }
}
