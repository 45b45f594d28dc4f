/**
 * The action's run (`runTests` of `src/action/run-tests.ts`, docs/architecture.md) in-process against the
 * emulator, both on one virtual clock: what it leaves in the step state for the post step (the runs still
 * going when a deadline's cancel failed; nothing after a deadline under `cancel-on-timeout: false`, nor
 * with `wait: false`), the tunnel's URL as a variable of every run only with a tunnel, the web app's links,
 * the client's debug log, and the deadline's backstop disarmed once it returns.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from '../../../src/api/api.js';
import { runTests } from '../../../src/action/run-tests.js';
import { readGitHubContext } from '../../../src/github.js';
import { readInputs, type ActionInputs } from '../../../src/inputs/index.js';
import { DEADLINE_BACKSTOP_MS } from '../../../src/run/stop/deadline.js';
import { reliabilitySeed, secretsFor } from '../../support/reliability.js';
import { startProxy } from '../../support/proxy.js';
import { RecordingSink, stepDeps } from '../../support/run-action.js';
import { runnerInputs } from '../../support/runner-inputs.js';
import { useWorld } from '../../support/world.js';

const secrets = secretsFor('run-tests-unit');
const world = useWorld({ seed: reliabilitySeed([secrets.apiKey]) });

/** A sink that also keeps every `saveState` call, in order. */
class StateSink extends RecordingSink {
  saves: Array<[string, string]> = [];
  /** Called after each save. */
  onSave: () => void = () => undefined;
  override saveState(name: string, value: string): void {
    super.saveState(name, value);
    this.saves.push([name, value]);
    this.onSave();
  }
}

async function inputsOf(given: Record<string, string>): Promise<ActionInputs> {
  return readInputs({
    env: runnerInputs({ 'api-key': secrets.apiKey, 'api-base-url': world.emulator.baseUrl, ...given }),
    workspace: process.cwd(),
  });
}

/** The options each API client was made with (by `deps.createApi`). */
let clientsMade: ClientOptions[] = [];

/** Runs `runTests` with `inputs` on the virtual world, from now; `signal` is the workflow cancel. */
async function run(
  inputs: ActionInputs,
  options: { env?: NodeJS.ProcessEnv; tunnelUrl?: string; sink?: StateSink; signal?: AbortSignal } = {},
) {
  const sink = options.sink ?? new StateSink();
  clientsMade = [];
  const deps = stepDeps(options.env ?? {}, sink, {
    github: readGitHubContext({}),
    clock: world.clock,
    createApi: (o) => {
      clientsMade.push(o);
      return world.client(o);
    },
  });
  const { summary } = await runTests(
    inputs,
    deps,
    world.clock.now(),
    options.signal ?? new AbortController().signal,
    options.tunnelUrl,
  );
  return { summary, sink };
}

/** The step-state entries of runs still set (what the post step would cancel). */
const stillSet = (sink: RecordingSink) =>
  Object.entries(sink.state).filter(([name, value]) => name.startsWith('run-') && value);

const cancels = () =>
  world.emulator.requests().filter((q) => q.method === 'POST' && /\/cancel\/?$/.test(q.path));

describe('runTests and the post step’s state', () => {
  it('a deadline under cancel-on-timeout: false leaves no run for the post step', async () => {
    world.emulator.setScenario('rel-green-1', { hang: true });
    const inputs = await inputsOf({
      'test-ids': 'rel-green-1',
      'timeout-minutes': '1',
      'cancel-on-timeout': 'false',
    });
    const { summary, sink } = await run(inputs);
    expect(summary.interrupted).toBe('deadline');
    const id = summary.runs[0]!.testResultId!;
    expect(sink.saves[0]).toEqual([`run-${id}`, 'test']);
    expect(stillSet(sink)).toEqual([]);
    expect(cancels()).toEqual([]);
    await world.client({ apiKey: secrets.apiKey }).cancelTestResult(id);
  });

  it('a deadline whose cancel fails under cancel-on-timeout: true leaves the run for the post step', async () => {
    world.emulator.setScenario('rel-green-1', { hang: true });
    world.emulator.setFaults({ routes: [{ method: 'POST', pattern: '/v1/results/*/cancel', kind: '500' }] });
    try {
      const inputs = await inputsOf({ 'test-ids': 'rel-green-1', 'timeout-minutes': '1' });
      const { summary, sink } = await run(inputs);
      expect(summary.interrupted).toBe('deadline');
      expect(cancels().length).toBeGreaterThan(0);
      expect(stillSet(sink)).toEqual([[`run-${summary.runs[0]!.testResultId!}`, 'test']]);
    } finally {
      world.emulator.setFaults({});
    }
  });

  it('a deadline whose cancel goes through under cancel-on-timeout: true: the run is cancelled and forgotten', async () => {
    world.emulator.setScenario('rel-green-1', { hang: true });
    const inputs = await inputsOf({ 'test-ids': 'rel-green-1', 'timeout-minutes': '1' });
    const { summary, sink } = await run(inputs);
    expect(summary.interrupted).toBe('deadline');
    expect(cancels()).toHaveLength(1);
    expect(sink.saves.map(([, value]) => value)).toEqual(['test', '']);
  });

  it('wait: false records no run: they are meant to go on', async () => {
    world.emulator.setScenario('rel-green-1', { hang: true });
    const inputs = await inputsOf({ 'test-ids': 'rel-green-1', wait: 'false' });
    const { summary, sink } = await run(inputs);
    expect(summary.runs[0]!.testResultId).toBeTruthy();
    expect(sink.saves).toEqual([]);
    await world.client({ apiKey: secrets.apiKey }).cancelTestResult(summary.runs[0]!.testResultId!);
  });
  it('wait: false with the deadline passing during the triggers, under cancel-on-timeout: false: still no state', async () => {
    world.emulator.setScenario('rel-green-1', null);
    world.emulator.setFaults({
      delayMs: 20_000,
      routes: [{ method: 'POST', pattern: '/v1/tests/*/execute', kind: 'slow' }],
    });
    try {
      const inputs = await inputsOf({
        'test-ids': 'rel-green-1',
        wait: 'false',
        'timeout-minutes': '0.1',
        'cancel-on-timeout': 'false',
      });
      const { summary, sink } = await run(inputs);
      expect(summary.interrupted).toBe('deadline');
      expect(sink.saves).toEqual([]);
    } finally {
      world.emulator.setFaults({});
    }
  });
});

describe('runTests', () => {
  it('sends the tunnel’s URL as the tunnel-url-variable of every run, beside the other variables and settings', async () => {
    world.emulator.setScenario('rel-green-1', null);
    const inputs = await inputsOf({
      'test-ids': 'rel-green-1',
      tunnel: 'http://localhost:3000',
      'tunnel-url-variable': 'appBase',
      variables: 'PLAN=pro',
      browser: 'firefox',
    });
    const { summary } = await run(inputs, { tunnelUrl: 'http://tunnel.example.test:4567' });
    expect(summary.runs[0]!.tests[0]!.result?.browser).toMatch(/^firefox/);
    expect(summary.runs[0]!.tests[0]!.result?.variables).toMatchObject({
      PLAN: 'pro',
      appBase: 'http://tunnel.example.test:4567',
    });
  });

  it('without a tunnel input, a URL given is not sent', async () => {
    const inputs = await inputsOf({ 'test-ids': 'rel-green-1', variables: 'PLAN=pro' });
    const { summary } = await run(inputs, { tunnelUrl: 'http://tunnel.example.test:4567' });
    const variables = summary.runs[0]!.tests[0]!.result?.variables ?? {};
    expect(variables).toMatchObject({ PLAN: 'pro' });
    expect(Object.values(variables)).not.toContain('http://tunnel.example.test:4567');
  });

  it('links to GHOST_INSPECTOR_APP_URL; logs the client’s requests as debug lines without the API key', async () => {
    const inputs = await inputsOf({ 'test-ids': 'rel-green-1' });
    const { summary, sink } = await run(inputs, {
      env: { GHOST_INSPECTOR_APP_URL: 'https://gi.example.test/' },
    });
    expect(sink.stdout).toContain(`https://gi.example.test/results/${summary.runs[0]!.testResultId!}`);
    expect(sink.stdout).not.toContain('app.ghostinspector.com');
    expect(sink.stdout).toMatch(/^::debug::.*\/v1\/tests\/rel-green-1\/execute/m);
    expect(sink.stdout).not.toContain(secrets.apiKey);
  });

  it('disarms the deadline’s backstop once it returns', async () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const clearTimer = vi.spyOn(globalThis, 'clearTimeout');
    try {
      const inputs = await inputsOf({ 'test-ids': 'rel-green-1' });
      await run(inputs);
      const armed = setTimer.mock.calls.findIndex(([, ms]) => ms === inputs.timeoutMs + DEADLINE_BACKSTOP_MS);
      expect(armed).toBeGreaterThanOrEqual(0);
      const timer = setTimer.mock.results[armed]!.value as unknown;
      expect(clearTimer.mock.calls.some(([t]) => t === timer)).toBe(true);
    } finally {
      setTimer.mockRestore();
      clearTimer.mockRestore();
    }
  });

  it('makes its one API client with deps.createApi, from the inputs', async () => {
    const inputs = await inputsOf({ 'test-ids': 'rel-green-1' });
    await run(inputs);
    expect(clientsMade).toHaveLength(1);
    expect(clientsMade[0]).toMatchObject({
      apiKey: secrets.apiKey,
      baseUrl: world.emulator.baseUrl,
      secrets: inputs.secrets,
    });
  });

  it('an answer of the wrong shape is a warning, redacted', async () => {
    let bent = 0;
    const proxy = await startProxy(
      world.emulator.origin,
      () => null,
      (request, body) => {
        if (bent > 0 || request.method !== 'GET' || !/^\/v1\/results\/[^/?]+\/?\?/.test(request.url))
          return undefined;
        bent += 1;
        return { ...(body as object), data: ['not a test result'] };
      },
    );
    try {
      const inputs = await inputsOf({ 'test-ids': 'rel-green-1', 'api-base-url': proxy.baseUrl });
      const { sink } = await run(inputs);
      expect(bent).toBe(1);
      expect(sink.stdout).toMatch(/^::warning::.*\/v1\/results\/.*/m);
      expect(sink.stdout).not.toContain(secrets.apiKey);
    } finally {
      await proxy.close();
    }
  });
});

describe('runTests after a workflow cancel', () => {
  it('under cancel-on-timeout: false, a run whose cancel failed stays for the post step', async () => {
    world.emulator.setScenario('rel-green-1', { hang: true });
    world.emulator.setFaults({ routes: [{ method: 'POST', pattern: '/v1/results/*/cancel', kind: '500' }] });
    try {
      const inputs = await inputsOf({
        'test-ids': 'rel-green-1',
        'timeout-minutes': '5',
        'cancel-on-timeout': 'false',
      });
      const cancel = new AbortController();
      const sink = new StateSink();
      // The workflow cancel comes once the run is recorded as going.
      sink.onSave = () => cancel.abort();
      const { summary } = await run(inputs, { sink, signal: cancel.signal });
      expect(summary.interrupted).toBe('signal');
      expect(cancels().length).toBeGreaterThan(0);
      expect(stillSet(sink)).toEqual([[`run-${summary.runs[0]!.testResultId!}`, 'test']]);
    } finally {
      world.emulator.setFaults({});
      world.emulator.setScenario('rel-green-1', null);
    }
  });
});
