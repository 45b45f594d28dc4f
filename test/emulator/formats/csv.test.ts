import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { SuiteResult, TestResult } from '../../../emulator/store.js';
import {
  SUITE_RESULTS_CSV_COLUMNS,
  TEST_RESULTS_CSV_COLUMNS,
  suiteResultsCsv,
  testResultsCsv,
} from '../../../emulator/formats/csv.js';
import { testResult as baseTestResult } from '../../support/run-factories.js';

const suiteResult: SuiteResult = {
  _id: 'sr1',
  name: 'Shop, "main" suite',
  passing: false,
  screenshotComparePassing: true,
  startUrl: 'https://shop.example/',
  commentCount: 0,
  comments: [],
  countPassing: 3,
  countFailing: 1,
  countUnknown: 0,
  countScreenshotComparePassing: 4,
  countScreenshotCompareFailing: 0,
  countScreenshotCompareUnknown: 0,
  dateCreated: '2026-01-02T03:04:05.000Z',
  dateExecutionStarted: '2026-01-02T03:04:06.000Z',
  dateExecutionFinished: '2026-01-02T03:04:18.345Z',
  executionTime: 12345,
  suite: { _id: 's1', name: 'Shop', organization: 'o1' },
  user: { _id: 'u1', name: 'Ann' },
};

/** A finished test result of the suite result above, with its screenshot. */
function testResult(over: Partial<TestResult>): TestResult {
  return {
    ...baseTestResult(),
    _id: 'r1',
    name: 'Checkout',
    test: { _id: 't1', name: 'Checkout', organization: 'o1', suite: 's1' },
    suiteResult: 'sr1',
    organization: 'o1',
    user: { _id: 'u1', name: 'Ann' },
    startUrl: 'https://shop.example/',
    endUrl: 'https://shop.example/cart.html',
    dateCreated: '2026-01-02T03:04:05.000Z',
    dateExecutionStarted: '2026-01-02T03:04:06.000Z',
    dateExecutionFinished: '2026-01-02T03:04:08.500Z',
    executionHost: 'local',
    executionTime: 2500,
    screenshotCompareDifference: 0.0123,
    screenshotCompareEnabled: true,
    screenshotComparePassing: true,
    screenshot: {
      original: {
        defaultUrl: 'https://img.example/r1.png',
        dims: { h: 768, w: 1024 },
        path: 'r1.png',
        size: 10,
      },
      small: {
        defaultUrl: 'https://img.example/r1-small.png',
        dims: { h: 240, w: 320 },
        path: 'r1s.png',
        size: 5,
      },
    },
    ...over,
  };
}

describe('suiteResultsCsv', () => {
  it('writes the documented header in order and one quoted row per suite result', () => {
    const csv = suiteResultsCsv(
      [
        suiteResult,
        { ...suiteResult, _id: 'sr0', passing: null, executionTime: null, dateExecutionFinished: undefined },
      ],
      'https://app.example/',
    );
    expect(csv.split('\n')[0]).toBe(
      'Suite Result ID,Suite Result URL,Name,Start URL,Tests Passed,Screenshots Passed,Tests Passing,Tests Failing,Test Unknown,Screenshots Passing,Screenshots Failing,Screenshots Unknown,Duration,Date Triggered,Date Started,Date Completed',
    );
    const rows = parse(csv) as string[][];
    expect(rows[0]).toEqual([...SUITE_RESULTS_CSV_COLUMNS]);
    expect(rows[1]).toEqual([
      'sr1',
      'https://app.example/suite-results/sr1',
      'Shop, "main" suite',
      'https://shop.example/',
      'false',
      'true',
      '3',
      '1',
      '0',
      '4',
      '0',
      '0',
      '12.345',
      '2026-01-02T03:04:05.000Z',
      '2026-01-02T03:04:06.000Z',
      '2026-01-02T03:04:18.345Z',
    ]);
    expect(rows[2]?.[4]).toBe('');
    expect(rows[2]?.[12]).toBe('');
    expect(rows[2]?.[15]).toBe('');
    expect(csv).toContain('"Shop, ""main"" suite"');
  });

  it('writes only the header for no rows', () => {
    expect(parse(suiteResultsCsv([], 'https://app.example'))).toEqual([[...SUITE_RESULTS_CSV_COLUMNS]]);
  });
});

describe('testResultsCsv', () => {
  it('writes the documented header in order and one row per test result', () => {
    const failing = testResult({
      _id: 'r2',
      passing: false,
      screenshotComparePassing: null,
      screenshotCompareDifference: null,
      screenshot: undefined,
      executionTime: 61000,
      steps: [
        {
          sequence: 0,
          command: 'click',
          target: '#a',
          value: '',
          variableName: '',
          condition: null,
          optional: true,
          private: false,
          passing: false,
          error: 'optional',
        },
        {
          sequence: 1,
          command: 'assertText',
          target: '#total',
          value: 'Total: $30',
          variableName: '',
          condition: null,
          optional: false,
          private: false,
          passing: false,
          error: 'Text "Total: $30" not found in #total;\nfound "Total: $25"',
        },
      ],
    });
    const cancelled = testResult({
      _id: 'r3',
      passing: null,
      status: 8,
      executionTime: null,
      dateExecutionFinished: undefined,
    });
    const csv = testResultsCsv([testResult({}), failing, cancelled], 'https://app.example');
    expect(csv.split('\n')[0]).toBe(
      'Test Result ID,Test Result URL,Name,Browser,Screen Size,Geolocation,Start URL,End URL,Status,Passed,Screenshot Passed,Screenshot Difference,Error,Duration,Video URL,Screenshot URL,Screenshot Comparison URL,Date Triggered,Date Started,Date Completed',
    );
    const rows = parse(csv) as string[][];
    expect(rows[0]).toEqual([...TEST_RESULTS_CSV_COLUMNS]);
    expect(rows[1]).toEqual([
      'r1',
      'https://app.example/results/r1',
      'Checkout',
      'chrome',
      '1024x768',
      'us-east-1',
      'https://shop.example/',
      'https://shop.example/cart.html',
      'passing',
      'true',
      'true',
      '0.0123',
      '',
      '2.500',
      '',
      'https://img.example/r1.png',
      '',
      '2026-01-02T03:04:05.000Z',
      '2026-01-02T03:04:06.000Z',
      '2026-01-02T03:04:08.500Z',
    ]);
    expect(rows[2]?.slice(8, 14)).toEqual([
      'failing',
      'false',
      '',
      '',
      'Text "Total: $30" not found in #total;\nfound "Total: $25"',
      '61.000',
    ]);
    expect(rows[3]?.[8]).toBe('cancelled');
    expect(rows[3]?.[13]).toBe('');
    expect(rows).toHaveLength(4);
  });
});
