/**
 * `uploadScreenshots` with an injected client: which failures end the upload at once (the error classes
 * `@actions/artifact` exports and throws: `UsageError`, `FilesNotFoundError`, `GHESNotSupportedError`, see its
 * `lib/internal/shared/errors.js`), the cap on name clashes, a response without an id (`UploadArtifactResponse.id`
 * is optional in its `interfaces.d.ts`), and the retention option. No wait is real: `sleep` is injected.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
