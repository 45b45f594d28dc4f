/**
 * `publishForReport` in-process: when screenshots are published, what the step logs and outputs, and the
 * attachment paths the JUnit file and the summary get. Screenshots come from a loopback server; outside
 * GitHub (no artifact service in the environment) the files are kept in `artifacts-dir`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { publishForReport } from '../../../src/artifacts/for-report.js';
import type { ActionInputs } from '../../../src/inputs/index.js';
import { startFakeArtifactService } from '../../support/fakes/artifact-service.js';
import { RecordingSink } from '../../support/run-action.js';
import { runSummary, suiteRun, testRun } from '../../support/run-factories.js';
import { makeResult, randomPng, setEnv, startScreenshotServer } from '../../support/screenshots.js';
import type { ScreenshotServer } from '../../support/screenshots.js';

let shots: ScreenshotServer;
let tmp: string;

beforeAll(async () => {
  shots = await startScreenshotServer({ failures: 0 });
});
afterAll(async () => {
  await shots.close();
});
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'gi-for-report-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A run with one failed test result (id `id`) that has a screenshot on the loopback server. */
function oneFailed(id: string) {
  const png = randomPng(12, 9);
  const screenshotUrl = shots.add(id, png);
  const summary = runSummary([
    suiteRun([testRun('failed', makeResult(id, { passing: false, screenshotUrl }))]),
  ]);
  return { summary, png, hitsOf: () => shots.hits.get(new URL(screenshotUrl).pathname) ?? 0 };
}

/** The inputs `publishForReport` reads; the rest of `ActionInputs` plays no part here. */
function inputs(overrides: Partial<ActionInputs>): ActionInputs {
  return {
    screenshots: 'failed',
    artifactName: '',
    artifactRetentionDays: null,
    artifactsDir: path.join(tmp, 'ws', 'shots'),
    apiBaseUrl: 'http://127.0.0.1:1/v1/',
    workspace: path.join(tmp, 'ws'),
    ...overrides,
  } as ActionInputs;
}

describe('publishForReport', () => {
  it('publishes nothing when the run was not waited for, or screenshots is none', async () => {
    const { summary, hitsOf } = oneFailed('nw');
    for (const [given, waited] of [
      [inputs({}), false],
      [inputs({ screenshots: 'none' }), true],
    ] as const) {
      const sink = new RecordingSink();
      const out = await publishForReport(given, summary, { waited, sink, env: {} });
      expect(out.published).toBeNull();
      expect([...out.attachments]).toEqual([]);
      expect(sink.stdout).toBe('');
    }
    expect(hitsOf()).toBe(0);
  });

  it('outside GitHub: keeps the files in artifacts-dir, logs it, paths relative to the workspace', async () => {
    const { summary, png } = oneFailed('in');
    const sink = new RecordingSink();
    const given = inputs({});
    const out = await publishForReport(given, summary, { waited: true, sink, env: {} });
    expect(out.published?.localDir).toBe(given.artifactsDir);
    expect(sink.stdout).toContain(`Screenshots: ${given.artifactsDir}\n`);
    expect(sink.stdout).not.toContain('Screenshot artifact:');
    expect(sink.stdout).not.toContain('::warning::');
    expect(Object.keys(sink.outputs)).toEqual([]);
    const paths = out.attachments.get('in');
    expect(paths && Object.keys(paths)).toEqual(['screenshot']);
    const rel = paths?.screenshot ?? '';
    expect(rel.startsWith('shots/')).toBe(true);
    expect(rel).not.toContain('\\');
    expect((await readFile(path.join(given.workspace, rel))).equals(png)).toBe(true);
  });

  it('an artifacts-dir outside the workspace gives absolute paths', async () => {
    const { summary } = oneFailed('out');
    const given = inputs({ artifactsDir: path.join(tmp, 'elsewhere') });
    const out = await publishForReport(given, summary, { waited: true, sink: new RecordingSink(), env: {} });
    const file = out.attachments.get('out')?.screenshot ?? '';
    expect(path.isAbsolute(file)).toBe(true);
    expect(file.startsWith(path.join(tmp, 'elsewhere') + path.sep)).toBe(true);
  });

  it('an https API refuses http screenshot URLs: a warning, no attachment, no throw', async () => {
    const { summary, hitsOf } = oneFailed('tls');
    const sink = new RecordingSink();
    const given = inputs({ apiBaseUrl: 'https://127.0.0.1:1/v1/' });
    const out = await publishForReport(given, summary, { waited: true, sink, env: {} });
    expect(out.published?.missing.map((m) => m.job.resultId)).toEqual(['tls']);
    expect([...out.attachments]).toEqual([]);
    expect(hitsOf()).toBe(0);
  });

  it('a workflow cancel given before: no screenshot is fetched, it is reported missing', async () => {
    const { summary, hitsOf } = oneFailed('stop');
    const stop = new AbortController();
    stop.abort(new Error('cancelled'));
    const given = inputs({});
    const out = await publishForReport(given, summary, {
      waited: true,
      sink: new RecordingSink(),
      env: {},
      signal: stop.signal,
    });
    expect(out.published?.missing.map((m) => m.job.resultId)).toEqual(['stop']);
    expect(hitsOf()).toBe(0);
  });

  it('a problem that throws only warns: the step goes on without attachments', async () => {
    const { summary } = oneFailed('bad');
    const sink = new RecordingSink();
    const given = inputs({ apiBaseUrl: 'not a url' });
    const out = await publishForReport(given, summary, { waited: true, sink, env: {} });
    expect(out.published).toBeNull();
    expect([...out.attachments]).toEqual([]);
    expect(sink.stdout).toMatch(/^::warning::Could not publish screenshots: .+/m);
  });

  it('on GitHub: uploads, logs the artifact name, sets artifact-id and artifact-url, paths inside the artifact', async () => {
    const fake = await startFakeArtifactService();
    // The artifact client reads its token and service URL from `process.env` itself.
    const restore = setEnv({
      ...fake.env({ runId: 'run-1', jobId: 'job-1' }),
      GITHUB_REPOSITORY: 'octo/app',
      GITHUB_RUN_ID: '77',
      RUNNER_TEMP: tmp,
    });
    try {
      const { summary } = oneFailed('gh');
      const sink = new RecordingSink();
      const given = inputs({ artifactName: 'shots', artifactRetentionDays: 3 });
      const out = await publishForReport(given, summary, { waited: true, sink, env: process.env });
      const [stored] = fake.artifacts;
      expect(stored.name).toBe('shots');
      const days = (Date.parse(stored.expiresAt ?? '') - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(2.9);
      expect(days).toBeLessThan(3.1);
      expect(sink.outputs).toEqual({
        'artifact-id': String(stored.id),
        'artifact-url': `https://github.com/octo/app/actions/runs/77/artifacts/${stored.id}`,
      });
      expect(sink.stdout).toContain('Screenshot artifact: shots\n');
      expect(sink.stdout).not.toContain('Screenshots: ');
      const file = out.attachments.get('gh')?.screenshot ?? '';
      expect(file.endsWith('.png')).toBe(true);
      expect(path.isAbsolute(file)).toBe(false);
      expect(file.startsWith('shots/')).toBe(false);
    } finally {
      restore();
      await fake.close();
    }
  });
});
