/** The report model: one normalized, cleaned picture of a run (ms, ISO 8601 dates), read by every renderer. */
import {
  countResults,
  decideStartedVerdict,
  failsStep,
  testlessRunState,
  type Verdict,
  type VerdictPolicy,
} from '../run/outcome/outcome.js';
import { NOT_STARTED_ERROR } from '../run/stop/deadline.js';
import type { RunSummary, SuiteRun, TestState } from '../run/types.js';
import { buildTest, dateMs, numberOrNull, variantFields } from './model-test.js';
import { variantLabel } from './console.js';
import type { Report, ReportAttachments, ReportSuiteRun, ReportTest, ReportTotals } from './model-types.js';
import { withVariant } from './phrases.js';
import { cleanText } from './text.js';

/**
 * Builds the report model from the run model and the one verdict (docs/architecture.md); a run without any test
 * result gets one stand-in test. Never throws on odd service data.
 */
export function buildReport(
  summary: RunSummary,
  verdict: Verdict,
  attachments: ReportAttachments = new Map(),
): Report {
  const appUrl = summary.appUrl.replace(/\/+$/, '');
  const runs = summary.runs.map((run) => buildSuiteRun(run, appUrl, verdict, attachments));
  const duration = Math.max(0, dateMs(summary.finishedAt) - dateMs(summary.startedAt)) || 0;
  return {
    verdict: verdict.status,
    passing: verdict.passing,
    reasons: [...verdict.reasons],
    waited: verdict.waited,
    policy: { ...verdict.policy },
    appUrl,
    startedAt: summary.startedAt,
    finishedAt: summary.finishedAt,
    ...(summary.interrupted ? { interrupted: summary.interrupted } : {}),
    runs,
    totals: { ...verdict.counts, duration },
  };
}

/** The report of a run the action did not wait for (`wait: false`): the runs asked for, without tests. */
export function buildStartedReport(summary: RunSummary, policy: VerdictPolicy): Report {
  return buildReport(summary, decideStartedVerdict(summary, policy));
}

function buildSuiteRun(
  run: SuiteRun,
  appUrl: string,
  verdict: Verdict,
  attachments: ReportAttachments,
): ReportSuiteRun {
  const suiteName = cleanText(run.suiteName) || cleanText(run.file) || '(unnamed suite)';
  const label = variantLabel(run.variant ?? {});
  const policy = verdict.policy;
  const tests = run.tests.map((t, i) =>
    buildTest(t, { key: `${run.key}#${i}`, suiteName, run, appUrl, policy, attachments }),
  );
  const testless = verdict.waited ? testlessRunState(run) : run.tests.length === 0 ? startedState(run) : null;
  if (testless) tests.push(standIn(run, suiteName, testless, verdict));
  const per = countResults([run], policy);
  const suiteResult = run.suiteResult;
  const suiteResultId = run.suiteResultId ?? suiteResult?._id;
  const durationMs =
    numberOrNull(suiteResult?.executionTime) ??
    (run.endedAt ? Math.max(0, dateMs(run.endedAt) - dateMs(run.triggeredAt)) || null : null);
  const totals: ReportTotals = { ...per, duration: tests.reduce((n, t) => n + (t.durationMs ?? 0), 0) };
  if (!verdict.waited) Object.assign(totals, { total: 1, error: testless ? 1 : 0 });
  return {
    key: run.key,
    kind: run.kind,
    name: withVariant(suiteName, label),
    suiteName,
    suiteId: run.suiteId,
    ...(run.kind === 'file' && run.file ? { file: run.file } : {}),
    variant: { ...run.variant },
    variantLabel: label,
    ...(suiteResultId ? { suiteResultId, suiteResultUrl: `${appUrl}/suite-results/${suiteResultId}` } : {}),
    ...(run.kind !== 'suite' && run.testResultId
      ? { resultUrl: `${appUrl}/results/${run.testResultId}` }
      : {}),
    startedAt: run.triggeredAt,
    ...(run.endedAt ? { endedAt: run.endedAt } : {}),
    durationMs,
    ...(run.error ? { error: cleanText(run.error) } : {}),
    timedOut: Boolean(run.timedOut),
    cancelled: Boolean(run.cancelled),
    ...(run.notStarted ? { notStarted: run.notStarted } : {}),
    ...(run.mayHaveStarted ? { mayHaveStarted: true } : {}),
    tests,
    totals,
  };
}

/** With `wait: false`: a run that could not be started counts as `error`; a started one has no state yet. */
function startedState(run: SuiteRun): TestState | null {
  return run.error || run.notStarted || run.mayHaveStarted ? 'error' : null;
}

/** What a run without any test result is, in words (`could not start`, `no test result`...). */
function testlessPhrase(run: SuiteRun, state: TestState): string {
  if (run.notStarted) return NOT_STARTED_ERROR[run.notStarted].toLowerCase();
  if (run.mayHaveStarted) return 'may have started but could not be found';
  if (state === 'timed-out') return 'no test result before the timeout';
  if (state === 'cancelled') return 'cancelled before any test result';
  if (!run.suiteResultId && !run.testResultId && !run.suiteResult) return 'could not start';
  return 'no test result';
}

function standIn(run: SuiteRun, suiteName: string, state: TestState, verdict: Verdict): ReportTest {
  const phrase = testlessPhrase(run, state);
  const sentence = `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}.`;
  return {
    key: `${run.key}#run`,
    resultId: null,
    testId: null,
    name: phrase,
    title: `${suiteName} (${phrase})`,
    state,
    countedAs: state,
    failing: failsStep(state, verdict.policy),
    ...(run.notStarted ? { notStarted: run.notStarted } : {}),
    ...(run.mayHaveStarted ? { mayHaveStarted: true } : {}),
    durationMs: null,
    error: cleanText(run.error) || sentence,
    steps: [],
    consoleErrors: [],
    screenshotCompareFailed: false,
    attempts: [],
    ...variantFields(run.variant ?? {}),
  };
}

/** Every test of the report with its suite run, in report order. */
export function* allTests(report: Report): Generator<{ run: ReportSuiteRun; test: ReportTest }> {
  for (const run of report.runs) for (const test of run.tests) yield { run, test };
}
