/**
 * JUnit XML from the report model, built with junit-report-builder 5.
 *
 * Layout (service facts, "JUnit XML that every consumer reads"):
 * - `<testsuites name="Ghost Inspector">`, one `<testsuite>` per suite run, named by suite and variant
 *   (`Checkout [firefox · row 2]`), with `timestamp` (ISO 8601 UTC), `time` (s) and properties `suiteId`,
 *   `suiteResultId`, `browser`, `region`, `viewport`, `dataRow` (zero-based) when known.
 * - One `<testcase>` per test result: `classname` the suite name, `name` the test name plus the variant
 *   label (a ` (2)`, ` (3)` suffix keeps repeated names unique), `time` in seconds (3 decimals).
 * - Failed: `<failure type="StepFailure" message="step #3 click .buy: error">` (type `TestFailure` when no
 *   step failed, e.g. a JavaScript error), text listing every step with its outcome, the console errors and
 *   the result link.
 * - Timed out: `<error type="Timeout">` whatever `failOnTimeout` says (the policy decides the verdict and
 *   the annotation level, not what happened); no result because of an API error: `<error type="Error">`.
 * - Cancelled: `<skipped/>`, the reason in `<system-out>`.
 * - Screenshot comparison failed: under `failOnScreenshotCompare` a `<failure type="ScreenshotComparison">`
 *   (or, when the test failed anyway, a paragraph in its failure text); otherwise no failure, a
 *   `Screenshot comparison failed (not counted as a failure …)` line in `<system-out>` and the property
 *   `screenshotComparison=failed`. The property `screenshotComparison` is always set when a comparison ran.
 * - Flaky (failed, then passed on a retry): a passing test case with the property `flaky=true`, the
 *   property `attempts`, and each failed attempt (link, failing step, error) described in `<system-out>`;
 *   junit-report-builder cannot write `<flakyFailure>`.
 * - `<system-out>`: result link, suite result link, start and end URL, video link, screenshot and comparison
 *   URLs, and `[[ATTACHMENT|path]]` lines for downloaded screenshots.
 * - Test case properties: `browser`, `region`, `viewport`, `resultId`, `suiteResultId`, `state`, ...
 *
 * Valid against the Jenkins xUnit `junit-10.xsd` except for two things junit-report-builder always does or
 * that this layout needs: the `skipped` attribute on `<testsuites>` and `<properties>` inside `<testcase>`.
 * Text from the service is cleaned of XML-invalid characters before it reaches the builder.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import junitReportBuilder from 'junit-report-builder';
import type { Builder, TestCase } from 'junit-report-builder';

import type { Report, ReportSuiteRun, ReportTest } from './model.js';
import { comparisonLine, failureMessage, stepLine, stepSentence } from './phrases.js';
import { cleanText, formatDuration, redactUrl, truncate } from './text.js';

/** The builder instance, whichever way the CommonJS default export arrives (Node, bundler, test runner). */
const rootBuilder: Builder =
  (junitReportBuilder as unknown as { default?: Builder }).default ??
  (junitReportBuilder as unknown as Builder);

/** Longest `message` attribute, in characters. */
const MAX_MESSAGE = 1000;

/**
 * Renders the report as JUnit XML (pure).
 * @param report the report model
 * @returns the XML document (UTF-8 declaration, pretty printed)
 */
export function renderJUnit(report: Report): string {
  const builder = rootBuilder.newBuilder();
  builder.name('Ghost Inspector');
  const usedNames = new Set<string>();
  for (const run of report.runs) {
    const suite = builder.testSuite().name(xmlName(run.name));
    suite.timestamp(run.startedAt).time(seconds(run.durationMs));
    if (run.suiteId) suite.property('suiteId', xmlAttr(run.suiteId));
    if (run.suiteResultId) suite.property('suiteResultId', xmlAttr(run.suiteResultId));
    if (run.variant.browser) suite.property('browser', xmlAttr(run.variant.browser));
    if (run.variant.region) suite.property('region', xmlAttr(run.variant.region));
    if (run.variant.viewport) suite.property('viewport', xmlAttr(run.variant.viewport));
    if (run.variant.startUrl) suite.property('startUrl', xmlAttr(redactUrl(run.variant.startUrl)));
    if (run.variant.dataRow !== undefined) suite.property('dataRow', String(run.variant.dataRow));
    for (const test of run.tests) {
      const testCase = suite.testCase();
      renderTestCase(testCase, run, test, report, uniqueName(usedNames, run, test));
    }
  }
  return builder.build();
}

/**
 * Writes the JUnit XML of a report, creating the folder when needed.
 * @param report the report model
 * @param path file path (relative to the working directory, or absolute)
 * @throws the file system's error when the file cannot be written
 */
export async function writeJUnit(report: Report, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, renderJUnit(report), 'utf8');
}

function uniqueName(used: Set<string>, run: ReportSuiteRun, test: ReportTest): string {
  const base = xmlName(run.variantLabel ? `${test.name} [${run.variantLabel}]` : test.name);
  const classname = xmlName(run.suiteName);
  let name = base;
  for (let n = 2; used.has(`${classname}\u0000${name}`); n += 1) name = `${base} (${n})`;
  used.add(`${classname}\u0000${name}`);
  return name;
}

function renderTestCase(
  tc: TestCase,
  run: ReportSuiteRun,
  test: ReportTest,
  report: Report,
  name: string,
): void {
  tc.className(xmlName(run.suiteName)).name(name).time(seconds(test.durationMs));

  const props: Array<[string, string | undefined]> = [
    ['state', test.state],
    ['browser', test.browser],
    ['region', test.region],
    ['viewport', test.viewport],
    ['resultId', test.resultId ?? undefined],
    ['suiteResultId', run.suiteResultId],
    ['testId', test.testId ?? undefined],
  ];
  if (run.variant.dataRow !== undefined) props.push(['dataRow', String(run.variant.dataRow)]);
  if (test.state === 'flaky') props.push(['flaky', 'true']);
  if (test.attempts.length > 0) props.push(['attempts', String(test.attempts.length + 1)]);
  if (test.screenshotCompare) {
    const c = test.screenshotCompare;
    props.push([
      'screenshotComparison',
      c.passing === true ? 'passed' : c.passing === false ? 'failed' : 'unknown',
    ]);
    if (c.difference !== null) props.push(['screenshotCompareDifference', String(c.difference)]);
  }
  for (const [key, value] of props) if (value) tc.property(key, xmlAttr(value));

  const compareFails = test.screenshotCompareFailed && report.policy.failOnScreenshotCompare;
  const out: string[] = [];

  switch (test.state) {
    case 'failed': {
      const type = test.failingStep ? 'StepFailure' : 'TestFailure';
      const details = failureText(test);
      if (test.screenshotCompareFailed) details.push('', comparisonLine(test));
      tc.failure(xmlAttr(failureMessage(test)), type).stacktrace(xmlCdata(details.join('\n')));
      break;
    }
    case 'timed-out':
      tc.error(
        xmlAttr(test.error ?? 'Timed out: the test result was still running at the deadline.'),
        'Timeout',
        xmlCdata(failureText(test).join('\n')),
      );
      break;
    case 'error':
      tc.error(
        xmlAttr(test.error ?? 'No test result could be had.'),
        'Error',
        xmlCdata(failureText(test).join('\n')),
      );
      break;
    case 'cancelled':
      tc.skipped();
      out.push(`Cancelled${test.error ? `: ${test.error}` : '.'}`);
      break;
    case 'flaky':
      out.push(...flakyLines(test));
      break;
    case 'passed':
      break;
  }
  if (compareFails && test.state !== 'failed' && test.state !== 'error' && test.state !== 'timed-out') {
    tc.failure(xmlAttr(comparisonLine(test)), 'ScreenshotComparison').stacktrace(
      xmlCdata([comparisonLine(test), ...(test.resultUrl ? [`Result: ${test.resultUrl}`] : [])].join('\n')),
    );
  } else if (test.screenshotCompareFailed && !compareFails && test.state !== 'failed') {
    out.push(`${comparisonLine(test)} (not counted as a failure: fail-on-screenshot-compare is off)`);
  }
  out.push(...linkLines(test, run));
  if (test.screenshotCompare && !test.screenshotCompareFailed) out.push(comparisonLine(test));
  if (test.screenshot?.path) out.push(`[[ATTACHMENT|${test.screenshot.path}]]`);
  if (test.screenshotCompare?.path) out.push(`[[ATTACHMENT|${test.screenshotCompare.path}]]`);
  if (out.length > 0) tc.standardOutput(xmlCdata(out.join('\n')));
}

function failureText(test: ReportTest): string[] {
  const lines: string[] = [];
  if (test.failingStep) lines.push(stepSentence(test.failingStep));
  if (test.error) lines.push(test.error);
  if (test.steps.length > 0) {
    lines.push('', 'Steps:');
    for (const s of test.steps) lines.push(stepLine(s));
  }
  if (test.consoleErrors.length > 0) {
    lines.push('', 'JavaScript console errors:');
    for (const c of test.consoleErrors) lines.push(`  ${c.output}${c.url ? ` (${c.url})` : ''}`);
  }
  if (test.resultUrl) lines.push('', `Result: ${test.resultUrl}`);
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

function flakyLines(test: ReportTest): string[] {
  const n = test.attempts.length + 1;
  const lines = [`Flaky: passed on attempt ${n} of ${n} after ${test.attempts.length} failed.`];
  test.attempts.forEach((a, i) => {
    const why = a.failingStep ? stepSentence(a.failingStep) : (a.error ?? 'failed');
    lines.push(`Attempt ${i + 1} (${formatDuration(a.durationMs)}): ${why}`, `  Result: ${a.resultUrl}`);
  });
  return lines;
}

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

/**
 * Text for a CDATA section. xmlbuilder 15 splits only the first `]]>` of a CDATA text; every later one is
 * split here (`]]]]><![CDATA[>`), so the text survives whole.
 */
function xmlCdata(text: string): string {
  const clean = cleanText(text).replace(/\r\n?/g, '\n');
  const first = clean.indexOf(']]>');
  if (first < 0) return clean;
  const head = clean.slice(0, first + 3);
  return head + clean.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>');
}
