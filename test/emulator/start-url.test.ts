/**
 * `{{name}}` in the start URL is replaced by the variable's value given at execute (and by suite variables
 * and data rows, as in steps); unknown names stay as written in stored runs and become "" in on-demand runs.
 * Also the `verdictBeforeTiming` fault: the first read of a finished result has no timing fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { data, start } from '../support/emulator.js';
import { until } from '../support/harness.js';

let em: Emulator;
beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

describe('start URL variables', () => {
  it('a test start URL takes execute variables and suite variables; unknown names stay', async () => {
    await data(em, 'POST', '/tests/test-login-data/', {
      body: { startUrl: 'https://{{env}}.shop.example/{{greeting}}/{{missing}}' },
    });
    const r = await data(em, 'POST', '/tests/test-login-data/execute/', { query: { env: 'staging' } });
    const greeting = (await data(em, 'GET', '/suites/suite-data/')).variables.find(
      (v: { name: string }) => v.name === 'greeting',
    ).value as string;
    expect(r.startUrl).toBe(`https://staging.shop.example/${greeting}/{{missing}}`);
  });

  it('the startUrl parameter is substituted too, and a suite result shows it', async () => {
    const sr = await data(em, 'POST', '/suites/suite-smoke/execute/', {
      query: { immediate: '1', startUrl: 'https://{{env}}.example/', env: 'preview-42' },
    });
    expect(sr.startUrl).toBe('https://preview-42.example/');
    const [first] = await data(em, 'GET', `/suite-results/${sr._id}/results/`);
    expect(first.startUrl).toBe('https://preview-42.example/');
  });

  it('in an on-demand run an unknown name becomes ""', async () => {
    const r = await data(em, 'POST', '/organizations/org-acme/on-demand/execute/', {
      body: {
        name: 'On demand',
        startUrl: 'https://{{env}}.example/{{missing}}',
        steps: [{ command: 'assign', target: '', value: '{{missing}}x', variableName: 'v' }],
        variables: { env: 'qa' },
      },
    });
    expect(r.startUrl).toBe('https://qa.example/');
    expect(r.steps[0].value).toBe('x');
  });
});

describe('verdictBeforeTiming fault', () => {
  it('the first read of a finished test result shows passing without executionTime and finish date', async () => {
    const faulty = await start({ verdictBeforeTiming: true });
    try {
      const started = await data(faulty, 'POST', '/tests/test-home/execute/', { query: { immediate: '1' } });
      const first = await until(async () => {
        const r = await data(faulty, 'GET', `/results/${started._id}/`);
        return r.passing !== null ? r : undefined;
      });
      expect(first).toMatchObject({ passing: true, executionTime: null, dateExecutionFinished: null });
      const second = await data(faulty, 'GET', `/results/${started._id}/`);
      expect(second.executionTime).toBeGreaterThan(0);
      expect(typeof second.dateExecutionFinished).toBe('string');
    } finally {
      await faulty.close();
    }
  });
});
