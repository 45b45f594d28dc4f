/**
 * The stopper (`src/run/stopper.ts`): the one reason an engine run stopped, which stop wins over which, and
 * when each signal that ends the engine's waits fires after the first stop (the bounds of
 * docs/architecture.md, "Time bounds"), on a manual clock.
 */
import { describe, expect, it } from 'vitest';
import type { StopReason } from '../../../src/run/types.js';
import { Stopper } from '../../../src/run/stopper.js';
import { ManualClock } from '../../support/manual-clock.js';

type Timed = 'triggerSignal' | 'lookupSignal' | 'wrapUpSignal';

/** The ms after the first stop at which each timed signal fired (moving the clock 250 ms at a time). */
async function firingTimes(
  stopper: Stopper,
  clock: ManualClock,
  untilMs: number,
): Promise<Record<Timed, number>> {
  const start = clock.now();
  const fired: Partial<Record<Timed, number>> = {};
  // A bound of 0 fires once the pending callbacks have run, before time moves.
  await new Promise((r) => setImmediate(r));
  for (;;) {
    for (const name of ['triggerSignal', 'lookupSignal', 'wrapUpSignal'] as const) {
      if (stopper[name].aborted) fired[name] ??= clock.now() - start;
    }
    if (clock.now() - start >= untilMs) return fired as Record<Timed, number>;
    await clock.advance(250);
  }
}

/** Whether `cancelling` has resolved (after the pending callbacks ran). */
async function isCancelling(stopper: Stopper): Promise<boolean> {
  let resolved = false;
  void stopper.cancelling.then(() => (resolved = true));
  await new Promise((r) => setImmediate(r));
  return resolved;
}

describe('a stopper before any stop', () => {
  it('has no reason and no signal fired', async () => {
    const stopper = new Stopper(new ManualClock());
    expect(stopper.reason).toBeNull();
    expect(stopper.signal.aborted).toBe(false);
    expect(stopper.triggerSignal.aborted).toBe(false);
    expect(stopper.finishedSignal.aborted).toBe(false);
    expect(await isCancelling(stopper)).toBe(false);
  });
});

describe('the signals after the first stop, by reason', () => {
  it.each<[StopReason, Record<Timed, number>]>([
    ['deadline', { triggerSignal: 0, lookupSignal: 3_000, wrapUpSignal: 6_000 }],
    ['signal', { triggerSignal: 1_500, lookupSignal: 3_000, wrapUpSignal: 4_500 }],
    ['fail-fast', { triggerSignal: 5_000, lookupSignal: 10_000, wrapUpSignal: 30_000 }],
  ])(
    '%s: every wait ends at once; the executes, lookups and wrap-up end at their bounds',
    async (reason, at) => {
      const clock = new ManualClock(1_000_000);
      const stopper = new Stopper(clock);
      stopper.halt(reason);
      expect(stopper.reason).toBe(reason);
      expect(stopper.signal.aborted).toBe(true);
      expect(await firingTimes(stopper, clock, 31_000)).toEqual(at);
    },
  );

  it('the deadline does not start the cancel of the active runs; a workflow cancel and fail-fast do', async () => {
    for (const [reason, cancels] of [
      ['deadline', false],
      ['signal', true],
      ['fail-fast', true],
    ] as const) {
      const stopper = new Stopper(new ManualClock());
      stopper.halt(reason);
      expect(await isCancelling(stopper)).toBe(cancels);
    }
  });
});

describe('which stop wins', () => {
  it.each<[StopReason, StopReason, StopReason]>([
    ['deadline', 'signal', 'signal'],
    ['deadline', 'fail-fast', 'fail-fast'],
    ['fail-fast', 'signal', 'signal'],
    ['fail-fast', 'deadline', 'fail-fast'],
    ['signal', 'fail-fast', 'signal'],
    ['signal', 'deadline', 'signal'],
  ])('%s, then %s: the reason is %s', (first, second, winner) => {
    const stopper = new Stopper(new ManualClock());
    stopper.halt(first);
    stopper.halt(second);
    expect(stopper.reason).toBe(winner);
  });

  it('a workflow cancel after the deadline cancels the active runs; the bounds stay those of the first stop', async () => {
    const clock = new ManualClock();
    const stopper = new Stopper(clock);
    stopper.halt('deadline');
    await clock.advance(1_000);
    expect(await isCancelling(stopper)).toBe(false);
    stopper.halt('signal');
    expect(await isCancelling(stopper)).toBe(true);
    // The deadline's bounds, counted from the deadline: the lookups end at 3 s, the wrap-up at 6 s.
    expect(await firingTimes(stopper, clock, 5_000)).toMatchObject({
      lookupSignal: 2_000,
      wrapUpSignal: 5_000,
    });
  });
});

describe('a stopper whose engine is done', () => {
  it('fires finishedSignal and leaves no timer of a stop waiting', async () => {
    const clock = new ManualClock();
    const stopper = new Stopper(clock);
    stopper.halt('fail-fast');
    expect(clock.pending).toBe(3);
    stopper.finish();
    expect(stopper.finishedSignal.aborted).toBe(true);
    expect(clock.pending).toBe(0);
  });
});
