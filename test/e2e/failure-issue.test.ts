/**
 * The failure issue against the emulator and a fake GitHub REST API (`support/fakes/github.ts`, which
 * follows GitHub's documented behaviour). Through the bundle (`dist/index.js`): a scheduled run that fails
 * twice, is run again with the same run id and attempt, then passes twice; a look-alike issue by someone
 * else and a pull request carrying the marker; pull-request runs of the same workflow. In-process
 * (`run(deps)`, the same code without a process start each): workflow and job names that join alike; a
 * GitHub App token; two runs failing at once; labels dropped for good; next links that loop; an issue
 * closed by a person; assignees; a token refused writing issues, issues disabled, an API that never answers
 * (on virtual time: the time limit is the action's clock's). The verdict, the reports and the outputs never
 * depend on GitHub.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { issueMarker } from '../../src/report/failure-issue-body.js';
import { FakeGitHub, TOKEN } from '../support/fakes/github.js';
import type { ActionRun } from '../support/harness.js';
import { FILES, leakForms, readResults, secretInputs, secretsFor } from '../support/reliability.js';
import { useWorlds, type ScaledWorld } from '../support/world.js';

const secrets = secretsFor('failure-issue');
const { open, later, newWorkspace } = useWorlds();

/** The worlds whose runs are the bundle; the others' runs are in-process (`run(deps)`). */
const bundled = new WeakSet<ScaledWorld>();

/** A scaled world and a fake GitHub; `bundle`: its runs are the bundle, as the runner starts it. */
async function setUp(
  bundle = false,
): Promise<{ world: ScaledWorld; emulator: Emulator; github: FakeGitHub }> {
  const world = await open({ clock: 'scaled', secrets });
  if (bundle) bundled.add(world);
  const github = new FakeGitHub();
  await github.start();
  later(() => github.stop());
  return { world, emulator: world.emulator, github };
}

/** The inputs of a scheduled run of `suite-red` with `failure-issue: true`. */
function nightlyInputs(emulator: Emulator): Record<string, string> {
  return {
    ...secretInputs(secrets),
    'api-base-url': emulator.baseUrl,
    'suite-ids': 'suite-red',
    screenshots: 'none',
    'timeout-minutes': '1',
    'failure-issue': 'true',
    'github-token': TOKEN,
  };
}

/** The runner's environment of scheduled workflow run `runId` (attempt 1) of the nightly workflow on main. */
function nightlyEnv(github: FakeGitHub, runId: number): Record<string, string> {
  return {
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_WORKFLOW: 'Nightly',
    GITHUB_JOB: 'regression',
    GITHUB_EVENT_NAME: 'schedule',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_RUN_ID: String(runId),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_API_URL: github.baseUrl,
  };
}

/** What differs from the nightly run: the runner's variables and the inputs. */
interface Change {
  env?: Record<string, string>;
  inputs?: Record<string, string>;
}

/** One run of `suite-red` with `failure-issue: true`, as workflow run `runId` (attempt 1); scheduled unless changed. */
async function nightly(
  world: ScaledWorld,
  github: FakeGitHub,
  runId: number,
  change: Change = {},
): Promise<ActionRun & { workspace: string; ms: number }> {
  const workspace = await newWorkspace();
  const started = Date.now();
  const run = await world.run({
    bundle: bundled.has(world),
    workspace,
    inputs: { ...nightlyInputs(world.emulator), ...change.inputs },
    env: { ...nightlyEnv(github, runId), ...change.env },
  });
  return { ...run, workspace, ms: Date.now() - started };
}

/** The first line of the nightly's issue: the digest of its workflow, job, ref and comment-key. */
const MARKER = issueMarker({
  workflow: 'Nightly',
  job: 'regression',
  ref: 'refs/heads/main',
  commentKey: '',
});

/** The verdict, results.json and the outputs are there whatever GitHub answered. */
function expectVerdictKept(run: ActionRun & { workspace: string }, verdict: 'passed' | 'failed'): void {
  expect(run.code, run.stdout + run.stderr).toBe(verdict === 'passed' ? 0 : 1);
  expect(readResults(run.workspace)?.verdict).toBe(verdict);
  expect(run.outputs.passing).toBe(String(verdict === 'passed'));
  expect(run.outputs['results-json']).toBe(path.join(run.workspace, FILES.results));
}

describe.concurrent('failure issue', { timeout: 240_000 }, () => {
  it('fail, fail, the same attempt again, pass, pass: one own issue, one comment per failing run, closed once; others untouched', async () => {
    const { world, emulator, github } = await setUp(true);
    // The error quotes a private variable's value and the API key: neither may reach GitHub.
    const error = `Element not found: .done (session ${secrets.privateValue}, key ${secrets.apiKey})`;
    emulator.setScenario('rel-red-bad', { failFirst: 2, failingStep: 2, error });
    // Someone else's look-alike issue and a pull request by the bot, both carrying the marker and the label;
    // filler issues so that the list spans pages.
    const label = [{ name: 'ghost-inspector' }];
    const foreign = github.addIssue({ body: `${MARKER}\nforged`, labels: label }, 'mallory');
    for (let i = 0; i < 4; i += 1) github.addIssue({ body: `other ${i}`, labels: label });
    const pull = github.addIssue(
      { body: `${MARKER}\na pull request`, labels: label },
      'github-actions[bot]',
      true,
    );
    const before = JSON.stringify([foreign, pull]);
    const own = () => github.issues.filter((i) => i.user.login === 'github-actions[bot]' && !i.pull_request);
    const commentsOn = (n: number) => github.comments.filter((c) => c.issue === n);

    const first = await nightly(world, github, 101);
    expectVerdictKept(first, 'failed');
    expect(own()).toHaveLength(1);
    const issue = own()[0]!;
    expect(issue.state).toBe('open');
    expect(issue.body.startsWith(MARKER)).toBe(true);
    expect(issue.body).toContain('Red and broken');
    expect(issue.body).toContain('Element not found: .done');
    expect(issue.body).toContain('actions/runs/101');
    expect(issue.labels).toEqual(label);
    expect(first.outputs['failure-issue-number']).toBe(String(issue.number));
    expect(first.outputs['failure-issue-url']).toBe(issue.html_url);
    expect(commentsOn(issue.number)).toHaveLength(0);

    const second = await nightly(world, github, 102);
    expectVerdictKept(second, 'failed');
    expect(second.summary).toMatch(
      /History of the failed tests[\s\S]*Red and broken: failed 2 of its last 2 runs/,
    );
    expect(own()).toHaveLength(1);
    expect(commentsOn(issue.number)).toHaveLength(1);
    expect(commentsOn(issue.number)[0]!.body).toContain(
      'Failed again in <a href="https://github.com/acme/shop/actions/runs/102">',
    );
    expect(commentsOn(issue.number)[0]!.body).toContain('History: failed 2 of its last 2 runs');
    expect(issue.body).toMatch(
      /Failing since \d{4}-\d\d-\d\d, <a [^>]*runs\/101">run 101<\/a>; last failed <a [^>]*runs\/102">run 102<\/a>; 2 failed runs\./,
    );

    // The step run again in the same attempt: the issue is found, nothing written twice.
    emulator.setScenario('rel-red-bad', {
      outcome: 'fail',
      failingStep: 2,
      error: 'Element not found: .done',
    });
    const again = await nightly(world, github, 102);
    expectVerdictKept(again, 'failed');
    expect(again.outputs['failure-issue-number']).toBe(String(issue.number));
    expect(commentsOn(issue.number)).toHaveLength(1);
    expect(issue.body).toContain('2 failed runs');

    emulator.setScenario('rel-red-bad', { outcome: 'pass' });
    const recovered = await nightly(world, github, 103);
    expectVerdictKept(recovered, 'passed');
    expect(issue.state).toBe('closed');
    expect(issue.state_reason).toBe('completed');
    expect(commentsOn(issue.number)).toHaveLength(2);
    expect(commentsOn(issue.number)[1]!.body).toContain(
      'Passing again in <a href="https://github.com/acme/shop/actions/runs/103">run 103</a>',
    );
    expect(recovered.outputs['failure-issue-number']).toBe(String(issue.number));

    const stillGreen = await nightly(world, github, 104);
    expectVerdictKept(stillGreen, 'passed');
    expect(stillGreen.outputs['failure-issue-number']).toBeUndefined();
    expect(commentsOn(issue.number)).toHaveLength(2);
    expect(own()).toHaveLength(1);

    for (const run of [first, second, again, recovered, stillGreen]) {
      expect(run.stdout).not.toContain('Could not write');
    }
    const written = JSON.stringify([github.issues, github.comments]);
    for (const secret of Object.values(secrets)) {
      for (const form of leakForms(secret)) expect(written).not.toContain(form);
    }
    expect(JSON.stringify([foreign, pull])).toBe(before);
    expect(commentsOn(foreign.number)).toHaveLength(0);
    expect(commentsOn(pull.number)).toHaveLength(0);
    const touched = github.requests.filter((r) => r.method !== 'GET').map((r) => r.url);
    expect(
      touched.every((u) => !u.endsWith(`/issues/${foreign.number}`) && !u.endsWith(`/issues/${pull.number}`)),
    ).toBe(true);
    expect(github.labels).toEqual(new Set(['ghost-inspector']));
  });

  it('a token without push access: the labels GitHub dropped are added, so the next run finds the issue', async () => {
    const { world, github } = await setUp();
    github.noPushAccess = true;
    for (const runId of [501, 502]) expectVerdictKept(await nightly(world, github, runId), 'failed');
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]!.labels).toEqual([{ name: 'ghost-inspector' }]);
    expect(github.comments.filter((c) => c.issue === github.issues[0]!.number)).toHaveLength(1);
  });

  it('a pull-request run of the same workflow, failing or passing, never touches the scheduled run’s issue', async () => {
    const { world, emulator, github } = await setUp(true);
    expectVerdictKept(await nightly(world, github, 601), 'failed');
    expect(github.issues).toHaveLength(1);
    const issue = github.issues[0]!;
    const before = JSON.stringify(issue);
    const pullRequest = { env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/7/merge' } };
    const failing = await nightly(world, github, 602, pullRequest);
    expectVerdictKept(failing, 'failed');
    expect(failing.stdout).toContain('a pull_request run does not own the failure issue');
    emulator.setScenario('rel-red-bad', { outcome: 'pass' });
    const requestsBefore = github.requests.length;
    expectVerdictKept(await nightly(world, github, 603, pullRequest), 'passed');
    expect(github.requests.slice(requestsBefore)).toEqual([]);
    expect(JSON.stringify(issue)).toBe(before);
    expect(issue.state).toBe('open');
    expect(github.issues).toHaveLength(1);
    expect(github.comments).toHaveLength(0);
    // A push run owns it once failure-issue-events names push, with the same ref.
    const push = { env: { GITHUB_EVENT_NAME: 'push' }, inputs: { 'failure-issue-events': 'schedule, push' } };
    expectVerdictKept(await nightly(world, github, 604, push), 'passed');
    expect(issue.state).toBe('closed');
  });

  it('workflow and job names that join to the same text get one issue each; a digest marks each', async () => {
    const { world, github } = await setUp();
    const a = { env: { GITHUB_WORKFLOW: 'nightly', GITHUB_JOB: 'e2e-chrome' } };
    const b = { env: { GITHUB_WORKFLOW: 'nightly-e2e', GITHUB_JOB: 'chrome' } };
    expectVerdictKept(await nightly(world, github, 611, a), 'failed');
    expectVerdictKept(await nightly(world, github, 612, b), 'failed');
    expect(github.issues).toHaveLength(2);
    expect(github.comments).toHaveLength(0);
    const markers = github.issues.map((i) => i.body.split('\n')[0]!);
    for (const marker of markers) {
      expect(marker).toMatch(/^<!-- ghost-inspector-action:failure-issue:[0-9a-f]{16} -->$/);
    }
    expect(markers[0]).not.toBe(markers[1]);
    // Another ref of the same workflow and job is another issue too.
    const branch = {
      ...a,
      env: { ...a.env, GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_REF: 'refs/heads/next' },
    };
    expectVerdictKept(await nightly(world, github, 613, branch), 'failed');
    expect(github.issues).toHaveLength(3);
  });

  it('a GitHub App token (GET /user refused, issues written by my-app[bot]): one issue, commented, closed on the pass', async () => {
    const { world, emulator, github } = await setUp();
    github.appLogin = 'my-app[bot]';
    // A look-alike by a person is never the app's own.
    const label = [{ name: 'ghost-inspector' }];
    const forged = github.addIssue({ body: `${MARKER}\nforged`, labels: label }, 'mallory');
    for (const runId of [621, 622]) expectVerdictKept(await nightly(world, github, runId), 'failed');
    const own = github.issues.filter((i) => i.user.login === 'my-app[bot]');
    expect(own).toHaveLength(1);
    expect(github.comments.filter((c) => c.issue === own[0]!.number)).toHaveLength(1);
    emulator.setScenario('rel-red-bad', { outcome: 'pass' });
    expectVerdictKept(await nightly(world, github, 623), 'passed');
    expect(own[0]!.state).toBe('closed');
    expect(forged.state).toBe('open');
    expect(github.comments.filter((c) => c.issue === forged.number)).toHaveLength(0);
  });

  it('two runs failing at once (a schedule and a manual dispatch): one issue left open, the newer closed as its duplicate', async () => {
    const { world, github } = await setUp();
    github.createBarrier = 2;
    const [a, b] = await Promise.all([
      nightly(world, github, 631),
      nightly(world, github, 632, { env: { GITHUB_EVENT_NAME: 'workflow_dispatch' } }),
    ]);
    expectVerdictKept(a, 'failed');
    expectVerdictKept(b, 'failed');
    expect(github.issues).toHaveLength(2);
    const [older, newer] = github.issues;
    expect(older!.state).toBe('open');
    expect(newer!.state).toBe('closed');
    expect(newer!.state_reason).toBe('not_planned');
    expect(
      github.comments
        .filter((c) => c.issue === newer!.number)
        .map((c) => c.body)
        .join(),
    ).toContain(`Duplicate of <a href="${older!.html_url}">#${older!.number}</a>`);
    // The run whose issue was the duplicate wrote its failures on the older one; both runs name it.
    expect(github.comments.filter((c) => c.issue === older!.number)).toHaveLength(1);
    expect([a.outputs['failure-issue-number'], b.outputs['failure-issue-number']]).toEqual([
      String(older!.number),
      String(older!.number),
    ]);
    expectVerdictKept(await nightly(world, github, 633), 'failed');
    expect(github.issues).toHaveLength(2);
    expect(github.comments.filter((c) => c.issue === older!.number)).toHaveLength(2);
  });

  it('labels dropped and refused: a warning, and the next run still finds the one issue', async () => {
    const { world, github } = await setUp();
    github.noPushAccess = true;
    github.labelsRefused = true;
    const first = await nightly(world, github, 641);
    expectVerdictKept(first, 'failed');
    expect(first.stdout).toMatch(/::warning::failure-issue: GitHub did not add the labels ghost-inspector/);
    expect(first.outputs['failure-issue-number']).toBe('1');
    expectVerdictKept(await nightly(world, github, 642), 'failed');
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]!.labels).toEqual([]);
    expect(github.comments.filter((c) => c.issue === 1)).toHaveLength(1);
  });

  for (const loop of ['loop', 'endless'] as const) {
    it(`next links that ${loop === 'loop' ? 'go round' : 'never end'}: at most 10 pages per list, the issue still written`, async () => {
      const { world, github } = await setUp();
      github.linkLoop = loop;
      for (let i = 0; i < 4; i += 1)
        github.addIssue({ body: `other ${i}`, labels: [{ name: 'ghost-inspector' }] });
      const run = await nightly(world, github, 651);
      expectVerdictKept(run, 'failed');
      expect(run.stdout).not.toContain('Could not write');
      expect(github.issues.filter((i) => i.user.login === 'github-actions[bot]')).toHaveLength(1);
      const lists = new Map<string, number>();
      for (const r of github.requests.filter((q) => q.method === 'GET' && /\/issues\?/.test(q.url))) {
        const query = new URL(r.url, github.baseUrl).searchParams;
        query.delete('page');
        query.delete('per_page');
        lists.set(query.toString(), (lists.get(query.toString()) ?? 0) + 1);
      }
      const pages = [...lists.values()];
      console.log(`failure-issue figures: next links that ${loop}: pages read per list ${pages.join(', ')}`);
      expect(Math.max(...pages)).toBeLessThanOrEqual(loop === 'loop' ? 3 : 10);
      expect(github.requests.length).toBeLessThan(50);
    });
  }

  it('an issue a person closed: reopened by a failure within failure-issue-reopen-days, else linked from a new one', async () => {
    const { world, github } = await setUp();
    const DAY = 86_400_000;
    expectVerdictKept(await nightly(world, github, 661), 'failed');
    const issue = github.issues[0]!;
    issue.state = 'closed';
    issue.state_reason = 'completed';
    issue.closed_at = new Date(Date.now() - 2 * DAY).toISOString();
    const reopened = await nightly(world, github, 662);
    expectVerdictKept(reopened, 'failed');
    expect(github.issues).toHaveLength(1);
    expect(issue.state).toBe('open');
    expect(issue.state_reason).toBe('reopened');
    expect(issue.body).toContain('2 failed runs');
    expect(github.comments.at(-1)!.body).toContain('reopened (it was closed while failing)');
    expect(reopened.stdout).toMatch(/Failure issue #1 \(reopened\)/);

    issue.state = 'closed';
    issue.closed_at = new Date(Date.now() - 8 * DAY).toISOString();
    expectVerdictKept(await nightly(world, github, 663), 'failed');
    expect(github.issues).toHaveLength(2);
    expect(issue.state).toBe('closed');
    expect(github.issues[1]!.body).toContain(`Failed before in <a href="${issue.html_url}">#1</a>`);
    expect(github.issues[1]!.body).toContain('1 failed run.');
  });

  it('failure-issue-assignees: the logins GitHub can assign are assigned, the others named in a warning', async () => {
    const { world, github } = await setUp();
    github.assignable = new Set(['octo-dev']);
    const run = await nightly(world, github, 671, {
      inputs: { 'failure-issue-assignees': 'octo-dev, ghost-user' },
    });
    expectVerdictKept(run, 'failed');
    expect(github.issues[0]!.assignees.map((a) => a.login)).toEqual(['octo-dev']);
    expect(run.stdout).toMatch(
      /::warning::failure-issue-assignees: GitHub did not assign ghost-user to issue #1/,
    );
  });

  const refusals = [
    {
      name: 'a token refused writing issues (403)',
      set: (g: FakeGitHub) => (g.forbid = true),
      warning:
        /Could not write the failure issue: the token may not write issues \(the job needs permissions: issues: write\): Resource not accessible by integration/,
    },
    {
      name: 'issues disabled (410)',
      set: (g: FakeGitHub) => (g.issuesDisabled = true),
      warning: /Could not write the failure issue: issues are disabled in this repository/,
    },
  ];
  for (const refusal of refusals) {
    it(`${refusal.name}: a warning naming the cause; verdict, reports and outputs kept`, async () => {
      const { world, github } = await setUp();
      refusal.set(github);
      const run = await nightly(world, github, 201);
      expectVerdictKept(run, 'failed');
      expect(run.stdout).toMatch(refusal.warning);
      expect(run.summary).toContain('Ghost Inspector: failed');
      expect(run.outputs['failure-issue-number']).toBeUndefined();
      expect(github.issues).toHaveLength(0);
    });
  }

  it('the history cannot be read: a warning, the issue opened without it, the verdict kept', async () => {
    const { world, emulator, github } = await setUp();
    emulator.setFaults('route=GET /v1/tests/*/results*:500');
    const run = await nightly(world, github, 401);
    expectVerdictKept(run, 'failed');
    expect(run.stdout).toMatch(/::warning::Could not read the history of /);
    expect(run.summary).not.toContain('History of the failed tests');
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]!.body).toContain('Red and broken');
    expect(github.issues[0]!.body).not.toContain('History:');
  });

  it('a GitHub API that never answers: the step ends at the time limit with its verdict and outputs', async () => {
    // In-process on virtual time: the 20 s time limit is the clock's, no real wait.
    const github = new FakeGitHub();
    await github.start();
    later(() => github.stop());
    github.hang = /\/issues/;
    const world = await open({ secrets, github });
    const workspace = await newWorkspace();
    const run = await world.run({
      workspace,
      inputs: nightlyInputs(world.emulator),
      env: nightlyEnv(github, 301),
    });
    const endedAt = world.clock.now();
    expectVerdictKept({ ...run, workspace }, 'failed');
    expect(run.stdout).toMatch(
      /::warning::Could not write the failure issue: stopped: time limit of 20 s reached/,
    );
    const held = github.requests.filter((r) => r.url.includes('/issues'));
    expect(held.length).toBeGreaterThan(0);
    console.log(
      `failure-issue figures: GitHub API never answers, step ended ${endedAt - held[0]!.at} ms after`,
    );
    expect(endedAt - held[0]!.at).toBeGreaterThanOrEqual(20_000);
    expect(endedAt - held[0]!.at).toBeLessThan(20_000 + 5_000);
  });
});
