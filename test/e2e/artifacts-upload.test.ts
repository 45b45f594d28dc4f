/**
 * End to end: the real `@actions/artifact` client uploads downloaded screenshots to the local fake of the
 * artifact service (Twirp + Azure Blob block upload), and the stored zip is unpacked with fflate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  downloadScreenshots,
  publishScreenshots,
  selectScreenshots,
  uploadScreenshots,
} from '../../src/artifacts/index.js';
import type { Logger } from '../../src/common/log.js';
import type { DownloadedFile } from '../../src/artifacts/index.js';
import { startFakeArtifactService } from '../support/fakes/artifact-service.js';
import type { FakeArtifactService } from '../support/fakes/artifact-service.js';
import { until } from '../support/harness.js';
import { runSummary, suiteRun, testRun } from '../support/run-factories.js';
import { makeResult, randomPng, setEnv, startScreenshotServer } from '../support/screenshots.js';
import type { ScreenshotServer } from '../support/screenshots.js';

let fake: FakeArtifactService;
let shots: ScreenshotServer;
let tmp: string;
let restoreEnv: () => void = () => undefined;
const logs: string[] = [];
const log: Logger = {
  info: (m) => logs.push(`info: ${m}`),
  warning: (m) => logs.push(`warning: ${m}`),
};

beforeAll(async () => {
  shots = await startScreenshotServer({ failures: 1 });
});
afterAll(async () => {
  await shots.close();
});
beforeEach(async () => {
  fake = await startFakeArtifactService();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'gi-artifacts-e2e-'));
  logs.length = 0;
  restoreEnv = setEnv({
    ...fake.env({ runId: 'run-42', jobId: 'job-7' }),
    GITHUB_REPOSITORY: 'octo/app',
    GITHUB_RUN_ID: '123456',
    GITHUB_RUN_ATTEMPT: '2',
    GITHUB_JOB: 'e2e',
    RUNNER_TEMP: tmp,
    GITHUB_RETENTION_DAYS: undefined,
    ACTIONS_ARTIFACT_UPLOAD_CONCURRENCY: undefined,
  });
});
afterEach(async () => {
  restoreEnv();
  await fake.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Builds a run with `n` failed tests, each with a distinct random PNG; returns the summary and bytes per path. */
function failedRun(n: number, options: { withComparison?: boolean; prefix?: string } = {}) {
  const expected = new Map<string, Buffer>();
  const tests = [];
  for (let i = 0; i < n; i++) {
    const id = `${options.prefix ?? 'r'}${i}`;
    const png = randomPng(40 + i, 30);
    const screenshotUrl = shots.add(id, png);
    let compareUrl: string | undefined;
    if (options.withComparison) compareUrl = shots.add(`${id}-cmp`, randomPng(20, 20 + i));
    tests.push(
      testRun(
        'failed',
        makeResult(id, { passing: false, name: `Login: step ${i}`, screenshotUrl, compareUrl }),
      ),
    );
  }
  const summary = runSummary([
    suiteRun(tests, { key: 'suite-a-0', suiteName: 'Checkout / Smoke', variant: { browser: 'firefox' } }),
  ]);
  for (const job of selectScreenshots(summary, 'failed')) {
    const key = new URL(job.url).pathname.split('/')[2].replace(/\.png$/, '');
    expected.set(job.relativePath, shots.images.get(key)!);
  }
  return { summary, expected };
}

async function unzipArtifact(index = 0): Promise<Record<string, Uint8Array>> {
  const zip = await fake.readZip(fake.artifacts[index]);
  const entries = unzipSync(new Uint8Array(zip));
  // Directory entries (names ending in /) carry no bytes.
  return Object.fromEntries(Object.entries(entries).filter(([name]) => !name.endsWith('/')));
}

function expectSameFiles(entries: Record<string, Uint8Array>, expected: Map<string, Buffer>): void {
  expect(Object.keys(entries).sort()).toEqual([...expected.keys()].sort());
  for (const [name, bytes] of expected) {
    expect(Buffer.from(entries[name]).equals(bytes), name).toBe(true);
  }
}

describe('upload through the real @actions/artifact client', () => {
  it('stores exactly the downloaded PNG files, byte for byte, and reports id and url', async () => {
    const { summary, expected } = failedRun(5, { withComparison: true });
    const report = await publishScreenshots(summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'shots',
      retentionDays: 3,
      artifactsDir: path.join(tmp, 'local'),
      log,
    });
    expect(report.missing).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(fake.artifacts).toHaveLength(1);
    const stored = fake.artifacts[0];
    expect(stored.name).toBe('shots');
    expect(stored.runId).toBe('run-42');
    expect(stored.jobId).toBe('job-7');
    expect(report.artifactId).toBe(stored.id);
    expect(report.artifactName).toBe('shots');
    expect(report.artifactUrl).toBe(`https://github.com/octo/app/actions/runs/123456/artifacts/${stored.id}`);
    expect(report.localDir).toBeUndefined();
    // The client sent the size and digest of what the fake stored.
    expect(stored.reportedHash).toBe(`sha256:${stored.sha256}`);
    expect(stored.reportedSize).toBe(stored.size);
    // Retention: about 3 days from now.
    const days = (Date.parse(stored.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.1);

    expect(expected.size).toBe(10);
    expectSameFiles(await unzipArtifact(), expected);
    // The map points at paths inside the artifact.
    expect(report.files.r0).toEqual({
      screenshot: 'Checkout _ Smoke/Login_ step 0 [firefox]-r0.png',
      comparison: 'Checkout _ Smoke/Login_ step 0 [firefox]-r0-comparison.png',
    });
    // The blob went up as Put Block + Put Block List to the signed URL on loopback.
    const ops = fake.requests.map((r) => r.operation);
    expect(ops[0]).toBe('CreateArtifact');
    expect(ops).toContain('PutBlock');
    expect(ops.at(-2)).toBe('PutBlockList');
    expect(ops.at(-1)).toBe('FinalizeArtifact');
  });

  it('a 409 name clash gets the next suffix and succeeds', async () => {
    const { summary, expected } = failedRun(2);
    fake.reserveName('shots');
    fake.reserveName('shots-2');
    const report = await publishScreenshots(summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'shots',
      artifactsDir: tmp,
      log,
    });
    expect(report.warnings).toEqual([]);
    expect(report.artifactName).toBe('shots-3');
    expect(fake.artifacts.map((a) => a.name)).toEqual(['shots-3']);
    const creates = fake.requests.filter((r) => r.operation === 'CreateArtifact');
    expect(creates.map((r) => [r.name, r.status])).toEqual([
      ['shots', 409],
      ['shots-2', 409],
      ['shots-3', 200],
    ]);
    expectSameFiles(await unzipArtifact(), expected);
  });

  it('two uploads under one name in one run: the second becomes name-2', async () => {
    const first = failedRun(1, { prefix: 'a' });
    const second = failedRun(1, { prefix: 'b' });
    const r1 = await publishScreenshots(first.summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'same',
      artifactsDir: tmp,
      log,
    });
    const r2 = await publishScreenshots(second.summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'same',
      artifactsDir: tmp,
      log,
    });
    expect([r1.artifactName, r2.artifactName]).toEqual(['same', 'same-2']);
    expect(r2.artifactId).not.toBe(r1.artifactId);
    expectSameFiles(await unzipArtifact(1), second.expected);
  });

  it('a 503 on Put Block is retried by the storage client and the artifact is complete', async () => {
    const { summary, expected } = failedRun(3);
    fake.failNext('PutBlock', 503);
    const report = await publishScreenshots(summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'retry-blob',
      artifactsDir: tmp,
      log,
    });
    expect(report.warnings).toEqual([]);
    expect(report.artifactId).toBe(fake.artifacts[0].id);
    const blocks = fake.requests.filter((r) => r.operation === 'PutBlock').map((r) => r.status);
    expect(blocks[0]).toBe(503);
    expect(blocks.slice(1).every((s) => s === 201)).toBe(true);
    expectSameFiles(await unzipArtifact(), expected);
  });

  it('a 503 on CreateArtifact is retried by the artifact client (about 3 s) and succeeds', async () => {
    const { summary, expected } = failedRun(2);
    fake.failNext('CreateArtifact', 503);
    const report = await publishScreenshots(summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'retry-twirp',
      artifactsDir: tmp,
      log,
    });
    expect(report.warnings).toEqual([]);
    const creates = fake.requests.filter((r) => r.operation === 'CreateArtifact').map((r) => r.status);
    expect(creates).toEqual([503, 200]);
    expect(report.artifactName).toBe('retry-twirp');
    expectSameFiles(await unzipArtifact(), expected);
  });

  it('an upload that fails for good warns, keeps the files locally and does not throw', async () => {
    const { summary, expected } = failedRun(2);
    // Five 400s: the client does not retry them and neither does the uploader (non-retryable).
    fake.failNext('CreateArtifact', 400, 5);
    const localDir = path.join(tmp, 'kept');
    const report = await publishScreenshots(summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'bad',
      artifactsDir: localDir,
      log,
    });
    expect(report.artifactId).toBeUndefined();
    expect(report.localDir).toBe(localDir);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatch(/Screenshot artifact not uploaded: .*400.*kept in/);
    expect(fake.artifacts).toHaveLength(0);
    // Asked once, under its own name: a permanent failure is neither tried again nor under another name.
    const creates = fake.requests.filter((r) => r.operation === 'CreateArtifact');
    expect(creates.map((r) => [r.name, r.status])).toEqual([['bad', 400]]);
    const { readFile } = await import('node:fs/promises');
    for (const [rel, bytes] of expected) {
      expect((await readFile(path.join(localDir, rel))).equals(bytes)).toBe(true);
    }
  });

  it('a failure that is not a name clash keeps the name: a passing one is tried again, a permanent one not', async () => {
    const dir = path.join(tmp, 'files');
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'a.png');
    await writeFile(file, randomPng(4, 4));
    const files: DownloadedFile[] = [{ job: undefined as never, path: file, bytes: 1, attempts: 1 }];
    const upload = (failures: Error[]) => {
      const names: string[] = [];
      const client = {
        uploadArtifact: async (name: string) => {
          names.push(name);
          const failure = failures.shift();
          if (failure) throw failure;
          return { id: 7, size: 1 };
        },
      };
      const report = uploadScreenshots(files, {
        name: 'shots',
        rootDirectory: dir,
        artifactsDir: path.join(tmp, 'kept'),
        client,
        attempts: 2,
        sleep: async () => undefined,
        log,
      });
      return { names, report };
    };
    const passing = upload([new Error('Failed request: (503) Service Unavailable')]);
    expect((await passing.report).artifactName).toBe('shots');
    expect(passing.names).toEqual(['shots', 'shots']);
    const usage = Object.assign(new Error('Artifact name is not valid'), { name: 'UsageError' });
    for (const permanent of [usage, new Error('Unable to get the ACTIONS_RUNTIME_TOKEN env variable')]) {
      const once = upload([permanent, permanent]);
      const report = await once.report;
      expect(report.artifactId).toBeUndefined();
      expect(report.warnings[0]).toMatch(/Screenshot artifact not uploaded: .*kept in/);
      expect(once.names).toEqual(['shots']);
    }
    const twice = upload([new Error('socket hang up'), new Error('socket hang up')]);
    expect((await twice.report).artifactId).toBeUndefined();
    expect(twice.names).toEqual(['shots', 'shots']);
  });

  it('an upload the service never answers stops on the signal, keeps the files locally and does not throw', async () => {
    const { summary, expected } = failedRun(2);
    fake.failNext('CreateArtifact', 0, 5);
    const localDir = path.join(tmp, 'kept-on-stop');
    const controller = new AbortController();
    const heldBefore = fake.heldCount();
    const started = Date.now();
    const publishing = publishScreenshots(summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'held',
      artifactsDir: localDir,
      signal: controller.signal,
      log,
    });
    await until(() => fake.heldCount() > heldBefore, 20_000);
    controller.abort();
    const report = await publishing;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.artifactId).toBeUndefined();
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^Screenshot artifact not uploaded: stopped: the workflow was cancelled\. .*kept in/,
      ),
    ]);
    const { readFile } = await import('node:fs/promises');
    for (const [rel, bytes] of expected) {
      expect((await readFile(path.join(localDir, rel))).equals(bytes)).toBe(true);
    }
  });

  it('a workflow cancel during the downloads: the upload does not start, the files had are kept locally', async () => {
    const ok = randomPng(30, 30);
    shots.add('okCancel', ok);
    const summary = runSummary([
      suiteRun(
        [
          testRun(
            'failed',
            makeResult('okCancel', {
              passing: false,
              name: 'ok',
              screenshotUrl: `${shots.url}/img/okCancel.png`,
            }),
          ),
          testRun(
            'failed',
            makeResult('hangCancel', {
              passing: false,
              name: 'hang',
              screenshotUrl: `${shots.url}/hang/hangCancel.png`,
            }),
          ),
        ],
        { key: 's-0', suiteName: 'Suite' },
      ),
    ]);
    const localDir = path.join(tmp, 'kept-on-cancel');
    const controller = new AbortController();
    const publishing = publishScreenshots(summary, {
      download: { allowHttp: true },
      mode: 'failed',
      artifactName: 'cancelled',
      artifactsDir: localDir,
      signal: controller.signal,
      log,
    });
    const { readdirSync } = await import('node:fs');
    // This test's own file (its name ends in the result id): other tests leave PNGs under tmp too.
    const saved = (): boolean =>
      readdirSync(tmp, { recursive: true }).some((f) => String(f).endsWith('-okCancel.png'));
    await until(() => saved() && shots.hits.has('/hang/hangCancel.png'), 20_000);
    controller.abort();
    const report = await publishing;
    // The upload's own time limit starts after the cancel: it must see the cancel already given.
    expect(fake.requests.filter((r) => r.operation === 'CreateArtifact')).toEqual([]);
    expect(report.artifactId).toBeUndefined();
    expect(report.missing.map((m) => m.reason)).toEqual([
      expect.stringMatching(/^stopped: the workflow was cancelled/),
    ]);
    expect(report.warnings.at(-1)).toMatch(
      /^Screenshot artifact not uploaded: stopped: the workflow was cancelled\. .*kept in/,
    );
    expect(Object.keys(report.files)).toEqual(['okCancel']);
  });

  it('a screenshot that answers 500 then 200 is in the artifact; one that never answers is reported missing', async () => {
    const ok = randomPng(50, 50);
    const flaky = randomPng(60, 40);
    shots.add('okA', ok);
    shots.images.set('flakyA', flaky);
    const summary = runSummary([
      suiteRun(
        [
          testRun(
            'failed',
            makeResult('okA', { passing: false, name: 'ok', screenshotUrl: `${shots.url}/img/okA.png` }),
          ),
          testRun(
            'failed',
            makeResult('flakyA', {
              passing: false,
              name: 'flaky',
              screenshotUrl: `${shots.url}/flaky/flakyA.png`,
            }),
          ),
          testRun(
            'timed-out',
            makeResult('hangA', {
              passing: false,
              name: 'hang',
              screenshotUrl: `${shots.url}/hang/hangA.png`,
            }),
          ),
        ],
        { key: 's-0', suiteName: 'Suite' },
      ),
    ]);
    const report = await publishScreenshots(summary, {
      mode: 'failed',
      artifactName: 'partial',
      artifactsDir: tmp,
      log,
      download: { timeoutMs: 300, retries: 1, backoffMs: 10, allowHttp: true },
    });
    expect(report.missing.map((m) => m.job.resultId)).toEqual(['hangA']);
    expect(report.missing[0].reason).toMatch(/answer within 300 ms/);
    expect(report.warnings[0]).toMatch(
      /1 of 3 screenshot\(s\) not downloaded \(1 no complete answer within 300 ms\): Suite\/hang-hangA.png/,
    );
    expect(Object.keys(report.files).sort()).toEqual(['flakyA', 'okA']);
    expect(fake.artifacts).toHaveLength(1);
    expect(report.artifactId).toBe(fake.artifacts[0].id);
    expectSameFiles(
      await unzipArtifact(),
      new Map([
        ['Suite/ok-okA.png', ok],
        ['Suite/flaky-flakyA.png', flaky],
      ]),
    );
  });

  it('GITHUB_SERVER_URL on a *.localhost host is accepted; on other hosts (GHES) no upload is tried, the folder is kept', async () => {
    const { summary } = failedRun(1, { prefix: 'g' });
    const restore = setEnv({ GITHUB_SERVER_URL: 'http://github.localhost' });
    try {
      const ok = await publishScreenshots(summary, {
        download: { allowHttp: true },
        mode: 'failed',
        artifactName: 'local-host',
        artifactsDir: tmp,
        log,
      });
      expect(ok.artifactUrl).toBe(
        `http://github.localhost/octo/app/actions/runs/123456/artifacts/${ok.artifactId}`,
      );
      process.env.GITHUB_SERVER_URL = 'https://ghes.example.com';
      const requestsBefore = fake.requests.length;
      const localDir = path.join(tmp, 'ghes');
      const ghes = await publishScreenshots(summary, {
        download: { allowHttp: true },
        mode: 'failed',
        artifactName: 'ghes',
        artifactsDir: localDir,
        log,
      });
      expect(ghes.artifactId).toBeUndefined();
      expect(ghes.localDir).toBe(localDir);
      expect(fake.requests.length).toBe(requestsBefore);
      expect(ghes.warnings).toEqual([
        expect.stringMatching(
          /^Screenshot artifact not uploaded: https:\/\/ghes\.example\.com is GitHub Enterprise Server, .* kept in /,
        ),
      ]);
    } finally {
      restore();
    }
  });
});

describe('uploadScreenshots alone', () => {
  /** Two downloaded screenshots, and a client that counts its uploads and never answers (it takes no signal). */
  async function stoppable() {
    const { summary } = failedRun(2, { prefix: 'c' });
    const dir = path.join(tmp, 'downloads');
    const { files } = await downloadScreenshots(selectScreenshots(summary, 'failed'), dir, {
      allowHttp: true,
    });
    const uploads: string[] = [];
    return { files: files as DownloadedFile[], dir, uploads };
  }

  it('a cancel given before the upload: the upload never starts, the files are kept', async () => {
    const { files, dir, uploads } = await stoppable();
    const controller = new AbortController();
    controller.abort(new Error('the workflow was cancelled'));
    const report = await uploadScreenshots(files, {
      name: 'x',
      rootDirectory: dir,
      artifactsDir: path.join(tmp, 'kept'),
      client: { uploadArtifact: (name) => (uploads.push(name), new Promise(() => {})) },
      signal: controller.signal,
      log,
    });
    expect(uploads).toEqual([]);
    expect(report.artifactId).toBeUndefined();
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^Screenshot artifact not uploaded: stopped: the workflow was cancelled\. .*kept in/,
      ),
    ]);
  });

  it('a cancel during the wait before another try: no further upload starts', async () => {
    const { files, dir, uploads } = await stoppable();
    const controller = new AbortController();
    const report = await uploadScreenshots(files, {
      name: 'x',
      rootDirectory: dir,
      artifactsDir: path.join(tmp, 'kept'),
      client: {
        uploadArtifact: (name) => (uploads.push(name), Promise.reject(new Error('socket hang up'))),
      },
      sleep: () => (controller.abort(new Error('the workflow was cancelled')), Promise.resolve()),
      signal: controller.signal,
      log,
    });
    expect(uploads).toEqual(['x']);
    expect(report.warnings.at(-1)).toMatch(
      /^Screenshot artifact not uploaded: stopped: the workflow was cancelled\./,
    );
  });

  it('with no files does nothing', async () => {
    const report = await uploadScreenshots([], { name: 'x', rootDirectory: tmp, artifactsDir: tmp });
    expect(report).toEqual({ warnings: [] });
    expect(fake.requests).toHaveLength(0);
  });

  it('outside GitHub (no ACTIONS_RUNTIME_TOKEN) writes to artifacts-dir and logs the path', async () => {
    const { summary, expected } = failedRun(2, { prefix: 'l' });
    const jobs = selectScreenshots(summary, 'failed');
    const dir = path.join(tmp, 'downloads');
    const { files } = await downloadScreenshots(jobs, dir, { allowHttp: true });
    const artifactsDir = path.join(tmp, 'artifacts-dir');
    const report = await uploadScreenshots(files as DownloadedFile[], {
      name: 'x',
      rootDirectory: dir,
      artifactsDir,
      env: {},
      log,
    });
    expect(report.localDir).toBe(artifactsDir);
    expect(report.warnings).toEqual([]);
    expect(logs).toContain(`info: Screenshots (2) written to ${artifactsDir}`);
    expect(fake.requests).toHaveLength(0);
    const { readFile } = await import('node:fs/promises');
    for (const [rel, bytes] of expected) {
      expect((await readFile(path.join(artifactsDir, rel))).equals(bytes)).toBe(true);
    }
  });
});
