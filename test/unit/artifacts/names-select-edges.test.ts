/**
 * The edges of screenshot names and of the choice of screenshots (docs/api-contract.md, "Artifacts"):
 * exact byte fits, invisible characters, names that sanitize to nothing, long test names beside a variant;
 * which attempts of a test `failed` and `all` keep, a test's own name, an image without a screenshot.
 */
import { describe, expect, it } from 'vitest';
import {
  defaultArtifactName,
  sanitizeArtifactName,
  sanitizeSegment,
  screenshotPath,
  selectScreenshots,
  truncateUtf8,
} from '../../../src/artifacts/index.js';
import { runSummary, suiteRun, testRun } from '../../support/run-factories.js';
import { makeResult } from '../../support/screenshots.js';

describe('names at their edges', () => {
  it('a text that fits its bytes exactly is kept whole, one byte less cuts a whole character', () => {
    expect(truncateUtf8('测试测试', 6)).toBe('测试');
    expect(truncateUtf8('测试', 6)).toBe('测试');
    expect(truncateUtf8('测试', 5)).toBe('测');
  });

  it('a segment loses invisible characters, leading and trailing dots, and is cut to its bytes', () => {
    expect(sanitizeSegment('Pay\u200bment\u202e', 100)).toBe('Payment');
    expect(sanitizeSegment('..hidden..', 100)).toBe('hidden');
    expect(sanitizeSegment('abcdef', 3)).toBe('abc');
    // Spaces around the text do not count against its bytes.
    expect(sanitizeSegment('   abcdef  ', 6)).toBe('abcdef');
  });

  it('parts that sanitize to nothing take their fallback: result id, variant', () => {
    expect(screenshotPath('S', 'T', {}, '...', 'screenshot')).toBe('S/T-result.png');
    expect(screenshotPath('S', 'T', { browser: '..' }, 'r1', 'screenshot')).toBe('S/T [variant]-r1.png');
  });

  it('a start URL is no part of a file name', () => {
    const variant = { browser: 'firefox', startUrl: 'https://staging.example/login' };
    expect(screenshotPath('S', 'T', variant, 'r1', 'screenshot')).toBe('S/T [firefox]-r1.png');
  });

  it('a long test name is cut, never the variant; a test name with room is kept whole', () => {
    const name = 'T'.repeat(100);
    expect(screenshotPath('S', name, {}, 'r1', 'screenshot')).toBe(`S/${name}-r1.png`);
    const long = screenshotPath('S', 'T'.repeat(400), { browser: 'chrome' }, 'r1', 'screenshot');
    expect(long).toMatch(/^S\/T+ \[chrome\]-r1\.png$/);
  });

  it('a job or run attempt that sanitizes to nothing takes its fallback in the default artifact name', () => {
    expect(defaultArtifactName({ GITHUB_JOB: '..', GITHUB_RUN_ATTEMPT: '..' })).toMatch(
      /^ghost-inspector-screenshots-job-1-[0-9a-f]{8}$/,
    );
  });

  it('an artifact name loses invisible characters and is cut to 200 characters', () => {
    expect(sanitizeArtifactName('shots\u200b\u2066x')).toBe('shotsx');
    expect(sanitizeArtifactName('n'.repeat(300))).toBe('n'.repeat(200));
  });
});

describe('selectScreenshots at its edges', () => {
  const shot = (id: string) => `https://storage.example/${id}.png`;
  const ids = (summary: ReturnType<typeof runSummary>, mode: 'failed' | 'all') =>
    selectScreenshots(summary, mode).map((j) => `${j.resultId}:${j.kind}`);

  it('a flaky test: its failing attempts, never its passing ones', () => {
    const summary = runSummary([
      suiteRun([
        testRun('flaky', makeResult('k2', { passing: true, screenshotUrl: shot('k2') }), [
          makeResult('k0', { passing: false, screenshotUrl: shot('k0') }),
          makeResult('k1', { passing: true, screenshotUrl: shot('k1') }),
        ]),
      ]),
    ]);
    expect(ids(summary, 'failed')).toEqual(['k0:screenshot']);
    expect(ids(summary, 'all')).toEqual(['k2:screenshot', 'k0:screenshot']);
  });

  it('a test that failed on every attempt: its final result only', () => {
    const summary = runSummary([
      suiteRun([
        testRun('failed', makeResult('f1', { passing: false, screenshotUrl: shot('f1') }), [
          makeResult('f0', { passing: false, screenshotUrl: shot('f0') }),
        ]),
      ]),
    ]);
    expect(ids(summary, 'failed')).toEqual(['f1:screenshot']);
    expect(ids(summary, 'all')).toEqual(['f1:screenshot']);
  });

  it('failed: an earlier attempt whose screenshot comparison failed, once even when it is the final result', () => {
    const compare = { passing: true, comparePassing: false } as const;
    const attempt = makeResult('a0', { ...compare, screenshotUrl: shot('a0'), compareUrl: shot('a0c') });
    const fine = makeResult('a1', { passing: true, screenshotUrl: shot('a1'), comparePassing: true });
    const summary = runSummary([suiteRun([testRun('passed', fine, [attempt, fine])])]);
    expect(ids(summary, 'failed')).toEqual(['a0:screenshot', 'a0:comparison']);
    const final = makeResult('b1', { ...compare, screenshotUrl: shot('b1'), compareUrl: shot('b1c') });
    const again = runSummary([suiteRun([testRun('passed', final, [final])])]);
    expect(ids(again, 'failed')).toEqual(['b1:screenshot', 'b1:comparison']);
  });

  it('the test’s own name names the file; a comparison image without a screenshot is one job', () => {
    const result = makeResult('c1', { passing: false, name: 'Result name', compareUrl: shot('c1c') });
    const test = { ...testRun('failed', result), testName: 'Checkout' };
    const jobs = selectScreenshots(runSummary([suiteRun([test], { suiteName: 'Shop' })]), 'failed');
    expect(jobs.map((j) => [j.kind, j.relativePath])).toEqual([
      ['comparison', 'Shop/Checkout-c1-comparison.png'],
    ]);
  });
});
