/**
 * The action's JUnit file as consumers read it (the action in-process, `run(deps)`), against the emulator. The harness already checks
 * every JUnit file of every e2e run (valid against the unmodified junit-10.xsd, consumer counts equal the
 * outputs); these cases pin what consumers show: the wall time, flaky and re-run attempts, a screenshot
 * comparison under fail-on-screenshot-compare, a timed-out and a cancelled test, names, and the failing
 * step's error once. The action and the emulator run on one virtual clock (`useWorld`): production durations and deadlines in milliseconds of real time, the wall time read on that
 * clock. Its emulator renders screenshots: the first case reads them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consumerCounts, xpath } from '../support/junit.js';
import { counts, type ActionRun } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true });

beforeEach(async () => {
  setup.emulator.resetLog();
  await rm(path.join(setup.workspace, 'ghost-inspector-junit.xml'), { force: true });
});

afterEach(() => {
  for (const id of ['test-home', 'test-payment'])
    setup.emulator.setScenario(id, setup.seedScenarios.get(id) ?? null);
});

function inputs(extra: Record<string, string>): Record<string, string> {
  return {
    ...setup.connection(),
    screenshots: 'none',
    'timeout-minutes': '2',
    ...extra,
  };
}

function junitOf(r: ActionRun): string {
  expect(r.stderr).not.toMatch(/JUnit/i);
  return readFileSync(path.join(setup.workspace, 'ghost-inspector-junit.xml'), 'utf8');
}

describe('JUnit as consumers read it', () => {
  it('screenshots kept in the workspace are attached by workspace-relative paths', async () => {
    const r = await setup.run({ inputs: inputs({ 'suite-ids': 'suite-smoke', screenshots: 'all' }) });
    const attachments = [...junitOf(r).matchAll(/\[\[ATTACHMENT\|([^\]]+)\]\]/g)].map((m) => m[1]!);
    expect(attachments.length).toBeGreaterThan(0);
    for (const file of attachments) {
      expect(file).toMatch(/^ghost-inspector-screenshots\//);
      expect(existsSync(path.join(setup.workspace, file)), file).toBe(true);
    }
  });

  it('several suites in parallel: <testsuites time> is the wall time, not the sum of the suites', async () => {
    // The file's time is compared with the wall time of the clock the action and the emulator share.
    const clock = setup.clock;
    const started = clock.now();
    const r = await setup.run({
      inputs: inputs({ 'suite-ids': 'suite-smoke\nsuite-checkout\nsuite-visual' }),
    });
    // Rounded to the ms as the file's times are.
    const elapsedS = Math.round(clock.now() - started) / 1000;
    const xml = junitOf(r);
    const time = Number(xpath(xml, 'string(/testsuites/@time)'));
    expect(time).toBeGreaterThan(0);
    expect(time).toBeLessThanOrEqual(elapsedS);
    expect(xml).not.toMatch(/<testsuites [^>]*skipped=/);
    expect(xpath(xml, 'count(//testcase/properties)')).toBe('0');
    expect(consumerCounts(xml).tests).toBe(counts(r).total);
  });

  it('fail-on-screenshot-compare: the comparison failure is a failed test case, as the verdict says', async () => {
    const strict = await setup.run({
      inputs: inputs({ 'suite-ids': 'suite-visual', 'fail-on-screenshot-compare': 'true' }),
    });
    expect(strict.code).toBe(1);
    expect(counts(strict)).toMatchObject({ total: 2, 'screenshot-compare-failed': 1 });
    const xml = junitOf(strict);
    expect(xpath(xml, 'count(//testcase/failure[@type="ScreenshotComparison"])')).toBe('1');
    expect(consumerCounts(xml)).toMatchObject({ tests: 2, failed: 1, passed: 1 });

    const lenient = await setup.run({ inputs: inputs({ 'suite-ids': 'suite-visual' }) });
    expect(lenient.code).toBe(0);
    expect(consumerCounts(junitOf(lenient))).toMatchObject({ tests: 2, failed: 0, passed: 2 });
  });

  it('a suite with a failure: the failing step’s error once in the failure body', async () => {
    const r = await setup.run({ inputs: inputs({ 'suite-ids': 'suite-checkout' }) });
    expect(r.code).toBe(1);
    const xml = junitOf(r);
    const body = xpath(xml, 'string(//testcase[failure]/failure)');
    const error = xpath(xml, 'string(//testcase[failure]/failure/@message)').replace(/^Step \d+ [^:]*: /, '');
    expect(error.length).toBeGreaterThan(5);
    expect(body.split(error).length - 1).toBe(1);
  });

  it('retry-failed, flaky: a passing test case with a <flakyFailure>, named once', async () => {
    setup.emulator.setScenario('test-payment', { failFirst: 1, failingStep: 1, error: 'Flaky element' });
    const r = await setup.run({
      inputs: inputs({ 'test-ids': 'test-payment', 'retry-failed': '2' }),
    });
    expect(counts(r)).toMatchObject({ total: 1, flaky: 1 });
    const xml = junitOf(r);
    expect(consumerCounts(xml)).toMatchObject({ tests: 1, passed: 1, failed: 0, flaky: 1, retries: 1 });
    expect(xpath(xml, 'string(//testcase/flakyFailure/@message)')).toMatch(
      /^Attempt 1 of 2: .*Flaky element/,
    );
    // A test run alone: its suite is not repeated as "Pay by card › Pay by card".
    const classname = xpath(xml, 'string(//testcase/@classname)');
    const name = xpath(xml, 'string(//testcase/@name)');
    expect(classname).toBe('Ghost Inspector');
    expect(name).not.toContain(classname);
  });

  it('retry-failed, failing every attempt: <failure> plus a <rerunFailure> per earlier attempt', async () => {
    const r = await setup.run({
      inputs: inputs({ 'test-ids': 'test-payment', 'retry-failed': '1' }),
    });
    expect(counts(r)).toMatchObject({ total: 1, failed: 1 });
    expect(consumerCounts(junitOf(r))).toMatchObject({ tests: 1, failed: 1, flaky: 0, reruns: 1 });
  });

  it('timed out: an error test case whose message says so', async () => {
    setup.emulator.setScenario('test-home', { hang: true });
    const r = await setup.run({
      inputs: inputs({ 'test-ids': 'test-home', 'timeout-minutes': '0.05', 'fail-on-timeout': 'false' }),
    });
    expect(counts(r)['timed-out']).toBe(1);
    const xml = junitOf(r);
    expect(xpath(xml, 'string(//testcase/error/@type)')).toBe('Timeout');
    expect(xpath(xml, 'string(//testcase/error/@message)')).toMatch(/^Timed out\b/);
  });

  it('cancelled by the workflow: <skipped message="Cancelled: …">', async () => {
    setup.emulator.setScenario('test-home', { hang: true });
    const { cancel, done } = await setup.start({
      inputs: inputs({ 'test-ids': 'test-home', 'timeout-minutes': '5' }),
    });
    // Looked for every 100 ms of the shared clock: the cancel comes long before the 5 min deadline.
    const clock = setup.clock;
    while (!setup.emulator.requests().some((q) => q.method === 'GET' && q.path.startsWith('/v1/results/')))
      await clock.sleep(100);
    cancel('SIGINT');
    const r = await done;
    expect(r.code).not.toBe(0);
    const xml = junitOf(r);
    const tc = consumerCounts(xml);
    expect(tc).toMatchObject({ tests: 1, skipped: 1 });
    expect(xpath(xml, 'string(//testcase/skipped/@message)')).toMatch(/^Cancelled: /);
  });
});
