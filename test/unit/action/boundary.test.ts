/**
 * The process boundary of the main step (`src/action/boundary.ts`, docs/architecture.md, "The process
 * boundary"): every end other than `run()` returning with a passing verdict fails the step with an error
 * saying what was left unfinished, after the job summary says so. Process events come from an event emitter;
 * waits run on vitest's fake timers. The bundle's case (a never-settling wait, the process's exit code) is
 * `test/e2e/reliability/boundary.test.ts`.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  endUnfinished,
  exitCodeAfterRun,
  guardProcess,
  StepProgress,
  type ProcessEvents,
} from '../../../src/action/boundary.js';
import { createRedactor } from '../../../src/api/redact.js';
import { DEFAULT_TITLE } from '../../../src/report/summary.js';
import { RecordingSink } from '../../support/run-action.js';

/** A step's progress while running the tests: one test result and one suite result followed. */
function runningTests(): StepProgress {
  const progress = new StepProgress();
  progress.doing = 'running the tests';
  progress.summary = { title: 'Nightly <shop>', enabled: true };
  progress.onRemote({ type: 'test', id: 'tr-1', active: true });
  progress.onRemote({ type: 'suite', id: 'sr-2', active: true });
  progress.onRemote({ type: 'test', id: 'tr-3', active: true });
  progress.onRemote({ type: 'test', id: 'tr-3', active: false });
  return progress;
}

function world(progress = runningTests(), sink = new RecordingSink()) {
  const state = { exits: 0 };
  return { sink, progress, state, end: { sink, progress, exit: () => (state.exits += 1) } };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('endUnfinished', () => {
  it('fails the step naming the cause, the step and the runs still followed; the summary says it; then exits', async () => {
    const { sink, state, end } = world();
    endUnfinished(end, 'The run did not stop at the timeout');
    await vi.advanceTimersByTimeAsync(0);
    expect(state.exits).toBe(1);
    expect(sink.failed).toBe(true);
    const message =
      'The run did not stop at the timeout. Stopped while running the tests; 2 runs still followed ' +
      '(test result tr-1, suite result sr-2); no verdict was reached.';
    expect(sink.stdout).toContain(`::error::${message}\n`);
    expect(sink.summary).toBe(`## ❌ Nightly &lt;shop&gt;: did not finish\n\n${message}\n`);
  });

  it('before the inputs are read: the default title, the summary written, no verdict', async () => {
    const { sink, end } = world(new StepProgress());
    endUnfinished(end, 'Cause');
    await vi.advanceTimersByTimeAsync(0);
    const message = 'Cause. Stopped while reading the inputs; no verdict was reached.';
    expect(sink.summary).toBe(`## ❌ ${DEFAULT_TITLE}: did not finish\n\n${message}\n`);
  });

  it('only the first end speaks and exits', async () => {
    const { sink, state, end } = world();
    endUnfinished(end, 'First');
    endUnfinished(end, 'Second');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.exits).toBe(1);
    expect(sink.stdout).not.toContain('Second');
  });

  it('names five runs still followed and counts the rest; once the verdict is written, says so', async () => {
    const named = [1, 2, 3, 4, 5].map((i) => `test result tr-${i}`).join(', ');
    for (const [runs, listed] of [
      [5, named],
      [7, `${named}, …`],
    ] as const) {
      const progress = new StepProgress();
      progress.doing = 'writing the reports';
      progress.passed = false;
      for (let i = 1; i <= runs; i += 1) progress.onRemote({ type: 'test', id: `tr-${i}`, active: true });
      const { sink, end } = world(progress);
      endUnfinished(end, 'Cause');
      await vi.advanceTimersByTimeAsync(0);
      expect(sink.stdout).toContain(
        `::error::Cause. Stopped while writing the reports; ${runs} runs still followed (${listed}); the verdict was written.\n`,
      );
    }
  });

  it('redacts the message with the inputs’ secrets', async () => {
    const { sink, progress, end } = world();
    progress.redact = createRedactor(['s3cret-key']);
    endUnfinished(end, 'Uncaught error: GET https://api.test/v1/?apiKey=s3cret-key failed for s3cret-key');
    await vi.advanceTimersByTimeAsync(0);
    expect(sink.stdout + sink.summary).not.toContain('s3cret-key');
    expect(sink.stdout).toContain('apiKey=*** failed for ***');
  });

  it('writes no second summary once the reports are written, nor one with summary: false', async () => {
    for (const change of [
      (p: StepProgress) => (p.reported = true),
      (p: StepProgress) => (p.summary = { title: 'x', enabled: false }),
    ]) {
      const { sink, progress, state, end } = world();
      change(progress);
      endUnfinished(end, 'Cause');
      await vi.advanceTimersByTimeAsync(0);
      expect(state.exits).toBe(1);
      expect(sink.summary).toBe('');
    }
  });

  it('waits at most 2 s for a summary that never gets written', async () => {
    const sink = new (class extends RecordingSink {
      override appendSummary(): Promise<void> {
        return new Promise(() => undefined);
      }
    })();
    const { state, end } = world(runningTests(), sink);
    endUnfinished(end, 'Cause');
    await vi.advanceTimersByTimeAsync(1_999);
    expect(state.exits).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.exits).toBe(1);
  });
});

describe('guardProcess', () => {
  it.each([
    [
      'beforeExit',
      undefined,
      /::error::Nothing was left to wait for\. Stopped while running the tests; 2 runs/,
    ],
    [
      'uncaughtException',
      new Error('boom'),
      /::error::Uncaught error: boom\. Stopped while running the tests/,
    ],
    ['unhandledRejection', 'nope', /::error::Unhandled rejection: nope\. Stopped while running the tests/],
  ])('%s fails the step with what was left unfinished, and exits', async (event, payload, said) => {
    const { sink, state, end } = world();
    const events = new EventEmitter();
    guardProcess(events as unknown as ProcessEvents, end);
    events.emit(event, payload);
    await vi.advanceTimersByTimeAsync(0);
    expect(sink.stdout).toMatch(said);
    expect(sink.summary).toContain('did not finish');
    expect(state.exits).toBe(1);
  });
});

describe('exitCodeAfterRun', () => {
  it('0 only with a verdict written that passed and nothing failed', () => {
    const passed = new StepProgress();
    passed.passed = true;
    expect(exitCodeAfterRun(passed, new RecordingSink(), undefined)).toBe(0);
    expect(exitCodeAfterRun(passed, new RecordingSink(), 1)).toBe(1);
    const failed = new StepProgress();
    failed.passed = false;
    const failedSink = new RecordingSink();
    expect(exitCodeAfterRun(failed, failedSink, undefined)).toBe(1);
    // The failing verdict speaks for itself: no second error.
    expect(failedSink.stdout).toBe('');
  });

  it('run() returned without a verdict and without failing the step: it fails, saying where it was', () => {
    const sink = new RecordingSink();
    expect(exitCodeAfterRun(runningTests(), sink, undefined)).toBe(1);
    expect(sink.stdout).toMatch(/::error::The action ended while running the tests; 2 runs still followed/);
    const inputError = new RecordingSink();
    expect(exitCodeAfterRun(new StepProgress(), inputError, 1)).toBe(1);
    expect(inputError.stdout).toBe('');
  });
});
