/**
 * Screenshot comparison baselines: one per test x browser x viewport x region, taken from the last passing
 * run whose comparison did not fail (never from a failed run); `screenshotCompareBaselineResult` overrides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { data, start } from '../support/emulator.js';

let em: Emulator;
beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

/** Runs test-search (waiting) with screenshot comparison on and `query`'s parameters. */
const run = (query: Record<string, string> = {}) =>
  data(em, 'POST', '/tests/test-search/execute/', { query: { screenshotCompareEnabled: '1', ...query } });

describe('screenshot comparison baselines', () => {
  it('are kept per browser, viewport and region, from passing runs only', async () => {
    em.setScenario('test-search', { outcome: 'fail', failingStep: 0 });
    const failed = await run();
    expect(failed.passing).toBe(false);
    expect(failed.screenshotCompareBaselineResult).toBeNull();

    // The failed run is no baseline: the first passing run reports no comparison and becomes one.
    em.setScenario('test-search', null);
    const first = await run();
    expect(first).toMatchObject({ passing: true, screenshotCompareBaselineResult: null });
    expect(first.screenshotComparePassing).toBeNull();

    // Another viewport, region or browser has no baseline yet: not compared with the 1024x768 one.
    const [wide, europe, firefox] = await Promise.all([
      run({ viewport: '1280x800' }),
      run({ region: 'eu-west-1' }),
      run({ browser: 'firefox' }),
    ]);
    for (const r of [wide, europe, firefox]) {
      expect(r).toMatchObject({ passing: true, screenshotCompareBaselineResult: null });
      expect(r.screenshotComparePassing).toBeNull();
    }

    const second = await run();
    expect(second).toMatchObject({
      screenshotCompareBaselineResult: first._id,
      screenshotCompareDifference: 0,
      screenshotComparePassing: true,
    });
    const wideAgain = await run({ viewport: '1280x800' });
    expect(wideAgain).toMatchObject({
      screenshotCompareBaselineResult: wide._id,
      screenshotComparePassing: true,
    });

    // A failed run is compared, but the next run still compares with the last passing one.
    em.setScenario('test-search', { outcome: 'fail', failingStep: 0 });
    const failedAgain = await run();
    expect(failedAgain.screenshotCompareBaselineResult).toBe(second._id);
    em.setScenario('test-search', null);
    expect((await run()).screenshotCompareBaselineResult).toBe(second._id);
  });

  it('screenshotCompareBaselineResult overrides the kept baseline', async () => {
    const wide = await run({ viewport: '1280x800' });
    const forced = await run({ screenshotCompareBaselineResult: wide._id });
    expect(forced.screenshotCompareBaselineResult).toBe(wide._id);
    expect(forced.screenshotCompareDifference).toBeGreaterThan(0);
  });
});
