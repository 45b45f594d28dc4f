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
