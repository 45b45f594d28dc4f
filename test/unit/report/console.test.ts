/**
 * The console reporter: each engine event becomes the log line(s) the action writes (the end-to-end tests
 * read these texts); the one variant label redacts start URL credentials.
 */
import { describe, expect, it } from 'vitest';
import type { RunLog } from '../../../src/common/log.js';
import { consoleReporter, variantLabel } from '../../../src/report/console.js';
import type { RunEvent } from '../../../src/run/events.js';
import type { SuiteRun } from '../../../src/run/types.js';
import { NOT_STARTED_ERROR } from '../../../src/run/stop/deadline.js';
import { testResult } from '../../support/run-factories.js';

function render(events: RunEvent[]): string[] {
  const lines: string[] = [];
  const log: RunLog = {
    info: (l) => lines.push(l),
    warning: (l) => lines.push(`warning: ${l}`),
    group: (title, body) => lines.push(`group: ${title}`, ...body),
    debug: (l) => lines.push(`debug: ${l}`),
  };
  const report = consoleReporter(log);
  events.forEach(report);
  return lines;
}

describe('console reporter', () => {
  it('renders triggers, problems, retries, timeouts, cancels and heartbeats as the log lines', () => {
    const variant = { browser: 'firefox', dataRow: 2 };
    expect(
      render([
        { type: 'folder-listed', folderId: 'f1', suiteCount: 1 },
        { type: 'folder-failed', folderId: 'f2', message: 'boom' },
        { type: 'run-started', label: 'suite s1', resultIds: ['a', 'b'] },
        { type: 'runs-found', label: 'test t1', resultIds: ['c'] },
        {
          type: 'trigger-problems',
          problems: [
            { kind: 'NETWORK_ERROR', label: 'suite s2', id: 's2', message: 'refused' },
            { kind: 'NETWORK_ERROR', label: 'suite s3', id: 's3', message: 'refused' },
          ],
        },
        {
          type: 'trigger-problems',
          problems: [
            {
              kind: NOT_STARTED_ERROR['fail-fast'],
              label: 'test t7',
              id: 't7',
              message: NOT_STARTED_ERROR['fail-fast'],
            },
            {
              kind: NOT_STARTED_ERROR['fail-fast'],
              label: 'test t8',
              id: 't8',
              message: NOT_STARTED_ERROR['fail-fast'],
            },
          ],
        },
        { type: 'retrying', testName: 'Login', variant, attempt: 2, attempts: 3 },
        { type: 'retry-problem', testName: 'Login', variant, problem: 'not-sent', message: 'nope' },
        {
          type: 'retry-problem',
          testName: 'Login',
          variant: {},
          problem: 'not-found',
          message: 'HTTP 502. The run may have started.',
        },
        { type: 'timed-out', timeoutMs: 45_000 },
        { type: 'cancelling', count: 2, late: false },
        { type: 'cancelling', count: 1, late: true },
        { type: 'cancel-failed', remoteType: 'suite', id: 'sr1', message: 'gone' },
        { type: 'heartbeat', running: 1, finishedTests: 3, elapsedMs: 61_400 },
        { type: 'detail', message: 'poll failed' },
      ]),
    ).toEqual([
      'Folder f1: 1 suite.',
      'warning: Folder f2: boom',
      'Started suite s1: 2 runs (a, b).',
      'Found the run of test t1 after its execute was not answered: c.',
      'warning: Could not start 2 runs (NETWORK_ERROR): s2, s3. First: suite s2: refused',
      'Not started, fail-fast (a test had failed): test t7, test t8.',
      'Re-running failed test Login [firefox · row 3] (attempt 2 of 3).',
      'warning: Could not re-run Login [firefox · row 3]: nope',
      'warning: The re-run of Login was not found: HTTP 502. The run may have started.',
      'warning: Timeout: 45.0 s passed with runs still going; stopping the wait.',
      'warning: Workflow cancelled: cancelling 2 remote runs.',
      'warning: Workflow cancelled: cancelling 1 more remote run started by triggers in flight.',
      'warning: Could not cancel suite result sr1: gone',
      '… 1 run still going, 3 tests finished (61 s).',
      'debug: poll failed',
    ]);
  });

  it('a finished test: one group with its state, name, variant, time, suite and link', () => {
    const run: SuiteRun = {
      kind: 'suite',
      key: 'suite-s-0',
      suiteId: 's',
      suiteName: 'Checkout',
      variant: { startUrl: 'https://user:secret@staging.example.com/' },
      triggeredAt: '2026-01-01T00:00:00.000Z',
      tests: [],
    };
    const result = testResult({ executionTime: 4200 });
    const test = {
      testId: 't',
      testName: 'Pay',
      state: 'failed' as const,
      result,
      attempts: [],
      url: 'https://x/r',
    };
    const lines = render([{ type: 'test-finished', run, test }]);
    expect(lines[0]).toMatch(/^group: ❌ Failed {2}Pay \[https:\/\/.*staging\.example\.com\/\] in 4\.2 s$/);
    expect(lines[0]).not.toContain('secret');
    expect(lines.slice(1)).toEqual(['Suite: Checkout', 'Result: https://x/r']);
  });

  it('variantLabel: the parts that varied, rows from 1; nothing varied gives ""', () => {
    expect(variantLabel({ browser: 'chrome', region: 'eu-west-1', viewport: '1280x800', dataRow: 0 })).toBe(
      'chrome · eu-west-1 · 1280x800 · row 1',
    );
    expect(variantLabel({})).toBe('');
  });
});
