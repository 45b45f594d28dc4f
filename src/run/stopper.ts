/**
 * The stopper: the one reason an engine run stopped (the deadline, a workflow cancel, fail-fast) and the
 * signals that end its waits one after the other (docs/run-stopping.md).
 */
import { setMaxListeners } from 'node:events';
import type { Clock } from '../common/clock.js';
import type { StopReason } from './types.js';

/** How long an execute in flight may still answer after a stop, ms; then it is aborted and reconciled. */
const TRIGGER_GRACE_MS: Readonly<Record<StopReason, number>> = {
  deadline: 0,
  signal: 1_500,
  'fail-fast': 5_000,
};

/** When the lookups of interrupted triggers end, ms after the stop. */
const LOOKUP_END_MS: Readonly<Record<StopReason, number>> = {
  deadline: 3_000,
  signal: 3_000,
  'fail-fast': 10_000,
};

/** When the wrap-up after a stop ends, ms after it; fail-fast has no runner about to kill the process. */
const WRAP_UP_MS: Readonly<Record<StopReason, number>> = {
  deadline: 6_000,
  signal: 4_500,
  'fail-fast': 30_000,
};

/** The stop of one engine run; every signal fires once. */
export class Stopper {
  private why: StopReason | null = null;
  private readonly stop = new AbortController();
  private readonly triggers = new AbortController();
  private readonly lookups = new AbortController();
  private readonly wrapUp = new AbortController();
  private readonly finished = new AbortController();
  /** Fires at the first stop: every wait ends. */
  readonly signal = this.stop.signal;
  /** Fires `TRIGGER_GRACE_MS` after the first stop: the executes in flight are aborted. */
  readonly triggerSignal = this.triggers.signal;
  /** Fires `LOOKUP_END_MS` after the first stop: lookups of interrupted triggers end. */
  readonly lookupSignal = this.lookups.signal;
  /** Fires at the end of the wrap-up time after the first stop: every request of the wrap-up ends. */
  readonly wrapUpSignal = this.wrapUp.signal;
  /** Fires when the engine is done: the deadline watch and the heartbeat end. */
  readonly finishedSignal = this.finished.signal;

  constructor(private readonly clock: Clock) {
    // Every request and wait of the engine run listens to the stop signal: many at once.
    setMaxListeners(0, this.stop.signal);
  }

  /** Why the engine stopped, or null while it runs. */
  get reason(): StopReason | null {
    return this.why;
  }

  /** Stops the engine; the first stop starts the wrap-up timers. A signal wins; fail-fast wins over a deadline. */
  halt(reason: StopReason): void {
    if (this.why === 'signal' || (this.why === 'fail-fast' && reason !== 'signal')) return;
    const first = this.why === null;
    this.why = reason;
    this.stop.abort();
    if (!first) return;
    const at = (ms: number, controller: AbortController): void =>
      void this.clock.sleep(ms, this.finished.signal).then(() => controller.abort());
    at(TRIGGER_GRACE_MS[reason], this.triggers);
    at(LOOKUP_END_MS[reason], this.lookups);
    at(WRAP_UP_MS[reason], this.wrapUp);
  }

  /** The engine is done. */
  finish(): void {
    this.finished.abort();
  }
}
