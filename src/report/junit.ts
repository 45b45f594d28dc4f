/** JUnit XML from the report model, valid against Jenkins xUnit's `junit-10.xsd` (docs/architecture.md). */
import type { TestCase } from 'junit-report-builder';
import {
  cdataText,
  JUnitReport,
  type JUnitCounts,
  type Rerun,
  type TestCaseExtras,
} from './junit-builder.js';
import type { Report, ReportAttempt, ReportSuiteRun, ReportTest } from './model-types.js';
import {
  attemptReason,
  comparisonLine,
  failureMessage,
  flakySentence,
  sameError,
  stepLine,
  stepSentence,
  withVariant,
} from './phrases.js';
import { formatDuration } from '../common/words.js';
import { redactUrl } from '../api/redact.js';
import { cleanText, truncate } from './text.js';
import { writeTextFile } from './text-file.js';

/** Longest `message` attribute, in characters. */
const MAX_MESSAGE = 1000;

/** Classname of a test run alone: it has no suite run of its own. */
const STANDALONE_CLASSNAME = 'Ghost Inspector';

/** Renders the report as a JUnit XML document (pure; docs/architecture.md). */
export function renderJUnit(report: Report): string {
  return [...junitPieces(report)].join('');
}

/**
 * Writes the JUnit XML of a report to `path`, creating the folder, one suite at a time.
 * @throws the file system's error
 */
export function writeJUnit(report: Report, path: string): Promise<void> {
  return writeTextFile(path, junitPieces(report));
}

/** The JUnit document in pieces: the head, then each suite's text once its test cases are built. */
function* junitPieces(report: Report): Generator<string> {
  const doc = new JUnitReport('Ghost Inspector', junitCounts(report), seconds(report.totals.duration));
  const usedNames = new Set<string>();
  for (const run of report.runs) {
    const suite = doc.testSuite().name(xmlName(run.name));
    suite.timestamp(run.startedAt).time(seconds(run.durationMs));
    if (run.suiteId) suite.property('suiteId', xmlAttr(run.suiteId));
    if (run.suiteResultId) suite.property('suiteResultId', xmlAttr(run.suiteResultId));
    if (run.variant.browser) suite.property('browser', xmlAttr(run.variant.browser));
    if (run.variant.region) suite.property('region', xmlAttr(run.variant.region));
    if (run.variant.viewport) suite.property('viewport', xmlAttr(run.variant.viewport));
    if (run.variant.startUrl) suite.property('startUrl', xmlAttr(redactUrl(run.variant.startUrl)));
    if (run.variant.dataRow !== undefined) suite.property('dataRow', String(run.variant.dataRow));
    for (const test of run.tests) {
      const names = caseNames(usedNames, run, test.name);
      const { testCase, extras } = doc.testCase(suite);
      testCase.className(names.classname).name(names.name).time(seconds(test.durationMs));
      if (run.file) testCase.file(xmlAttr(run.file));
      renderTestCase(testCase, extras, run, test);
    }
    yield* doc.take();
  }
  yield doc.end();
}

/** The element of a test case's state: `<failure>`, `<error>`, `<skipped>` or none. */
type CaseElement = 'failure' | 'error' | 'skipped' | null;

/** Which element a test case gets: the one rule for {@link renderTestCase} and the document's counts. */
function caseElement(test: ReportTest): CaseElement {
  switch (test.state) {
    case 'failed':
      return 'failure';
    case 'timed-out':
    case 'error':
      return 'error';
    case 'cancelled':
      return 'skipped';
    default:
      return comparisonFails(test) ? 'failure' : null;
  }
}

/** The verdict (report model) decides whether a failed comparison fails a test that otherwise passed. */
function comparisonFails(test: ReportTest): boolean {
  return test.failing && (test.state === 'passed' || test.state === 'flaky');
}

/** What the document's test cases count, for its head (written before them). */
function junitCounts(report: Report): JUnitCounts {
  const counts: JUnitCounts = { tests: 0, failures: 0, errors: 0 };
  for (const run of report.runs) {
    for (const test of run.tests) {
      const element = caseElement(test);
      counts.tests += 1;
      if (element === 'failure') counts.failures += 1;
      if (element === 'error') counts.errors += 1;
    }
  }
  return counts;
}

/** `classname` = suite, `name` = test plus the variant once, made unique with ` (2)`, ` (3)`... */
function caseNames(
  used: Set<string>,
  run: ReportSuiteRun,
  testName: string,
): { classname: string; name: string } {
  const classname = xmlName(
    run.kind === 'test' && run.suiteName === testName ? STANDALONE_CLASSNAME : run.suiteName,
  );
  const base = xmlName(withVariant(testName, run.variantLabel));
  let name = base;
  for (let n = 2; used.has(`${classname}\u0000${name}`); n += 1) name = `${base} (${n})`;
  used.add(`${classname}\u0000${name}`);
  return { classname, name };
}

/** Writes the state's element, the earlier attempts and `<system-out>`. */
function renderTestCase(tc: TestCase, extras: TestCaseExtras, run: ReportSuiteRun, test: ReportTest): void {
  extras.reruns.push(...reruns(test));
  const compareFails = comparisonFails(test);
  const out: string[] = [stateLine(test, compareFails)];

  const message = xmlAttr(failureMessage(test));
  switch (caseElement(test)) {
    case 'failure':
      if (test.state === 'failed') {
        const details = failureText(test);
        if (test.screenshotCompareFailed) details.push('', comparisonLine(test));
        tc.failure(message, test.failingStep ? 'StepFailure' : 'TestFailure');
        tc.stacktrace(xmlCdata(details.join('\n')));
      } else {
        const text = [comparisonLine(test), ...(test.resultUrl ? [`Result: ${test.resultUrl}`] : [])];
        tc.failure(message, 'ScreenshotComparison');
        tc.stacktrace(xmlCdata(text.join('\n')));
      }
      break;
    case 'error':
      tc.error(message, errorType(run, test), xmlCdata(failureText(test).join('\n')));
      break;
    case 'skipped':
      tc.skipped();
      extras.skippedMessage = message;
      break;
    case null:
      break;
  }
  if (test.screenshotCompare || test.screenshotCompareFailed) {
    const counted = compareFails || test.state === 'failed' || !test.screenshotCompareFailed;
    const note = counted ? '' : ' (not counted as a failure: fail-on-screenshot-compare is off)';
    out.push(comparisonLine(test) + note);
  }
  out.push(...detailLines(test, run), ...linkLines(test, run));
  if (test.screenshot?.path) out.push(`[[ATTACHMENT|${test.screenshot.path}]]`);
  if (test.screenshotCompare?.path) out.push(`[[ATTACHMENT|${test.screenshotCompare.path}]]`);
  tc.standardOutput(xmlCdata(out.join('\n')));
}

function stateLine(test: ReportTest, compareFails: boolean): string {
  const state = test.state === 'flaky' ? `flaky (${flakySentence(test)})` : test.state;
  const compare = compareFails ? '; failed by its screenshot comparison (fail-on-screenshot-compare)' : '';
  return `State: ${state}${compare}`;
}

function errorType(run: ReportSuiteRun, test: ReportTest): string {
  if (test.state === 'timed-out') return 'Timeout';
  if (run.notStarted) return 'NotStarted';
  if (run.mayHaveStarted) return 'MayHaveStarted';
  return 'Error';
}

/** The failure body: the failing step (or the error) once, every step, console errors, the link. */
function failureText(test: ReportTest): string[] {
  const lines: string[] = [];
  const failing = test.failingStep;
  if (failing) lines.push(stepSentence(failing));
  if (test.error && !(failing && sameError(failing.error, test.error))) lines.push(test.error);
  if (test.steps.length > 0) {
    lines.push('', 'Steps:');
    for (const s of test.steps) {
      // The failing step's error is the first line already: its step line does not repeat it.
      const shown = failing && s.sequence === failing.sequence ? { ...s, error: undefined } : s;
      lines.push(stepLine(shown));
    }
  }
  if (test.consoleErrors.length > 0) {
    lines.push('', 'JavaScript console errors:');
    for (const c of test.consoleErrors) lines.push(`  ${c.output}${c.url ? ` (${c.url})` : ''}`);
  }
  if (test.resultUrl) lines.push('', `Result: ${test.resultUrl}`);
  return lines;
}

/** Earlier attempts as Surefire rerun elements: flaky* when the test passed at last, rerun* otherwise. */
function reruns(test: ReportTest): Rerun[] {
  const total = test.attempts.length + 1;
  return test.attempts.map((a: ReportAttempt, i): Rerun => {
    const why = attemptReason(a);
    return {
      // Always the *Failure element (an attempt without a verdict too): it is the one consumers read.
      element: test.state === 'flaky' ? 'flakyFailure' : 'rerunFailure',
      message: xmlAttr(`Attempt ${i + 1} of ${total}: ${why}`),
      type: a.failingStep ? 'StepFailure' : a.passing === false ? 'TestFailure' : 'Error',
      stackTrace: xmlCdata(
        [why, ...(a.error && a.failingStep && !sameError(a.failingStep.error, a.error) ? [a.error] : [])]
          .concat(`Duration: ${formatDuration(a.durationMs)}`, `Result: ${a.resultUrl}`)
          .join('\n'),
      ),
      systemOut: xmlCdata(`Result: ${a.resultUrl}`),
    };
  });
}

/** Per-test details, as lines: the schema allows no properties in a test case. */
function detailLines(test: ReportTest, run: ReportSuiteRun): string[] {
  const where = [test.browser, test.region, test.viewport].filter(Boolean);
  if (run.variant.dataRow !== undefined) where.push(`row ${run.variant.dataRow + 1}`);
  const lines: string[] = [];
  if (where.length > 0) lines.push(`Run on: ${where.join(' · ')}`);
  if (test.testId) lines.push(`Test id: ${test.testId}`);
  return lines;
}

function linkLines(test: ReportTest, run: ReportSuiteRun): string[] {
  const lines: string[] = [];
  if (test.resultUrl) lines.push(`Result: ${test.resultUrl}`);
  if (run.suiteResultUrl) lines.push(`Suite result: ${run.suiteResultUrl}`);
  if (test.startUrl) lines.push(`Start URL: ${test.startUrl}`);
  if (test.endUrl) lines.push(`End URL: ${test.endUrl}`);
  if (test.videoUrl) lines.push(`Video: ${test.videoUrl}`);
  if (test.screenshot) lines.push(`Screenshot: ${test.screenshot.originalUrl}`);
  return lines;
}

/** Seconds with at most 3 decimals, never negative (the schema's `SUREFIRE_TIME`). */
function seconds(ms: number | null): number {
  return ms === null || !Number.isFinite(ms) || ms < 0 ? 0 : Math.round(ms) / 1000;
}

function xmlAttr(text: string): string {
  return truncate(cleanText(text), MAX_MESSAGE);
}

/** A name on one line: line breaks and tabs become spaces. */
function xmlName(text: string): string {
  return xmlAttr(text.replace(/[\r\n\t]+/g, ' '));
}

/** Text for the library's CDATA sections: cleaned, `\n` line ends, every `]]>` kept whole. */
function xmlCdata(text: string): string {
  return cdataText(cleanText(text).replace(/\r\n?/g, '\n'));
}
