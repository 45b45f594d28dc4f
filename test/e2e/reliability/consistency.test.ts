/**
 * The reports and the verdict must tell the same story: for every shape of a run that ended without a test
 * result (trigger failed, workflow cancel, deadline), the report model's totals (JUnit, summary,
 * results.json) equal the verdict's counts (the `counts` output and the step's result).
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../../src/report/model.js';
import { countResults, decideVerdict } from '../../../src/run/outcome/outcome.js';
import type { RunSummary, SuiteRun } from '../../../src/run/types.js';

const SHAPES: Array<[string, string, Partial<SuiteRun>]> = [
  ['trigger failed', 'error', { error: 'Could not start suite s: HTTP 500' }],
  ['cancelled with the workflow', 'cancelled', { cancelled: true, error: 'Cancelled with the workflow.' }],
  ['cancelled, no reason', 'cancelled', { cancelled: true }],
  ['timed out', 'timed-out', { timedOut: true, error: 'Still running at the timeout (1 min).' }],
  [
    'timed out and cancelled',
    'timed-out',
    { timedOut: true, cancelled: true, error: 'Still running at the timeout (1 min); cancelled.' },
  ],
];

function summaryWith(extra: Partial<SuiteRun>): RunSummary {
  const run: SuiteRun = {
    kind: 'suite',
    key: 'suite-s-0',
    suiteId: 's',
    suiteName: 'Suite s',
    variant: {},
    suiteResultId: 'sr1',
    triggeredAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:02.000Z',
    tests: [],
    ...extra,
  };
  return {
    runs: [run],
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:03.000Z',
    appUrl: 'https://app.ghostinspector.com',
  };
}

describe('reports agree with the verdict on runs without test results', () => {
  it.each(SHAPES)('%s: one test in state %s in both', (_name, state, extra) => {
    const summary = summaryWith(extra);
    const counts = countResults(summary.runs);
    const report = buildReport(
      summary,
      decideVerdict(summary, { failOnScreenshotCompare: false, failOnTimeout: true, failOnEmpty: false }),
    );
    expect(report.runs[0]!.tests.map((t) => t.state)).toEqual([state]);
    expect({
      total: report.totals.total,
      cancelled: report.totals.cancelled,
      error: report.totals.error,
      timedOut: report.totals.timedOut,
    }).toEqual({
      total: counts.total,
      cancelled: counts.cancelled,
      error: counts.error,
      timedOut: counts.timedOut,
    });
  });
});
