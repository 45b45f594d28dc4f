import { describe, expect, it } from 'vitest';

import { variantLabel } from '../../../src/report/console.js';
import { renderAnnotations } from '../../../src/report/annotations.js';
import { renderJUnit } from '../../../src/report/junit.js';
import { failingStepOf } from '../../../src/report/model-test.js';
import { withModuleNames } from '../../../src/report/module-names.js';
import { failureMessage, stepLabel } from '../../../src/report/phrases.js';
import { renderFailures } from '../../../src/report/failure-issue.js';
import { renderPullRequestComment } from '../../../src/report/pr-comment.js';
import { renderSummary } from '../../../src/report/summary.js';
import { redactUrl } from '../../../src/api/redact.js';
import { cleanText, escapeInline } from '../../../src/report/text.js';
import { APP_URL, Fixtures, summaryOf, suiteRun } from './fixtures.js';
import { HOSTILE, reportOf, SCENARIOS } from './scenarios.js';

const lenient = { failOnScreenshotCompare: false, failOnTimeout: false };
const strict = { failOnScreenshotCompare: true, failOnTimeout: true };

describe('buildReport', () => {
  it('counts every state and finds the first failing required step', () => {
    const s = SCENARIOS.failures!();
    const report = reportOf(s.summary, strict, s.attachments);
    // Under fail-on-screenshot-compare the passed test whose comparison failed counts as failed.
    expect(report.totals).toMatchObject({ passed: 1, failed: 3, total: 4, screenshotCompareFailed: 1 });
    expect(reportOf(s.summary, { ...strict, failOnScreenshotCompare: false }).totals).toMatchObject({
      passed: 2,
      failed: 2,
      screenshotCompareFailed: 1,
    });
    expect(report.verdict).toBe('failed');
    const pay = report.runs[0]!.tests[1]!;
    // Step 4 failed but is optional: the first failing required step is #5 (sequence 4).
    expect(pay.failingStep).toEqual({
      sequence: 4,
      command: 'assertTextPresent',
      target: '.confirmation',
      error: 'Element ".confirmation" not found within 15000 ms',
    });
    expect(pay.steps.map((st) => st.outcome)).toEqual([
      'passed',
      'passed',
      'passed',
      'failed-optional',
      'failed',
      'not-run',
    ]);
    expect(pay.steps[2]!.target).toBe('button.pay || #pay');
    expect(pay.consoleErrors.map((c) => c.output)).toEqual([
      'Uncaught TypeError: Cannot read properties of null (reading "submit")',
    ]);
    expect(pay.resultUrl).toBe(`${APP_URL}/results/${pay.resultId}`);
    expect(report.runs[0]!.suiteResultUrl).toBe(`${APP_URL}/suite-results/6e0000000000000000000002`);
    expect(pay.durationMs).toBe(18_750);
    expect(pay.screenshot?.path).toBe('ghost-inspector/Checkout/Pay-with-card.png');
    expect(pay.videoUrl).toMatch(/^https:\/\/.*\.mp4$/);
  });

  it('masks private step values', () => {
    const s = SCENARIOS.failures!();
    const report = reportOf(s.summary, strict);
    const assign = report.runs[0]!.tests[1]!.steps[1]!;
    expect(assign.value).toBe('********');
    expect(JSON.stringify(report)).not.toContain('4111111111111111');
  });

  it('applies the policy to screenshot comparisons and timeouts', () => {
    const failures = SCENARIOS.failures!();
    const visual = (p: typeof strict) => reportOf(failures.summary, p).runs[0]!.tests[2]!;
    expect(visual(strict)).toMatchObject({ state: 'passed', screenshotCompareFailed: true, failing: true });
    expect(visual(lenient)).toMatchObject({ state: 'passed', screenshotCompareFailed: true, failing: false });
    expect(visual(strict).screenshotCompare).toMatchObject({
      difference: 0.184,
      threshold: 0.1,
      passing: false,
    });

    const timedOut = SCENARIOS['timed-out']!();
    const endless = (p: typeof strict) => reportOf(timedOut.summary, p).runs[0]!.tests[1]!;
    expect(endless(strict).failing).toBe(true);
    expect(endless(lenient).failing).toBe(false);
  });

  it('turns a suite run without test results into one test that says why in words', () => {
    const s = SCENARIOS['timed-out']!();
    const report = reportOf(s.summary, strict);
    const payments = report.runs[2]!;
    expect(payments.tests).toHaveLength(1);
    expect(payments.tests[0]).toMatchObject({
      name: 'could not start',
      title: 'Payments (could not start)',
      state: 'error',
      failing: true,
      error: 'Execute failed: VALIDATION_ERROR "Invalid region: mars-north-1".',
    });
    expect(report.totals).toMatchObject({ passed: 1, timedOut: 1, error: 2, total: 4 });
    expect(report.interrupted).toBe('deadline');
  });

  it('names runs never started, or not found after an uncertain trigger, and counts them as error', () => {
    const s = SCENARIOS['timed-out']!();
    const [first] = s.summary.runs;
    const never = { ...first!, key: 'n', tests: [], suiteResultId: undefined, suiteResult: undefined };
    const runs = [
      { ...never, key: 'a', notStarted: 'deadline' as const, error: undefined },
      { ...never, key: 'b', notStarted: 'signal' as const, error: undefined },
      { ...never, key: 'c', mayHaveStarted: true, error: undefined },
    ];
    const report = reportOf({ ...s.summary, runs }, lenient);
    expect(report.runs.map((r) => r.tests[0]!.name)).toEqual([
      'not started before the timeout',
      'not started before the workflow was cancelled',
      'may have started but could not be found',
    ]);
    expect(report.runs.every((r) => r.tests[0]!.state === 'error' && r.tests[0]!.failing)).toBe(true);
    expect(report.totals).toMatchObject({ total: 3, error: 3 });
    expect(report.passing).toBe(false);
    expect(report.reasons).toEqual([
      '2 runs were never started.',
      '1 run may have started but could not be found.',
    ]);
  });

  it('titles a test run on its own by its name, a suite test as suite › test', () => {
    const s = SCENARIOS.failures!();
    const report = reportOf(s.summary, lenient);
    expect(report.runs[0]!.tests[0]!.title).toBe(
      `${report.runs[0]!.suiteName} › ${report.runs[0]!.tests[0]!.name}`,
    );
    const single = { ...s.summary.runs[0]!, kind: 'test' as const, tests: [s.summary.runs[0]!.tests[0]!] };
    single.suiteName = single.tests[0]!.testName;
    const alone = reportOf({ ...s.summary, runs: [single] }, lenient);
    expect(alone.runs[0]!.tests[0]!.title).toBe(single.tests[0]!.testName);
  });

  it('gives the verdict "cancelled" when nothing failed but tests were cancelled', () => {
    const s = SCENARIOS.cancelled!();
    const report = reportOf(s.summary, strict);
    expect(report.verdict).toBe('cancelled');
    expect(report.totals).toMatchObject({ passed: 1, cancelled: 2 });
  });

  it('keeps earlier attempts of a flaky test', () => {
    const s = SCENARIOS.flaky!();
    const report = reportOf(s.summary, lenient);
    const flaky = report.runs[0]!.tests[0]!;
    expect(flaky.state).toBe('flaky');
    expect(flaky.failing).toBe(false);
    expect(flaky.attempts).toHaveLength(1);
    expect(flaky.attempts[0]).toMatchObject({
      passing: false,
      failingStep: { command: 'assertElementPresent' },
    });
    expect(report.verdict).toBe('passed');
  });

  it('names suite runs by suite and variant', () => {
    expect(variantLabel({ browser: 'firefox', region: 'eu-west-1', viewport: '1280x800', dataRow: 2 })).toBe(
      'firefox · eu-west-1 · 1280x800 · row 3',
    );
    expect(variantLabel({})).toBe('');
    const s = SCENARIOS['data-driven']!();
    const report = reportOf(s.summary, lenient);
    expect(report.runs.map((r) => r.name)).toEqual(['Sign-up [row 1]', 'Sign-up [row 2]', 'Sign-up [row 3]']);
  });

  it('cleans service text and removes passwords from URLs', () => {
    const s = SCENARIOS['hostile-text']!();
    const report = reportOf(s.summary, lenient);
    const text = JSON.stringify(report);
    expect(text).not.toContain('hunter2');
    // eslint-disable-next-line no-control-regex
    expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(text)).toBe(false);
    expect(report.runs[0]!.tests[0]!.startUrl).toBe('https://***@shop.example.com/?q=<x>&y="1"');
  });

  it('accepts a finished result without executionTime and a running one', () => {
    const fx = new Fixtures();
    const run = suiteRun(fx, {
      key: 'k',
      suiteId: 's',
      suiteName: 'S',
      suiteResultId: 'sr',
      tests: [
        { name: 'finished', outcome: 'passed' },
        { name: 'running', outcome: 'running', state: 'timed-out' },
      ],
    });
    run.tests[0]!.result!.executionTime = null;
    const report = reportOf(summaryOf([run]), lenient);
    expect(report.runs[0]!.tests[0]!.durationMs).toBe(4321);
    expect(report.runs[0]!.tests[1]!.durationMs).toBeNull();
  });
});

describe('text helpers', () => {
  it('replaces XML-invalid characters and lone surrogates', () => {
    expect(cleanText('a\u0000b\u000Bc\uD800d\uDC00e\uFFFEf\t\n\r😀')).toBe(
      'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\t\n\r😀',
    );
  });

  it('redacts the user-info of a URL', () => {
    expect(redactUrl('https://user:pw@host/p?q=1')).toBe('https://***@host/p?q=1');
    expect(redactUrl('https://host/a:b@c')).toBe('https://host/a:b@c');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('escapes Markdown and HTML so that nothing from the service is interpreted', () => {
    const out = escapeInline(HOSTILE);
    expect(out).not.toMatch(/[<>|`*_[\]~$]/);
    expect(out).not.toMatch(/@\w/);
    expect(out).not.toContain('\n');
  });
});

describe('a failing step imported from a module', () => {
  it('is named with the module and its step in the JUnit message, summary, annotations and PR comment', () => {
    const fx = new Fixtures();
    const module = '5e00000000000000000000aa';
    const run = suiteRun(fx, {
      key: 'suite-1-0',
      suiteId: 'suite-1',
      suiteName: 'Shop',
      suiteResultId: 'sr-1',
      tests: [
        {
          name: 'Checkout',
          outcome: 'failed',
          testId: 'test-checkout',
          steps: [
            { command: 'open', target: '', value: '/' },
            { command: 'click', target: '#user', source: { test: module, sequence: 0 } },
            {
              command: 'click',
              target: '#go',
              passing: false,
              error: 'Element not found: #go',
              source: { test: module, sequence: 1 },
            },
            { command: 'click', target: '#buy', passing: null },
          ],
        },
      ],
    });
    const report = reportOf(summaryOf([run]), lenient);
    const test = report.runs[0]!.tests[0]!;
    expect(test.failingStep?.module).toEqual({ testId: module, sequence: 1 });
    const sentence = `Step 3 (module ${module}, step 2) click #go: Element not found: #go`;
    expect(failureMessage(test)).toBe(sentence);
    expect(renderJUnit(report)).toContain(`message="${sentence}"`);
    expect(renderSummary(report)).toContain(`<strong>Step 3 (module ${module}, step 2)</strong>`);
    expect(
      renderAnnotations(report)
        .map((a) => a.message)
        .join('\n'),
    ).toContain(sentence);
    expect(renderPullRequestComment(report)).toContain(`Step 3 (module ${module}, step 2) click`);
  });

  it('is named by the module’s name once read, in every report, and by its test id without it', () => {
    const step = { sequence: 3, command: 'click', target: '#go', error: 'x' };
    const module = { testId: '5e00000000000000000000aa', sequence: 1 };
    expect(stepLabel(step)).toBe('Step 4');
    expect(stepLabel({ ...step, module })).toBe('Step 4 (module 5e00000000000000000000aa, step 2)');
    expect(stepLabel({ ...step, module: { ...module, name: 'Login module' } })).toBe(
      'Step 4 (Login module, step 2)',
    );
    expect(stepLabel({ ...step, module: { ...module, name: '' } })).toBe(
      'Step 4 (module 5e00000000000000000000aa, step 2)',
    );

    const fx = new Fixtures();
    const fromLogin = (sequence: number) => ({ test: module.testId, sequence });
    const failingInLogin = {
      steps: [
        { command: 'open', target: '', value: '/' },
        { command: 'click', target: '#user', source: fromLogin(0) },
        { command: 'click', target: '#go', passing: false, error: 'Gone <b>', source: fromLogin(1) },
      ],
      testId: 'test-checkout',
    };
    const run = suiteRun(fx, {
      key: 'suite-1-0',
      suiteId: 'suite-1',
      suiteName: 'Shop',
      suiteResultId: 'sr-1',
      tests: [
        { name: 'Checkout', outcome: 'failed', ...failingInLogin },
        {
          name: 'Search',
          outcome: 'passed',
          testId: 'test-search',
          attempts: [{ name: 'Search', outcome: 'failed', ...failingInLogin, testId: 'test-search' }],
        },
      ],
    });
    const unnamed = reportOf(summaryOf([run]), lenient);
    const report = withModuleNames(unnamed, new Map([[module.testId, 'Login <module>']]));
    const [checkout, search] = report.runs[0]!.tests;
    expect(checkout!.failingStep?.module).toEqual({ ...module, name: 'Login <module>' });
    expect(search!.attempts[0]!.failingStep?.module?.name).toBe('Login <module>');
    // The report it was made from is left as it was.
    expect(unnamed.runs[0]!.tests[0]!.failingStep?.module?.name).toBeUndefined();
    const sentence = 'Step 3 (Login <module>, step 2) click #go: Gone <b>';
    expect(failureMessage(checkout!)).toBe(sentence);
    expect(renderJUnit(report)).toContain(`message="${sentence.replace(/</g, '&lt;')}"`);
    const html = '<strong>Step 3 (Login &lt;module&gt;, step 2)</strong>';
    expect(renderSummary(report)).toContain(html);
    expect(renderFailures(report, new Map())).toContain(html);
    expect(renderAnnotations(report).map((a) => a.message)).toContainEqual(expect.stringContaining(sentence));
    expect(renderPullRequestComment(report)).toContain(escapeInline(sentence));
    // A module whose name was not read keeps its test id.
    const other = withModuleNames(unnamed, new Map([['another-module', 'Other']]));
    expect(failureMessage(other.runs[0]!.tests[0]!)).toBe(
      `Step 3 (module ${module.testId}, step 2) click #go: Gone <b>`,
    );
  });

  it("is the test's own step when the source is the test itself or the result has no test id", () => {
    const own = [
      { sequence: 2, command: 'click', target: '#go', value: '', variableName: '', condition: null },
    ].map((s) => ({ ...s, optional: false, private: false, passing: false, error: 'x' }));
    const fromSelf = failingStepOf([{ ...own[0]!, extra: { source: { test: 't1', sequence: 2 } } }], 't1');
    expect(fromSelf?.module).toBeUndefined();
    const onDemand = failingStepOf([{ ...own[0]!, extra: { source: { test: 'm1', sequence: 0 } } }], null);
    expect(onDemand?.module).toBeUndefined();
    expect(
      failingStepOf([{ ...own[0]!, extra: { source: { test: 'm1', sequence: 0 } } }], 't1')?.module,
    ).toEqual({ testId: 'm1', sequence: 0 });
  });
});
