/**
 * A clock that runs `factor` times faster than real time, for in-process action runs against the emulator
 * (which scales its own run durations with `timeScale`): the engine's waits (poll intervals, the request
 * budget, the deadline) shrink by `factor` while their order and ratios stay those of production.
 * `now()` starts at the real time and moves `factor` ms per real ms; `sleep(ms)` waits `ms / factor` real ms.
 */
import type { Clock } from '../../src/common/clock.js';
import { systemClock } from '../../src/common/clock.js';

/** A clock `factor` (> 0) times faster than real time. */
export function scaledClock(factor: number): Clock {
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * factor,
    random: () => Math.random(),
    sleep: (ms, signal) => systemClock.sleep(ms / factor, signal),
  };
}
