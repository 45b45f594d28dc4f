/**
 * One verdict everywhere (issue: "One verdict, computed once"): the action's step result, outputs,
 * results.json, job summary and JUnit agree, for `fail-on-empty` and `fail-on-screenshot-compare`. The
 * action runs in-process (`run(deps)`) with its emulator on one virtual clock (`useWorld`: production durations in milliseconds of real time); the pull-request comment runs the
 * bundle (`dist/index.js`), whose comment client is a chunk of its own, against an emulator of its own on
 * real time (a child's calls are not seen by a virtual clock), which renders no screenshots: that case
 * reads none.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeGitHub, TOKEN } from '../support/fakes/github.js';
import { counts, type ActionRun } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true });
const API_KEY = setup.apiKey;

function run(inputs: Record<string, string>): Promise<ActionRun> {
  return setup.run({
    inputs: { ...setup.connection(), 'timeout-minutes': '5', ...inputs },
  });
}

interface ResultsJson {
  waited: boolean;
  verdict: string;
  passing: boolean;
  counts: Record<string, number | null>;
  totals: Record<string, number>;
}

function resultsJson(r: ActionRun): ResultsJson {
  return JSON.parse(readFileSync(r.outputs['results-json']!, 'utf8')) as ResultsJson;
}

/** A suite with no test, created through the API. */
async function emptySuite(): Promise<string> {
  const response = await fetch(`${setup.emulator.baseUrl}/suites/?apiKey=${API_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Nothing here', organization: 'org-acme' }),
  });
  const body = (await response.json()) as { data: { _id: string } };
  return body.data._id;
}

describe('one verdict everywhere', () => {
  it('fail-on-empty: the step fails, and results.json, outputs and the summary say failed', async () => {
    const r = await run({ 'suite-ids': await emptySuite(), 'fail-on-empty': 'true' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('No test ran (empty suites or folders).');
    expect(r.outputs.passing).toBe('false');
    const json = resultsJson(r);
    expect(json).toMatchObject({ waited: true, verdict: 'failed', passing: false });
    expect(json.counts).toEqual(counts(r));
    expect(r.summary).toMatch(/^## ❌ Ghost Inspector: failed/m);
    expect(r.summary).not.toContain('passed\n');
    expect(r.summary).toContain('No test ran (empty suites or folders).');
  });

  it('fail-on-screenshot-compare: outputs, results.json, summary and JUnit count the same failure', async () => {
    const r = await run({ 'suite-ids': 'suite-visual', 'fail-on-screenshot-compare': 'true' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const c = counts(r);
    expect(c).toMatchObject({ total: 2, failed: 1, passed: 1, 'screenshot-compare-failed': 1 });
    expect(r.outputs['failed-test-ids']).toBe('test-landing');
    const json = resultsJson(r);
    expect(json.counts).toEqual(c);
    expect(json.totals).toMatchObject({ failed: 1, passed: 1, screenshotCompareFailed: 1 });
    expect(r.summary).toContain('**1 failed**, 1 passed of 2 tests');
    const junit = readFileSync(path.join(setup.workspace, 'ghost-inspector-junit.xml'), 'utf8');
    const failures = /<testsuites[^>]*\sfailures="(\d+)"/.exec(junit)?.[1];
    expect(Number(failures)).toBe(c.failed);
  });

  it('without the policy the comparison is counted apart, and the step passes everywhere', async () => {
    const r = await run({ 'suite-ids': 'suite-visual' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const c = counts(r);
    expect(c).toMatchObject({ total: 2, failed: 0, passed: 2, 'screenshot-compare-failed': 1 });
    expect(resultsJson(r)).toMatchObject({ verdict: 'passed', passing: true, counts: c });
    expect(r.summary).toMatch(/^## ✅ Ghost Inspector: passed/m);
    const junit = readFileSync(path.join(setup.workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(/<testsuites[^>]*\sfailures="(\d+)"/.exec(junit)?.[1]).toBe('0');
  });

  it('titles: a test run alone is named once; a run that could not start says so in words', async () => {
    const r = await run({ 'test-ids': 'test-payment', 'suite-ids': 'suite-missing' });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout + r.summary).not.toContain('Pay by card › Pay by card');
    expect(r.stdout).toMatch(/::error title=Pay by card::/);
    expect(r.summary).toContain('❌ Failed: Pay by card</h4>');
    expect(r.summary).toMatch(/Suite suite-missing \(could not start\)/);
    expect(r.summary).not.toContain('(suite run)');
  });

  it('wait: false writes results.json in the same schema and a job summary with the runs started', async () => {
    const r = await run({ 'suite-ids': 'suite-smoke', 'test-ids': 'test-home', wait: 'false' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const json = resultsJson(r);
    expect(json).toMatchObject({ waited: false, verdict: 'started', passing: true });
    expect(json.counts).toEqual(JSON.parse(r.outputs.counts!));
    expect(json.counts).toMatchObject({ total: 2, error: 0, passed: null });
    expect(r.summary).toContain('Ghost Inspector: started');
    expect(r.summary).toContain('Smoke tests');
    expect(r.summary).toMatch(/href="https:\/\/app\.ghostinspector\.com\/suite-results\/[0-9a-f]+"/);
    expect(r.summary).toMatch(/href="https:\/\/app\.ghostinspector\.com\/results\/[0-9a-f]+"/);
  });
});

describe('one verdict everywhere, the bundle', () => {
  const bundle = useWorld({ clock: 'scaled', timeScale: 0.02, speed: 10, fixtures: true, visuals: false });

  it('pull-request comment: each matrix leg (comment-key) keeps its own sticky comment', async () => {
    const github = new FakeGitHub();
    await github.start();
    try {
      const event = path.join(bundle.workspace, 'event.json');
      await writeFile(event, JSON.stringify({ pull_request: { number: 5 } }));
      // The bundle itself: the comment's client is a chunk of its own in dist/.
      const leg = (browser: string) =>
        bundle.run({
          bundle: true,
          inputs: {
            ...bundle.connection(),
            'timeout-minutes': '5',
            'suite-ids': 'suite-smoke',
            'pr-comment': 'true',
            'github-token': TOKEN,
            'comment-key': JSON.stringify({ browser }),
            screenshots: 'none',
          },
          env: {
            GITHUB_EVENT_PATH: event,
            GITHUB_REPOSITORY: 'acme/shop',
            GITHUB_API_URL: github.baseUrl,
            GITHUB_JOB: 'ghost',
          },
        });
      for (const browser of ['chrome', 'firefox', 'chrome']) {
        const r = await leg(browser);
        expect(r.code, r.stdout + r.stderr).toBe(0);
        expect(r.stdout).not.toContain('Could not write');
      }
      const comments = github.comments.filter((c) => c.issue === 5);
      expect(comments).toHaveLength(2);
      expect(comments.map((c) => c.body.split('\n')[0])).toEqual([
        '<!-- ghost-inspector-action:ghost-__browser___chrome__ -->',
        '<!-- ghost-inspector-action:ghost-__browser___firefox__ -->',
      ]);
      expect(github.requests.filter((q) => q.method === 'PATCH')).toHaveLength(1);
    } finally {
      await github.stop();
    }
  });
});
