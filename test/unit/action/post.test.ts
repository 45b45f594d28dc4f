/**
 * The post step in-process (`src/action/post.ts`, docs/architecture.md, "The post step") against the
 * emulator on loopback: it cancels the runs the main step recorded as going (`STATE_run-<id>` = `suite` or
 * `test`) and nothing else, at most `POST_CANCEL_CONCURRENCY` cancel requests at once; it warns, never fails, when the inputs cannot
 * reach the service or a cancel fails; it masks the API key only on a runner. The main step's recorder
 * keeps only the runs proven its own, forgets ended ones and clears the rest when it ended by itself.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../../emulator/index.js';
import {
  isPostStep,
  POST_CANCEL_CONCURRENCY,
  POST_STEP_LIMIT_MS,
  runPost,
  runStateRecorder,
} from '../../../src/action/post.js';
import { systemClock, type Clock } from '../../../src/common/clock.js';
import type { TestApi } from '../../support/api/client.js';
import { postStepEnv } from '../../support/harness.js';
import { startProxy, type Proxy, type ProxyAction } from '../../support/proxy.js';
import { ORG, secretsFor } from '../../support/reliability.js';
import { RecordingSink, stepDeps } from '../../support/run-action.js';
import { runnerInputs } from '../../support/runner-inputs.js';
import { useWorld } from '../../support/world.js';

const secrets = secretsFor('post-unit');
// A hanging test runs until the emulator cuts it (10 min × 0.05): long after each case.
const world = useWorld({ clock: 'scaled', secrets });
let emulator: Emulator;
let api: TestApi;

beforeAll(() => {
  emulator = world.emulator;
  emulator.setScenario('rel-green-1', { hang: true });
  api = world.client();
});

/** A sink that also keeps every `saveState` call, in order. */
class StateSink extends RecordingSink {
  saves: Array<[string, string]> = [];
  override saveState(name: string, value: string): void {
    super.saveState(name, value);
    this.saves.push([name, value]);
  }
}

/** A test result of the hanging test, going in the emulator. */
async function startTest(): Promise<string> {
  const result = await api.executeTest('rel-green-1', { immediate: true });
  return (Array.isArray(result) ? result[0]! : result)._id;
}

/** A suite result of `suite-green` (its first test hangs), going in the emulator. */
async function startSuite(): Promise<string> {
  const result = await api.executeSuite('suite-green', { immediate: true });
  return (Array.isArray(result) ? result[0]! : result)._id;
}

/** Ids of the test results the organization is running now. */
async function running(): Promise<string[]> {
  return (await api.listOrganizationRunning(ORG)).map((r) => r._id);
}

/** The cancel requests the emulator saw since its log was reset: `results/<id>` or `suite-results/<id>`. */
function cancelsSeen(): string[] {
  return emulator
    .requests()
    .filter((q) => q.method === 'POST' && /\/cancel\/?$/.test(q.path))
    .map((q) => q.path.replace(/^\/v1\//, '').replace(/\/cancel\/?$/, ''))
    .sort();
}

/** A clock that stands still until `ready()`, then moves on at once by the length of each wait. */
function clockWhen(ready: () => boolean): Clock {
  let now = Date.now();
  return {
    now: () => now,
    random: () => Math.random(),
    sleep: async (ms, signal) => {
      while (!ready() && !signal?.aborted) await systemClock.sleep(10, signal);
      if (!signal?.aborted) now += ms;
    },
  };
}

/** Runs the post step with the main step's `state` and the step's `inputs`; on a runner unless told. */
async function post(
  state: Record<string, string>,
  inputs: Record<string, string> = {},
  options: { onRunner?: boolean; sink?: RecordingSink; baseUrl?: string; clock?: Clock } = {},
): Promise<RecordingSink> {
  const env: NodeJS.ProcessEnv = {
    ...(options.onRunner === false ? {} : { GITHUB_ACTIONS: 'true' }),
    ...runnerInputs({
      'api-key': secrets.apiKey,
      'api-base-url': options.baseUrl ?? emulator.baseUrl,
      ...inputs,
    }),
    ...postStepEnv({ isPost: 'true', ...state }),
  };
  const sink = options.sink ?? new RecordingSink();
  await runPost(stepDeps(env, sink, options.clock ? { clock: options.clock } : {}));
  return sink;
}

describe('isPostStep', () => {
  it('is the post step only once the main step set its flag', () => {
    expect(isPostStep(postStepEnv({ isPost: 'true' }))).toBe(true);
    expect(isPostStep({})).toBe(false);
    expect(isPostStep({ isPost: 'true', STATE_other: 'true' })).toBe(false);
  });
});

describe('runPost', () => {
  it('cancels the suite and test results recorded as going, and only those; none is left going', async () => {
    const suiteResult = await startSuite();
    const testResult = await startTest();
    const ended = await startTest();
    const other = await startTest();
    const before = await running();
    expect(before).toEqual(expect.arrayContaining([testResult, ended, other]));
    const suiteTests = (await api.listSuiteResultTestResults(suiteResult))
      .map((r) => r._id)
      .filter((id) => before.includes(id));
    expect(suiteTests).not.toEqual([]);
    emulator.resetLog();
    const sink = await post({
      [`run-${suiteResult}`]: 'suite',
      [`run-${testResult}`]: 'test',
      // Ended runs (cleared), a value of another kind and a name outside the prefix are not the post step's.
      [`run-${ended}`]: '',
      [`run-${other}`]: 'folder',
      [`xrun-${other}`]: 'test',
      [`tunnel-run-${other}`]: 'test',
    });
    expect(cancelsSeen()).toEqual([`results/${testResult}`, `suite-results/${suiteResult}`]);
    const left = await running();
    expect(left).toEqual(expect.arrayContaining([ended, other]));
    for (const id of [testResult, ...suiteTests]) expect(left).not.toContain(id);
    expect(sink.stdout).toContain(
      'Cancelling 2 Ghost Inspector runs the main step was stopped before ending.',
    );
    expect(sink.stdout).toContain(`Cancelled suite result ${suiteResult}.`);
    expect(sink.stdout).toContain(`Cancelled test result ${testResult}.`);
    // Every cancel answered: no run is said to be left going.
    expect(sink.stdout).not.toContain('::warning::');
    expect(sink.failed).toBe(false);
    await api.cancelTestResult(ended);
    await api.cancelTestResult(other);
  });

  it('with no run recorded as going: no request, not a line', async () => {
    emulator.resetLog();
    const sink = await post({ 'run-abc': '', other: 'test' });
    expect(emulator.requests()).toEqual([]);
    expect(sink.stdout).toBe('');
  });

  it('masks the API key on a runner before cancelling; never outside one', async () => {
    const id = await startTest();
    const onRunner = await post({ [`run-${id}`]: 'test' });
    const mask = onRunner.stdout.indexOf(`::add-mask::${secrets.apiKey}\n`);
    expect(mask).toBeGreaterThanOrEqual(0);
    expect(mask).toBeLessThan(onRunner.stdout.indexOf('Cancelling 1 Ghost Inspector runs'));
    const id2 = await startTest();
    const outside = await post({ [`run-${id2}`]: 'test' }, {}, { onRunner: false });
    expect(outside.stdout).not.toContain('::add-mask::');
    expect(outside.stdout).toContain(`Cancelled test result ${id2}.`);
    expect(await running()).not.toContain(id2);
  });

  it('inputs that cannot reach the service: a warning naming the runs left going, no request, not failed', async () => {
    const id = await startTest();
    emulator.resetLog();
    const empty = await post({ [`run-${id}`]: 'test' }, { 'api-key': '' });
    expect(empty.stdout).toBe(
      '::warning::1 Ghost Inspector runs may still be going: the inputs cannot reach the service.\n',
    );
    const spaced = await post({ [`run-${id}`]: 'test' }, { 'api-key': 'two words' });
    // A key given is masked on a runner even when it is refused.
    expect(spaced.stdout).toContain('::add-mask::two words\n');
    expect(spaced.stdout).toContain('1 Ghost Inspector runs may still be going');
    const badUrl = await post({ [`run-${id}`]: 'test' }, {}, { baseUrl: 'ftp://example.test/v1' });
    expect(badUrl.stdout).toContain('1 Ghost Inspector runs may still be going');
    expect(emulator.requests()).toEqual([]);
    expect([empty, spaced, badUrl].some((s) => s.failed)).toBe(false);
    expect(await running()).toContain(id);
    await api.cancelTestResult(id);
  });

  it('a failed cancel warns, the others still go, the step never fails', async () => {
    const id = await startTest();
    const sink = await post({ 'run-000000000000000000000bad': 'test', [`run-${id}`]: 'test' });
    expect(sink.stdout).toMatch(/::warning::Could not cancel test result 000000000000000000000bad: \S/);
    expect(sink.stdout).toContain(`Cancelled test result ${id}.`);
    expect(sink.stdout.replace(`::add-mask::${secrets.apiKey}`, '')).not.toContain(secrets.apiKey);
    expect(sink.failed).toBe(false);
    expect(await running()).not.toContain(id);
  });

  it('whatever throws, the post step warns and returns', async () => {
    const id = await startTest();
    const sink = new (class extends RecordingSink {
      override info(message: string): void {
        if (message.startsWith('Cancelling')) throw new Error('stdout is closed');
        super.info(message);
      }
    })();
    await post({ [`run-${id}`]: 'test' }, {}, { sink });
    expect(sink.stdout).toContain('::warning::Post step: stdout is closed\n');
    expect(sink.failed).toBe(false);
    await api.cancelTestResult(id);
  });

  it('sends at most POST_CANCEL_CONCURRENCY cancel requests at once, that many at once when there are more', async () => {
    const ids = await Promise.all(Array.from({ length: POST_CANCEL_CONCURRENCY + 2 }, () => startTest()));
    // Cancels wait at the proxy until as many are waiting as the limit lets through (or the rest of them).
    let inFlight = 0;
    let most = 0;
    let released = 0;
    let waiting: Array<() => void> = [];
    const proxy: Proxy = await startProxy(emulator.origin, async (request): Promise<ProxyAction> => {
      if (!/\/cancel\/?(\?|$)/.test(request.url)) return 'forward';
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length >= Math.min(POST_CANCEL_CONCURRENCY, ids.length - released)) {
          released += waiting.length;
          for (const go of waiting) go();
          waiting = [];
        }
      });
      return 'forward';
    });
    try {
      const sink = new (class extends RecordingSink {
        override info(message: string): void {
          if (message.startsWith('Cancelled')) inFlight -= 1;
          super.info(message);
        }
      })();
      await post(
        Object.fromEntries(ids.map((id) => [`run-${id}`, 'test'])),
        {},
        { baseUrl: proxy.baseUrl, sink },
      );
      expect(released).toBe(ids.length);
      expect(most).toBe(POST_CANCEL_CONCURRENCY);
      const left = await running();
      for (const id of ids) expect(left).not.toContain(id);
    } finally {
      await proxy.close();
    }
  });
  it('cancels the service never answers: it ends within its limit, one warning names the runs not cancelled', async () => {
    const ids = [await startTest(), await startSuite()];
    const proxy = await startProxy(emulator.origin, (request) =>
      /\/cancel\/?(\?|$)/.test(request.url) ? 'hold-before' : 'forward',
    );
    // Time stands still until both cancels hang at the service, then the limit's wait passes at once.
    const clock = clockWhen(() => proxy.held.length === ids.length);
    try {
      const startedAt = clock.now();
      const sink = await post(
        { [`run-${ids[0]}`]: 'test', [`run-${ids[1]}`]: 'suite' },
        {},
        { baseUrl: proxy.baseUrl, clock },
      );
      const tookMs = clock.now() - startedAt;
      expect(tookMs).toBeGreaterThan(POST_STEP_LIMIT_MS - 5_000);
      expect(tookMs).toBeLessThanOrEqual(POST_STEP_LIMIT_MS);
      expect(proxy.held).toHaveLength(2);
      const warnings = sink.stdout.split('\n').filter((line) => line.startsWith('::warning::'));
      expect(warnings).toEqual([
        `::warning::2 Ghost Inspector runs may still be going: not cancelled within the post step's 30 s ` +
          `(test result ${ids[0]}, suite result ${ids[1]}).`,
      ]);
      expect(sink.failed).toBe(false);
    } finally {
      await proxy.close();
      await api.cancelTestResult(ids[0]!);
      await api.cancelSuiteResult(ids[1]!);
    }
  });
});

describe('runStateRecorder', () => {
  it('keeps the runs going, forgets ended ones, never keeps an inferred run; clear() empties what is kept', () => {
    const sink = new StateSink();
    const recorder = runStateRecorder(sink);
    recorder.onRemote({ type: 'suite', id: 'a1', active: true });
    recorder.onRemote({ type: 'test', id: 'b2', active: true });
    recorder.onRemote({ type: 'test', id: 'c3', active: true, inferred: true });
    expect(sink.state).toEqual({ 'run-a1': 'suite', 'run-b2': 'test' });
    recorder.onRemote({ type: 'suite', id: 'a1', active: false });
    recorder.onRemote({ type: 'test', id: 'c3', active: false, inferred: true });
    expect(sink.state).toEqual({ 'run-a1': '', 'run-b2': 'test' });
    sink.saves = [];
    recorder.clear();
    // Only what was still kept is cleared: the ended run was forgotten.
    expect(sink.saves).toEqual([['run-b2', '']]);
    expect(sink.state).toEqual({ 'run-a1': '', 'run-b2': '' });
    sink.saves = [];
    recorder.clear();
    expect(sink.saves).toEqual([]);
  });
});
