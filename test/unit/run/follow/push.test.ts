/**
 * Push (docs/architecture.md, "Push"): the emulator posts each ended test run to the execute's `webhook`, the step's
 * listener on loopback turns it into a read at once, the slower tick is the safety net. Engine and emulator on
 * one virtual clock (`test/support/world.ts`); requests counted at the emulator. Bounds: lone test lag
 * p95 ≤ 0.1 s and ≤ 8 requests per run; webhooks lost: lag p95 ≤ 1.5 s; forged, flooding and oversized
 * webhooks change nothing but timing; on a busy account the tick slows as polling's does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPlan } from '../../../../src/run/engine.js';
import {
  PUSH_MAX_BODY_BYTES,
  PUSH_TICK_MS,
  startPushListener,
  type PushListener,
} from '../../../../src/run/follow/push.js';
import type { RunSummary } from '../../../../src/run/types.js';
import { TICK_JITTER_MS, TICK_MS } from '../../../../src/run/follow/watcher.js';
import { percentile } from '../../../../bench/lib/stats.js';
import {
  actionApi,
  planOf,
  requestKind,
  setDurations,
  watchSeed,
  type RunSpec,
  WATCH_KEY,
} from '../../../support/watch-scenario.js';
import { holdForWebhooks, startWorld, type World } from '../../../support/world.js';

/** Lone test runs of 8 s ±30 % (as the bench's push case), spread evenly over that range. */
const lone = (i: number, outcome: 'pass' | 'fail' = 'pass'): RunSpec => ({
  kind: 'test',
  id: `push-${i}`,
  durationsMs: [5_600 + 530 * i],
  outcome,
});
const LONES = Array.from({ length: 10 }, (_, i) => lone(i, i % 3 === 0 ? 'fail' : 'pass'));
const MANY: RunSpec[] = Array.from({ length: 20 }, (_, i) => ({
  kind: 'test',
  id: `push-many-${i}`,
  durationsMs: [8_000 + 2_130 * i],
}));
const SUITE: RunSpec = { kind: 'suite', id: 'push-suite', durationsMs: [7_000, 12_000] };

let bed: World;
beforeAll(async () => {
  bed = await startWorld({ seed: watchSeed([...LONES, ...MANY, SUITE]) });
  holdForWebhooks(bed);
});
afterAll(() => bed.close());

interface Figures {
  summaries: RunSummary[];
  lagsMs: number[];
  perRun: number;
}

/** Runs each group in an engine run of its own, one after the other, with a listener from `listen`. */
async function measure(groups: RunSpec[][], listen?: () => Promise<PushListener>): Promise<Figures> {
  bed.emulator.resetLog();
  const summaries: RunSummary[] = [];
  for (const specs of groups) {
    for (const s of specs) setDurations(bed, s);
    const push = listen ? await listen() : undefined;
    try {
      const engine = { api: actionApi(bed).api, clock: bed.clock, ...(push ? { push } : {}) };
      summaries.push(await runPlan(planOf(specs), engine));
    } finally {
      await push?.close();
    }
  }
  const records = bed.emulator.runs();
  const lagsMs: number[] = [];
  let runs = 0;
  for (const run of summaries.flatMap((s) => s.runs)) {
    runs += 1;
    const id = run.kind === 'suite' ? run.suiteResultId : run.testResultId;
    const record = records.find((r) => r.resultId === id);
    if (record && run.endedAt) lagsMs.push(Date.parse(run.endedAt) - record.finishedAt);
  }
  return { summaries, lagsMs, perRun: bed.emulator.requests().length / runs };
}

const listener = () => startPushListener({ port: 0, host: '127.0.0.1' });
/** A listener whose public URL nobody answers at: every webhook is lost. */
async function lost(): Promise<PushListener> {
  const dead = await listener();
  await dead.close();
  return startPushListener({ port: 0, host: '127.0.0.1', publicUrl: dead.url });
}
/** Verdicts of every run and test, by test id. */
const verdicts = (f: Figures) =>
  f.summaries
    .flatMap((s) => s.runs)
    .flatMap((r) => r.tests.map((t) => `${t.testId} ${r.error ?? ''} ${t.state} ${t.result?.passing}`))
    .sort();

describe('push', () => {
  it('lone tests reachable: lag p95 ≤ 0.1 s, ≤ 8 requests per run, the verdicts of polling', async () => {
    const push = await measure(
      LONES.map((s) => [s]),
      listener,
    );
    const poll = await measure(LONES.map((s) => [s]));
    expect(push.lagsMs).toHaveLength(LONES.length);
    expect(percentile(push.lagsMs, 95)).toBeLessThanOrEqual(100);
    expect(push.perRun).toBeLessThanOrEqual(8);
    expect(verdicts(push)).toEqual(verdicts(poll));
  });

  it("the user's own webhook still gets each run beside the step's listener", async () => {
    const own = await listener();
    const user = await listener();
    const told: string[] = [];
    user.onHint((id) => told.push(id));
    try {
      const spec = lone(1);
      setDurations(bed, spec);
      const plan = planOf([spec]);
      const userPlan = { ...plan, execute: { ...plan.execute, webhook: user.url } };
      const summary = await runPlan(userPlan, { api: actionApi(bed).api, clock: bed.clock, push: own });
      const run = summary.runs[0]!;
      expect(run.endedAt).toBeDefined();
      const record = bed.emulator.runs().find((r) => r.resultId === run.testResultId)!;
      // Pushed: noticed at once, not at a tick.
      expect(Date.parse(run.endedAt!) - record.finishedAt).toBeLessThanOrEqual(100);
      expect(told).toEqual([run.testResultId]);
    } finally {
      await Promise.all([own.close(), user.close()]);
    }
  });

  it('lone tests, webhooks lost (a public URL nobody answers at): each noticed within 1.5 s of its end', async () => {
    const f = await measure(
      LONES.map((s) => [s]),
      lost,
    );
    expect(f.lagsMs).toHaveLength(LONES.length);
    expect(Math.max(...f.lagsMs)).toBeLessThanOrEqual(1_500);
  });

  it('webhooks lost: lag p95 ≤ 1.5 s, the step falls back to the 1-s tick', async () => {
    const f = await measure([MANY], lost);
    expect(f.lagsMs).toHaveLength(MANY.length);
    expect(percentile(f.lagsMs, 95)).toBeLessThanOrEqual(1_500);
    // The first run to end without its webhook sends the step back to the poll tick: the later runs (they
    // end one after the other, in the plan's order) are each noticed within that tick's longest wait.
    expect(Math.max(...f.lagsMs.slice(1))).toBeLessThanOrEqual(TICK_MS + TICK_JITTER_MS);
  });

  it('a webhook that comes while a read of its run is on the way back is read again at that answer, not at the next tick', async () => {
    // Every read of a test result answers 2 s after the emulator handled it (a slow network): the tick's
    // reads follow one another, and the one handled just before the finish at 6 s answers "running" after
    // the webhook came.
    const LATE_MS = 2_000;
    const spec = { ...LONES[0]!, durationsMs: [6_000] };
    setDurations(bed, spec);
    const { api } = actionApi(bed);
    const late = new Proxy(api, {
      get: (target, name, receiver) =>
        name === 'getTestResult'
          ? async (...args: Parameters<typeof api.getTestResult>) => {
              const answer = await api.getTestResult(...args);
              await bed.clock.sleep(LATE_MS);
              return answer;
            }
          : Reflect.get(target, name, receiver),
    });
    const push = await listener();
    try {
      const summary = await runPlan(planOf([spec]), { api: late, clock: bed.clock, push });
      const run = summary.runs[0]!;
      const record = bed.emulator.runs().find((r) => r.resultId === run.testResultId)!;
      // The read again at the late answer ends it one late read later; waiting for the next tick would not.
      expect(Date.parse(run.endedAt!) - record.finishedAt).toBeLessThanOrEqual(2 * LATE_MS + 500);
    } finally {
      await push.close();
    }
  });

  it('a suite keeps polling: noticed within 1.5 s', async () => {
    const f = await measure([[SUITE]], listener);
    expect(f.lagsMs).toHaveLength(1);
    expect(f.lagsMs[0]).toBeLessThanOrEqual(1_500);
  });

  it('a streamed body (no length declared) over 1 MiB is refused unread; the same within it is a hint', async () => {
    const push = await listener();
    const hints: string[] = [];
    push.onHint((id) => hints.push(id));
    const streamed = (padBytes: number) => {
      const text = Buffer.from(
        JSON.stringify({ type: 'result', data: { _id: 'named-run' }, pad: 'x'.repeat(padBytes) }),
      );
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < text.length; i += 64 * 1024)
            controller.enqueue(text.subarray(i, i + 64 * 1024));
          controller.close();
        },
      });
      const init = { method: 'POST', body, duplex: 'half' } as RequestInit;
      // Refused before the whole body is sent, the answer may come as a closed connection (0).
      return fetch(push.url, init).then(
        (res) => res.status,
        () => 0,
      );
    };
    try {
      expect([413, 0]).toContain(await streamed(PUSH_MAX_BODY_BYTES));
      expect(hints).toEqual([]);
      expect(await streamed(1_000)).toBe(200);
      expect(hints).toEqual(['named-run']);
    } finally {
      await push.close();
    }
  });

  it('forged, flooding and oversized webhooks change nothing but timing', async () => {
    const specs = LONES.slice(0, 4);
    const poll = await measure([specs]);
    const forging = async (): Promise<PushListener> => {
      const push = await listener();
      const secret = new URL(push.url);
      const statuses: number[] = [];
      // Each POST is tracked work of the virtual clock: time stands still until it is answered.
      const post = (path: string, body: string) =>
        bed.clock.track(
          fetch(new URL(path, secret), {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json' },
          })
            .then((res) => statuses.push(res.status))
            .catch(() => statuses.push(0)),
        );
      const result = (id: string) => JSON.stringify({ type: 'result', data: { _id: id, passing: true } });
      // Every 200 virtual ms, every run this step started is named ten times (its id from the emulator's
      // log), beside a wrong path, a run not of this step and an oversized body.
      const flooding = new AbortController();
      const flood = async () => {
        while (!flooding.signal.aborted) {
          const ids = bed.emulator
            .requests()
            .filter((q) => /\/results\/[^/]+\/?$/.test(q.path))
            .map((q) => q.path.split('/').filter(Boolean).pop()!);
          const ten = [...new Set(ids)].flatMap((id) => Array.from({ length: 10 }, () => result(id)));
          await Promise.all([
            ...ten.map((body) => post(secret.pathname, body)),
            post('/wrong-path', result(ids[0] ?? 'x')),
            post(secret.pathname, result('not-a-run-of-this-step')),
            post(secret.pathname, 'x'.repeat(PUSH_MAX_BODY_BYTES + 1)),
          ]);
          await bed.clock.sleep(200, flooding.signal);
        }
      };
      const flooded = flood();
      const close = push.close.bind(push);
      return Object.assign(push, {
        close: async () => {
          flooding.abort();
          await flooded;
          expect(statuses).toContain(404);
          expect(statuses).toContain(413);
          await close();
        },
      });
    };
    const forged = await measure([specs], forging);
    expect(verdicts(forged)).toEqual(verdicts(poll));
    expect(forged.lagsMs).toHaveLength(specs.length);
    // At most one hinted read per run per second, beside a few safety reads.
    const reads = new Map<string, number>();
    for (const q of bed.emulator.requests()) {
      const id = /\/results\/([^/]+)\/?$/.exec(q.path)?.[1];
      if (id) reads.set(id, (reads.get(id) ?? 0) + 1);
    }
    for (const run of forged.summaries.flatMap((s) => s.runs)) {
      const spec = specs.find((s) => s.id === run.tests[0]?.testId)!;
      const seconds = Math.ceil(spec.durationsMs[0]! / 1_000);
      expect(reads.get(run.testResultId!)).toBeLessThanOrEqual(seconds + Math.ceil(seconds / 5) + 2);
    }
  });

  it("on a busy account push's tick slows as polling's does (within the account's rate)", async () => {
    const api = bed.client({ apiKey: WATCH_KEY });
    // Forty runs of other watchers (the runs of MANY, twice: 8 to 48 s), then a lone pushed test run.
    for (const spec of [...MANY, ...MANY]) await api.executeTest(spec.id, { immediate: true });
    await measure([[LONES[9]!]], listener);
    const times = bed.emulator
      .requests()
      .filter((q) => ['list', 'poll'].includes(requestKind(q.path)))
      .map((q) => q.time);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // About 40 watchers stretch the poll tick to several seconds; push's tick is never the shorter one.
    expect(Math.max(...gaps)).toBeGreaterThan(2 * PUSH_TICK_MS);
  });
});
