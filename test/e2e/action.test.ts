/**
 * The built action against the emulator, as GitHub runs it: a child process with INPUT_* variables. Each
 * case has its own emulator and workspace, and the cases run at once.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { counts, type ActionRun } from '../support/harness.js';
import { useWorlds } from '../support/world.js';

const API_KEY = 'e2e-secret-key-4711';
const { open } = useWorlds();

/** One case's own world (emulator and workspace), so that the cases can run at once. */
async function setUp() {
  const world = await open({ clock: 'scaled', timeScale: 0.02, apiKey: API_KEY, fixtures: true });
  const { emulator, workspace } = world;
  const run = (inputs: Record<string, string>): Promise<ActionRun> =>
    world.run({ bundle: true, inputs: { ...world.connection(), 'timeout-minutes': '2', ...inputs } });
  const executes = () => emulator.requests().filter((q) => /\/execute\/?$/.test(q.path));
  /** Secrets never reach the log, the outputs or a file. */
  const expectNoSecret = (r: ActionRun, secret = API_KEY): void => {
    expect(r.stdout).not.toContain(secret);
    expect(r.stderr).not.toContain(secret);
    expect(JSON.stringify(r.outputs)).not.toContain(secret);
    expect(r.summary).not.toContain(secret);
    for (const file of ['ghost-inspector-junit.xml', 'ghost-inspector-results.json']) {
      const p = path.join(workspace, file);
      expect(existsSync(p), `${file} is written`).toBe(true);
      expect(readFileSync(p, 'utf8')).not.toContain(secret);
    }
  };
  return { emulator, workspace, run, executes, expectNoSecret };
}

// Each case has its own emulator and workspace: they run at once (each waits on its bundle process).
describe.concurrent('the action against the emulator', () => {
  it('one suite passing: exit 0, outputs, JUnit, summary and results.json', async () => {
    const { workspace, run, executes, expectNoSecret } = await setUp();
    const r = await run({ 'suite-ids': 'suite-smoke' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.passing).toBe('true');
    expect(counts(r)).toEqual({
      total: 3,
      passed: 3,
      failed: 0,
      flaky: 0,
      'timed-out': 0,
      cancelled: 0,
      error: 0,
      'screenshot-compare-failed': 0,
    });
    expect(r.outputs.total).toBe('3');
    expect(r.outputs['suite-result-ids']!.split(',')).toHaveLength(1);
    expect(r.outputs['test-result-ids']!.split(',')).toHaveLength(3);
    expect(r.outputs['result-urls']).toMatch(/^https:\/\/app\.ghostinspector\.com\/suite-results\//);
    expect(r.outputs['results-json']).toBe(path.join(workspace, 'ghost-inspector-results.json'));
    const junit = readFileSync(path.join(workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(3);
    expect(r.summary).toContain('Smoke tests');
    const results = JSON.parse(readFileSync(r.outputs['results-json']!, 'utf8')) as unknown;
    expect(JSON.stringify(results)).toContain('Home page loads');
    expect(r.stdout).toContain('::group::✅ Passed  Home page loads');
    expect(executes()).toHaveLength(1);
    expectNoSecret(r);
  });

  it('inputs given empty (an unset workflow input) read as their action.yml defaults', async () => {
    const { workspace, run } = await setUp();
    const empty = { wait: '', screenshots: '', 'results-path': '', 'fail-on-timeout': '', summary: '' };
    const r = await run({ 'suite-ids': 'suite-smoke', ...empty });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.passed).toBe('3');
    expect(r.outputs['results-json']).toBe(path.join(workspace, 'ghost-inspector-results.json'));
    expect(r.summary).toContain('Smoke tests');
  });

  it('a suite with a failure: exit 1, the failed test named, its screenshot kept', async () => {
    const { workspace, run, expectNoSecret } = await setUp();
    const r = await run({ 'suite-ids': 'suite-checkout' });
    expect(r.code).toBe(1);
    expect(r.outputs.passing).toBe('false');
    expect(counts(r)).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 0, error: 0 });
    expect([r.outputs.total, r.outputs.passed, r.outputs.failed]).toEqual(['3', '2', '1']);
    expect(r.outputs['failed-test-ids']).toBe('test-payment');
    expect(r.stdout).toContain('::error::1 test failed.');
    expect(r.stdout).toContain('Element not found: .confirmation');
    const shots = readdirSync(path.join(workspace, 'ghost-inspector-screenshots'), { recursive: true }).map(
      String,
    );
    expect(shots.some((f) => f.endsWith('.png') && f.includes('Pay by card'))).toBe(true);
    expectNoSecret(r);
  });

  it('several suites at once: one execute each, all started before any poll', async () => {
    const { emulator, run, executes } = await setUp();
    const r = await run({
      'suite-ids': 'suite-smoke\nsuite-checkout, suite-visual',
      'fail-on-empty': 'true',
    });
    expect(r.outputs['suite-result-ids']!.split(',')).toHaveLength(3);
    // suite-visual's landing page differs from its baseline by more than the threshold.
    expect(counts(r)).toMatchObject({ total: 8, 'screenshot-compare-failed': 1 });
    expect(r.outputs['screenshot-compare-failed']).toBe('1');
    const requests = emulator.requests();
    const lastExecute = Math.max(...requests.filter((q) => q.path.includes('/execute')).map((q) => q.seq));
    const firstPoll = Math.min(
      ...requests.filter((q) => q.path.startsWith('/v1/suite-results/')).map((q) => q.seq),
    );
    expect(executes()).toHaveLength(3);
    expect(lastExecute).toBeLessThan(firstPoll);
  });

  it('test ids: each test run alone and polled by its test result', async () => {
    const { emulator, run, executes } = await setUp();
    const r = await run({ 'test-ids': 'test-home,test-payment' });
    expect(r.code).toBe(1);
    expect(counts(r)).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(r.outputs['suite-result-ids']).toBe('');
    expect(r.outputs['result-urls']!.split('\n').every((u) => u.includes('/results/'))).toBe(true);
    expect(
      executes()
        .map((q) => q.path)
        .sort(),
    ).toEqual(['/v1/tests/test-home/execute/', '/v1/tests/test-payment/execute/']);
    expect(emulator.requests().some((q) => q.path.startsWith('/v1/results/'))).toBe(true);
  });

  it('a folder: every suite in it runs', async () => {
    const { emulator, run, executes } = await setUp();
    const r = await run({ 'folder-ids': 'folder-web' });
    expect(emulator.requests().some((q) => q.path === '/v1/folders/folder-web/suites/')).toBe(true);
    expect(
      executes()
        .map((q) => q.path)
        .sort(),
    ).toEqual(['/v1/suites/suite-checkout/execute/', '/v1/suites/suite-smoke/execute/']);
    expect(counts(r).total).toBe(6);
  });

  it('repository test files: native JSON and .side, each test on demand', async () => {
    const { workspace, run, executes } = await setUp();
    const r = await run({ 'organization-id': 'org-acme', 'test-files': 'tests/*.json\ntests/*.side' });
    expect(r.code, r.stdout).toBe(0);
    expect(counts(r)).toMatchObject({ total: 3, passed: 3 });
    const onDemand = executes().filter((q) => q.path === '/v1/organizations/org-acme/on-demand/execute');
    expect(onDemand).toHaveLength(3);
    const results = readFileSync(path.join(workspace, 'ghost-inspector-results.json'), 'utf8');
    for (const name of ['Login', 'Home', 'Search']) expect(results).toContain(`"${name}"`);
    expect(results).toContain('tests/flows.side');
  });

  it('a data file of several rows: one suite result per row', async () => {
    const { workspace, run, executes } = await setUp();
    const r = await run({ 'suite-ids': 'suite-data', 'data-file': 'data.csv' });
    expect(r.code, r.stdout).toBe(0);
    expect(executes()).toHaveLength(1);
    expect(r.outputs['suite-result-ids']!.split(',')).toHaveLength(3);
    expect(counts(r).total).toBe(3);
    expect(readFileSync(path.join(workspace, 'ghost-inspector-junit.xml'), 'utf8')).toContain('row 3');
  });

  it('several browsers and viewports: one execute, one run per combination', async () => {
    const { emulator, workspace, run, executes } = await setUp();
    const r = await run({
      'test-ids': 'test-home',
      browser: 'chrome, firefox',
      viewport: '1280x800\n375x667',
    });
    expect(r.code, r.stdout).toBe(0);
    expect(executes()).toHaveLength(1);
    const ran = emulator.runs().filter((f) => f.kind === 'test-result' && f.testId === 'test-home');
    expect(ran).toHaveLength(4);
    const variants = ran
      .map((f) => emulator.store.results.get(f.resultId)!)
      .map((t) => `${t.browser!.replace(/-\d+$/, '')} ${t.viewportSize.width}x${t.viewportSize.height}`)
      .sort();
    expect(variants).toEqual(['chrome 1280x800', 'chrome 375x667', 'firefox 1280x800', 'firefox 375x667']);
    expect(counts(r).total).toBe(4);
    const junit = readFileSync(path.join(workspace, 'ghost-inspector-junit.xml'), 'utf8');
    for (const label of ['firefox', '375x667', '1280x800']) expect(junit).toContain(label);
  });

  it('wait: false starts the runs, outputs their ids and does not poll', async () => {
    const { emulator, run, executes } = await setUp();
    const r = await run({ 'suite-ids': 'suite-smoke', 'test-ids': 'test-home', wait: 'false' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.passing).toBe('');
    expect(r.outputs['suite-result-ids']!.split(',')).toHaveLength(1);
    expect(r.outputs['test-result-ids']!.split(',')).toHaveLength(1);
    // Two runs triggered (the suite counts once), none failed to start; how they end is not known.
    expect(r.outputs.total).toBe('2');
    expect(r.outputs.error).toBe('0');
    for (const name of ['passed', 'failed', 'flaky', 'timed-out', 'cancelled', 'screenshot-compare-failed']) {
      expect(r.outputs[name], name).toBe('');
    }
    expect(JSON.parse(r.outputs.counts!)).toEqual({
      total: 2,
      passed: null,
      failed: null,
      flaky: null,
      'timed-out': null,
      cancelled: null,
      error: 0,
      'screenshot-compare-failed': null,
    });
    expect(executes()).toHaveLength(2);
    expect(emulator.requests().filter((q) => q.method === 'GET')).toEqual([]);
  });

  it('private variables and the HTTP auth password stay out of logs, outputs and files', async () => {
    const { run, expectNoSecret } = await setUp();
    const r = await run({
      'test-ids': 'test-home',
      'http-auth-username': 'qa',
      'http-auth-password': 'pw-very-secret-1',
      'private-variables': 'TOKEN=tok-very-secret-2',
      variables: 'PLAN=pro',
    });
    expect(r.code, r.stdout).toBe(0);
    for (const secret of [API_KEY, 'pw-very-secret-1', 'tok-very-secret-2']) expectNoSecret(r, secret);
  });
});
