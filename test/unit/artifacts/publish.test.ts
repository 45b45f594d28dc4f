/**
 * `publishScreenshots` in-process. Outside GitHub (no artifact service in the environment, so no upload):
 * what it logs and the missing-screenshot warning at its length bound; screenshot URLs are `http` and the
 * download does not allow http, so each is refused before any request. In GitHub, with an injected client
 * and a loopback screenshot server: where the files go, what is uploaded and reported.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { UsageError } from '@actions/artifact';
import type { UploadArtifactOptions } from '@actions/artifact';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { defaultArtifactName, publishScreenshots } from '../../../src/artifacts/index.js';
import type { ArtifactUploader, PublishOptions } from '../../../src/artifacts/index.js';
import type { Logger } from '../../../src/common/log.js';
import type { RunSummary } from '../../../src/run/types.js';
import { ManualClock } from '../../support/manual-clock.js';
import { runSummary, suiteRun, testRun } from '../../support/run-factories.js';
import { makeResult, randomPng, startScreenshotServer } from '../../support/screenshots.js';
import type { ScreenshotServer } from '../../support/screenshots.js';

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
  /** Publishes the failed tests' screenshots of `summary` into this test's folder, no upload. */
  const publish = (summary: RunSummary, options: Partial<PublishOptions> = {}) =>
    publishScreenshots(summary, { mode: 'failed', artifactsDir: tmp, env: {}, ...options });

  it('a run with nothing to publish: an empty report, nothing logged', async () => {
    const summary = runSummary([suiteRun([testRun('passed', makeResult('p', { passing: true }))])]);
    const report = await publish(summary, { mode: 'all', log });
    expect(report).toEqual({ files: {}, missing: [], warnings: [] });
    expect(logs).toEqual([]);
  });

  it('says how many it downloads; one missing screenshot is named with its reason', async () => {
    const report = await publish(refusedRun(1), { log });
    expect(logs[0]).toBe('info: Downloading 1 screenshot(s)...');
    expect(report.missing).toHaveLength(1);
    const [warning] = report.warnings;
    expect(warning).toMatch(
      /^1 of 1 screenshot\(s\) not downloaded \(1 .*refused.*\): .+\.png \(.*refused.*\)$/,
    );
    expect(logs).toContain(`warning: ${warning}`);
    expect(report.files).toEqual({});
  });

  it('missing screenshots are counted by cause, then listed apart, each with its reason', async () => {
    const report = await publish(refusedRun(2));
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^2 of 2 screenshot\(s\) not downloaded \(2 [^,]+\): .+\.png \(.+\); .+\.png \(.+\)$/,
      ),
    ]);
  });

  it('a long missing list is cut to its bound with an ellipsis, once, in the report and the log', async () => {
    const report = await publish(refusedRun(40), { log });
    expect(report.missing).toHaveLength(40);
    expect(report.warnings).toHaveLength(1);
    const [warning] = report.warnings;
    expect(warning).toMatch(/^40 of 40 screenshot\(s\) not downloaded \(40 [^,]+\): /);
    expect(warning.endsWith('...')).toBe(true);
    expect(warning.length).toBeLessThanOrEqual(3003);
    expect(warning.length).toBeGreaterThan(2900);
    expect(logs.filter((l) => l.startsWith('warning: '))).toEqual([`warning: ${warning}`]);
  });
});

describe('publishScreenshots in GitHub (artifact service in the environment, injected client)', () => {
  let shots: ScreenshotServer;
  beforeAll(async () => {
    shots = await startScreenshotServer();
  });
  afterAll(async () => {
    await shots.close();
  });

  /** The environment of a job with the artifact service and `RUNNER_TEMP` inside this test's folder. */
  const github = () => ({
    ACTIONS_RUNTIME_TOKEN: 'token',
    GITHUB_JOB: 'e2e',
    GITHUB_RUN_ATTEMPT: '2',
    RUNNER_TEMP: path.join(tmp, 'runner-temp'),
  });

  /**
   * Publishes the failed tests' screenshots of `summary` in a job with the artifact service (kept in
   * `kept` of this test's folder, http allowed, no download retry), over `options`.
   */
  const publish = (summary: RunSummary, options: Partial<PublishOptions> = {}) =>
    publishScreenshots(summary, {
      mode: 'failed',
      artifactsDir: path.join(tmp, 'kept'),
      env: github(),
      download: { allowHttp: true, retries: 0 },
      ...options,
    });

  /** A client recording each upload (its name, files, root and options) and answering artifact id 5. */
  function recordingClient() {
    const uploads: { name: string; files: string[]; root: string; options?: UploadArtifactOptions }[] = [];
    const client: ArtifactUploader = {
      uploadArtifact: async (name, files, root, options) => {
        uploads.push({ name, files, root, options });
        return { id: 5, size: 1 };
      },
    };
    return { client, uploads };
  }

  /** Two failed test results: one whose screenshot is served, one whose screenshot is gone (404). */
  function run() {
    return runSummary([
      suiteRun([
        testRun(
          'failed',
          makeResult('ok', { passing: false, screenshotUrl: shots.add('pub-ok', randomPng(4, 4)) }),
        ),
        testRun('failed', makeResult('gone', { passing: false, screenshotUrl: `${shots.url}/gone/x.png` })),
      ]),
    ]);
  }

  it('downloads into a fresh folder of RUNNER_TEMP and uploads from there under the default name', async () => {
    const env = github();
    const { client, uploads } = recordingClient();
    const report = await publish(run(), { retentionDays: 4, env, client, log });
    expect(uploads).toHaveLength(1);
    const [upload] = uploads;
    expect(upload.name).toBe(defaultArtifactName(env));
    expect(upload.options?.retentionDays).toBe(4);
    expect(path.dirname(upload.root)).toBe(env.RUNNER_TEMP);
    expect(upload.files).toEqual([expect.stringMatching(/ok\.png$/)]);
    expect(upload.files[0].startsWith(`${upload.root}${path.sep}`)).toBe(true);
    expect(report.artifactId).toBe(5);
    expect(report.localDir).toBeUndefined();
  });

  it('reports each test result’s images by kind, relative to the artifact root', async () => {
    const { client, uploads } = recordingClient();
    const report = await publish(run(), { artifactName: 'mine', client });
    expect(uploads[0].name).toBe('mine');
    const relative = path.relative(uploads[0].root, uploads[0].files[0]).split(path.sep).join('/');
    expect(report.files).toEqual({ ok: { screenshot: relative } });
    expect(report.missing.map((m) => m.job.resultId)).toEqual(['gone']);
  });

  it('the missing-screenshot warning comes first, then the upload’s own', async () => {
    const client: ArtifactUploader = { uploadArtifact: () => Promise.reject(new UsageError()) };
    const report = await publish(run(), { client });
    expect(report.warnings).toEqual([
      expect.stringMatching(/^1 of 2 screenshot\(s\) not downloaded \(1 HTTP 404\): .+ \(HTTP 404 .+\)$/),
      expect.stringMatching(/^Screenshot artifact not uploaded: .+ kept in /),
    ]);
    expect(report.localDir).toBe(path.join(tmp, 'kept'));
  });

  it('nothing missing: no download warning', async () => {
    const { client } = recordingClient();
    const summary = runSummary([
      suiteRun([
        testRun(
          'failed',
          makeResult('ok', { passing: false, screenshotUrl: shots.add('pub-ok2', randomPng(4, 4)) }),
        ),
      ]),
    ]);
    const report = await publish(summary, { client, download: { allowHttp: true } });
    expect(report.warnings).toEqual([]);
    expect(report.missing).toEqual([]);
  });

  it('a cancel stops the download and the upload: nothing is uploaded', async () => {
    const { client, uploads } = recordingClient();
    const report = await publish(run(), {
      client,
      signal: AbortSignal.abort(new Error('the workflow was cancelled')),
    });
    expect(uploads).toEqual([]);
    expect(report.missing.map((m) => m.reason.replace(/ \(http.*$/, ''))).toEqual([
      'stopped: the workflow was cancelled',
      'stopped: the workflow was cancelled',
    ]);
  });
});

describe('the time limit of the downloads', () => {
  let shots: ScreenshotServer;
  beforeAll(async () => {
    shots = await startScreenshotServer();
  });
  afterAll(async () => {
    await shots.close();
  });

  /** `n` failed test results whose screenshots a host that never answers holds. */
  function heldRun(n: number) {
    const tests = Array.from({ length: n }, (_, i) =>
      testRun(
        'failed',
        makeResult(`h${i}`, { passing: false, screenshotUrl: `${shots.url}/hang/h${i}.png` }),
      ),
    );
    return runSummary([suiteRun(tests)]);
  }

  /**
   * Publishes `n` held screenshots outside GitHub on a manual clock; resolves with the ms of that clock at
   * which the downloads stopped, and the report.
   */
  async function stoppedAt(n: number) {
    const clock = new ManualClock(0);
    let done = false;
    const publishing = publishScreenshots(heldRun(n), {
      mode: 'failed',
      artifactsDir: tmp,
      env: {},
      download: { allowHttp: true, retries: 0 },
      clock,
      log,
    }).finally(() => (done = true));
    while (!done) {
      await clock.advance(1_000);
      await new Promise((r) => setTimeout(r, 5));
    }
    return { atMs: clock.now(), report: await publishing };
  }

  it('is 120 s for a few screenshots; what was not had is counted by cause in the warning', async () => {
    const { atMs, report } = await stoppedAt(6);
    // Not stopped before the limit (the host never answers); the warning says which limit stopped them.
    expect(atMs).toBeGreaterThanOrEqual(120_000);
    expect(report.missing).toHaveLength(6);
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^6 of 6 screenshot\(s\) not downloaded \(6 stopped: time limit of 120 s reached\): .+\.png \(stopped: /,
      ),
    ]);
  });

  it('grows with the count: 3,000 screenshots have at least 0.1 s each (4 at once from a host taking 0.4 s)', async () => {
    const { atMs, report } = await stoppedAt(3_000);
    expect(atMs).toBeGreaterThanOrEqual(3_000 * 100);
    expect(report.missing).toHaveLength(3_000);
    // The count and the cause survive the cut of a long list.
    expect(report.warnings[0]).toMatch(
      /^3000 of 3000 screenshot\(s\) not downloaded \(3000 stopped: time limit of 300 s reached\): .+\.\.\.$/,
    );
  });
});
