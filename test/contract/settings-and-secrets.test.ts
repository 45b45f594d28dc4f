/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the emulator, checked field by field */
/**
 * Suite and test settings the contract leaves out, and private suite variables, against the emulator on
 * 127.0.0.1. Evidence: the service facts ("Evidence from independent clients": `userAgent`,
 * `screenshotTarget`, `screenshotExclusions` stored and returned, the empty string when unset; private suite
 * variables masked when read back); a public Terraform provider for the service sends `userAgent` on suites
 * and tests (`udx/terraform-provider-ghostinspector`, `internal/gi/models.go`) and says "Private variable
 * values are masked by the API on read" (`internal/provider/resource_suite_variables.go`). The mask's form
 * is guessed (`PRIVATE_VALUE_MASK`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { PRIVATE_VALUE_MASK } from '../../emulator/util.js';
import { call, data, start } from '../support/emulator.js';

let em: Emulator;
beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

const SETTINGS = ['userAgent', 'screenshotTarget', 'screenshotExclusions'] as const;

describe('userAgent, screenshotTarget, screenshotExclusions', () => {
  it('are the empty string when unset, stored and returned on suites and tests', async () => {
    const suite = await data(em, 'POST', '/suites/', {
      body: { name: 'Settings', organization: 'org-acme' },
    });
    const test = await data(em, 'POST', `/suites/${suite._id}/import-test/json`, {
      body: { name: 'Settings test', startUrl: 'https://shop.example/', steps: [] },
    });
    for (const name of SETTINGS) {
      expect(suite[name], name).toBe('');
      expect((await data(em, 'GET', `/tests/${test._id}/`))[name], name).toBe('');
    }
    const values = { userAgent: 'Bot/1.0', screenshotTarget: '#main', screenshotExclusions: '.ad, .clock' };
    await data(em, 'POST', `/suites/${suite._id}/`, { body: values });
    expect(await data(em, 'GET', `/suites/${suite._id}/`)).toMatchObject(values);
    await data(em, 'POST', `/tests/${test._id}/`, { body: { userAgent: 'TestBot/2.0' } });
    expect(await data(em, 'GET', `/tests/${test._id}/`)).toMatchObject({ userAgent: 'TestBot/2.0' });
    // Exports answer the document itself, not an envelope.
    const exported = await call(em, 'GET', `/tests/${test._id}/export/json/`);
    expect(exported.json.userAgent).toBe('TestBot/2.0');
  });

  it("apply to runs: the execute parameter, else the test's, else the suite's", async () => {
    const suite = await data(em, 'POST', '/suites/', {
      body: { name: 'Run settings', organization: 'org-acme', userAgent: 'SuiteBot', screenshotTarget: '#s' },
    });
    const test = await data(em, 'POST', `/suites/${suite._id}/import-test/json`, {
      body: { name: 'Run settings test', startUrl: 'https://shop.example/', steps: [], userAgent: 'TestBot' },
    });
    const run = await data(em, 'POST', `/tests/${test._id}/execute/`);
    expect(run).toMatchObject({ userAgent: 'TestBot', screenshotTarget: '#s', screenshotExclusions: '' });
    const asked = await data(em, 'POST', `/tests/${test._id}/execute/`, { query: { userAgent: 'Asked' } });
    expect(asked.userAgent).toBe('Asked');
  });
});

describe('private suite variables', () => {
  it('are masked on every read of the suite and in the result steps that use them', async () => {
    const suite = await data(em, 'POST', '/suites/', {
      body: {
        name: 'Secrets',
        organization: 'org-acme',
        variables: [
          { name: 'user', value: 'ada', private: false },
          { name: 'password', value: 's3cret', private: true },
        ],
      },
    });
    const expected = [
      { name: 'user', value: 'ada', private: false },
      { name: 'password', value: PRIVATE_VALUE_MASK, private: true },
    ];
    expect(suite.variables).toEqual(expected);
    expect((await data(em, 'GET', `/suites/${suite._id}/`)).variables).toEqual(expected);
    const listed = (await data(em, 'GET', '/suites/')).find((s: any) => s._id === suite._id);
    expect(listed.variables).toEqual(expected);
    const test = await data(em, 'POST', `/suites/${suite._id}/import-test/json`, {
      body: {
        name: 'Sign in',
        startUrl: 'https://shop.example/',
        steps: [{ command: 'assign', target: '#password', value: '{{password}}' }],
      },
    });
    const result = await data(em, 'POST', `/tests/${test._id}/execute/`);
    expect(result.steps[0].value).toBe(PRIVATE_VALUE_MASK);
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });

  it('a suite read and sent back keeps its private values (the mask never overwrites them)', async () => {
    const suite = await data(em, 'POST', '/suites/', {
      body: {
        name: 'Round trip',
        organization: 'org-acme',
        variables: [{ name: 'k', value: 'v1', private: true }],
      },
    });
    const read = await data(em, 'GET', `/suites/${suite._id}/`);
    await data(em, 'POST', `/suites/${suite._id}/`, { body: { variables: read.variables } });
    await data(em, 'POST', `/suites/${suite._id}/`, {
      body: { 'variables.k': { value: PRIVATE_VALUE_MASK } },
    });
    expect(em.store.suites.get(suite._id)!.variables).toEqual([{ name: 'k', value: 'v1', private: true }]);
    await data(em, 'POST', `/suites/${suite._id}/`, { body: { 'variables.k': { value: 'v2' } } });
    expect(em.store.suites.get(suite._id)!.variables[0]!.value).toBe('v2');
  });
});
