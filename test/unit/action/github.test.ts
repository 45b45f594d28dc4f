/**
 * The GitHub context (`src/github.ts`): every GitHub variable the action reads, read in one place.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentKey, failureIssueKey, readGitHubContext, workflowRunUrl } from '../../../src/github.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gi-github-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function eventFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('readGitHubContext', () => {
  it('outside GitHub: nothing set, documented defaults', () => {
    expect(readGitHubContext({})).toEqual({
      onRunner: false,
      repository: null,
      pullRequest: null,
      job: null,
      workflow: null,
      eventName: null,
      ref: null,
      runId: null,
      runAttempt: null,
      step: null,
      serverUrl: 'https://github.com',
      apiUrl: null,
      workspace: null,
      outputFile: null,
      summaryFile: null,
      runnerTemp: null,
      artifactService: false,
      enterpriseServer: false,
      matrixDigest: null,
    });
  });

  it('the pull request number comes from the event file; other events, bad files and no file give null', async () => {
    const pr = await eventFile('pr.json', JSON.stringify({ pull_request: { number: 42 }, number: 42 }));
    const push = await eventFile('push.json', JSON.stringify({ ref: 'refs/heads/main', number: 7 }));
    const broken = await eventFile('broken.json', '{ not json');
    expect(readGitHubContext({ GITHUB_EVENT_PATH: pr }).pullRequest).toBe(42);
    expect(readGitHubContext({ GITHUB_EVENT_PATH: push }).pullRequest).toBeNull();
    expect(readGitHubContext({ GITHUB_EVENT_PATH: broken }).pullRequest).toBeNull();
    expect(readGitHubContext({ GITHUB_EVENT_PATH: path.join(dir, 'missing.json') }).pullRequest).toBeNull();
  });

  it('repository, run, job and servers; the web server without its trailing slash', () => {
    const context = readGitHubContext({
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_RUN_ID: '99',
      GITHUB_RUN_ATTEMPT: '2',
      GITHUB_JOB: 'browser-tests',
      GITHUB_SERVER_URL: 'https://ghe.example/',
      GITHUB_API_URL: 'https://ghe.example/api/v3',
      ACTIONS_RUNTIME_TOKEN: 'runtime',
    });
    expect(context).toMatchObject({
      onRunner: true,
      repository: { owner: 'acme', repo: 'shop' },
      runAttempt: '2',
      job: 'browser-tests',
      serverUrl: 'https://ghe.example',
      apiUrl: 'https://ghe.example/api/v3',
      artifactService: true,
      enterpriseServer: true,
    });
    expect(workflowRunUrl(context)).toBe('https://ghe.example/acme/shop/actions/runs/99');
    expect(workflowRunUrl(readGitHubContext({ GITHUB_REPOSITORY: 'acme' }))).toBeUndefined();
    expect(readGitHubContext({ GITHUB_REPOSITORY: 'acme' }).repository).toBeNull();
  });

  it('GitHub Enterprise Server: a server host other than github.com, *.ghe.com and *.localhost', () => {
    const server = (url: string) => readGitHubContext({ GITHUB_SERVER_URL: url }).enterpriseServer;
    for (const url of [
      'https://github.com',
      'https://GitHub.com/',
      'https://acme.ghe.com',
      'http://github.localhost',
    ]) {
      expect(server(url), url).toBe(false);
    }
    for (const url of ['https://ghes.acme.example', 'https://github.acme.com', 'https://ghe.com.example']) {
      expect(server(url), url).toBe(true);
    }
  });

  it('the matrix digest tells legs apart by their inputs, never by a secret', () => {
    const leg = { GITHUB_JOB: 'ghost', GITHUB_ACTION: '__run', INPUT_BROWSER: 'chrome', INPUT_API_KEY: 'k1' };
    const digest = readGitHubContext(leg).matrixDigest;
    expect(digest).toMatch(/^[0-9a-f]{8}$/);
    expect(readGitHubContext({ ...leg, INPUT_API_KEY: 'k2' }).matrixDigest).toBe(digest);
    expect(readGitHubContext({ ...leg, INPUT_BROWSER: 'firefox' }).matrixDigest).not.toBe(digest);
    // Private values, passwords and credentials in a start URL or webhook never change it.
    for (const secret of [
      { 'INPUT_PRIVATE-VARIABLES': 'PIN=4712' },
      { 'INPUT_HTTP-AUTH-PASSWORD': 'pw2' },
      { 'INPUT_HTTP-AUTH-USERNAME': 'someone' },
      { INPUT_WEBHOOK: 'https://u:p2@hooks.test/x?token=2' },
      { INPUT_VARIABLES: 'TOKEN=2' },
    ]) {
      expect(readGitHubContext({ ...leg, ...secret }).matrixDigest, JSON.stringify(secret)).toBe(digest);
    }
    const url = { ...leg, 'INPUT_START-URL': 'https://u:p1@shop.test/a?sig=1' };
    expect(
      readGitHubContext({ ...url, 'INPUT_START-URL': 'https://u:p2@shop.test/a?sig=2' }).matrixDigest,
    ).toBe(readGitHubContext(url).matrixDigest);
    expect(readGitHubContext({ ...url, 'INPUT_START-URL': 'https://shop.test/b' }).matrixDigest).not.toBe(
      readGitHubContext(url).matrixDigest,
    );
  });
});

describe('failureIssueKey', () => {
  it('the workflow, the job, the ref and the comment key, each as given', () => {
    const env = { GITHUB_JOB: 'ghost', GITHUB_WORKFLOW: 'Nightly', GITHUB_REF: 'refs/heads/main' };
    const context = readGitHubContext({ ...env, GITHUB_EVENT_NAME: 'schedule' });
    expect(context.eventName).toBe('schedule');
    expect(failureIssueKey(context, 'chrome')).toEqual({
      workflow: 'Nightly',
      job: 'ghost',
      ref: 'refs/heads/main',
      commentKey: 'chrome',
    });
    expect(failureIssueKey(readGitHubContext({}), '')).toEqual({
      workflow: '',
      job: '',
      ref: '',
      commentKey: '',
    });
  });
});

describe('commentKey', () => {
  it('the job id and the comment-key input, either may be missing', () => {
    const job = readGitHubContext({ GITHUB_JOB: 'ghost' });
    expect(commentKey(job, '{"browser":"chrome"}')).toBe('ghost-{"browser":"chrome"}');
    expect(commentKey(job, '')).toBe('ghost');
    expect(commentKey(readGitHubContext({}), 'leg-1')).toBe('leg-1');
  });
});
