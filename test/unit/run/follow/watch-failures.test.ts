/**
 * The watch loop when reads fail (docs/architecture.md, "When the list fails"): a run's own reads that fail are
 * tried again after a back-off doubling from `pollBackoffMs` and given up after `maxPollErrors` in a row (or
 * three answers of the wrong shape); a running list that fails is told, asked again after its own back-off,
 * and meanwhile each tick reads the three runs read longest ago; a run that goes missing from the list is
 * read at once, one it never shows once 2 s after its trigger ("The list is a hint"); a stop with a request
 * out tells no failure; a suite result whose tests cannot be listed, or whose list still shows them running,
 * ends as the suite result says (docs/architecture.md, "After a run ended"). Engine and emulator on one virtual clock
 * (`test/support/watch-scenario.ts`), a proxy (`test/support/proxy.ts`) where the service must answer wrong;
 * the client sends each request once (no retries of its own), so each failure the emulator answers reaches
 * the watch loop at its exact virtual time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateBudget } from '../../../../src/api/budget.js';
import { UNEXPECTED_SHAPE_LIMIT } from '../../../../src/api/errors.js';
import { refId } from '../../../../src/api/refs.js';
import { runPlan, type RunPlan } from '../../../../src/run/engine.js';
import type { RunSummary } from '../../../../src/run/types.js';
import { TICK_JITTER_MS, TICK_MS } from '../../../../src/run/follow/watcher.js';
import {
  planOf,
  requestKind,
  setDurations,
  watchSeed,
  WATCH_KEY,
  type RunSpec,
} from '../../../support/watch-scenario.js';
import { startProxy, type SeenRequest } from '../../../support/proxy.js';
import { startWorld, type World } from '../../../support/world.js';

/** The engine's default first back-off after a failed read, ms (`EngineWaits.pollBackoffMs`). */
const POLL_BACKOFF_MS = 1_000;
/** Longest tick, ms. */
const LONGEST_TICK_MS = TICK_MS + TICK_JITTER_MS;

/** The shortest back-off after `failures` failures in a row, ms: half its window, doubling from the base. */
const shortestBackoffMs = (failures: number): number => Math.min(10_000, POLL_BACKOFF_MS * 2 ** failures) / 2;

const testOf = (id: string, ms: number): RunSpec => ({ kind: 'test', id, durationsMs: [ms] });
const unreadable = testOf('wf-unreadable', 60_000);
const unreadableSuite: RunSpec = { kind: 'suite', id: 'wf-unreadable-suite', durationsMs: [60_000, 60_000] };
const garbled = testOf('wf-garbled', 60_000);
const listless = ['a', 'b', 'c', 'd'].map((x, i) => testOf(`wf-listless-${x}`, 12_000 + i * 1_000));
const loneListless = testOf('wf-lone-listless', 15_000);
const held = ['a', 'b'].map((x) => testOf(`wf-held-${x}`, 30_000));
const failing: RunSpec = { kind: 'test', id: 'wf-failing', durationsMs: [4_000], outcome: 'fail' };
const hidden = ['a', 'b'].map((x) => testOf(`wf-hidden-${x}`, 14_000));
const slowList = ['a', 'b'].map((x) => testOf(`wf-slow-list-${x}`, 12_000));
const orgless: RunSpec[] = ['a', 'b'].map((x, i) => ({
  kind: 'suite',
  id: `wf-orgless-${x}`,
  durationsMs: [14_000 + i * 3_000],
}));
const unlisted: RunSpec = { kind: 'suite', id: 'wf-unlisted', durationsMs: [5_000, 5_000] };
const cancelled: RunSpec = { kind: 'suite', id: 'wf-cancelled', durationsMs: [30_000, 30_000] };

let bed: World;
beforeAll(async () => {
  bed = await startWorld({
    seed: watchSeed([
      unreadable,
      unreadableSuite,
      garbled,
      ...listless,
      loneListless,
      ...held,
      failing,
      ...slowList,
      ...hidden,
      ...orgless,
      unlisted,
      cancelled,
    ]),
  });
});
afterAll(async () => {
  await bed?.close();
});

interface Watched {
  summary: RunSummary;
  /** Detail events, with the virtual time each was told at. */
  details: Array<{ atMs: number; message: string }>;
  /** Remote result ids still followed at the end: an ended run's result is released. */
  stillFollowed: Set<string>;
}

/** Runs `specs` in one engine run under emulator `faults`, with a client that does not retry. */
async function watchUnder(
  specs: RunSpec[],
  faults: string,
  options: { maxPollErrors?: number; plan?: Partial<RunPlan>; baseUrl?: string; signal?: AbortSignal } = {},
): Promise<Watched> {
  for (const s of specs) setDurations(bed, s);
  bed.emulator.resetLog();
  bed.emulator.setFaults(faults);
  const details: Watched['details'] = [];
  const stillFollowed = new Set<string>();
  try {
    const api = bed.client({
      apiKey: WATCH_KEY,
      budget: new RateBudget({ clock: bed.clock }),
      maxRetries: 0,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
    const summary = await runPlan(
      { ...planOf(specs), ...options.plan },
      {
        api,
        clock: bed.clock,
        maxPollErrors: options.maxPollErrors,
        signal: options.signal,
        onEvent: (e) => {
          if (e.type === 'detail') details.push({ atMs: bed.clock.now(), message: e.message });
        },
        onRemote: (r) => void (r.active ? stillFollowed.add(r.id) : stillFollowed.delete(r.id)),
      },
    );
    return { summary, details, stillFollowed };
  } finally {
    bed.emulator.setFaults('');
  }
}

const timesOf = (w: Watched, prefix: string): number[] =>
  w.details.filter((d) => d.message.startsWith(prefix)).map((d) => d.atMs);
const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

describe('a run whose own reads keep failing', () => {
  it('is read again after a back-off doubling from 1 s, and given up after exactly maxPollErrors failures', async () => {
    const w = await watchUnder([unreadable], 'route=GET /v1/results/*:500', { maxPollErrors: 5 });
    const failures = timesOf(w, 'Poll of test result');
    expect(failures).toHaveLength(5);
    gaps(failures).forEach((gap, i) =>
      expect(gap, `after failure ${i + 1}`).toBeGreaterThanOrEqual(shortestBackoffMs(i + 1)),
    );
    const run = w.summary.runs[0]!;
    expect(run.error).toMatch(/could not be read/);
    expect(run.tests[0]!.state).toBe('error');
    // Given up is ended: its result is no longer followed (nor cancelled later as if still running).
    expect(w.stillFollowed).toEqual(new Set());
  });

  it('a suite result given up keeps the tests it has, with no stand-in test', async () => {
    const w = await watchUnder([unreadableSuite], 'route=GET /v1/suite-results/*:500', { maxPollErrors: 2 });
    const run = w.summary.runs[0]!;
    expect(run.error).toMatch(/could not be read/);
    expect(run.tests).toEqual([]);
  });

  it('answering the wrong shape is given up after three such answers, before maxPollErrors', async () => {
    // A service answering a test result without its `_id`: an answer of the wrong shape.
    const noId = JSON.stringify({ code: 'SUCCESS', data: { passing: null } });
    const proxy = await startProxy(bed.emulator.origin, (r) =>
      r.method === 'GET' && r.url.startsWith('/v1/results/') ? { status: 200, body: noId } : null,
    );
    try {
      const w = await watchUnder([garbled], '', { maxPollErrors: 6, baseUrl: proxy.baseUrl });
      expect(timesOf(w, 'Poll of test result')).toHaveLength(UNEXPECTED_SHAPE_LIMIT);
      expect(w.summary.runs[0]!.error).toMatch(/could not be read/);
    } finally {
      await proxy.close();
    }
  });
});

describe('a running list that keeps failing', () => {
  it('is told at each failed ask and asked again after a back-off doubling from 1 s', async () => {
    const w = await watchUnder(listless, 'route=GET /v1/organizations/*/running:503');
    const failures = timesOf(w, 'Running list of the organization failed');
    expect(failures.length).toBeGreaterThanOrEqual(4);
    gaps(failures)
      .slice(0, 3)
      .forEach((gap, i) =>
        expect(gap, `after failure ${i + 1}`).toBeGreaterThanOrEqual(shortestBackoffMs(i + 1)),
      );
    expect(w.summary.runs.every((r) => r.tests[0]?.state === 'passed')).toBe(true);
  });

  it('a list cut in the middle (read record by record) fails as a 503 does: told, backed off, runs read alone', async () => {
    const w = await watchUnder(listless, 'route=GET /v1/organizations/*/running:malformed-json');
    const failures = timesOf(w, 'Running list of the organization failed');
    expect(failures.length).toBeGreaterThanOrEqual(4);
    expect(w.details.some((d) => /Running list.*the answer is not JSON/.test(d.message))).toBe(true);
    gaps(failures)
      .slice(0, 3)
      .forEach((gap, i) =>
        expect(gap, `after failure ${i + 1}`).toBeGreaterThanOrEqual(shortestBackoffMs(i + 1)),
      );
    expect(w.summary.runs.every((r) => r.tests[0]?.state === 'passed')).toBe(true);
  });

  it('hands the runs to their own reads: three a tick, the runs read longest ago first', async () => {
    const w = await watchUnder(listless, 'route=GET /v1/organizations/*/running:503');
    const requests = bed.emulator.requests();
    const polls = requests.filter((q) => requestKind(q.path) === 'poll');
    const perTick = new Map<number, number>();
    for (const q of polls) perTick.set(q.time, (perTick.get(q.time) ?? 0) + 1);
    expect(Math.max(...perTick.values())).toBeLessThanOrEqual(3);
    const records = bed.emulator.runs();
    for (const run of w.summary.runs) {
      const finishedAt = records.find((r) => r.resultId === run.testResultId)!.finishedAt;
      const executedAt = requests.find((q) => q.path.includes(`/tests/${run.testId}/execute`))!.time;
      const reads = polls.filter((q) => q.path.includes(`/results/${run.testResultId}/`)).map((q) => q.time);
      // Four runs, three reads a tick: each run is read at least every second tick until it ends.
      const times = [executedAt + 2 * LONGEST_TICK_MS, ...reads.filter((t) => t < finishedAt), finishedAt];
      for (const gap of gaps(times.filter((t) => t >= executedAt + 2 * LONGEST_TICK_MS))) {
        expect(gap, run.testId!).toBeLessThanOrEqual(2 * LONGEST_TICK_MS);
      }
      expect(Date.parse(run.endedAt!) - finishedAt, run.testId!).toBeLessThanOrEqual(2 * LONGEST_TICK_MS);
    }
  });
});

describe('a re-run started once no other run is watched', () => {
  it('is watched to its end (the loop starts again), and nothing is asked once it ended', async () => {
    // Each execute answers after 3 s: the loop has no run left to watch meanwhile.
    const w = await watchUnder([failing], 'delay=3000,route=POST /v1/tests/wf-failing/execute:slow', {
      plan: { retryFailed: 1, timeoutMs: 120_000 },
    });
    expect(w.summary.interrupted).toBeUndefined();
    const [test] = w.summary.runs[0]!.tests;
    expect(test!.state).toBe('failed');
    expect(test!.attempts).toHaveLength(1);
    const returnedAt = bed.clock.now();
    await bed.clock.sleep(5_000);
    expect(bed.emulator.requests().filter((q) => q.time > returnedAt)).toEqual([]);
  });
});

describe('runs the running list does not show', () => {
  it('a run shown, then missing, then gone is read at once each time it goes missing; one never shown, once after 2 s', async () => {
    const [dips, absent] = hidden as [RunSpec, RunSpec];
    let dipFrom = Infinity;
    /** The running list without `absent`, and without `dips` from `dipFrom` for 3 s. */
    const hide = (r: SeenRequest, body: unknown): unknown => {
      if (!/\/running\/?(\?|$)/.test(r.url)) return undefined;
      const now = bed.clock.now();
      const { data } = body as { data: Array<{ test?: { _id?: string } | string }> };
      const hiddenNow = now >= dipFrom && now < dipFrom + 3_000 ? [absent.id, dips.id] : [absent.id];
      return { ...(body as object), data: data.filter((t) => !hiddenNow.includes(refId(t.test) ?? '')) };
    };
    const proxy = await startProxy(bed.emulator.origin, undefined, hide);
    try {
      const watching = watchUnder(hidden, '', { baseUrl: proxy.baseUrl });
      await bed.clock.sleep(6_000);
      dipFrom = bed.clock.now();
      const w = await watching;
      const requests = bed.emulator.requests();
      const records = bed.emulator.runs();
      const readsOf = (id: string) =>
        requests.filter((q) => requestKind(q.path) === 'poll' && q.path.includes(id));
      const [dipping, never] = [dips, absent].map((spec) => {
        const run = w.summary.runs.find((r) => r.testId === spec.id)!;
        const executedAt = requests.find((q) => q.path.includes(`/tests/${spec.id}/execute`))!.time;
        const finishedAt = records.find((r) => r.resultId === run.testResultId)!.finishedAt;
        return { run, executedAt, finishedAt, reads: readsOf(run.testResultId!).map((q) => q.time) };
      }) as [Seen, Seen];
      // Missing for 3 s while it runs: read once then, not every tick; gone at its end: read at once.
      const whileDipped = dipping.reads.filter((t) => t >= dipFrom && t < dipFrom + 3_000);
      expect(whileDipped).toHaveLength(1);
      expect(Date.parse(dipping.run.endedAt!) - dipping.finishedAt).toBeLessThanOrEqual(LONGEST_TICK_MS);
      // Never shown: read once, 2 s after its trigger (within a tick), then only by the 10 s reads.
      const [first, second] = never.reads;
      expect(first! - never.executedAt).toBeGreaterThanOrEqual(2_000);
      expect(first! - never.executedAt).toBeLessThanOrEqual(2_000 + LONGEST_TICK_MS);
      expect(second! - first!).toBeGreaterThanOrEqual(10_000);
    } finally {
      await proxy.close();
    }
  });
});

/** A run's times as the emulator saw them. */
interface Seen {
  run: RunSummary['runs'][number];
  executedAt: number;
  finishedAt: number;
  reads: number[];
}

describe('a running list slow to answer', () => {
  it('is not asked again while it is out', async () => {
    const w = await watchUnder(slowList, 'delay=2500,route=GET /v1/organizations/*/running:slow');
    expect(w.summary.runs.every((r) => r.tests[0]?.state === 'passed')).toBe(true);
    const lists = bed.emulator
      .requests()
      .filter((q) => requestKind(q.path) === 'list')
      .map((q) => q.time);
    expect(lists.length).toBeGreaterThan(2);
    for (const gap of gaps(lists)) expect(gap).toBeGreaterThanOrEqual(2_500);
  });
});

describe('a lone run while the running list fails', () => {
  it('is read at once after each failed ask of the list', async () => {
    const w = await watchUnder([loneListless], 'route=GET /v1/organizations/*/running:503');
    const failures = timesOf(w, 'Running list of the organization failed');
    expect(failures.length).toBeGreaterThan(0);
    const polls = bed.emulator
      .requests()
      .filter((q) => requestKind(q.path) === 'poll')
      .map((q) => q.time);
    for (const at of failures) expect(polls).toContain(at);
    expect(w.summary.runs[0]!.tests[0]!.state).toBe('passed');
  });
});

describe('runs of suites whose organization cannot be read', () => {
  it('are read on their own at once, until an answer names the organization; then the list is asked', async () => {
    const w = await watchUnder(
      orgless,
      'route=GET /v1/suites/wf-orgless-a:500,route=GET /v1/suites/wf-orgless-b:500',
      {
        plan: { organizationId: null },
      },
    );
    const requests = bed.emulator.requests();
    const failedRead = requests.find(
      (q) => /^\/v1\/suites\/wf-orgless-[ab]\/$/.test(q.path) && q.status === 500,
    );
    expect(failedRead).toBeDefined();
    for (const run of w.summary.runs) {
      expect(run.tests[0]!.state).toBe('passed');
      const firstRead = requests.find(
        (q) => requestKind(q.path) === 'poll' && q.path.includes(run.suiteResultId!),
      )!;
      expect(firstRead.time - failedRead!.time, run.suiteId!).toBeLessThanOrEqual(2 * LONGEST_TICK_MS);
    }
    expect(requests.some((q) => requestKind(q.path) === 'list')).toBe(true);
  });
});

describe('a stop while a request of the watch is out', () => {
  it('tells no failed read or list: the runs are left to the stop', async () => {
    for (const [specs, route] of [
      [[held[0]!], 'GET /v1/results/*'],
      [held, 'GET /v1/organizations/*/running'],
    ] as Array<[RunSpec[], string]>) {
      const stop = new AbortController();
      const watching = watchUnder(specs, `delay=5000,route=${route}:slow`, { signal: stop.signal });
      // The first such request is held 5 s: the stop comes while it is out (looked for every 100 ms).
      for (let ms = 0; ms < 10_000 && bed.emulator.requestsInFlight().waiting === 0; ms += 100) {
        await bed.clock.sleep(100);
      }
      expect(bed.emulator.requestsInFlight().waiting).toBeGreaterThan(0);
      stop.abort();
      const w = await watching;
      expect(w.summary.interrupted).toBe('signal');
      expect(w.details.map((d) => d.message).filter((m) => /^(Poll of|Running list)/.test(m))).toEqual([]);
    }
  });
});

describe('a suite result whose test results cannot be listed', () => {
  it('ends as an error saying so', async () => {
    const w = await watchUnder([unlisted], 'route=GET /v1/suite-results/*/results:500');
    const run = w.summary.runs[0]!;
    expect(run.error).toBe('The test results of the suite result could not be listed.');
    expect(run.endedAt).toBeDefined();
    expect(w.stillFollowed).toEqual(new Set());
  });
});

describe('a suite result over whose list still shows a test running', () => {
  /** A service whose list of a suite result's test results shows them still running. */
  const stillRunning = (r: SeenRequest, body: unknown): unknown => {
    if (!/^\/v1\/suite-results\/[^/]+\/results\//.test(r.url)) return undefined;
    const { data } = body as { data: Array<Record<string, unknown>> };
    return {
      ...(body as object),
      data: data.map(({ dateExecutionFinished: _, ...t }) => ({
        ...t,
        passing: null,
        status: null,
        executionTime: null,
      })),
    };
  };

  it('reports such a test as an error when the suite result has a verdict, as cancelled when it was cancelled', async () => {
    const proxy = await startProxy(bed.emulator.origin, undefined, stillRunning);
    try {
      const over = await watchUnder([unlisted], '', { baseUrl: proxy.baseUrl });
      expect(over.summary.runs[0]!.tests.map((t) => t.state)).toEqual(['error', 'error']);
      const watching = watchUnder([cancelled], '', { baseUrl: proxy.baseUrl });
      await bed.clock.sleep(3_000);
      const target = [...bed.emulator.store.suiteResults.values()].find(
        (r) => refId(r.suite) === cancelled.id && r.passing === null && !r.dateExecutionFinished,
      )!;
      await bed.client({ apiKey: WATCH_KEY }).cancelSuiteResult(target._id);
      const w = await watching;
      expect(w.summary.runs[0]!.tests.map((t) => t.state)).toEqual(['cancelled', 'cancelled']);
    } finally {
      await proxy.close();
    }
  });
});
