import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { renderAnnotations } from '../../../src/report/annotations.js';
import { renderJUnit, writeJUnit } from '../../../src/report/junit.js';
import { allTests } from '../../../src/report/model.js';
import { cleanText } from '../../../src/report/text.js';
import { consumerCounts, schemaErrors, xpath } from '../../support/junit.js';
import type { SuiteRun } from '../../../src/run/types.js';
import { expectedConsumerCounts } from '../../support/junit.js';
import { Fixtures, largeSummary, suiteRun, summaryOf, type TestSpec } from './fixtures.js';
import { HOSTILE, reportOf, SCENARIOS } from './scenarios.js';

const tmp = mkdtempSync(join(tmpdir(), 'junit-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function render(name: string, policy?: { failOnScreenshotCompare: boolean; failOnTimeout: boolean }) {
  const s = SCENARIOS[name]!();
  return renderJUnit(reportOf(s.summary, policy ?? s.policy, s.attachments));
}

/** A report of hand-made runs (fixtures shaped like the service's answers). */
function reportOfRuns(runs: SuiteRun[], policy = { failOnScreenshotCompare: false, failOnTimeout: true }) {
  return reportOf(summaryOf(runs), policy);
}

const STEP_ERROR = 'Element ".confirmation" not found within 15000 ms';

function failingSteps(): TestSpec['steps'] {
  return [
    { command: 'open', target: '', value: 'https://shop.example.com/', passing: true },
    { command: 'assertTextPresent', target: '.confirmation', passing: false, error: STEP_ERROR },
  ];
}

describe('renderJUnit', () => {
  it('names the repository test file of a test-files run: file on the test case and on its annotation', () => {
    const fx = new Fixtures();
    const base = suiteRun(fx, {
      key: 'file-1',
      suiteId: '5d0000000000000000000001',
      suiteName: 'tests/checkout.side',
      suiteResultId: '6e0000000000000000000001',
      tests: [{ name: 'Pay', outcome: 'failed', steps: failingSteps(), errorDetails: STEP_ERROR }],
    });
    const run: SuiteRun = { ...base, kind: 'file', file: 'tests/checkout.side', suiteId: null };
    const report = reportOfRuns([run]);
    const xml = renderJUnit(report);
    expect(xpath(xml, 'string(//testcase[1]/@file)')).toBe('tests/checkout.side');
    expect(schemaErrors(xml)).toBe('');
    expect(schemaErrors(xml.replace('file="tests/', 'file="/abs/'))).toContain('not relative');
    expect(renderAnnotations(report)[0]).toMatchObject({ level: 'error', file: 'tests/checkout.side' });
    // Runs of stored suites name no file.
    expect(renderJUnit(reportOfRuns([base]))).not.toContain(' file=');
    expect(renderAnnotations(reportOfRuns([base]))[0]).not.toHaveProperty('file');
  });

  it('writes one testsuite per suite run and unique test case names', () => {
    const xml = render('variants');
    const names = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    expect(names).toHaveLength(12);
    expect(new Set(names).size).toBe(12);
    expect([...xml.matchAll(/<testsuite /g)]).toHaveLength(4);
    expect(xml).toContain('name="Menu [chrome · us-east-1 · 375x667]"');
    expect(xml).toContain('name="Menu [chrome · us-east-1 · 375x667] (2)"');
  });

  it('every scenario is valid against the junit-10 schema as it is', () => {
    for (const name of Object.keys(SCENARIOS)) expect(schemaErrors(render(name)), name).toBe('');
  });

  it('maps states: failure, error (Timeout / Error), skipped with the reason', () => {
    const failures = render('failures');
    expect(failures).toContain(
      '<failure message="Step 5 assertTextPresent .confirmation: Element &quot;.confirmation&quot; not found within 15000 ms" type="StepFailure">',
    );
    expect(failures).toContain('type="TestFailure"');
    const timedOut = render('timed-out');
    expect(timedOut).toMatch(/<error message="Timed out: Still running[^"]*" type="Timeout">/);
    expect(timedOut).toMatch(/<error message="Execute failed[^"]*" type="Error">/);
    const cancelled = render('cancelled');
    expect(cancelled).toContain(
      '<skipped message="Cancelled: The workflow was cancelled; the test result was cancelled remotely."/>',
    );
    expect(cancelled).toContain(
      '<skipped message="Cancelled: the test result was cancelled before it finished."/>',
    );
    expect(cancelled).not.toContain('<skipped/>');
  });

  it('<testsuites>: time is the action wall time (not the sum), no skipped attribute', () => {
    // summaryOf: 09:59:58.000 to 10:02:31.500; the suite runs' own times add up to something else.
    const xml = render('variants');
    const root = /<testsuites [^>]*>/.exec(xml)![0];
    expect(root).toContain('time="153.5"');
    expect(root).not.toContain('skipped=');
    const sum = [...xml.matchAll(/<testsuite [^>]*time="([\d.]+)"/g)].reduce((t, m) => t + Number(m[1]), 0);
    expect(sum).not.toBe(153.5);
  });

  it('prints the failing step’s error once in the failure body', () => {
    const fx = new Fixtures();
    // The service repeats the failing step's error as the result's error details.
    const run = suiteRun(fx, {
      key: 'suite-1',
      suiteId: '5d0000000000000000000001',
      suiteName: 'Checkout',
      suiteResultId: '6e0000000000000000000001',
      tests: [{ name: 'Pay', outcome: 'failed', steps: failingSteps(), errorDetails: STEP_ERROR }],
    });
    const xml = renderJUnit(reportOfRuns([run]));
    const body = xpath(xml, 'string(//testcase[1]/failure)');
    expect(body.split(STEP_ERROR).length - 1).toBe(1);
    expect(body).toMatch(/^Step 2 assertTextPresent \.confirmation: Element/);
    expect(body).toContain('Step 2 FAILED  assertTextPresent .confirmation\n');
  });

  it('a failed screenshot comparison fails the test case exactly when the verdict says so', () => {
    const strict = render('failures', { failOnScreenshotCompare: true, failOnTimeout: true });
    const lenient = render('failures', { failOnScreenshotCompare: false, failOnTimeout: true });
    const sel = '//testcase[@name="Visual check of the basket"]';
    expect(xpath(strict, `string(${sel}/failure/@type)`)).toBe('ScreenshotComparison');
    expect(xpath(strict, `string(${sel}/system-out)`)).toContain(
      'State: passed; failed by its screenshot comparison (fail-on-screenshot-compare)',
    );
    expect(xpath(lenient, `count(${sel}/failure)`)).toBe('0');
    expect(xpath(lenient, `string(${sel}/system-out)`)).toContain(
      'Screenshot comparison failed: difference 18.4% (threshold 10%)',
    );
    expect(strict).toMatch(/<testsuites [^>]*failures="3"/);
    expect(lenient).toMatch(/<testsuites [^>]*failures="2"/);
    // The failing tests of the report model are exactly the failed test cases a consumer sees.
    for (const policy of [true, false]) {
      const s = SCENARIOS.failures!();
      const report = reportOf(s.summary, { failOnScreenshotCompare: policy, failOnTimeout: true });
      const failing = report.runs.flatMap((r) => r.tests).filter((t) => t.failing).length;
      expect(consumerCounts(renderJUnit(report)).failed).toBe(failing);
    }
  });

  it('shows a flaky test as passing with a <flakyFailure> per failed attempt', () => {
    const xml = render('flaky');
    const sel = '//testcase[@name="Search suggestions"]';
    expect(xpath(xml, `count(${sel}/failure | ${sel}/error)`)).toBe('0');
    expect(xpath(xml, `count(${sel}/flakyFailure)`)).toBe('1');
    expect(xpath(xml, `string(${sel}/flakyFailure/@message)`)).toBe(
      'Attempt 1 of 2: Step 3 assertElementPresent .suggestions li: Element ".suggestions li" not found within 15000 ms',
    );
    expect(xpath(xml, `string(${sel}/flakyFailure/stackTrace)`)).toMatch(
      /Duration: 15\.9 s\nResult: https:\/\/app\.ghostinspector\.com\/results\/\w+$/,
    );
    expect(xpath(xml, `string(${sel}/system-out)`)).toContain(
      'State: flaky (passed on attempt 2 after 1 failed attempt)',
    );
    expect(consumerCounts(xml)).toMatchObject({ tests: 3, passed: 3, failed: 0, flaky: 1, retries: 1 });
  });

  it('a test that failed every attempt: <failure> plus a <rerunFailure> per earlier one', () => {
    const fx = new Fixtures();
    const attempt = { name: 'Pay', outcome: 'failed' as const, steps: failingSteps() };
    const run = suiteRun(fx, {
      key: 'suite-1',
      suiteId: '5d0000000000000000000001',
      suiteName: 'Checkout',
      suiteResultId: '6e0000000000000000000001',
      tests: [{ ...attempt, attempts: [attempt, attempt], state: 'failed' }],
    });
    const xml = renderJUnit(reportOfRuns([run]));
    expect(schemaErrors(xml)).toBe('');
    expect(xpath(xml, 'count(//testcase/failure)')).toBe('1');
    expect(xpath(xml, 'count(//testcase/rerunFailure)')).toBe('2');
    expect(xpath(xml, 'string(//testcase/rerunFailure[2]/@message)')).toMatch(/^Attempt 2 of 3: Step 2/);
    expect(consumerCounts(xml)).toMatchObject({ tests: 1, failed: 1, flaky: 0, reruns: 2 });
  });

  it('keeps per-test details out of <testcase> properties: system-out lines instead', () => {
    const xml = render('failures');
    expect(xpath(xml, 'count(//testcase/properties)')).toBe('0');
    expect(xpath(xml, 'count(/testsuites/testsuite[1]/properties/property[@name="suiteResultId"])')).toBe(
      '1',
    );
    const out = xpath(xml, 'string(//testcase[@name="Visual check of the basket"]/system-out)');
    expect(out).toContain('[[ATTACHMENT|ghost-inspector/Checkout/Visual-check.png]]');
    expect(out).toContain('[[ATTACHMENT|ghost-inspector/Checkout/Visual-check.comparison.png]]');
    for (const label of ['State: passed', 'Run on: chrome · us-east-1 · 1024x768', 'Test id: ', 'Result: ']) {
      expect(out).toContain(label);
    }
    for (const label of ['Suite result: ', 'Start URL: ', 'End URL: ', 'Video: '])
      expect(out).toContain(label);
  });

  it('names a test run alone by itself once: classname Ghost Inspector, no "x › x"', () => {
    const fx = new Fixtures();
    const base = suiteRun(fx, {
      key: 'test-1',
      suiteId: '5d0000000000000000000001',
      suiteName: 'Pay by card',
      suiteResultId: '6e0000000000000000000001',
      variant: { browser: 'firefox' },
      tests: [{ name: 'Pay by card', outcome: 'passed' }],
    });
    const { suiteResultId: _drop, suiteResult: _drop2, ...rest } = base;
    const standalone: SuiteRun = { ...rest, kind: 'test', testId: 'test-pay' };
    const never: SuiteRun = {
      kind: 'test',
      key: 'test-2',
      suiteId: null,
      suiteName: 'Test test-refund',
      testId: 'test-refund',
      variant: {},
      triggeredAt: fx.at(),
      tests: [],
      error: 'Could not start test test-refund: HTTP 500.',
    };
    const xml = renderJUnit(reportOfRuns([standalone, never]));
    expect(xml).toContain('<testcase classname="Ghost Inspector" name="Pay by card [firefox]"');
    // The run that could not start: named in words, never "x › x" (classname and name the same).
    const cases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)];
    expect(cases).toHaveLength(2);
    for (const [, classname, name] of cases) expect(name).not.toBe(classname);
    expect(xml).not.toContain('(suite run)');
  });

  it('runs never started or not found after their trigger are error test cases with the reason', () => {
    const fx = new Fixtures();
    const pending = (key: string, extra: Partial<SuiteRun>): SuiteRun => ({
      kind: 'suite',
      key,
      suiteId: '5d00000000000000000000aa',
      suiteName: `Suite ${key}`,
      variant: {},
      triggeredAt: fx.at(),
      tests: [],
      ...extra,
    });
    const runs = [
      pending('a', { notStarted: 'deadline', error: 'Not started before the timeout.' }),
      pending('b', { notStarted: 'signal', error: 'Not started before the workflow was cancelled.' }),
      pending('c', { mayHaveStarted: true, error: 'May have started: no run found after the trigger.' }),
    ];
    const xml = renderJUnit(reportOfRuns(runs));
    expect(schemaErrors(xml)).toBe('');
    expect(xpath(xml, 'string(//testsuite[1]/testcase/error/@type)')).toBe('NotStarted');
    expect(xpath(xml, 'string(//testsuite[1]/testcase/error/@message)')).toBe(
      'Not started before the timeout.',
    );
    expect(xpath(xml, 'string(//testsuite[2]/testcase/error/@message)')).toBe(
      'Not started before the workflow was cancelled.',
    );
    expect(xpath(xml, 'string(//testsuite[3]/testcase/error/@type)')).toBe('MayHaveStarted');
    // Named in words (the model's stand-in name, e.g. "not started before the timeout"), not "(suite run)".
    expect(xpath(xml, 'string(//testsuite[1]/testcase/@name)')).toMatch(
      /^(Suite run|not started before the timeout)$/,
    );
    expect(consumerCounts(xml)).toMatchObject({ tests: 3, failed: 3, errors: 3 });
  });

  it('consumers count what the report counts, in every scenario', () => {
    for (const name of Object.keys(SCENARIOS)) {
      const s = SCENARIOS[name]!();
      const report = reportOf(s.summary, s.policy, s.attachments);
      expect(consumerCounts(renderJUnit(report)), name).toMatchObject(
        expectedConsumerCounts(
          report.totals,
          [...allTests(report)].map((x) => x.test),
        ),
      );
    }
  });

  it('keeps hostile service text whole and well-formed (CDATA ends, controls, surrogates)', () => {
    const xml = render('hostile-text');
    expect(schemaErrors(xml)).toBe('');
    const failure = xpath(xml, 'string(//testcase[1]/failure)');
    const expected = cleanText(HOSTILE).replace(/\r\n?/g, '\n');
    expect(failure).toContain(`Error ${expected}`);
    // Step sentence (command, target, error), step line (command, target), console error; the test's
    // error repeats the step's and is left out.
    expect(failure.split(expected).length - 1).toBe(6);
    expect(failure.split(']]>').length - 1).toBe(12);
    expect(failure).not.toContain('hunter2');
  });

  it('stays valid for a large run (2,000 results)', () => {
    const report = reportOf(largeSummary(2000), { failOnScreenshotCompare: false, failOnTimeout: true });
    const xml = renderJUnit(report);
    expect(schemaErrors(xml)).toBe('');
    expect(xpath(xml, 'count(//testcase)')).toBe('2000');
    expect(xpath(xml, 'string(/testsuites/@failures)')).toBe('200');
    expect(consumerCounts(xml)).toMatchObject(
      expectedConsumerCounts(
        report.totals,
        [...allTests(report)].map((x) => x.test),
      ),
    );
  });
});

describe('writeJUnit', () => {
  it('creates the folder and writes the XML', async () => {
    const s = SCENARIOS['all-passing']!();
    const report = reportOf(s.summary, s.policy);
    const path = join(tmp, 'nested', 'deeper', 'junit.xml');
    await writeJUnit(report, path);
    expect(readFileSync(path, 'utf8')).toBe(renderJUnit(report));
  });
});
