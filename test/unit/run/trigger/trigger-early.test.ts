/**
 * Each run is watched from the moment its own execute is answered, not once every execute is: with many
 * runs and few executes in flight, an early failure is noticed while later executes still wait, and
 * `fail-fast` keeps those from being sent at all (they are reported "Not started: fail-fast"). The real
 * client against the emulator on loopback, both on one virtual clock (`test/support/world.ts`:
 * production run durations and engine waits, time figures exact); every execute is held (the emulator's
 * `slow` fault, on the same clock) so that triggering takes seconds, as it does with many runs against the
 * service.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runPlan } from '../../../../src/run/engine.js';
import type { RunEvent } from '../../../../src/run/events.js';
import { decideVerdict } from '../../../../src/run/outcome/outcome.js';
import { runPlanOf } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';

const API_KEY = 'trigger-early-test-key';
/**
 * How long the emulator holds each execute before handling it, ms (virtual). Not a multiple of the running
 * list's second, so that no execute is answered at the ms a run's end is noticed.
 */
const EXECUTE_MS = 1_800;
/** How long a run of Pay by card takes to fail (the seed: three steps of 1.5 s and the 3 s tail), ms. */
const PAYMENT_MS = 7_500;
/** Runs asked for: the failing test first, then `RUNS - 1` more. */
const RUNS = 12;
/** How soon a finish is noticed at the latest, ms (the watch's goal). */
const NOTICE_MS = 1_500;

const world = useWorld({
  apiKey: API_KEY,
  faults: `delay=${EXECUTE_MS},route=POST /v1/tests/*/execute:slow`,
});
beforeAll(() => {
  // test-home never ends by itself: only a cancel ends its runs.
  world.emulator.setScenario('test-home', { hang: true });
});

const POLICY = { failOnEmpty: true, failOnTimeout: true, failOnScreenshotCompare: false };

/** The execute requests the emulator received so far. */
function executes(): number {
  return world.emulator.requests().filter((q) => q.method === 'POST' && /\/execute\/?$/.test(q.path)).length;
}

describe('runs are watched as soon as their own execute is answered', () => {
  it('an early failure is noticed before the last execute is sent (one execute at a time)', async () => {
    const api = world.client({ apiKey: API_KEY });
    let executesAtFailure: number | null = null;
    let failedAt: number | null = null;
    const t0 = world.clock.now();
    const testIds = ['test-payment', ...Array.from({ length: RUNS - 1 }, () => 'test-login')];
    const summary = await runPlan(runPlanOf({ testIds }), {
      api,
      clock: world.clock,
      triggerConcurrency: 1,
      onEvent: (e) => {
        if (e.type !== 'test-finished' || e.test.state !== 'failed') return;
        executesAtFailure ??= executes();
        failedAt ??= world.clock.now() - t0;
      },
    });
    expect(summary.runs).toHaveLength(RUNS);
    expect(summary.runs.map((r) => r.tests[0]?.state).sort()).toEqual([
      'failed',
      ...Array.from({ length: RUNS - 1 }, () => 'passed'),
    ]);
    // With all executes sent one after the other (RUNS × EXECUTE_MS), the failure of the first run is seen
    // while most are still to come: the run ends PAYMENT_MS after its execute is answered, and the watch
    // (its own poll while it runs alone, then the running list) notices it within 1.5 s (the bound in docs/performance.md),
    // when 5 executes have been answered (the 5th at 9 s).
    const endedAt = EXECUTE_MS + PAYMENT_MS;
    expect(failedAt).toBeGreaterThanOrEqual(endedAt);
    expect(failedAt! - endedAt).toBeLessThanOrEqual(NOTICE_MS);
    expect(executesAtFailure).toBe(Math.floor(failedAt! / EXECUTE_MS));
    expect(executesAtFailure!).toBeLessThan(RUNS / 2);
  });

  it('fail-fast: executes not sent yet are never sent; their runs are reported not started (cancelled)', async () => {
    const api = world.client({ apiKey: API_KEY });
    const events: Array<RunEvent & { at: number }> = [];
    const RUNS = 16;
    const t0 = world.clock.now();
    const testIds = ['test-payment', ...Array.from({ length: RUNS - 1 }, () => 'test-home')];
    const summary = await runPlan(runPlanOf({ testIds, failFast: true }), {
      api,
      clock: world.clock,
      triggerConcurrency: 2,
      onEvent: (e) => events.push({ ...e, at: world.clock.now() - t0 }),
    });
    expect(summary.interrupted).toBe('fail-fast');
    // Every run asked for is there: the failed one, those started and cancelled, those never started.
    expect(summary.runs).toHaveLength(RUNS);
    // Two at a time, the executes would take RUNS / 2 × EXECUTE_MS (14.4 s); the failure is seen well
    // before, within 1.5 s of its end (as above), while executes 11 and 12 are held: those two are answered
    // (they may have started a run), the last 4 are never sent.
    const failFastAt = events.find((e) => e.type === 'fail-fast')!.at;
    expect(failFastAt).toBeGreaterThanOrEqual(EXECUTE_MS + PAYMENT_MS);
    expect(failFastAt - (EXECUTE_MS + PAYMENT_MS)).toBeLessThanOrEqual(NOTICE_MS);
    const sent = executes();
    expect(sent).toBe(2 * Math.ceil(failFastAt / EXECUTE_MS));
    expect(sent).toBeLessThanOrEqual(RUNS - 4);
    const started = summary.runs.filter((r) => r.testResultId);
    const notStarted = summary.runs.filter((r) => r.notStarted);
    expect(started).toHaveLength(sent);
    expect(notStarted).toHaveLength(RUNS - sent);
    for (const run of notStarted) {
      expect(run.notStarted).toBe('fail-fast');
      expect(run.error).toBe('Not started: fail-fast (a test had failed)');
      expect(run.tests).toEqual([]);
    }
    // The started runs of the hanging test were cancelled remotely, each once.
    const cancels = world.emulator
      .requests()
      .filter((q) => q.method === 'POST' && /\/cancel\/?$/.test(q.path));
    expect(cancels).toHaveLength(sent - 1);
    const failed = summary.runs.find((r) => r.testId === 'test-payment')!;
    expect(failed.tests.map((t) => t.state)).toEqual(['failed']);
    for (const run of started.filter((r) => r !== failed)) {
      expect(run.cancelled).toBe(true);
      expect(run.tests.map((t) => t.state)).toEqual(['cancelled']);
    }
    // One verdict: the failure fails the step; the runs left out count as cancelled (skipped), not errors,
    // and total is still every run asked for.
    const verdict = decideVerdict(summary, POLICY);
    expect(verdict.status).toBe('failed');
    expect(verdict.counts).toMatchObject({ total: RUNS, failed: 1, cancelled: RUNS - 1, error: 0 });
    expect(verdict.reasons).toContain(`${RUNS - sent} runs were not started (fail-fast).`);
    expect(events.find((e) => e.type === 'fail-fast')).toMatchObject({ test: { testName: 'Pay by card' } });
    // Each execute never sent is one problem, told with the others once the triggers are over.
    const problems = events.flatMap((e) => (e.type === 'trigger-problems' ? e.problems : []));
    expect(problems).toHaveLength(RUNS - sent);
    expect(problems[0]).toEqual({
      kind: 'Not started: fail-fast (a test had failed)',
      label: 'test test-home',
      id: 'test-home',
      message: 'Not started: fail-fast (a test had failed)',
    });
  });
});
