/** The stopper: the one reason an engine run stopped and the signals that end its waits (docs/architecture.md). */
import { setMaxListeners } from 'node:events';
import type { Clock } from '../common/clock.js';
import type { StopReason } from './types.js';

/**
 * After a stop, by reason, ms: how long an execute in flight may still answer (then aborted and reconciled),
 * when lookups of interrupted triggers end, when the wrap-up ends (no runner kills the process on fail-fast).
 */
const AFTER_STOP_MS: Readonly<Record<StopReason, { trigger: number; lookup: number; wrapUp: number }>> = {
  deadline: { trigger: 0, lookup: 3_000, wrapUp: 6_000 },
  signal: { trigger: 1_500, lookup: 3_000, wrapUp: 4_500 },
  'fail-fast': { trigger: 5_000, lookup: 10_000, wrapUp: 30_000 },
};

/** The stop of one engine run; every signal fires once. */
export class Stopper {
  private why: StopReason | null = null;
  private readonly stop = new AbortController();
  private readonly triggers = new AbortController();
  private readonly lookups = new AbortController();
  private readonly wrapUp = new AbortController();
  private readonly finished = new AbortController();
  private cancel: () => void = () => undefined;
  /** Fires at the first stop: every wait ends. */
  readonly signal = this.stop.signal;
  /** Fires its `trigger` time after the first stop: the executes in flight are aborted. */
  readonly triggerSignal = this.triggers.signal;
  /** Fires its `lookup` time after the first stop: lookups of interrupted triggers end. */
  readonly lookupSignal = this.lookups.signal;
  /** Fires at the end of the wrap-up time after the first stop: every request of the wrap-up ends. */
  readonly wrapUpSignal = this.wrapUp.signal;
  /** Fires when the engine is done: the deadline watch and the heartbeat end. */
  readonly finishedSignal = this.finished.signal;
  /** Resolves at a workflow cancel or fail-fast (the active runs are cancelled at once); never otherwise. */
  readonly cancelling = new Promise<void>((resolve) => (this.cancel = resolve));

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
    if (reason !== 'deadline') this.cancel();
    if (!first) return;
    const at = (ms: number, controller: AbortController): void =>
      void this.clock.sleep(ms, this.finished.signal).then(() => controller.abort());
    const bounds = AFTER_STOP_MS[reason];
    at(bounds.trigger, this.triggers);
    at(bounds.lookup, this.lookups);
    at(bounds.wrapUp, this.wrapUp);
  }

  /** The engine is done. */
  finish(): void {
    this.finished.abort();
  }
}
