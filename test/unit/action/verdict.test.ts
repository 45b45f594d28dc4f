/**
 * The verdict's two ends in the action (`src/action/verdict.ts`, docs/architecture.md): decided once from the
 * inputs (`fail-on-*`, `wait`) and the run, and announced last on the step's log, failing the step with
 * every reason when it does not pass. A workflow cancel under `wait: false` is judged as a run waited for.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceVerdict, decideRunVerdict } from '../../../src/action/verdict.js';
import { readInputs } from '../../../src/inputs/index.js';
import type { RunSummary } from '../../../src/run/types.js';
import { RecordingSink } from '../../support/run-action.js';
import { runnerInputs } from '../../support/runner-inputs.js';
import { runSummary, suiteRun, testRun } from '../../support/run-factories.js';

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), 'gi-verdict-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** The action's inputs from `raw` (names as in action.yml), with an API key and a suite. */
function inputsOf(raw: Record<string, string> = {}) {
  const env = { GITHUB_WORKSPACE: workspace, ...runnerInputs({ 'api-key': 'k', 'suite-ids': 's', ...raw }) };
  return readInputs({ env, workspace });
}

/** Decides and announces; returns the verdict, the log and whether the step failed. */
async function judge(summary: RunSummary, raw: Record<string, string> = {}) {
  const verdict = decideRunVerdict(await inputsOf(raw), summary);
  const sink = new RecordingSink();
  announceVerdict(sink, verdict);
  return { verdict, log: sink.stdout, failed: sink.failed };
}

const started = (n: number) => runSummary(Array.from({ length: n }, () => suiteRun([])));

describe('wait: false', () => {
  it('counts the runs started, in words, and passes', async () => {
    const two = await judge(started(2), { wait: 'false' });
    expect(two.log).toBe('Started 2 runs without waiting (wait: false).\n');
    expect(two.failed).toBe(false);
    expect((await judge(started(1), { wait: 'false' })).log).toBe(
      'Started 1 run without waiting (wait: false).\n',
    );
  });

  it('a run that could not be started is not counted as started, and fails the step', async () => {
    const summary = runSummary([suiteRun([]), suiteRun([], { error: 'HTTP 500' })]);
    const o = await judge(summary, { wait: 'false' });
    expect(o.log).toMatch(
      /^Started 1 run without waiting \(wait: false\)\.\n::error::1 run could not be started: HTTP 500/,
    );
    expect(o.failed).toBe(true);
  });

  it('a workflow cancel is judged as a run waited for; a deadline is not', async () => {
    const cancelled = await judge({ ...started(1), interrupted: 'signal' }, { wait: 'false' });
    expect(cancelled.verdict.waited).toBe(true);
    expect(cancelled.verdict.reasons).toContain('The workflow was cancelled while the tests ran.');
    expect(cancelled.failed).toBe(true);
    const deadline = await judge({ ...started(1), interrupted: 'deadline' }, { wait: 'false' });
    expect(deadline.verdict.waited).toBe(false);
    expect(deadline.failed).toBe(false);
  });
});

describe('a run waited for', () => {
  it('logs every count, and fails with every reason', async () => {
    const summary = runSummary([
      suiteRun([
        testRun('passed'),
        testRun('failed', { passing: false }),
        testRun('timed-out', { passing: null }),
      ]),
    ]);
    const o = await judge(summary);
    expect(o.log.split('\n')[0]).toBe(
      'Verdict: failed — 3 total, 1 passed, 1 failed, 0 flaky, 1 timed out, 0 cancelled, 0 error, ' +
        '0 screenshot comparison(s) failed.',
    );
    expect(o.log).toContain('::error::1 test failed. 1 test did not finish before the timeout.');
    expect(o.failed).toBe(true);
  });

  it('the fail-on inputs are the policy: an empty run and a timeout fail by default, pass when turned off', async () => {
    const empty = runSummary([suiteRun([])]);
    expect((await judge(empty)).failed).toBe(true);
    expect((await judge(empty, { 'fail-on-empty': 'false' })).failed).toBe(false);
    const late = runSummary([suiteRun([testRun('timed-out', { passing: null })])]);
    expect((await judge(late)).failed).toBe(true);
    const lenient = await judge(late, { 'fail-on-timeout': 'false' });
    expect(lenient.failed).toBe(false);
    expect(lenient.log).toMatch(/^Verdict: passed — 1 total/);
  });
});
