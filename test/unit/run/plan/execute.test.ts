import { describe, expect, it } from 'vitest';
import {
  asArray,
  browserFits,
  csvDataRows,
  dataRowVariables,
  expectedVariants,
  jobId,
  jobLabel,
  optionsFor,
  retryOptions,
  variantAt,
  variantCombinations,
  variantFromResult,
} from '../../../../src/run/plan/execute.js';
import type { TestDefinition } from '../../../../src/api/types.js';
import { slug } from '../../../../src/run/book.js';
import { computeOutputs } from '../../../../src/run/outcome/outputs.js';
import { decideStartedVerdict, decideVerdict } from '../../../../src/run/outcome/outcome.js';
import { suiteResult, suiteRun, testResult, testRun } from '../../../support/run-factories.js';

describe('execute helpers', () => {
  it('optionsFor: immediate always, the job start URL, no test-only parameters on a suite', () => {
    const user = { browser: ['chrome'], webhook: ['https://h.test/'], screenshotCompareBaselineResult: 'r1' };
    expect(optionsFor({ kind: 'suite', suiteId: 's', startUrl: 'https://x.test/' }, user)).toEqual({
      browser: ['chrome'],
      immediate: true,
      startUrl: 'https://x.test/',
    });
    expect(optionsFor({ kind: 'test', testId: 't' }, user)).toEqual({ ...user, immediate: true });
  });

  it('optionsFor: a repository test sends the start URL of its definition made for the job start URL', () => {
    const definition = { name: 'T', startUrl: 'https://staging.test/login', steps: [] };
    const job = { kind: 'file', file: 'a.side', index: 0, name: 'T', definition } as const;
    expect(optionsFor({ ...job, startUrl: 'https://staging.test' }, {}).startUrl).toBe(
      'https://staging.test/login',
    );
    expect(optionsFor(job, {})).not.toHaveProperty('startUrl');
  });

  it('variants in the service order: browser, region, viewport; data rows outside', () => {
    const combos = variantCombinations({ browser: ['chrome', 'firefox'], viewport: ['1x1', '2x2'] });
    expect(combos).toEqual([
      { browser: 'chrome', viewport: '1x1' },
      { browser: 'chrome', viewport: '2x2' },
      { browser: 'firefox', viewport: '1x1' },
      { browser: 'firefox', viewport: '2x2' },
    ]);
    expect(variantCombinations({})).toEqual([{}]);
    expect(variantAt(5, combos, true)).toEqual({ browser: 'chrome', viewport: '2x2', dataRow: 1 });
    expect(variantAt(0, [{}], false, 'https://s.test/')).toEqual({ startUrl: 'https://s.test/' });
  });

  it('variantFromResult corrects only the varied dimensions', () => {
    const r = testResult({
      browser: 'firefox',
      region: 'eu-west-1',
      viewportSize: { width: 375, height: 667 },
    });
    expect(variantFromResult({ browser: 'chrome', viewport: '1x1' }, r)).toEqual({
      browser: 'firefox',
      viewport: '375x667',
    });
  });

  it('variantFromResult keeps the browser asked for when the versioned one shown fits it', () => {
    const shown = (browser: string) => testResult({ browser });
    expect(variantFromResult({ browser: 'chrome' }, shown('chrome-142'))).toEqual({ browser: 'chrome' });
    expect(variantFromResult({ browser: 'chrome-79' }, shown('chrome-79'))).toEqual({ browser: 'chrome-79' });
    // Another browser than this variant's: the asked value it fits, else the one shown.
    const asked = ['chrome', 'firefox'];
    expect(variantFromResult({ browser: 'chrome' }, shown('firefox-145'), asked)).toEqual({
      browser: 'firefox',
    });
    expect(variantFromResult({ browser: 'chrome-79' }, shown('chrome-80'), ['chrome-79'])).toEqual({
      browser: 'chrome-80',
    });
  });

  it('browserFits: a family fits each of its versions, a version only itself', () => {
    expect(browserFits('chrome', 'chrome-142')).toBe(true);
    expect(browserFits('Chrome', 'chrome')).toBe(true);
    expect(browserFits('chrome-79', 'chrome-79')).toBe(true);
    expect(browserFits('chrome-79', 'chrome-79.0.3945')).toBe(true);
    expect(browserFits('chrome-7', 'chrome-79')).toBe(false);
    expect(browserFits('chrome-79', 'chrome-80')).toBe(false);
    expect(browserFits('chrome', 'firefox-145')).toBe(false);
    expect(browserFits('chrome-79', 'chrome')).toBe(false);
  });

  it('asArray accepts one result or an array', () => {
    const one = suiteResult();
    expect(asArray([one, one])).toHaveLength(2);
    expect(asArray(one)).toEqual([one]);
    expect(asArray(null)).toEqual([]);
    expect(asArray('not a result')).toEqual([]);
  });

  it('retryOptions: same variant, no data file, the data row as variables (never a parameter name)', () => {
    const failed = testResult({ variables: { user: 'bob', browser: 'x', 'bad name': 'y', pin: 42 } });
    const options = retryOptions(
      {
        browser: ['chrome', 'firefox'],
        dataFile: { name: 'd.csv', content: 'a' },
        variables: { PLAN: 'pro' },
      },
      { browser: 'firefox', dataRow: 1, startUrl: 'https://s.test/' },
      failed,
    );
    expect(options).toEqual({
      browser: 'firefox',
      immediate: true,
      startUrl: 'https://s.test/',
      variables: { user: 'bob', pin: '42', PLAN: 'pro' },
    });
  });

  it('an empty list of browsers, regions or viewports asks for none: one variant', () => {
    expect(variantCombinations({ browser: [], region: [], viewport: [] })).toStrictEqual([{}]);
    expect(variantCombinations({ browser: 'chrome', region: ['eu-west-1', 'us-east-1'] })).toStrictEqual([
      { browser: 'chrome', region: 'eu-west-1' },
      { browser: 'chrome', region: 'us-east-1' },
    ]);
    expect(variantAt(3, [], true)).toStrictEqual({ dataRow: 3 });
  });

  it('expectedVariants: a data file of one row (or only a header) is one run, with no data row number', () => {
    const one = { name: 'd.csv', content: 'user\nalice\n' };
    expect(expectedVariants({ dataFile: one, browser: ['chrome', 'firefox'] })).toStrictEqual([
      { browser: 'chrome' },
      { browser: 'firefox' },
    ]);
    expect(
      expectedVariants({ dataFile: { name: 'd.csv', content: 'user\n' } }, 'https://s.test/'),
    ).toStrictEqual([{ startUrl: 'https://s.test/' }]);
    expect(expectedVariants({ dataFile: { name: 'd.csv', content: 'user\na\nb' } })).toStrictEqual([
      { dataRow: 0 },
      { dataRow: 1 },
    ]);
  });

  it('csvDataRows: lines of blanks are no record; a quoted comma or line break stays in its field; bytes read as UTF-8', () => {
    expect(csvDataRows('h\n  \n\t\n1\n')).toBe(1);
    expect(csvDataRows('h\r1\r2')).toBe(2);
    expect(csvDataRows('h\n"a,\n\n b"\n')).toBe(1);
    expect(csvDataRows(Buffer.from('h\né\nü'))).toBe(2);
    expect(csvDataRows('')).toBe(0);
    expect(csvDataRows('\nh\n1')).toBe(1);
  });

  it("dataRowVariables: each row by column name, quoted fields whole, the execute's own variables left out", () => {
    const content = 'user,note,pin\nann,"a, ""b""\nc",1\n\nbob,x\n';
    expect(dataRowVariables({ dataFile: { name: 'd.csv', content }, variables: { pin: '9' } })).toEqual([
      { user: 'ann', note: 'a, "b"\nc' },
      { user: 'bob', note: 'x' },
    ]);
    expect(dataRowVariables({ browser: 'chrome' })).toEqual([]);
  });

  it('variantFromResult: the region and viewport shown replace those asked for; one not shown keeps it', () => {
    const asked = { region: 'us-east-1', viewport: '1x1' };
    expect(
      variantFromResult(asked, testResult({ region: 'eu-west-1', viewportSize: { width: 2, height: 3 } })),
    ).toStrictEqual({ region: 'eu-west-1', viewport: '2x3' });
    expect(
      variantFromResult(asked, testResult({ region: '', viewportSize: { width: 2, height: 0 } })),
    ).toStrictEqual(asked);
    // Dimensions not varied stay unset, whatever the result shows.
    expect(variantFromResult({ viewport: '1x1' }, testResult({ viewportSize: undefined }))).toStrictEqual({
      viewport: '1x1',
    });
    expect(variantFromResult({}, testResult({ region: 'eu-west-1', browser: 'firefox' }))).toStrictEqual({});
    // The browser asked for is kept when nothing is shown, or when none asked fits the one shown.
    expect(variantFromResult({ browser: 'chrome' }, testResult({ browser: '' }))).toStrictEqual({
      browser: 'chrome',
    });
    expect(variantFromResult({ browser: 'chrome' }, testResult({ browser: 'safari-18' }))).toStrictEqual({
      browser: 'safari-18',
    });
  });

  it('retryOptions: only the dimensions the user varied; no data row: no row variables', () => {
    const failed = testResult({ variables: { user: 'bob' } });
    const variant = { browser: 'firefox', region: 'eu-west-1', viewport: '2x3', dataRow: 0 };
    expect(retryOptions({ region: ['eu-west-1', 'us-east-1'] }, variant, failed)).toStrictEqual({
      region: 'eu-west-1',
      immediate: true,
      variables: { user: 'bob' },
    });
    expect(retryOptions({ viewport: ['1x1', '2x3'] }, { viewport: '2x3' }, failed)).toStrictEqual({
      viewport: '2x3',
      immediate: true,
    });
    expect(retryOptions({ browser: 'chrome' }, { dataRow: 1 }, null)).toStrictEqual({
      browser: 'chrome',
      immediate: true,
    });
  });

  it('jobId and jobLabel name a suite, a test and a repository test', () => {
    const definition = { name: 'T', startUrl: 'https://a.test', steps: [] } as unknown as TestDefinition;
    const file = { kind: 'file', file: 'tests/a.json', index: 0, name: 'T', definition } as const;
    expect([jobId({ kind: 'suite', suiteId: 's' }), jobLabel({ kind: 'suite', suiteId: 's' })]).toEqual([
      's',
      'suite s',
    ]);
    expect([jobId({ kind: 'test', testId: 't' }), jobLabel({ kind: 'test', testId: 't' })]).toEqual([
      't',
      'test t',
    ]);
    expect([jobId(file), jobLabel(file)]).toEqual(['tests/a.json', 'tests/a.json "T"']);
  });

  it('slug keeps file names safe', () => {
    expect(slug('tests/a b/c.side')).toBe('tests-a-b-c.side');
  });
});

describe('outputs', () => {
  it('failed-test-ids holds the tests in error as well as the failed ones, each once', () => {
    const failed = testRun('failed', { passing: false });
    const inError = testRun('error', { passing: null, executionTime: 1000 });
    const summary = {
      runs: [suiteRun([testRun('passed'), failed, inError, failed])],
      startedAt: '',
      finishedAt: '',
      appUrl: 'https://app.test',
    };
    const policy = { failOnEmpty: true, failOnTimeout: true, failOnScreenshotCompare: false };
    const out = computeOutputs(summary, decideVerdict(summary, policy), '');
    expect(out['failed-test-ids'].split(',').sort()).toEqual([failed.testId, inError.testId].sort());
  });

  it('ids, failed stored tests and links; passing empty without a verdict', () => {
    const sr = suiteRun([testRun('passed'), testRun('failed', { passing: false })], { suiteResultId: 'sr1' });
    const single = suiteRun([testRun('passed')], { kind: 'test' });
    const started = suiteRun([], { kind: 'file', testResultId: 'tr9' });
    const summary = {
      runs: [sr, single, started],
      startedAt: '',
      finishedAt: '',
      appUrl: 'https://app.test/',
    };
    const policy = { failOnEmpty: true, failOnTimeout: true, failOnScreenshotCompare: false };
    const verdict = decideVerdict(summary, policy);
    const out = computeOutputs(summary, verdict, '/w/results.json');
    expect(out.passing).toBe('false');
    expect(out['suite-result-ids']).toBe('sr1');
    expect(out['test-result-ids'].split(',')).toHaveLength(4);
    expect(out['failed-test-ids']).toBe(sr.tests[1]!.testId);
    expect(out['result-urls'].split('\n')).toEqual([
      'https://app.test/suite-results/sr1',
      `https://app.test/results/${single.tests[0]!.result!._id}`,
      'https://app.test/results/tr9',
    ]);
    expect(JSON.parse(out.counts)).toMatchObject({ total: 3, failed: 1, 'timed-out': 0 });
    expect(computeOutputs(summary, decideStartedVerdict(summary, policy), '').passing).toBe('');
  });
});
