/**
 * `fail-fast` end to end through the bundle (`dist/index.js`) against the emulator: the first failed test
 * cancels the other runs remotely; the step fails, and the counts, outputs and results.json say what
 * happened to every run asked for.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { makeWorkspace } from '../support/action-fixtures.js';
import { counts, runAction } from '../support/harness.js';

const API_KEY = 'e2e-fail-fast-key-4711';
let emulator: Emulator;
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0.02, apiKey: API_KEY, quiet: true });
  // The smoke suite's first test never ends by itself: only a cancel ends its runs.
  emulator.setScenario('test-home', { hang: true });
  workspace = await makeWorkspace('gi-e2e-fail-fast-');
});

afterAll(async () => {
  await emulator?.close();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

beforeEach(() => emulator.resetLog());

function inputs(extra: Record<string, string>): Record<string, string> {
  return { 'api-key': API_KEY, 'api-base-url': emulator.baseUrl, screenshots: 'none', ...extra };
}

describe('fail-fast', () => {
  it('the first failed test cancels the other runs remotely; they are counted as cancelled', async () => {
    const r = await runAction({
      workspace,
      inputs: inputs({
        'test-ids': 'test-payment,test-home',
        'suite-ids': 'suite-smoke',
        'fail-fast': 'true',
        timeout: '5',
      }),
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    // Asked: test-payment, test-home, and the smoke suite's 3 tests.
    expect(counts(r)).toMatchObject({ total: 5, failed: 1, cancelled: 2 });
    expect(counts(r).passed).toBe(2);
    expect([r.outputs.total, r.outputs.failed, r.outputs.cancelled]).toEqual(['5', '1', '2']);
    const cancels = emulator.requests().filter((q) => q.method === 'POST' && q.path.endsWith('/cancel/'));
    expect(cancels.map((q) => q.path.split('/')[2]).sort()).toEqual(['results', 'suite-results']);
    const ended = emulator.runs();
    expect(ended.some((f) => f.kind === 'suite-result' && f.condition === 'cancelled')).toBe(true);
    expect(
      ended.some((f) => f.testId === 'test-home' && f.suiteResultId === null && f.condition === 'cancelled'),
    ).toBe(true);
    expect(ended.some((f) => f.testId === 'test-payment' && f.condition === 'cancelled')).toBe(false);
    expect(r.stdout).toContain('Fail-fast: Pay by card failed; cancelling 2 other remote runs');
    const results = readFileSync(path.join(workspace, 'ghost-inspector-results.json'), 'utf8');
    expect(results).toContain('Cancelled by fail-fast: another test failed.');
  });

  it('off (the default): the other runs are not cancelled', async () => {
    const r = await runAction({
      workspace,
      inputs: inputs({ 'test-ids': 'test-payment,test-login', timeout: '5' }),
    });
    expect(r.code).toBe(1);
    expect(counts(r)).toMatchObject({ total: 2, failed: 1, passed: 1, cancelled: 0 });
    expect(emulator.requests().filter((q) => q.path.endsWith('/cancel/'))).toEqual([]);
  });
});
