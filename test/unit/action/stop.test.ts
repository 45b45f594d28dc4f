/**
 * Stopping from outside (`src/action/stop.ts`, docs/architecture.md, "Time bounds") on vitest's fake timers:
 * the deadline's backstop and the forced exit after a workflow cancel are real-time timers whatever the
 * action's clock does, so fake timers are their virtual time. The backstop ends the step after the deadline's
 * cancels and listings have had their 6 s and before `timeout-minutes` + 10 s; the forced exit comes after
 * the cancel's 4.5 s and before the runner's SIGTERM, 7.5 s after its SIGINT (GitHub Docs, "Canceling a
 * workflow"). The real-time case against the emulator is `test/e2e/reliability/backstop.test.ts`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { armDeadlineBackstop, listenForWorkflowCancel, type StopDeps } from '../../../src/action/stop.js';
import { RecordingSink } from '../../support/run-action.js';

/** Deps whose signals are sent by `send`; `exits` counts the forced exits. */
function stopDeps() {
  const sink = new RecordingSink();
  let handler: ((signal: NodeJS.Signals) => void) | null = null;
  const state = { exits: 0, listening: false };
  const deps: StopDeps = {
    sink,
    listenForSignals: (h) => {
      handler = h;
      state.listening = true;
      return () => {
        handler = null;
        state.listening = false;
      };
    },
    forceExit: () => (state.exits += 1),
  };
  return { deps, sink, state, send: (signal: NodeJS.Signals) => handler?.(signal) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the deadline backstop', () => {
  it('fails the step and ends the process after the deadline’s cancels, before timeout + 10 s', async () => {
    const { deps, sink, state } = stopDeps();
    armDeadlineBackstop(deps, 3_000);
    await vi.advanceTimersByTimeAsync(3_000 + 6_000);
    expect(state.exits).toBe(0);
    expect(sink.failed).toBe(false);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(state.exits).toBe(1);
    expect(sink.failed).toBe(true);
    expect(sink.stdout).toMatch(
      /::error::The run did not stop at the timeout\. Stopped while reading the inputs; no verdict was reached\./,
    );
  });

  it('disarmed (the engine returned), it never fires', async () => {
    const { deps, sink, state } = stopDeps();
    const disarm = armDeadlineBackstop(deps, 1_000);
    await vi.advanceTimersByTimeAsync(500);
    disarm();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.exits).toBe(0);
    expect(sink.failed).toBe(false);
  });
});

describe('the deadline backstop keeps the process alive', () => {
  it('until it fires or is disarmed: a run waiting on nothing still meets it (real timers)', () => {
    vi.useRealTimers();
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const disarm = armDeadlineBackstop(stopDeps().deps, 60_000);
    expect(timers()).toBe(before + 1);
    disarm();
    expect(timers()).toBe(before);
  });
});

describe('a workflow cancel', () => {
  it('fires the signal with a warning, then forces the exit after the cancels and before the runner’s SIGTERM', async () => {
    const { deps, sink, state, send } = stopDeps();
    const cancel = listenForWorkflowCancel(deps);
    expect(state.listening).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(cancel.signal.aborted).toBe(false);
    expect(state.exits).toBe(0);
    send('SIGTERM');
    expect(cancel.signal.aborted).toBe(true);
    expect(sink.stdout).toMatch(/::warning::Received SIGTERM: cancelling the remote runs\./);
    await vi.advanceTimersByTimeAsync(4_500);
    expect(state.exits).toBe(0);
    expect(sink.failed).toBe(false);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state.exits).toBe(1);
    const said = /::error::Workflow cancelled: .* within ([\d.]+) s of SIGTERM\. Stopped while /.exec(
      sink.stdout,
    );
    // The message names the time it waited, in seconds: within the bounds just seen.
    expect(Number(said?.[1])).toBeGreaterThan(4.5);
    expect(Number(said?.[1])).toBeLessThanOrEqual(7.5);
  });

  it('a job summary that cannot be written does not hold the forced exit past the runner’s SIGTERM', async () => {
    const { deps, state, send } = stopDeps();
    deps.sink.appendSummary = () => new Promise(() => undefined);
    listenForWorkflowCancel(deps);
    send('SIGINT');
    await vi.advanceTimersByTimeAsync(7_499);
    expect(state.exits).toBe(1);
  });

  it('a second signal is ignored: one warning, one forced exit, not re-armed later', async () => {
    const { deps, sink, state, send } = stopDeps();
    listenForWorkflowCancel(deps);
    send('SIGINT');
    await vi.advanceTimersByTimeAsync(4_000);
    send('SIGTERM');
    await vi.advanceTimersByTimeAsync(3_500);
    expect(state.exits).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.exits).toBe(1);
    expect(sink.stdout.match(/::warning::Received/g)).toHaveLength(1);
    expect(sink.stdout).not.toMatch(/SIGTERM/);
  });

  it('dispose stops listening; the forced exit, once armed, stays armed', async () => {
    const { deps, state, send } = stopDeps();
    const cancel = listenForWorkflowCancel(deps);
    send('SIGINT');
    cancel.dispose();
    expect(state.listening).toBe(false);
    await vi.advanceTimersByTimeAsync(7_500);
    expect(state.exits).toBe(1);
  });
});
