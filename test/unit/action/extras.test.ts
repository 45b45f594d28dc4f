/**
 * The extras in-process (`runExtras` of `src/action/extras.ts`, docs/architecture.md): after a finished run
 * they rewrite results.json with the screenshots' paths (the modules' names kept), read the failed tests'
 * history and write the pull-request comment; after a workflow cancel during the run none of them starts,
 * and a cancel during them skips every later one. A loopback screenshot host, a fake GitHub and an API whose
 * history read is recorded stand in for the real parts; the cancel is sent at a chosen point by the sink or
 * the API.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExtras } from '../../../src/action/extras.js';
import { decideRunVerdict } from '../../../src/action/verdict.js';
import { systemClock } from '../../../src/common/clock.js';
import type { TestResult } from '../../../src/api/types.js';
import { readGitHubContext } from '../../../src/github.js';
import { readInputs } from '../../../src/inputs/index.js';
import { buildReport } from '../../../src/report/model.js';
import { withModuleNames } from '../../../src/report/module-names.js';
import { writeReports } from '../../../src/report/writers.js';
import { FakeGitHub, TOKEN } from '../../support/fakes/github.js';
import { secretInputs, secretsFor } from '../../support/reliability.js';
import { RecordingSink } from '../../support/run-action.js';
import { startFakeArtifactService } from '../../support/fakes/artifact-service.js';
import {
  makeResult,
  randomPng,
  setEnv,
  startScreenshotServer,
  type ScreenshotServer,
} from '../../support/screenshots.js';
import { runSummary, suiteRun, testRun } from '../../support/run-factories.js';
import { runnerInputs } from '../../support/runner-inputs.js';
import { useWorlds } from '../../support/world.js';

/** A screenshot's saved path in results.json (absent until the screenshots are published). */
const SAVED = /"path":"[^"]*Checkout-fail\d+\.png"/;

let shots: ScreenshotServer;
let github: FakeGitHub;
const { newWorkspace } = useWorlds();

beforeAll(async () => {
  shots = await startScreenshotServer();
  github = new FakeGitHub();
  await github.start();
});

afterAll(async () => {
  await shots?.close();
  await github?.stop();
});

/** A sink that sends the cancel when a line matching `cancelAt` is logged. */
class CancellingSink extends RecordingSink {
  cancelAt: RegExp | null = null;
  constructor(private readonly cancel: AbortController) {
    super();
  }
  override info(message: string): void {
    super.info(message);
    if (this.cancelAt?.test(message)) this.cancel.abort();
  }
}

interface Setup {
  /** The pull request the extras comment on (its own per case, so cases never see each other's comment). */
  pr: number;
  /** True when the run itself was cancelled (the extras' `interrupted`). */
  interrupted?: boolean;
  /** Sends the cancel before the extras start. */
  cancelledBefore?: boolean;
  /** Sends the cancel when an info line matching this is logged. */
  cancelAtLine?: RegExp;
  /** Sends the cancel when the history is read. */
  cancelAtHistory?: boolean;
  /** Inputs over the case's own (e.g. `pr-comment: false`). */
  inputs?: Record<string, string>;
  /** The history read fails with this message. */
  historyError?: string;
  /** Variables over the job's environment (the artifact service's). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs the reports (as `run` does) and then the extras for one failed test with a screenshot, with
 * `screenshots: failed`, `pr-comment: true` and the job summary on.
 */
async function extras(setup: Setup) {
  const workspace = await newWorkspace();
  const event = path.join(workspace, 'event.json');
  await writeFile(event, JSON.stringify({ pull_request: { number: setup.pr } }));
  const env: NodeJS.ProcessEnv = {
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_JOB: 'ghost',
    GITHUB_EVENT_PATH: event,
    GITHUB_API_URL: github.baseUrl,
    ...setup.env,
  };
  const raw: Record<string, string> = {
    ...secretInputs(secretsFor('extras-unit')),
    'api-base-url': 'http://127.0.0.1:9/v1/',
    'suite-ids': 'suite-red',
    screenshots: 'failed',
    'pr-comment': 'true',
    'github-token': TOKEN,
    ...setup.inputs,
  };
  const inputs = await readInputs({ env: { ...env, ...runnerInputs(raw) }, workspace });
  const failed = makeResult(`fail${setup.pr}`, {
    passing: false,
    name: 'Checkout',
    screenshotUrl: shots.add(`shot-${setup.pr}`, randomPng(4, 4)),
  });
  // It failed at the second step of a module whose name was read before the reports.
  failed.steps = [0, 1].map((sequence) => ({
    sequence,
    command: 'click',
    target: `#step-${sequence}`,
    value: '',
    variableName: '',
    condition: null,
    optional: false,
    private: false,
    passing: sequence === 0,
    ...(sequence === 1 ? { error: 'Element not found' } : {}),
    extra: { source: { test: 'module-login', sequence } },
  }));
  const moduleNames = new Map([['module-login', 'Login module']]);
  const summary = runSummary([
    suiteRun([{ ...testRun('failed', failed), testId: failed._id }], {
      key: 'suite-red',
      suiteId: 'suite-red',
      suiteName: 'Red suite',
    }),
  ]);
  const verdict = decideRunVerdict(inputs, summary);
  const cancel = new AbortController();
  const sink = new CancellingSink(cancel);
  const context = {
    report: withModuleNames(buildReport(summary, verdict), moduleNames),
    inputs,
    verdict,
    interrupted: setup.interrupted ?? false,
    github: readGitHubContext(env),
    sink,
  };
  await writeReports(context);
  const before = await readFile(inputs.resultsPath, 'utf8');
  const historyReads: string[] = [];
  // The test's own results, started the days before this run.
  const earlier: TestResult[] = [1, 2, 3].map((n) =>
    Object.assign(makeResult(`earlier${setup.pr}-${n}`, { passing: true }), {
      test: { _id: failed._id, name: 'Checkout', organization: 'o', suite: 'suite-red' },
      dateCreated: `2025-12-2${n}T03:00:00.000Z`,
      dateExecutionStarted: `2025-12-2${n}T03:00:00.000Z`,
    }),
  );
  const api = {
    listTestResults: (testId: string) => {
      historyReads.push(testId);
      if (setup.cancelAtHistory) cancel.abort();
      if (setup.historyError) return Promise.reject(new Error(setup.historyError));
      return Promise.resolve(earlier);
    },
  };
  if (setup.cancelledBefore) cancel.abort();
  sink.cancelAt = setup.cancelAtLine ?? null;
  const requestsBefore = github.requests.length;
  const hitsBefore = [...shots.hits.values()].reduce((a, b) => a + b, 0);
  const linesBefore = sink.stdout.length;
  await runExtras(context, { summary, moduleNames, api, env, signal: cancel.signal, clock: systemClock });
  return {
    before,
    after: await readFile(inputs.resultsPath, 'utf8'),
    historyReads,
    shotHits: [...shots.hits.values()].reduce((a, b) => a + b, 0) - hitsBefore,
    githubRequests: github.requests.slice(requestsBefore),
    comment: github.comments.find((c) => c.issue === setup.pr)?.body,
    sink,
    /** What the extras logged. */
    said: sink.stdout.slice(linesBefore),
    secrets: inputs.secrets,
  };
}

describe('runExtras', () => {
  it('after a finished run: screenshots in results.json, the history read, the pull-request comment written', async () => {
    const t = await extras({ pr: 11 });
    expect(t.shotHits).toBe(1);
    expect(t.before).not.toMatch(SAVED);
    expect(t.after).toMatch(SAVED);
    // Written again with the screenshots' paths, the failing step still names its module.
    expect(t.after).toContain('"name":"Login module"');
    expect(t.historyReads).toEqual(['fail11']);
    expect(t.comment).toContain('Ghost Inspector: failed');
    expect(t.comment).toContain('new failure after 3 passing runs');
    expect(t.sink.summary).toContain('new failure after 3 passing runs');
  });

  it('after a run the workflow cancelled: no download, no history, no comment', async () => {
    const t = await extras({ pr: 12, interrupted: true });
    expect(t.shotHits).toBe(0);
    expect(t.after).toBe(t.before);
    expect(t.historyReads).toEqual([]);
    expect(t.githubRequests).toEqual([]);
  });

  it('a cancel before the extras start: no download, no history, no comment', async () => {
    const t = await extras({ pr: 13, cancelledBefore: true });
    expect(t.shotHits).toBe(0);
    expect(t.historyReads).toEqual([]);
    expect(t.githubRequests).toEqual([]);
  });

  it('a cancel as the screenshots are published: results.json is not rewritten, nothing after starts', async () => {
    const t = await extras({ pr: 14, cancelAtLine: /^Screenshots: / });
    expect(t.shotHits).toBe(1);
    expect(t.after).toBe(t.before);
    expect(t.historyReads).toEqual([]);
    expect(t.githubRequests).toEqual([]);
  });

  it('a cancel as results.json is rewritten: the history is not read, no comment', async () => {
    const t = await extras({ pr: 15, cancelAtLine: /^Results: / });
    expect(t.after).toMatch(SAVED);
    expect(t.historyReads).toEqual([]);
    expect(t.githubRequests).toEqual([]);
  });

  it('a cancel while the history is read: no history section, no comment', async () => {
    const t = await extras({ pr: 16, cancelAtHistory: true });
    expect(t.historyReads).toEqual(['fail16']);
    expect(t.sink.summary).not.toContain('first failure');
    expect(t.githubRequests).toEqual([]);
  });
});

describe('runExtras: what each extra is for', () => {
  it('no screenshot kept (screenshots: none): results.json is not written again', async () => {
    const t = await extras({ pr: 21, inputs: { screenshots: 'none' } });
    expect(t.shotHits).toBe(0);
    expect(t.said).not.toMatch(/^Results: /m);
    expect(t.historyReads).toEqual(['fail21']);
  });

  it('the job summary alone wants the history; with neither summary, comment nor issue it is not read', async () => {
    const summaryOnly = await extras({ pr: 22, inputs: { 'pr-comment': 'false' } });
    expect(summaryOnly.historyReads).toEqual(['fail22']);
    expect(summaryOnly.sink.summary).toContain('new failure after 3 passing runs');
    expect(summaryOnly.githubRequests).toEqual([]);
    const none = await extras({ pr: 23, inputs: { 'pr-comment': 'false', summary: 'false' } });
    expect(none.historyReads).toEqual([]);
  });

  it('a history that cannot be read: a warning, redacted; the comment still written', async () => {
    const key = secretsFor('extras-unit').apiKey;
    const t = await extras({ pr: 24, historyError: `the key ${key} was refused` });
    expect(t.said).toMatch(
      /::warning::Could not read the history of Red suite › Checkout: the key \*\*\* was refused/,
    );
    expect(t.said).not.toContain(key);
    expect(t.comment).toContain('Ghost Inspector: failed');
  });

  it('screenshots uploaded as an artifact: its link in the job summary', async () => {
    const service = await startFakeArtifactService();
    const runnerTemp = await newWorkspace();
    const env = {
      ...service.env({ runId: 'run-25', jobId: 'job-25' }),
      GITHUB_RUN_ID: '2525',
      GITHUB_RUN_ATTEMPT: '1',
      RUNNER_TEMP: runnerTemp,
    };
    // The artifact client reads this process's environment itself.
    const restore = setEnv(env);
    try {
      const t = await extras({ pr: 25, env });
      expect(service.artifacts).toHaveLength(1);
      const url = t.sink.outputs['artifact-url'];
      expect(url).toMatch(/\/acme\/shop\/actions\/runs\/2525\/artifacts\/\d+$/);
      expect(t.sink.summary).toContain(url);
    } finally {
      restore();
      await service.close();
    }
  });
});
