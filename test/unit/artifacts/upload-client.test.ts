/**
 * `uploadScreenshots` with an injected client: which failures end the upload at once (the error classes
 * `@actions/artifact` exports and throws: `UsageError`, `FilesNotFoundError`, `GHESNotSupportedError`, see its
 * `lib/internal/shared/errors.js`), the cap on name clashes, a response without an id (`UploadArtifactResponse.id`
 * is optional in its `interfaces.d.ts`), and the retention option; which messages are a name clash or a
 * failure for good, what is logged, how the files are kept locally, and a stopped upload. No wait is real:
 * `sleep` is injected.
 */
import { getEventListeners } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { FilesNotFoundError, GHESNotSupportedError, UsageError } from '@actions/artifact';
import type { UploadArtifactOptions, UploadArtifactResponse } from '@actions/artifact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { uploadScreenshots } from '../../../src/artifacts/index.js';
import type { ArtifactUploader, DownloadedFile } from '../../../src/artifacts/index.js';

let tmp: string;
let files: DownloadedFile[];
const env = { ACTIONS_RUNTIME_TOKEN: 'token' };

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'gi-upload-client-'));
  const file = path.join(tmp, 'root', 'a.png');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'png');
  files = [{ path: file } as DownloadedFile];
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A client answering each call with the next of `answers` (an error is thrown); records the calls. */
function scripted(answers: (UploadArtifactResponse | Error)[]) {
  const calls: { name: string; options?: UploadArtifactOptions }[] = [];
  const client: ArtifactUploader = {
    uploadArtifact: (name, _files, _root, options) => {
      calls.push({ name, options });
      const answer = answers[Math.min(calls.length, answers.length) - 1];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  return { client, calls };
}

function options(client: ArtifactUploader, extra: Record<string, unknown> = {}) {
  return {
    name: 'shots',
    rootDirectory: path.join(tmp, 'root'),
    artifactsDir: path.join(tmp, 'kept'),
    env,
    client,
    attempts: 3,
    sleep: () => Promise.resolve(),
    ...extra,
  };
}

describe('uploadScreenshots with an injected client', () => {
  it.each([
    ['UsageError', new UsageError()],
    ['FilesNotFoundError', new FilesNotFoundError(['a.png'])],
    ['GHESNotSupportedError', new GHESNotSupportedError()],
  ])('a %s is not tried again: the files are kept', async (_name, error) => {
    const { client, calls } = scripted([error]);
    const report = await uploadScreenshots(files, options(client));
    expect(calls).toHaveLength(1);
    expect(report.localDir).toBe(path.join(tmp, 'kept'));
    expect(report.warnings[0]).toMatch(/^Screenshot artifact not uploaded: /);
  });

  it('a passing failure is tried up to `attempts` times under one name', async () => {
    const { client, calls } = scripted([new Error('socket hang up')]);
    const report = await uploadScreenshots(files, options(client));
    expect(calls.map((c) => c.name)).toEqual(['shots', 'shots', 'shots']);
    expect(report.warnings[0]).toContain('socket hang up');
  });

  // The client's Twirp error for an HTTP status: `Failed request: (<status>) <status text>`
  // (`lib/internal/shared/artifact-twirp-client.js`).
  it('name clashes end after a bounded number of names', async () => {
    const { client, calls } = scripted([new Error('Failed request: (409) Conflict')]);
    const report = await uploadScreenshots(files, options(client));
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.length).toBeLessThanOrEqual(20);
    expect(new Set(calls.map((c) => c.name)).size).toBe(calls.length);
    expect(report.localDir).toBe(path.join(tmp, 'kept'));
  });

  it('a response without an artifact id is a failure', async () => {
    const { client } = scripted([{ size: 3 }]);
    const report = await uploadScreenshots(files, options(client, { attempts: 1 }));
    expect(report.artifactId).toBeUndefined();
    expect(report.warnings[0]).toContain('no artifact id');
  });

  it('retention days go to the client when positive, not otherwise; an id gives the url', async () => {
    for (const [days, expected] of [
      [5, 5],
      [0, undefined],
      [undefined, undefined],
    ] as const) {
      const { client, calls } = scripted([{ id: 7, size: 3 }]);
      const report = await uploadScreenshots(
        files,
        options(client, {
          retentionDays: days,
          env: {
            ...env,
            GITHUB_SERVER_URL: 'https://github.com',
            GITHUB_REPOSITORY: 'o/r',
            GITHUB_RUN_ID: '9',
          },
        }),
      );
      expect(calls[0].options?.retentionDays).toBe(expected);
      expect(report.artifactId).toBe(7);
      expect(report.artifactUrl).toBe('https://github.com/o/r/actions/runs/9/artifacts/7');
    }
  });
});

describe('which failures are the name being taken', () => {
  it.each([
    'Failed request: (409) Conflict',
    'Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run',
    'Request failed with status 409: Conflict',
    'twirp error already_exists: artifact exists',
    'An artifact with the name shots ALREADY EXISTS',
  ])('%s: the next name is tried', async (message) => {
    const { client, calls } = scripted([new Error(message), { id: 3, size: 3 }]);
    const report = await uploadScreenshots(files, options(client));
    expect(calls.map((c) => c.name)).toEqual(['shots', 'shots-2']);
    expect(report.artifactName).toBe('shots-2');
  });

  it.each(['Failed request: (500) 4090 items', 'conflict 409 after', 'status 14090 conflict', 'already'])(
    '%s: not a clash, the same name is tried again',
    async (message) => {
      const { client, calls } = scripted([new Error(message), { id: 3, size: 3 }]);
      const report = await uploadScreenshots(files, options(client));
      expect(calls.map((c) => c.name)).toEqual(['shots', 'shots']);
      expect(report.artifactName).toBe('shots');
    },
  );
});

describe('which failures end the upload at once (by their message)', () => {
  it.each([
    'Received non-retryable error: Failed request: (400) Bad Request',
    'Artifact name is not valid: shots',
    'Unable to get the ACTIONS_RUNTIME_TOKEN env variable',
    'Failed to get backend IDs: invalid and/or missing claims',
    'The file /tmp/x.png does not exist',
    'The root directory /tmp is not a parent directory of the file /x.png',
  ])('%s: one try, the files kept', async (message) => {
    const { client, calls } = scripted([new Error(message)]);
    const report = await uploadScreenshots(files, options(client));
    expect(calls).toHaveLength(1);
    expect(report.localDir).toBe(path.join(tmp, 'kept'));
  });
});

describe('what an upload logs and reports', () => {
  function recorder() {
    const logs: string[] = [];
    const log = {
      info: (m: string) => logs.push(`info: ${m}`),
      warning: (m: string) => logs.push(`warning: ${m}`),
    };
    return { logs, log };
  }

  it('no files: nothing uploaded, kept or logged', async () => {
    const { client, calls } = scripted([{ id: 1, size: 1 }]);
    const { logs, log } = recorder();
    const report = await uploadScreenshots([], options(client, { log }));
    expect(report).toEqual({ warnings: [] });
    expect(calls).toEqual([]);
    expect(logs).toEqual([]);
  });

  it('the files go uncompressed (PNG is compressed already)', async () => {
    const { client, calls } = scripted([{ id: 1, size: 1 }]);
    await uploadScreenshots(files, options(client));
    expect(calls[0].options?.compressionLevel).toBe(0);
  });

  it('a taken name is logged and the upload under the next name says so; a first name says nothing', async () => {
    const first = recorder();
    await uploadScreenshots(files, options(scripted([{ id: 1, size: 1 }]).client, { log: first.log }));
    expect(first.logs).toEqual([]);
    const { logs, log } = recorder();
    const { client } = scripted([new Error('Failed request: (409) Conflict'), { id: 2, size: 1 }]);
    await uploadScreenshots(files, options(client, { log }));
    expect(logs).toEqual([
      'info: Artifact name shots is taken (409); trying shots-2.',
      'info: Artifact name shots was taken; uploaded as shots-2.',
    ]);
  });

  it('a failure tried again is logged; the last one is a warning, with the files copied to artifactsDir', async () => {
    const { logs, log } = recorder();
    const { client } = scripted([new Error('socket hang up\n    at stack line')]);
    const report = await uploadScreenshots(files, options(client, { log, attempts: 2 }));
    const kept = path.join(tmp, 'kept');
    const warning = `Screenshot artifact not uploaded: socket hang up. The 1 screenshot(s) are kept in ${kept}.`;
    expect(logs).toEqual([
      expect.stringMatching(/^info: Artifact upload failed \(socket hang up\); trying again in \d+ ms\.$/),
      `warning: ${warning}`,
    ]);
    expect(report).toEqual({ localDir: kept, warnings: [warning] });
    expect(await readFile(path.join(kept, 'a.png'), 'utf8')).toBe('png');
  });

  it('two tries of one name unless told otherwise, with the given wait between them', async () => {
    const { client, calls } = scripted([new Error('socket hang up')]);
    const sleeps: number[] = [];
    await uploadScreenshots(files, {
      ...options(client),
      attempts: undefined,
      sleep: async (ms: number) => void sleeps.push(ms),
    });
    expect(calls).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('a long error is cut to a bounded first line', async () => {
    const { client } = scripted([new Error(`${'x'.repeat(2000)}\nsecond line`)]);
    const report = await uploadScreenshots(files, options(client, { attempts: 1 }));
    const [warning] = report.warnings;
    expect(warning).not.toContain('second line');
    expect(warning.length).toBeLessThan(1000);
  });

  it('a name with nothing left after sanitizing is not uploaded: the files are kept', async () => {
    const { client, calls } = scripted([{ id: 1, size: 1 }]);
    const report = await uploadScreenshots(files, options(client, { name: ' \u200b ' }));
    expect(calls).toEqual([]);
    expect(report.localDir).toBe(path.join(tmp, 'kept'));
    expect(report.warnings[0]).toMatch(/^Screenshot artifact not uploaded: artifact-name is empty/);
  });

  it('outside a workflow run an artifact has no url', async () => {
    const { client } = scripted([{ id: 7, size: 1 }]);
    const report = await uploadScreenshots(files, options(client));
    expect(report.artifactId).toBe(7);
    expect(report.artifactUrl).toBeUndefined();
  });
});

describe('keeping the files locally', () => {
  it('outside GitHub, files already in artifactsDir stay there: an info line, no warning', async () => {
    const logs: string[] = [];
    const log = {
      info: (m: string) => logs.push(`info: ${m}`),
      warning: (m: string) => logs.push(`warning: ${m}`),
    };
    const root = path.join(tmp, 'root');
    const report = await uploadScreenshots(files, {
      name: 's',
      rootDirectory: root,
      artifactsDir: root,
      env: {},
      log,
    });
    expect(report).toEqual({ localDir: root, warnings: [] });
    expect(logs).toEqual([`info: Screenshots (1) written to ${root}`]);
  });

  it('outside GitHub, files elsewhere are copied to artifactsDir', async () => {
    const kept = path.join(tmp, 'kept');
    const report = await uploadScreenshots(files, { ...options(scripted([]).client), env: {} });
    expect(report).toEqual({ localDir: kept, warnings: [] });
    expect(await readFile(path.join(kept, 'a.png'), 'utf8')).toBe('png');
  });

  it('when artifactsDir cannot be written, the warning says so and no folder is reported', async () => {
    await writeFile(path.join(tmp, 'kept'), 'a file, not a folder');
    const outside = await uploadScreenshots(files, { ...options(scripted([]).client), env: {} });
    expect(outside.localDir).toBeUndefined();
    expect(outside.warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^Keeping the screenshots in ${path.join(tmp, 'kept')} failed too: .+`),
      ),
    ]);
    const failed = await uploadScreenshots(
      files,
      options(scripted([new UsageError()]).client, { attempts: 1 }),
    );
    expect(failed.warnings).toEqual([
      expect.stringMatching(
        /^Screenshot artifact not uploaded: .+ Keeping the screenshots in .+ failed too: .+/,
      ),
    ]);
  });
});

describe('a stopped upload', () => {
  it('a signal fired before: the client is not called, the files are kept, the warning says why', async () => {
    const { client, calls } = scripted([{ id: 1, size: 1 }]);
    const signal = AbortSignal.abort(new Error('the time limit passed'));
    const report = await uploadScreenshots(files, options(client, { signal }));
    expect(calls).toEqual([]);
    expect(report.localDir).toBe(path.join(tmp, 'kept'));
    expect(report.warnings[0]).toMatch(/^Screenshot artifact not uploaded: stopped: the time limit passed\./);
  });

  it('a signal fired during the upload ends it at once: no retry, no other name', async () => {
    const controller = new AbortController();
    let calls = 0;
    const client: ArtifactUploader = {
      uploadArtifact: () => {
        calls++;
        controller.abort(new Error('the workflow was cancelled'));
        return new Promise(() => undefined);
      },
    };
    const sleeps: number[] = [];
    const report = await uploadScreenshots(
      files,
      options(client, { signal: controller.signal, sleep: async (ms: number) => void sleeps.push(ms) }),
    );
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
    expect(report.warnings[0]).toMatch(
      /^Screenshot artifact not uploaded: stopped: the workflow was cancelled\./,
    );
  });

  it('many tries under one signal leave no listener on it', async () => {
    const { signal } = new AbortController();
    const { client, calls } = scripted([
      new Error('socket hang up'),
      new Error('socket hang up'),
      { id: 1, size: 1 },
    ]);
    await uploadScreenshots(files, options(client, { signal }));
    expect(calls).toHaveLength(3);
    expect(getEventListeners(signal, 'abort')).toEqual([]);
  });

  it('a name clash as the signal fires: no other name is tried', async () => {
    const controller = new AbortController();
    const { client, calls } = scripted([new Error('Failed request: (409) Conflict')]);
    const stopping: ArtifactUploader = {
      uploadArtifact: (...args) => {
        const answer = client.uploadArtifact(...args);
        controller.abort(new Error('cancelled'));
        return answer;
      },
    };
    const report = await uploadScreenshots(files, options(stopping, { signal: controller.signal }));
    expect(calls).toHaveLength(1);
    expect(report.localDir).toBe(path.join(tmp, 'kept'));
  });
});
