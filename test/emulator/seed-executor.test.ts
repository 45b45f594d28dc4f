/**
 * Seeds (object, file, errors) and pluggable executors (an Executor instance handed to startEmulator).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import type { Executor, RunRequest } from '../../emulator/executors/types.js';
import { data, EPOCH, start } from '../support/emulator.js';

const open: Emulator[] = [];
afterEach(async () => {
  for (const em of open.splice(0)) await em.close();
});

const SEED = {
  organizations: [{ _id: 'org-1', name: 'One', plan: { maxCsvUploadRows: 2 } }],
  apiKeys: [{ key: 'k1' }],
  suites: [{ _id: 's1', name: 'S', organization: 'org-1', globalStepDelay: 100 }],
  tests: [
    {
      _id: 't1',
      name: 'T',
      suite: 's1',
      startUrl: 'https://t.example/',
      steps: [{ command: 'click', target: '#a' }],
      scenario: { outcome: 'fail', error: 'nope' },
    },
  ],
};

describe('seeds', () => {
  it('loads a seed object: defaults fill what is left out, scenarios apply', async () => {
    const em = await start({ seed: SEED });
    open.push(em);
    const suite = await data(em, 'GET', '/suites/s1/', { key: 'k1' });
    expect(suite).toMatchObject({
      globalStepDelay: 100,
      maxWaitDelay: 15000,
      browser: 'chrome',
      testCount: 1,
    });
    const test = await data(em, 'GET', '/tests/t1/', { key: 'k1' });
    expect(test).toMatchObject({ browser: null, passing: null, dateExecutionStarted: EPOCH });
    expect((await data(em, 'GET', '/tests/t1/execute/', { key: 'k1' })).steps[0].error).toBe('nope');
    const org = await data(em, 'GET', '/organizations/org-1/', { key: 'k1' });
    expect(org.plan.maxCsvUploadRows).toBe(2);
  });

  it('loads a seed file by path, and refuses unknown references', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gi-seed-'));
    const file = join(dir, 'seed.json');
    writeFileSync(file, JSON.stringify(SEED));
    const em = await start({ seed: file, apiKey: 'extra' });
    open.push(em);
    expect((await data(em, 'GET', '/suites/', { key: 'extra' })).map((s: { _id: string }) => s._id)).toEqual([
      's1',
    ]);
    await expect(
      start({ seed: { ...SEED, tests: [{ ...SEED.tests[0], suite: 'missing' }] } }),
    ).rejects.toThrow(/missing/);
    await expect(
      start({ seed: { ...SEED, tests: [{ ...SEED.tests[0], scenario: { hang: 'yes' } }] } }),
    ).rejects.toThrow(/hang/);
  });
});

describe('executors', () => {
  it('takes an Executor instance and hands it the run settings', async () => {
    const seen: RunRequest[] = [];
    const executor: Executor = {
      name: 'fixed',
      async run(request) {
        seen.push(request);
        return {
          passing: true,
          steps: request.steps.map((step) => ({
            step,
            passing: true,
            dateExecuted: new Date().toISOString(),
            url: 'https://t.example/done',
          })),
          console: [],
          urls: ['https://t.example/', 'https://t.example/done'],
          endUrl: 'https://t.example/done',
          extractions: { orderId: '7' },
        };
      },
      async close() {},
    };
    const em = await start({ seed: SEED, executor });
    open.push(em);
    const r = await data(em, 'GET', '/tests/t1/execute/', {
      key: 'k1',
      query: { viewport: '500x400', httpAuthUsername: 'u', httpAuthPassword: 'p', city: 'Oslo' },
    });
    expect(r).toMatchObject({
      passing: true,
      endUrl: 'https://t.example/done',
      extractions: { orderId: '7' },
    });
    expect(r.screenshot).toBeUndefined();
    expect(seen[0]).toMatchObject({
      testName: 'T',
      testId: 't1',
      startUrl: 'https://t.example/',
      viewport: { width: 500, height: 400 },
      httpAuth: { username: 'u', password: 'p' },
      variables: { city: 'Oslo' },
      globalStepDelay: 100,
      runTimeLimitMs: 600_000 * 0.01,
      timeScale: 0.01,
    });
  });

  it('refuses an unknown executor name', async () => {
    await expect(start({ executor: 'teleport' as 'simulated' })).rejects.toThrow(/teleport/);
  });
});
