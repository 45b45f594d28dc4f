/**
 * The run engine with the real client against the emulator on loopback.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { RateBudget } from '../../../src/api/budget.js';
import { runPlan } from '../../../src/run/engine.js';
import { TICK_JITTER_MS, TICK_MS } from '../../../src/run/follow/watcher.js';
import type { RunEvent } from '../../../src/run/events.js';
import { decideVerdict } from '../../../src/run/outcome/outcome.js';
import { collectingLog, runPlanOf } from '../../support/run-factories.js';
import { useWorld } from '../../support/world.js';
import { consoleReporter } from '../../../src/report/console.js';

const API_KEY = 'engine-test-key';

// The emulator and the engine on one virtual clock (`test/support/world.ts`): production durations
// and waits, every time exact.
const world = useWorld({ apiKey: API_KEY });

const plan = runPlanOf;

/**
 * Any stretch of sends (virtual ms) fits the budget's token bucket: at most the burst plus the refill over
 * its length. Exact: on the virtual clock a send leaves at the very ms of its grant.
 */
function expectWithinBucket(sent: number[], budget: RateBudget): void {
  const { burst, nominalRatePerSecond: rate } = budget;
  for (let i = 0; i < sent.length; i++) {
    for (let j = i; j < sent.length; j++) {
      expect(j - i + 1).toBeLessThanOrEqual(burst + (rate * (sent[j]! - sent[i]!)) / 1000);
    }
  }
}

describe('runPlan against the emulator', () => {
  it('20 suites at once: all finish; the shared budget keeps to its bucket (30 at once, then 5 requests/s)', async () => {
    const sent: number[] = [];
    const budget = new RateBudget({ clock: world.clock });
    const onRequest = (): void => void sent.push(world.clock.now());
    const api = world.client({ apiKey: API_KEY, budget, onRequest });
    const suites = ['suite-smoke', 'suite-checkout', 'suite-visual', 'suite-data'];
    const suiteIds = Array.from({ length: 20 }, (_, i) => suites[i % 4]!);
    const summary = await runPlan(plan({ suiteIds }), {
      api,
      clock: world.clock,
      onEvent: consoleReporter(collectingLog()),
    });
    expect(summary.runs).toHaveLength(20);
    expect(summary.runs.every((r) => r.endedAt && r.suiteResult && r.tests.length > 0 && !r.error)).toBe(
      true,
    );
    expect(new Set(summary.runs.map((r) => r.key)).size).toBe(20);
    expectWithinBucket(sent, budget);
    // Every suite result's tests were read from its own list, in pages of 50.
    const pages = world.emulator
      .requests()
      .filter((q) => /^\/v1\/suite-results\/[^/]+\/results\/?$/.test(q.path));
    expect(pages).toHaveLength(20);
    expect(pages.every((q) => q.query.includes('count=50'))).toBe(true);
    for (const run of summary.runs) {
      expect(run.tests.every((t) => t.result?.suiteResult === run.suiteResultId)).toBe(true);
    }
  });

  it('a data file of 12 rows: every row and its tests are read, every send within the budget', async () => {
    const sent: number[] = [];
    const budget = new RateBudget({ clock: world.clock });
    const onRequest = (): void => void sent.push(world.clock.now());
    const api = world.client({ apiKey: API_KEY, budget, onRequest });
    const csv = ['user', ...Array.from({ length: 12 }, (_, i) => `user${i + 1}`)].join('\n');
    const summary = await runPlan(
      plan({
        suiteIds: ['suite-checkout'],
        execute: { disableVisuals: true, dataFile: { name: 'rows.csv', content: Buffer.from(csv) } },
      }),
      { api, clock: world.clock },
    );
    expect(summary.runs).toHaveLength(12);
    const ids = new Set<string>();
    for (const run of summary.runs) {
      expect(run.error).toBeUndefined();
      expect(run.tests.map((t) => [t.testName, t.state])).toEqual([
        ['Add to cart', 'passed'],
        ['Pay by card', 'failed'],
        ['Receipt e-mail link', 'passed'],
      ]);
      for (const t of run.tests) {
        expect(t.result?.suiteResult).toBe(run.suiteResultId);
        ids.add(t.result!._id);
      }
    }
    expect(ids.size).toBe(36);
    // Every send, the client's own retries included, kept to the budget's bucket.
    expectWithinBucket(sent, budget);
  });

  it('a suite result: tests with their states, links and a failing verdict', async () => {
    const api = world.client({ apiKey: API_KEY });
    const log = collectingLog();
    const summary = await runPlan(plan({ suiteIds: ['suite-checkout'] }), {
      api,
      clock: world.clock,
      onEvent: consoleReporter(log),
    });
    const [run] = summary.runs;
    expect(run!.kind).toBe('suite');
    expect(run!.suiteName).toBe('Checkout');
    expect(run!.tests.map((t) => [t.testName, t.state])).toEqual([
      ['Add to cart', 'passed'],
      ['Pay by card', 'failed'],
      ['Receipt e-mail link', 'passed'],
    ]);
    expect(run!.tests[1]!.url).toBe(`https://app.ghostinspector.com/results/${run!.tests[1]!.result!._id}`);
    expect(log.lines.some((l) => l.startsWith('❌ Failed  Pay by card'))).toBe(true);
    expect(log.lines.some((l) => /^Step \d+ .*: Element not found: \.confirmation$/.test(l))).toBe(true);
    const verdict = decideVerdict(summary, {
      failOnEmpty: true,
      failOnTimeout: true,
      failOnScreenshotCompare: false,
    });
    expect(verdict.passing).toBe(false);
  });

  it('a trigger that fails becomes a run in error; the others go on', async () => {
    const api = world.client({ apiKey: API_KEY });
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke', 'no-such-suite'] }), {
      api,
      clock: world.clock,
    });
    const failed = summary.runs.find((r) => r.error);
    expect(failed?.error).toContain('Could not start suite no-such-suite');
    expect(summary.runs.find((r) => !r.error)?.tests).toHaveLength(3);
  });

  it('a workflow cancel before the start triggers nothing', async () => {
    const api = world.client({ apiKey: API_KEY });
    const controller = new AbortController();
    controller.abort();
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'] }), {
      api,
      clock: world.clock,
      signal: controller.signal,
    });
    expect(summary.interrupted).toBe('signal');
    expect(world.emulator.requests()).toEqual([]);
  });

  it('the web app links are based on appUrl without its trailing slashes', async () => {
    const controller = new AbortController();
    controller.abort();
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'] }), {
      api: world.client({ apiKey: API_KEY }),
      clock: world.clock,
      signal: controller.signal,
      appUrl: 'https://app.example.test//',
    });
    expect(summary.appUrl).toBe('https://app.example.test');
  });

  it('several start URLs: one execute each, the variant names the start URL', async () => {
    const api = world.client({ apiKey: API_KEY });
    const startUrls = ['https://a.example.test/', 'https://b.example.test/'];
    const summary = await runPlan(plan({ testIds: ['test-home'], startUrls }), { api, clock: world.clock });
    expect(summary.runs.map((r) => r.variant.startUrl).sort()).toEqual(startUrls);
    expect(summary.runs.map((r) => r.tests[0]!.result!.startUrl).sort()).toEqual(startUrls);
  });

  it('heartbeat while waiting, then at the deadline: cancel, keep the finished tests, the rest timed out', async () => {
    const saved = world.emulator.store.scenarios.get('test-home') ?? null;
    world.emulator.setScenario('test-home', { hang: true });
    try {
      const api = world.client({ apiKey: API_KEY });
      const log = collectingLog();
      // Production figures: a 2-minute timeout, the heartbeat every minute (DEFAULT_HEARTBEAT_MS).
      const summary = await runPlan(plan({ suiteIds: ['suite-smoke'], timeoutMs: 120_000 }), {
        api,
        clock: world.clock,
        onEvent: consoleReporter(log),
      });
      expect(summary.interrupted).toBe('deadline');
      // One heartbeat, at exactly 60 s; the cancel and the wrap-up take no time past the deadline.
      expect(log.lines.filter((l) => /1 run still going, \d+ tests? finished \(60 s\)/.test(l))).toHaveLength(
        1,
      );
      expect(log.lines.filter((l) => /runs? still going, /.test(l))).toHaveLength(1);
      expect(Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)).toBe(120_000);
      const [run] = summary.runs;
      expect(run!.timedOut).toBe(true);
      expect(run!.cancelled).toBe(true);
      const states = Object.fromEntries(run!.tests.map((t) => [t.testName, t.state]));
      expect(states).toEqual({
        'Home page loads': 'timed-out',
        'Login works': 'passed',
        'Search finds products': 'passed',
      });
      expect(
        world.emulator.runs().some((f) => f.kind === 'suite-result' && f.condition === 'cancelled'),
      ).toBe(true);
    } finally {
      world.emulator.setScenario('test-home', saved);
    }
  });

  it('leaves no wait of its own behind: the deadline watch and the heartbeat end with the run', async () => {
    const api = world.client({ apiKey: API_KEY });
    const summary = await runPlan(plan({ suiteIds: ['suite-smoke'], timeoutMs: 1_800_000 }), {
      api,
      clock: world.clock,
    });
    expect(summary.interrupted).toBeUndefined();
    // The virtual clock jumps to each wait still pending: the last one the engine left ends within a tick.
    for (let i = 0; i < 500 && world.clock.pending > 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(world.clock.pending).toBe(0);
    expect(world.clock.now() - Date.parse(summary.finishedAt)).toBeLessThanOrEqual(TICK_MS + TICK_JITTER_MS);
  });

  it('a result that answers "not found" just after its trigger is asked again, not given up', async () => {
    const real = world.client({ apiKey: API_KEY });
    let notFound = 0;
    // The real client, except that the first two reads of the test result answer as an unknown id does.
    const api = {
      ...real,
      getTestResult: async (id: string, opts?: { signal?: AbortSignal }) => {
        if (notFound < 2) {
          notFound += 1;
          throw new ApiError({
            errorType: 'VALIDATION_ERROR',
            message: 'GET /v1/results/x/: the service says: Result not found',
            serviceMessage: 'Result not found',
            status: 200,
            endpoint: `GET /v1/results/${id}/`,
            attempts: 1,
          });
        }
        return real.getTestResult(id, opts);
      },
    };
    // The production retry delay: on the virtual clock it costs no real time.
    const summary = await runPlan(plan({ testIds: ['test-home'] }), { api, clock: world.clock });
    expect(notFound).toBe(2);
    expect(summary.runs[0]!.tests.map((t) => t.state)).toEqual(['passed']);
  });

  it('the not-found grace is an option: with none, a result never found is given up at once', async () => {
    const real = world.client({ apiKey: API_KEY });
    let reads = 0;
    const api = {
      ...real,
      getTestResult: async (id: string) => {
        reads += 1;
        throw new ApiError({
          errorType: 'VALIDATION_ERROR',
          message: 'GET /v1/results/x/: the service says: Result not found',
          serviceMessage: 'Result not found',
          status: 200,
          endpoint: `GET /v1/results/${id}/`,
          attempts: 1,
        });
      },
    };
    const summary = await runPlan(plan({ testIds: ['test-home'] }), {
      api,
      clock: world.clock,
      waits: { notFoundGraceMs: 0 },
    });
    expect(reads).toBe(1);
    const [test] = summary.runs[0]!.tests;
    expect(test!.state).toBe('error');
    expect(test!.error).toMatch(/Its result could not be read: .*Result not found/);
  });

  it('events: each step is told as a typed event, in order; the log gets the same as lines', async () => {
    const api = world.client({ apiKey: API_KEY });
    const events: RunEvent[] = [];
    const log = collectingLog();
    const report = consoleReporter(log);
    await runPlan(plan({ suiteIds: ['suite-checkout'] }), {
      api,
      clock: world.clock,
      onEvent: (e) => {
        events.push(e);
        report(e);
      },
    });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run-started');
    expect(types.filter((t) => t === 'test-finished').length).toBeGreaterThan(0);
    const started = events[0] as Extract<RunEvent, { type: 'run-started' }>;
    expect(started.label).toBe('suite suite-checkout');
    expect(log.lines[0]).toBe(`Started suite suite-checkout: 1 run (${started.resultIds[0]}).`);
  });

  it('many runs of one test (variants): one loop watches them all, about one request a second', async () => {
    const api = world.client({ apiKey: API_KEY });
    const startedAt = world.clock.now();
    const summary = await runPlan(
      plan({
        testIds: ['test-home'],
        execute: {
          disableVisuals: true,
          browser: ['chrome', 'firefox'],
          viewport: ['1280x800', '800x600', '375x667'],
        },
      }),
      { api, clock: world.clock },
    );
    expect(summary.runs).toHaveLength(6);
    expect(summary.runs.every((r) => r.tests[0]?.state === 'passed')).toBe(true);
    expect(new Set(summary.runs.map((r) => `${r.variant.browser} ${r.variant.viewport}`)).size).toBe(6);
    const seconds = (world.clock.now() - startedAt) / 1000;
    const watch = world.emulator
      .requests()
      .filter(
        (q) => q.method === 'GET' && /^\/v1\/(results\/[^/]+|organizations\/[^/]+\/running)\/?$/.test(q.path),
      );
    // One request a tick, plus one own read per run when it ends and at most one per 10 s meanwhile.
    expect(watch.length).toBeLessThanOrEqual(1.5 * seconds + 6 * (2 + seconds / 10));
  });
});
