/**
 * Reading a finished suite result's test results (docs/architecture.md): a list shorter than the suite result's
 * count, or holding a result twice, is read again with a growing wait; a page that fails is asked again up to
 * its attempts; the pages a count needs are asked together; what one listing had is kept when a later one
 * fails; a stop ends the reading at once.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../../src/api/limits.js';
import type { TestResult } from '../../../../src/api/types.js';
import type { Clock } from '../../../../src/common/clock.js';
import type { RunEvent } from '../../../../src/run/events.js';
import { listSuiteTests } from '../../../../src/run/read/read.js';
import type { Paging } from '../../../../src/run/read/paging.js';
import { testResult } from '../../../support/run-factories.js';

const WAIT_MS = 1_000;

/**
 * The service's list of one suite result's test results, one answer per listing: `listings[k]` is what the
 * k-th listing shows (the last one repeats), or an error for every page of it. Pages as the service cuts them.
 */
function service(listings: Array<TestResult[] | Error>) {
  let listing = -1;
  const asked: Paging[] = [];
  const sleeps: number[] = [];
  const events: string[] = [];
  const types = new Set<string>();
  let inFlight = 0;
  let mostInFlight = 0;
  let now = 0;
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
    random: () => 0.5,
  };
  const api = {
    listSuiteResultTestResults: (_id: string, paging: Paging, opts: { signal?: AbortSignal }) => {
      if (paging.offset === 0) listing++;
      asked.push(paging);
      if (opts.signal?.aborted) return Promise.reject(new Error('aborted'));
      const answer = listings[Math.min(listing, listings.length - 1)]!;
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      // Answered on a later turn, so that pages asked at once are in flight together.
      return new Promise<TestResult[]>((resolve, reject) =>
        setImmediate(() => {
          inFlight--;
          if (answer instanceof Error) reject(answer);
          else resolve(answer.slice(paging.offset, paging.offset + paging.count));
        }),
      );
    },
  };
  const ctx = {
    api: api as never,
    clock,
    emit: (event: RunEvent) => {
      types.add(event.type);
      events.push('message' in event ? String(event.message) : event.type);
    },
    waits: { notFoundGraceMs: 0, notFoundRetryMs: 0, listRetryMs: WAIT_MS, pollBackoffMs: 0 },
  };
  return { ctx, asked, sleeps, events, types, mostInFlight: () => mostInFlight, listings: () => listing + 1 };
}

const results = (n: number, prefix = 't'): TestResult[] =>
  Array.from({ length: n }, (_, i) => testResult({ _id: `${prefix}${i}` }));

describe('a list that disagrees with its counts', () => {
  it('shorter than the count: read again after a growing wait, until it holds every test', async () => {
    const all = results(5);
    const s = service([all.slice(0, 3), all.slice(0, 4), all]);
    const read = await listSuiteTests(s.ctx, 'sr1', new AbortController().signal, 5);
    expect(read?.map((r) => r._id).sort()).toEqual(all.map((r) => r._id).sort());
    expect(s.listings()).toBe(3);
    expect(s.sleeps).toEqual([WAIT_MS, 2 * WAIT_MS]);
    expect(s.events[0]).toBe(
      "The list of suite result sr1's test results holds 3 distinct of 5 tests: reading it again.",
    );
    expect(s.events[1]).toContain('holds 4 distinct of 5 tests');
    expect([...s.types]).toEqual(['detail']);
  });

  it('a result twice with no count: read again at most twice, each test once, the latest copy', async () => {
    const [a, b] = results(2);
    const newer = { ...a!, passing: false };
    const s = service([
      [a!, a!, b!],
      [newer, newer, b!],
    ]);
    const read = await listSuiteTests(s.ctx, 'sr2', new AbortController().signal);
    expect(read).toHaveLength(2);
    expect(read?.find((r) => r._id === a!._id)?.passing).toBe(false);
    expect(s.listings()).toBe(3);
    expect(s.sleeps).toEqual([WAIT_MS, 2 * WAIT_MS]);
    expect(s.events[0]).toBe(
      "The list of suite result sr2's test results holds 2 distinct of an unknown number of tests " +
        '(with a result twice): reading it again.',
    );
  });

  it('a list that agrees is read once, without a wait or a word', async () => {
    const s = service([results(3)]);
    expect(await listSuiteTests(s.ctx, 'sr3', new AbortController().signal, 3)).toHaveLength(3);
    expect(s.listings()).toBe(1);
    expect(s.sleeps).toEqual([]);
    expect(s.events).toEqual([]);
  });
});

describe('pages asked at once', () => {
  it('the pages a count needs are asked together; with no count, one page at a time', async () => {
    const counted = service([results(2 * PAGE_SIZE + 1)]);
    expect(
      await listSuiteTests(counted.ctx, 'sr8', new AbortController().signal, 2 * PAGE_SIZE + 1),
    ).toHaveLength(2 * PAGE_SIZE + 1);
    expect(counted.mostInFlight()).toBe(3);
    const uncounted = service([results(2 * PAGE_SIZE + 1)]);
    expect(await listSuiteTests(uncounted.ctx, 'sr9', new AbortController().signal)).toHaveLength(
      2 * PAGE_SIZE + 1,
    );
    expect(uncounted.mostInFlight()).toBe(1);
  });
});

describe('pages that fail', () => {
  it('a page is asked up to three times, with a growing wait, each failure said', async () => {
    const s = service([new Error('HTTP 502')]);
    expect(await listSuiteTests(s.ctx, 'sr4', new AbortController().signal, 2)).toBeNull();
    expect(s.asked).toHaveLength(3);
    expect(s.sleeps).toEqual([WAIT_MS, 2 * WAIT_MS]);
    expect(s.events).toEqual(Array(3).fill('Listing the tests of suite result sr4 failed: HTTP 502'));
    expect([...s.types]).toEqual(['detail']);
  });

  it('a later listing that fails keeps what the earlier one had', async () => {
    const all = results(4);
    const s = service([all.slice(0, 2), new Error('HTTP 503')]);
    const read = await listSuiteTests(s.ctx, 'sr5', new AbortController().signal, 4);
    expect(read?.map((r) => r._id)).toEqual(all.slice(0, 2).map((r) => r._id));
  });

  it('a stop ends the reading at once: nothing asked again, nothing kept', async () => {
    const stop = new AbortController();
    stop.abort();
    const s = service([results(2)]);
    expect(await listSuiteTests(s.ctx, 'sr6', stop.signal, 2)).toBeNull();
    expect(s.asked).toHaveLength(1);
    expect(s.sleeps).toEqual([]);
    expect(s.events).toEqual([]);
  });
});

describe('a stop during the wait before reading again', () => {
  it('ends the reading: the next listing is not asked again, and null says it was stopped', async () => {
    const stop = new AbortController();
    const all = results(3);
    const s = service([all.slice(0, 1), all]);
    s.ctx.clock.sleep = (ms) => {
      s.sleeps.push(ms);
      stop.abort();
      return Promise.resolve();
    };
    expect(await listSuiteTests(s.ctx, 'sr7', stop.signal, 3)).toBeNull();
    expect(s.asked).toHaveLength(2);
    expect(s.events).toHaveLength(1);
  });
});
