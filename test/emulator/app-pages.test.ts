/**
 * The web app's pages on the emulator's origin: results, suite results, suites and tests open without an
 * API key, name the record and link to the related pages; unknown ids answer HTTP 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { data, start } from '../support/emulator.js';

let em: Emulator;
beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

const open = async (path: string) => {
  const res = await fetch(`${em.origin}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
};

describe('web app pages', () => {
  it('a suite result, its test results, the suite and a test open and link to each other', async () => {
    const [first] = await data(em, 'POST', '/suites/suite-checkout/execute/');
    const suiteResultId = first.suiteResult as string;
    const suiteResult = await open(`/suite-results/${suiteResultId}`);
    expect(suiteResult).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/html/) });
    expect(suiteResult.html).toContain('Suite result: Checkout');
    expect(suiteResult.html).toContain('failed');
    const linked = [...suiteResult.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(linked).toContain('/suites/suite-checkout');
    expect(linked.filter((l) => l.startsWith('/results/'))).toHaveLength(3);
    for (const link of linked) expect((await open(link)).status, link).toBe(200);
    const payment = await open(`/results/${first._id}`);
    expect(payment.html).toMatch(/Test result: /);
    expect((await open('/tests/test-payment')).html).toContain('Test: Pay by card');
  });

  it('unknown ids answer HTTP 404', async () => {
    for (const path of ['/results/nope', '/suite-results/nope', '/suites/nope', '/tests/nope']) {
      expect((await open(path)).status, path).toBe(404);
    }
  });
});
