/**
 * `publishScreenshots` in-process, outside GitHub (no artifact service in the environment, so no upload):
 * what it logs and the missing-screenshot warning at its length bound. Screenshot URLs are `http` and the
 * download does not allow http, so each is refused before any request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { publishScreenshots } from '../../../src/artifacts/index.js';
import type { Logger } from '../../../src/common/log.js';
import { runSummary, suiteRun, testRun } from '../../support/run-factories.js';
import { makeResult } from '../../support/screenshots.js';

let tmp: string;
const logs: string[] = [];
const log: Logger = {
  info: (m) => logs.push(`info: ${m}`),
  warning: (m) => logs.push(`warning: ${m}`),
};

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'gi-publish-'));
  logs.length = 0;
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** `n` failed test results with long names, each with an http screenshot URL (refused: no request). */
function refusedRun(n: number) {
  const tests = Array.from({ length: n }, (_, i) =>
    testRun(
      'failed',
      makeResult(`m${i}`, {
        passing: false,
        name: `${'x'.repeat(60)} ${i}`,
        screenshotUrl: `http://127.0.0.1:1/img/m${i}.png`,
      }),
    ),
  );
  return runSummary([suiteRun(tests)]);
}

describe('publishScreenshots outside GitHub', () => {
  it('a run with nothing to publish: an empty report, nothing logged', async () => {
    const summary = runSummary([suiteRun([testRun('passed', makeResult('p', { passing: true }))])]);
    const report = await publishScreenshots(summary, { mode: 'all', artifactsDir: tmp, env: {}, log });
    expect(report).toEqual({ files: {}, missing: [], warnings: [] });
    expect(logs).toEqual([]);
  });

  it('says how many it downloads; one missing screenshot is named with its reason', async () => {
    const report = await publishScreenshots(refusedRun(1), {
      mode: 'failed',
      artifactsDir: tmp,
      env: {},
      log,
    });
    expect(logs[0]).toBe('info: Downloading 1 screenshot(s)...');
    expect(report.missing).toHaveLength(1);
    const [warning] = report.warnings;
    expect(warning).toMatch(/^1 of 1 screenshot\(s\) missing: .+\.png \(.*refused.*\)$/);
    expect(logs).toContain(`warning: ${warning}`);
    expect(report.files).toEqual({});
  });

  it('a long missing list is cut to its bound with an ellipsis, once, in the report and the log', async () => {
    const report = await publishScreenshots(refusedRun(40), {
      mode: 'failed',
      artifactsDir: tmp,
      env: {},
      log,
    });
    expect(report.missing).toHaveLength(40);
    expect(report.warnings).toHaveLength(1);
    const [warning] = report.warnings;
    expect(warning.startsWith('40 of 40 screenshot(s) missing: ')).toBe(true);
    expect(warning.endsWith('...')).toBe(true);
    expect(warning.length).toBeLessThanOrEqual(3003);
    expect(warning.length).toBeGreaterThan(2900);
    expect(logs.filter((l) => l.startsWith('warning: '))).toEqual([`warning: ${warning}`]);
  });
});
