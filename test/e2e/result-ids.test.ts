/**
 * `result-ids`: runs started in one step with `wait: false` are waited for in another, with every report
 * as usual. In-process on one virtual clock with the emulator (`useWorld`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { counts } from '../support/harness.js';
import { useWorld } from '../support/world.js';

const setup = useWorld({ fixtures: true });

beforeEach(() => setup.emulator.resetLog());
afterEach(() => setup.emulator.setScenario('test-home', setup.seedScenarios.get('test-home') ?? null));

function inputs(extra: Record<string, string>): Record<string, string> {
  return { ...setup.connection(), screenshots: 'none', ...extra };
}

const isExecute = (q: { method: string; path: string }) => /\/execute\/?$/.test(q.path);
const isCancel = (q: { method: string; path: string }) => q.method === 'POST' && /\/cancel\/?$/.test(q.path);

describe('result-ids', () => {
  it('waits for the suite and test results a wait: false step started, and reports them', async () => {
    const started = await setup.run({
      inputs: inputs({ 'suite-ids': 'suite-smoke', 'test-ids': 'test-home', wait: 'false' }),
    });
    expect(started.code, started.stdout).toBe(0);
    const suiteResult = started.outputs['suite-result-ids']!;
    const testResult = started.outputs['test-result-ids']!;
    expect(suiteResult).toMatch(/\S/);
    expect(testResult).toMatch(/\S/);
    setup.emulator.resetLog();

    const waited = await setup.run({ inputs: inputs({ 'result-ids': `${suiteResult},${testResult}` }) });
    expect(waited.code, waited.stdout).toBe(0);
    expect(setup.emulator.requests().filter(isExecute)).toEqual([]);
    const c = counts(waited);
    expect(c.total).toBeGreaterThanOrEqual(2);
    expect(c.passed).toBe(c.total);
    expect(waited.outputs['suite-result-ids']).toBe(suiteResult);
    expect(waited.summary).toContain('Ghost Inspector: passed');
    const junit = readFileSync(path.join(setup.workspace, 'ghost-inspector-junit.xml'), 'utf8');
    expect(junit).toContain('<testcase');
  });

  it('takes a prefix for the kind, and reports an id that names no result as an error', async () => {
    const started = await setup.run({ inputs: inputs({ 'test-ids': 'test-home', wait: 'false' }) });
    const testResult = started.outputs['test-result-ids']!;
    setup.emulator.resetLog();
    const waited = await setup.run({
      inputs: inputs({ 'result-ids': `test-result:${testResult}\nsuite-result:000000000000000000000000` }),
    });
    // The prefixed test result is read as one at once: no suite-result lookup for it.
    expect(setup.emulator.requests().some((q) => q.path.includes(`suite-results/${testResult}`))).toBe(false);
    expect(waited.code).toBe(1);
    const c = counts(waited);
    expect(c.passed).toBe(1);
    expect(c.error).toBe(1);
    expect(waited.stdout).toContain('000000000000000000000000');
  });

  it('runs started elsewhere are only waited for: not cancelled at the deadline, not kept for the post step', async () => {
    setup.emulator.setScenario('test-home', { hang: true });
    const started = await setup.run({ inputs: inputs({ 'test-ids': 'test-home', wait: 'false' }) });
    const id = started.outputs['test-result-ids']!;
    setup.emulator.resetLog();
    const waited = await setup.run({
      inputs: inputs({ 'result-ids': id, 'timeout-minutes': '0.05', 'fail-on-timeout': 'false' }),
    });
    expect(counts(waited)['timed-out']).toBe(1);
    expect(setup.emulator.requests().filter(isCancel)).toEqual([]);
    expect(Object.entries(waited.state).filter(([name, value]) => name.startsWith('run-') && value)).toEqual(
      [],
    );
  });

  it("with cancel-result-ids: true they are cancelled at the deadline like the step's own", async () => {
    setup.emulator.setScenario('test-home', { hang: true });
    const started = await setup.run({ inputs: inputs({ 'test-ids': 'test-home', wait: 'false' }) });
    const id = started.outputs['test-result-ids']!;
    setup.emulator.resetLog();
    await setup.run({
      inputs: inputs({ 'result-ids': id, 'timeout-minutes': '0.05', 'cancel-result-ids': 'true' }),
    });
    expect(
      setup.emulator
        .requests()
        .filter(isCancel)
        .map((q) => q.path),
    ).toEqual([`/v1/results/${id}/cancel/`]);
  });

  it('refuses result-ids with wait: false, before any request', async () => {
    const r = await setup.run({ inputs: inputs({ 'result-ids': 'abc', wait: 'false' }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Input "wait" has value "false"; expected true when result-ids is set');
    expect(setup.emulator.requests()).toEqual([]);
  });
});
