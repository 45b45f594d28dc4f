/**
 * `fail-fast` end to end through the bundle (`dist/index.js`) against the emulator: the first failed test
 * cancels the other runs remotely; the step fails, and the counts, outputs and results.json say what
 * happened to every run asked for.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../emulator/index.js';
import { counts } from '../support/harness.js';
import { useWorld, useWorlds } from '../support/world.js';

const API_KEY = 'e2e-fail-fast-key-4711';
const world = useWorld({ clock: 'scaled', fixtures: true, apiKey: API_KEY, timeScale: 0.02 });
const { open } = useWorlds();

beforeAll(() => {
  // The smoke suite's first test never ends by itself: only a cancel ends its runs.
  world.emulator.setScenario('test-home', { hang: true });
});

function inputs(extra: Record<string, string>): Record<string, string> {
  return { 'api-key': API_KEY, 'api-base-url': world.emulator.baseUrl, screenshots: 'none', ...extra };
}

describe('fail-fast', () => {
  it('the first failed test cancels the other runs remotely; they are counted as cancelled', async () => {
    const r = await world.run({
      bundle: true,
      inputs: inputs({
        'test-ids': 'test-payment,test-home',
        'suite-ids': 'suite-smoke',
        'fail-fast': 'true',
        'timeout-minutes': '5',
      }),
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // Asked: test-payment, test-home, and the smoke suite's 3 tests.
    expect(counts(r)).toMatchObject({ total: 5, failed: 1, cancelled: 2 });
    expect(counts(r).passed).toBe(2);
    expect([r.outputs.total, r.outputs.failed, r.outputs.cancelled]).toEqual(['5', '1', '2']);
    const cancels = world.emulator
      .requests()
      .filter((q) => q.method === 'POST' && q.path.endsWith('/cancel/'));
    expect(cancels.map((q) => q.path.split('/')[2]).sort()).toEqual(['results', 'suite-results']);
    const ended = world.emulator.runs();
    expect(ended.some((f) => f.kind === 'suite-result' && f.condition === 'cancelled')).toBe(true);
    expect(
      ended.some((f) => f.testId === 'test-home' && f.suiteResultId === null && f.condition === 'cancelled'),
    ).toBe(true);
    expect(ended.some((f) => f.testId === 'test-payment' && f.condition === 'cancelled')).toBe(false);
    expect(r.stdout).toContain('Fail-fast: Pay by card failed; cancelling 2 other remote runs');
    const results = readFileSync(path.join(world.workspace, 'ghost-inspector-results.json'), 'utf8');
    expect(results).toContain('Cancelled by fail-fast: another test failed.');
  });

  it('off (the default): the other runs are not cancelled', async () => {
    const r = await world.run({
      bundle: true,
      inputs: inputs({ 'test-ids': 'test-payment,test-login', 'timeout-minutes': '5' }),
    });
    expect(r.code).toBe(1);
    expect(counts(r)).toMatchObject({ total: 2, failed: 1, passed: 1, cancelled: 0 });
    expect(world.emulator.requests().filter((q) => q.path.endsWith('/cancel/'))).toEqual([]);
  });
});

describe('fail-fast with runs still to trigger', () => {
  /** How long the emulator holds each execute before handling it, ms: four at a time, 18 take 12.5 s. */
  const EXECUTE_MS = 2_500;
  let slow: Emulator;
  beforeAll(async () => {
    ({ emulator: slow } = await open({
      clock: 'scaled',
      timeScale: 0.02,
      apiKey: API_KEY,
      notFoundWindowMs: 0,
      faults: `delay=${EXECUTE_MS},route=POST /v1/tests/*/execute:slow`,
    }));
    slow.setScenario('test-home', { hang: true });
  });

  it('the executes not sent when a test fails are never sent; their runs count as cancelled, "Not started: fail-fast"', async () => {
    // Payment first (it fails at once), then the other 8 tests; each under 2 start URLs: 18 executes, 4 at a
    // time. The failure is seen while the second four are in flight: the last 10 are never sent.
    const testIds = ['test-payment', 'test-home', 'test-login', 'test-search', 'test-cart', 'test-receipt'];
    testIds.push('test-landing', 'test-pricing', 'test-login-data');
    const r = await world.run({
      bundle: true,
      inputs: {
        'api-key': API_KEY,
        'api-base-url': slow.baseUrl,
        screenshots: 'none',
        'test-ids': testIds.join(','),
        'start-url': 'https://a.example/,https://b.example/',
        'fail-fast': 'true',
        'timeout-minutes': '5',
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const executes = slow.requests().filter((q) => q.method === 'POST' && q.path.endsWith('/execute/'));
    expect(executes).toHaveLength(8);
    // Every run asked for is counted: the failure, the runs cancelled or passed, the 10 never started.
    const c = counts(r);
    expect(c).toMatchObject({ total: 18, failed: 1, error: 0 });
    expect(c.cancelled + c.passed).toBe(17);
    expect(c.cancelled).toBeGreaterThanOrEqual(10 + 4 + 1);
    const results = JSON.parse(
      readFileSync(path.join(world.workspace, 'ghost-inspector-results.json'), 'utf8'),
    ) as { reasons: string[]; runs: Array<{ notStarted?: string; error?: string }> };
    const notStarted = results.runs.filter((run) => run.notStarted === 'fail-fast');
    expect(notStarted).toHaveLength(10);
    expect(notStarted.every((run) => run.error === 'Not started: fail-fast (a test had failed)')).toBe(true);
    expect(results.reasons).toContain('10 runs were not started (fail-fast).');
  });
});
