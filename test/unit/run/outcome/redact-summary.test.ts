/**
 * Redaction of the run model: secrets go where they can be (names, free text, every string of a step, page
 * and screenshot URLs, private variables by name); the action's own data (ids, timestamps, counts, links)
 * is never rewritten.
 */
import { describe, expect, it } from 'vitest';
import { keptResult } from '../../../../src/run/kept-result.js';
import { redactSummary } from '../../../../src/run/outcome/redact-summary.js';
import type { RunSummary } from '../../../../src/run/types.js';
import { suiteResult, suiteRun, testResult } from '../../../support/run-factories.js';

function summaryWith(secretText: string): RunSummary {
  const image = (p: string) => ({
    defaultUrl: `https://shots.test/${p}.png`,
    dims: { h: 1, w: 1 },
    path: p,
    size: 1,
  });
  const result = keptResult(
    testResult({
      _id: '0000000000000000000001e3',
      name: 'Pay by card 1',
      dateCreated: '2026-01-01T01:11:11.111Z',
      startUrl: 'https://qa:pw-in-url@shop.test/?apiKey=k&pin=' + secretText,
      urls: ['https://shop.test/card/1'],
      steps: [
        {
          sequence: 1,
          command: 'assign',
          target: `#pin-${secretText}`,
          value: secretText,
          notes: `note ${secretText}`,
          variableName: '',
          condition: null,
          optional: false,
          private: false,
          error: `Expected ${secretText} in card field 1`,
          url: 'https://shop.test/card',
        },
        {
          sequence: 2,
          command: 'click',
          target: [{ selector: `#pin-${secretText}` }, { selector: '#other' }],
          value: '',
          variableName: '',
          condition: { statement: `return "${secretText}"` },
          optional: false,
          private: false,
        },
      ],
      console: [
        {
          _id: 'c1',
          dateExecuted: '2026-01-01T00:00:01.000Z',
          error: false,
          output: `pin=${secretText}`,
          url: 'https://u:p@shop.test/',
        },
      ],
      variables: { PIN: secretText, CARD: 'card', PLAN: 'pro' },
      screenshot: { original: image('o1'), small: image('s1') },
      executionTime: 1111,
    }),
  );
  return {
    runs: [
      suiteRun(
        [
          {
            testId: '0000000000000000000000e1',
            testName: 'Pay by card 1',
            state: 'failed',
            result,
            attempts: [result],
            url: 'https://app.test/results/0000000000000000000001e3',
            error: `failed with ${secretText}`,
          },
        ],
        {
          key: 'suite-0000000000000000000000a1-0',
          suiteId: '0000000000000000000000a1',
          suiteName: 'Checkout card 1',
          suiteResultId: '0000000000000000000001a1',
          suiteResult: suiteResult({
            _id: '0000000000000000000001a1',
            name: 'Checkout card 1',
            countPassing: 1,
          }),
          variant: { startUrl: 'https://user:pass@staging.test/', browser: 'chrome-1' },
          error: `run error ${secretText}`,
        },
      ),
    ],
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:11.000Z',
    appUrl: 'https://app.test',
  };
}

describe('redactSummary', () => {
  it('with a one-character private value: data intact, the variable hidden by name', () => {
    const raw = summaryWith('1');
    const out = redactSummary(raw, { values: ['1'], privateVariableNames: ['PIN'] });
    const run = out.runs[0]!;
    const test = run.tests[0]!;
    // Never rewritten: ids, names, dates, counts, links, screenshots.
    expect(run.key).toBe(raw.runs[0]!.key);
    expect(run.suiteResultId).toBe('0000000000000000000001a1');
    expect(run.suiteName).toBe('Checkout card 1');
    expect(run.suiteResult?.countPassing).toBe(1);
    expect(test.result?._id).toBe('0000000000000000000001e3');
    expect(test.result?.name).toBe('Pay by card 1');
    expect(test.result?.executionTime).toBe(1111);
    expect(test.url).toBe('https://app.test/results/0000000000000000000001e3');
    expect(test.result?.screenshot?.original.defaultUrl).toBe('https://shots.test/o1.png');
    expect(out.finishedAt).toBe('2026-01-01T00:01:11.000Z');
    expect(run.variant.browser).toBe('chrome-1');
    // Too short for free text: left there (the inputs warn); hidden by name in variables.
    expect(test.result?.steps[0]?.error).toBe('Expected 1 in card field 1');
    expect(test.result?.variables).toEqual({ PIN: '***', CARD: 'card', PLAN: 'pro' });
    expect(test.attempts[0]?.variables.PIN).toBe('***');
    // URL credentials and apiKey values always go.
    expect(run.variant.startUrl).toBe('https://***@staging.test/');
    expect(test.result?.startUrl).toBe('https://***@shop.test/?apiKey=***&pin=1');
    expect(test.result?.console[0]?.url).toBe('https://***@shop.test/');
    // In place: the same model, no second copy of its results.
    expect(out).toBe(raw);
    expect(test.result).toBe(raw.runs[0]!.tests[0]!.result);
  });

  it('a long enough value is removed from names, free text, every string of a step and page URLs', () => {
    const secret = 'card';
    const out = redactSummary(summaryWith(secret), { values: [secret], privateVariableNames: ['PIN'] });
    const run = out.runs[0]!;
    const test = run.tests[0]!;
    expect(run.suiteName).toBe('Checkout *** 1');
    expect(run.suiteResult?.name).toBe('Checkout *** 1');
    expect(test.testName).toBe('Pay by *** 1');
    expect(test.result?.name).toBe('Pay by *** 1');
    expect(test.error).toBe('failed with ***');
    expect(test.result?.steps[0]?.target).toBe('#pin-***');
    expect(test.result?.steps[1]?.target).toEqual([{ selector: '#pin-***' }, { selector: '#other' }]);
    expect(test.result?.steps[1]?.condition?.statement).toBe('return "***"');
    expect(run.error).toBe('run error ***');
    expect(test.result?.steps[0]?.value).toBe('***');
    expect(test.result?.steps[0]?.error).toBe('Expected *** in *** field 1');
    expect(test.result?.steps[0]?.url).toBe('https://shop.test/***');
    expect(test.result?.console[0]?.output).toBe('pin=***');
    expect(test.result?.variables).toEqual({ PIN: '***', CARD: '***', PLAN: 'pro' });
    expect(test.result?.screenshot?.original.defaultUrl).toBe('https://shots.test/o1.png');
  });
});

describe('redactSummary, every field it walks', () => {
  const secret = 'hunter22';
  const image = { defaultUrl: `https://shots.test/${secret}.png`, dims: { h: 1, w: 1 }, path: 'p', size: 1 };

  it('removes the secret from the nested test name, end URL, error, comparison and video', () => {
    const result = keptResult(
      testResult({
        test: { _id: 't1', name: `Pay ${secret}`, organization: 'o', suite: 's' },
        endUrl: `https://shop.test/${secret}`,
        urls: [`https://shop.test/${secret}`, 7 as unknown as string],
        comments: [{ _id: 'm1', message: `said ${secret}` } as never],
        error: { details: `broke on ${secret}`, code: 3 },
        extractions: { token: secret, nested: [secret, 1] },
        screenshotCompare: { compareOriginal: image, compareSmall: image },
        video: { dims: { h: 1, w: 1 }, path: 'v', url: `https://video.test/${secret}` },
        variables: { PIN: secret, COUNT: 3 as unknown as string },
        console: [{ _id: 'c1', dateExecuted: 'd', error: false } as never],
      }),
    );
    const raw = {
      runs: [
        suiteRun([{ testId: 't1', testName: 'Pay', state: 'passed', result, attempts: [] } as never], {
          file: `tests/${secret}.json`,
          suiteResult: suiteResult({
            suite: { _id: 's1', name: `Suite ${secret}` } as never,
            startUrl: `https://shop.test/${secret}`,
            comments: [{ _id: 'm2', message: `suite ${secret}` } as never],
          }),
        }),
      ],
      startedAt: 's',
      finishedAt: 'f',
      appUrl: 'https://app.test',
    } as RunSummary;
    const out = redactSummary(raw, { values: [secret], privateVariableNames: [] });
    expect(JSON.stringify(out)).not.toContain(secret);
    const run = out.runs[0]!;
    const test = run.tests[0]!.result!;
    expect(run.file).toBe('tests/***.json');
    expect(run.suiteResult?.suite).toMatchObject({ _id: 's1', name: 'Suite ***' });
    expect(run.suiteResult?.startUrl).toBe('https://shop.test/***');
    expect(run.suiteResult?.comments).toEqual([{ _id: 'm2', message: 'suite ***' }]);
    expect(test.test).toEqual({ _id: 't1', name: 'Pay ***' });
    expect(test.endUrl).toBe('https://shop.test/***');
    expect(test.error).toEqual({ details: 'broke on ***', code: 3 });
    expect(test.screenshotCompare?.compareSmall.defaultUrl).toBe('https://shots.test/***.png');
    expect(test.video?.url).toBe('https://video.test/***');
    expect(test.variables).toEqual({ PIN: '***', COUNT: 3 });
    // A console entry without output or URL stays without them.
    expect(test.console).toEqual([{ _id: 'c1', dateExecuted: 'd', error: false }]);
  });

  it('leaves fields the result does not have (or has in another shape) as they were', () => {
    const result = {
      ...testResult(),
      name: undefined,
      test: null,
      startUrl: undefined,
      endUrl: undefined,
      urls: undefined,
      steps: undefined,
      console: undefined,
      comments: undefined,
      error: null,
      extractions: undefined,
      variables: undefined,
      screenshot: null,
      screenshotCompare: undefined,
      video: null,
    } as never;
    const raw = {
      runs: [
        suiteRun([{ testId: 't1', testName: 'Pay', state: 'passed', result, attempts: [] } as never], {
          suiteResult: {
            ...suiteResult(),
            name: undefined,
            suite: null,
            startUrl: undefined,
            comments: undefined,
          } as never,
        }),
      ],
      startedAt: 's',
      finishedAt: 'f',
      appUrl: 'https://app.test',
    } as RunSummary;
    const out = redactSummary(raw, { values: [secret], privateVariableNames: ['PIN'] });
    expect(out).toEqual(raw);
    expect(Object.keys(out.runs[0]!.tests[0]!.result!).sort()).toEqual(Object.keys(result).sort());
  });
});
