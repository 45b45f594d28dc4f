/** Sentences about a test that several renderers share: plain text, escaped by each renderer. */
import { plural } from '../common/words.js';
import type { FailingStep, ReportAttempt, ReportStep, ReportTest } from './model-types.js';

/** `Checkout › Pay [firefox · row 2]`: a name and the label of the variant it ran in, if any. */
export function withVariant(name: string, label: string): string {
  return label ? `${name} [${label}]` : name;
}

/**
 * Why a test is not passed, in one sentence every report writes: the failing step (`Step 3 click .buy: …`),
 * `Timed out: …`, `Cancelled: …`, the test's error, or its failed screenshot comparison; '' for a passed test.
 */
export function failureMessage(test: ReportTest): string {
  const why = test.error;
  switch (test.state) {
    case 'failed':
      if (test.failingStep) return stepSentence(test.failingStep);
      return why ?? 'Test failed (no step failed: see the console errors and the result).';
    case 'error':
      return why ?? 'No test result could be had.';
    case 'timed-out':
      return why && /^timed out\b/i.test(why)
        ? why
        : `Timed out: ${why ?? 'the test result was still running at the deadline.'}`;
    case 'cancelled':
      return test.notStarted && why
        ? why
        : `Cancelled: ${why ?? 'the test result was cancelled before it finished.'}`;
    default:
      return test.screenshotCompareFailed ? comparisonLine(test, false) : '';
  }
}

/** `passed on attempt 3 after 2 failed attempts`: what makes a test flaky. */
export function flakySentence(test: ReportTest): string {
  return `passed on attempt ${test.attempts.length + 1} after ${plural(test.attempts.length, 'failed attempt')}`;
}

/** Why an earlier attempt failed: its failing step, its error, or `Test failed.` / `Ended without a verdict.`. */
export function attemptReason(a: ReportAttempt): string {
  if (a.failingStep) return stepSentence(a.failingStep);
  return a.error ?? (a.passing === false ? 'Test failed.' : 'Ended without a verdict.');
}

/**
 * `Step 3 click .buy: Element not found` (numbered from 1; never `#3`, which GitHub would link to an issue
 * wherever the text is rendered as Markdown).
 */
export function stepSentence(step: FailingStep): string {
  const target = step.target ? ` ${step.target}` : '';
  return `${stepLabel(step)} ${step.command}${target}: ${step.error}`;
}

/**
 * `Step 4`, or for a step imported from a module `Step 4 (Login module, step 2)`: the module by its name, or
 * by its test id when its name could not be read (`Step 4 (module 65ab12, step 2)`; docs/reports.md, "Why a
 * test did not pass"), its step numbered from 1 within the module.
 */
export function stepLabel(step: FailingStep): string {
  const m = step.module;
  const from = m ? ` (${m.name || `module ${m.testId}`}, step ${m.sequence + 1})` : '';
  return `Step ${step.sequence + 1}${from}`;
}

/** A test's state as every report labels it. */
export const STATE_LABEL: Record<ReportTest['state'], string> = {
  passed: '✅ Passed',
  failed: '❌ Failed',
  flaky: '🔁 Flaky',
  'timed-out': '⏱️ Timed out',
  cancelled: '🚫 Cancelled',
  error: '⚠️ Error',
};

const OUTCOME_MARK: Record<ReportStep['outcome'], string> = {
  passed: 'passed ',
  failed: 'FAILED ',
  'failed-optional': 'failed (optional)',
  skipped: 'skipped',
  'not-run': 'not run',
};

/** One line per step: `  Step 3 FAILED  click .buy = "x": error`. */
export function stepLine(s: ReportStep): string {
  const target = s.target ? ` ${s.target}` : '';
  const value = s.value ? ` = "${s.value}"` : '';
  const error = s.error && s.outcome !== 'passed' ? `: ${s.error}` : '';
  return `  Step ${s.sequence + 1} ${OUTCOME_MARK[s.outcome]} ${s.command}${target}${value}${error}`;
}

/** `Screenshot comparison failed: difference 12.5% (threshold 10%); image https://…` (`withImage`). */
export function comparisonLine(test: ReportTest, withImage = true): string {
  const c = test.screenshotCompare;
  if (!c) return test.screenshotCompareFailed ? 'Screenshot comparison failed.' : '';
  const verdict =
    c.passing === true ? 'passed' : c.passing === false ? 'failed' : 'unknown (no baseline yet)';
  const diff = c.difference === null ? 'unknown' : percent(c.difference);
  const image = c.imageUrl && withImage ? `; image ${c.imageUrl}` : '';
  return `Screenshot comparison ${verdict}: difference ${diff} (threshold ${percent(c.threshold)})${image}`;
}

/** `18.4%` from 0.184. */
function percent(fraction: number): string {
  return `${Math.round(fraction * 10000) / 100}%`;
}

/** The same error told twice (the service often repeats the step's error as the result's). */
export function sameError(a: string, b: string): boolean {
  const x = a.trim();
  const y = b.trim();
  return x === y || x.includes(y) || y.includes(x);
}
