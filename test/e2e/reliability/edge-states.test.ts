/**
 * Odd states of the service, each ending in a defined, documented state (README "Reliability"):
 * - a suite of 0 tests: nothing ran; the step fails under `fail-on-empty` (default), passes without it;
 * - a result that never finishes: `timed-out` at the action's deadline, cancelled remotely;
 * - a result that vanishes (not found) mid-poll: asked again during the not-found grace period (30 s
 *   after the trigger), then `error` with the service's answer;
 * - a suite result whose tests list changes while it is paged: every test result is reported once.
 * The action runs in-process (`run(deps)`), each case with an emulator of its own on one virtual clock
 * (`support/world.ts`): the deadline, the 30 s grace and the runs keep their production values in
 * the action's time and take milliseconds of real time; time stands still while the emulator works, so its
 * 55 test results cost no time of the action. What a case does to the service mid-run, it does on that
 * clock too, looking every few ms of it. No case reads a screenshot: the emulator renders none.
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import type { SeedFile } from '../../../emulator/index.js';
import { counts } from '../../support/harness.js';
import { useWorlds } from '../../support/world.js';
import type { VirtualClock } from '../../support/virtual-clock.js';
import {
  FILES,
  findSecrets,
  ORG,
  readResults,
  reliabilitySeed,
  secretInputs,
  secretsFor,
} from '../../support/reliability.js';
import { schemaErrors } from '../../support/junit.js';

const secrets = secretsFor('edge');
const { open } = useWorlds();

const BIG = 55;

function edgeSeed(): SeedFile {
  const seed = reliabilitySeed([secrets.apiKey]);
  seed.suites!.push({ _id: 'suite-big', name: 'Big suite', organization: ORG });
  for (let i = 0; i < BIG; i++) {
    seed.tests!.push({
      _id: `big-${i}`,
      name: `Big ${i}`,
      suite: 'suite-big',
      steps: [{ command: 'open', target: '/' }],
      scenario: { outcome: i % 11 === 3 ? 'fail' : 'pass', stepDurationsMs: 50, runDurationMs: 100 },
    });
  }
  // No case reads a screenshot: without them the emulator renders no images.
  for (const test of seed.tests!) test.disableVisuals = true;
  return seed;
}

/**
 * Calls `check` every `everyMs` of `clock` until it returns true or `stop()` does; resolves then.
 */
async function everyFewMs(clock: VirtualClock, everyMs: number, check: () => boolean, stop: () => boolean) {
  while (!check() && !stop()) await clock.sleep(everyMs);
}

/** An emulator and the action in-process on one virtual clock, a workspace and a runner of the action. */
async function setUp() {
  const world = await open({ seed: edgeSeed() });
  const { emulator, clock, workspace } = world;
  const run = (inputs: Record<string, string>) =>
    world.run({
      inputs: {
        ...secretInputs(secrets),
        'api-base-url': emulator.baseUrl,
        'timeout-minutes': '1',
        ...inputs,
      },
    });
  return { emulator, workspace, run, clock };
}

describe('a result that never finishes, results that vanish', () => {
  it('a result that never finishes: timed out at the deadline and cancelled remotely', async ({ expect }) => {
    const { emulator, workspace, run } = await setUp();
    emulator.setScenario('rel-red-ok', { hang: true });
    const r = await run({ 'suite-ids': 'suite-red', 'timeout-minutes': '0.5' });
    expect(r.code).toBe(1);
    const results = readResults(workspace)!;
    expect(results.interrupted).toBe('deadline');
    expect(Object.fromEntries(results.results.map((t) => [t.testId, t.state]))).toEqual({
      'rel-red-ok': 'timed-out',
      'rel-red-bad': 'failed',
    });
    expect(emulator.requests().some((q) => /^\/v1\/suite-results\/[^/]+\/cancel\/?$/.test(q.path))).toBe(
      true,
    );
    expect(findSecrets(r, workspace, secrets)).toEqual([]);
  });

  it('results that vanish mid-poll (not found): asked again for the grace period, then error', async ({
    expect,
  }) => {
    // Production time scale: a hanging run is cut by the emulator only long after the grace.
    const { emulator, workspace, run, clock } = await setUp();
    for (const id of ['rel-green-1', 'rel-green-2', 'rel-red-ok']) emulator.setScenario(id, { hang: true });
    const vanished = new Set<string>();
    let ended = false;
    // Each result read is deleted within 5 ms of the clock, long before the next poll; looked for until the
    // run ends.
    const deleting = everyFewMs(
      clock,
      5,
      () => {
        for (const q of emulator.requests()) {
          const m = /^\/v1\/(suite-results|results)\/([^/]+)\/?$/.exec(q.path);
          if (!m || q.method !== 'GET' || vanished.has(m[2]!)) continue;
          vanished.add(m[2]!);
          if (m[1] === 'suite-results') emulator.store.suiteResults.delete(m[2]!);
          else emulator.store.results.delete(m[2]!);
        }
        return false;
      },
      () => ended,
    );
    const started = clock.now();
    // A deadline far beyond the grace: the runs end by the grace, not by the deadline.
    const r = await run({ 'suite-ids': 'suite-green', 'test-ids': 'rel-red-ok', 'timeout-minutes': '10' });
    ended = true;
    await deleting;
    expect(vanished.size).toBe(2);
    expect(r.code).toBe(1);
    const results = readResults(workspace)!;
    expect(results.interrupted).toBeUndefined();
    expect(results.results.map((t) => t.state)).toEqual(['error', 'error']);
    for (const t of results.results) expect(t.error).toMatch(/could not be read: .*not found/i);
    // It kept asking during the grace period instead of giving up at the first "not found".
    const polls = emulator
      .requests()
      .filter((q) => q.method === 'GET' && vanished.has(q.path.split('/')[3]!));
    expect(polls.length).toBeGreaterThan(10);
    // The grace is 30 s of the action's time.
    expect(clock.now() - started).toBeGreaterThan(30_000);
    expect(findSecrets(r, workspace, secrets)).toEqual([]);
  });
});

// Each test has its own emulator and workspace: they run at once.
describe.concurrent('odd states of the service', () => {
  it('a suite of 0 tests: fails under fail-on-empty (default), passes without it; reports written', async ({
    expect,
  }) => {
    const { workspace, run } = await setUp();
    const strict = await run({ 'suite-ids': 'suite-empty' });
    expect(strict.code).toBe(1);
    expect(counts(strict)).toMatchObject({ total: 0 });
    expect(strict.stdout).toMatch(/::error::No test ran/);
    expect(schemaErrors(readFileSync(`${workspace}/${FILES.junit}`, 'utf8'))).toBe('');
    const lenient = await run({ 'suite-ids': 'suite-empty', 'fail-on-empty': 'false' });
    expect(lenient.code).toBe(0);
    expect(lenient.outputs.passing).toBe('true');
    expect(readResults(workspace)?.results).toEqual([]);
    expect(findSecrets(lenient, workspace, secrets)).toEqual([]);
  });

  it('a suite result whose tests list changes while it is paged: each test result reported once', async ({
    expect,
  }) => {
    const { emulator, workspace, run, clock } = await setUp();
    // The first page is answered at once, the second one second late; in between (looked for every 10 ms
    // of the clock), 5 test results are put in front of the list, which shifts the second page back over
    // the first.
    emulator.setFaults({
      delayMs: 1_000,
      routes: [
        { method: 'GET', pattern: '/v1/suite-results/*/results', kind: 'control-chars', times: 1 },
        { method: 'GET', pattern: '/v1/suite-results/*/results', kind: 'slow', times: 1 },
      ],
    });
    let inserted = 0;
    let ended = false;
    const inserting = everyFewMs(
      clock,
      10,
      () => {
        const first = emulator.requests().find((q) => q.fault === 'control-chars');
        if (!first) return false;
        const meta = emulator.store.suiteResultMeta.get(first.path.split('/')[3]!);
        if (!meta) return false;
        const model = emulator.store.results.get(meta.resultIds[0]!)!;
        for (let i = 0; i < 5; i++) {
          const id = emulator.store.newId();
          emulator.store.results.set(id, {
            ...model,
            _id: id,
            name: `Late ${i}`,
            test: { ...model.test!, _id: `late-${i}`, name: `Late ${i}` },
          });
          meta.resultIds.unshift(id);
        }
        inserted = 5;
        return true;
      },
      () => ended,
    );
    const r = await run({ 'suite-ids': 'suite-big' });
    ended = true;
    await inserting;
    expect(inserted).toBe(5);
    const results = readResults(workspace)!;
    const ids = results.results.map((t) => t.resultId);
    expect(new Set(ids).size, 'no test result twice').toBe(ids.length);
    const testIds = results.results.map((t) => t.testId).filter((id) => id?.startsWith('big-'));
    expect(new Set(testIds).size).toBe(BIG);
    expect(counts(r).total).toBe(ids.length);
    expect(counts(r).failed).toBe(5);
    expect(r.code).toBe(1);
    expect(findSecrets(r, workspace, secrets)).toEqual([]);
  });
});
