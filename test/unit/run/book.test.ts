/**
 * The run book (`src/run/book.ts`), the one writer of the run records: the keys and names a run gets, the
 * links of its tests, which remote results are followed and may be cancelled, and what each ending records
 * and tells. Plain data (test/support/run-factories.ts) on a manual clock; no I/O.
 */
import { describe, expect, it } from 'vitest';
import type { Remote } from '../../../src/run/book.js';
import { RunBook, runBaseOf, slug } from '../../../src/run/book.js';
import { keptResult } from '../../../src/run/kept-result.js';
import type { RunEvent } from '../../../src/run/events.js';
import type { TriggerJob } from '../../../src/run/types.js';
import { suiteResult, testResult } from '../../support/run-factories.js';
import { ManualClock } from '../../support/manual-clock.js';

const APP = 'https://app.example.test';
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

/** A book on a manual clock at T0, with the events it told and what its remote listener heard. */
function newBook(): {
  book: RunBook;
  clock: ManualClock;
  events: RunEvent[];
  heard: Array<Pick<Remote, 'id' | 'active'>>;
} {
  const clock = new ManualClock(T0);
  const events: RunEvent[] = [];
  const heard: Array<Pick<Remote, 'id' | 'active'>> = [];
  const book = new RunBook(
    clock,
    (e) => events.push(e),
    APP,
    (r) => heard.push({ id: r.id, active: r.active }),
  );
  return { book, clock, events, heard };
}

const fileJob = (file: string, index = 0, name = 'Checkout'): TriggerJob => ({
  kind: 'file',
  file,
  index,
  name,
  definition: { name, steps: [] } as never,
});

const told = (events: RunEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'test-finished' ? [`${e.test.testName}: ${e.test.state}`] : []));

describe('the key base of a run, safe in a file name', () => {
  it('slug: runs of other characters become one dash, none at the ends, at most 80 characters', () => {
    expect(slug('tests/ghost inspector/checkout.json')).toBe('tests-ghost-inspector-checkout.json');
    expect(slug('--a__b..c--')).toBe('a__b..c');
    expect(slug('a  / b')).toBe('a-b');
    expect(slug('/ü/x/')).toBe('x');
    expect(slug('a'.repeat(100))).toBe('a'.repeat(80));
    expect(slug('///')).toBe('file');
  });

  it('runBaseOf: suite-<id>, test-<id>, file-<slug>-<index>, with the names known before any answer', () => {
    expect(runBaseOf({ kind: 'suite', suiteId: 's1' })).toEqual({
      kind: 'suite',
      suiteId: 's1',
      suiteName: 'Suite s1',
      keyBase: 'suite-s1',
    });
    expect(runBaseOf({ kind: 'test', testId: 't1' })).toEqual({
      kind: 'test',
      suiteId: null,
      suiteName: 'Test t1',
      testId: 't1',
      keyBase: 'test-t1',
    });
    expect(runBaseOf(fileJob('ui tests/a.json', 2))).toEqual({
      kind: 'file',
      suiteId: null,
      suiteName: 'ui tests/a.json',
      file: 'ui tests/a.json',
      testId: null,
      keyBase: 'file-ui-tests-a.json-2',
    });
  });
});

describe('a started run', () => {
  it('gets the next key of its base, the time of its trigger, and its result id', () => {
    const { book, clock } = newBook();
    const job: TriggerJob = { kind: 'suite', suiteId: 's1' };
    const a = book.start(job, suiteResult({ _id: 'sr-a' }), {}, clock.now());
    const b = book.start(job, suiteResult({ _id: 'sr-b' }), { browser: 'firefox' }, clock.now() + 1_000);
    const c = book.start({ kind: 'test', testId: 't1' }, testResult({ _id: 'tr-c' }), {}, clock.now());
    expect([a.run.key, b.run.key, c.run.key]).toEqual(['suite-s1-0', 'suite-s1-1', 'test-t1-0']);
    expect(b.run.triggeredAt).toBe('2026-03-01T10:00:01.000Z');
    expect(b.run.variant).toEqual({ browser: 'firefox' });
    expect(a.run.suiteResultId).toBe('sr-a');
    expect(c.run.testResultId).toBe('tr-c');
    expect(book.runs).toEqual([a.run, b.run, c.run]);
    // No test is known before the run's result is over.
    expect(a.run.tests).toEqual([]);
    expect(book.handles).toEqual([a, b, c]);
  });

  it("a suite run is named by its result, else by the result's suite, else by its id", () => {
    const { book } = newBook();
    const job: TriggerJob = { kind: 'suite', suiteId: 's1' };
    const suite = { _id: 's1', name: 'Checkout suite', organization: 'o' };
    const names = [
      suiteResult({ name: 'Named result', suite }),
      suiteResult({ name: '', suite }),
      suiteResult({ name: '', suite: 's1' as never }),
    ].map((sr) => book.start(job, sr, {}, T0).run.suiteName);
    expect(names).toEqual(['Named result', 'Checkout suite', 'Suite s1']);
  });

  it("a test run takes its test's suite and its name from the answer; a file run keeps the file", () => {
    const { book } = newBook();
    const tr = testResult({
      name: 'Login',
      test: { _id: 't1', name: 'Login', organization: 'o', suite: 's9' },
    });
    const run = book.start({ kind: 'test', testId: 't1' }, tr, {}, T0).run;
    expect([run.suiteId, run.suiteName]).toEqual(['s9', 'Login']);
    const unnamed = book.start(
      { kind: 'test', testId: 't2' },
      testResult({ name: '', test: 't2' as never }),
      {},
      T0,
    );
    expect([unnamed.run.suiteId, unnamed.run.suiteName]).toEqual([null, 'Test t2']);
    const bare = book.start({ kind: 'test', testId: 't3' }, testResult({ test: null as never }), {}, T0);
    expect(bare.run.suiteId).toBeNull();
    const file = book.start(fileJob('a.json'), testResult({ name: 'Other' }), {}, T0).run;
    expect([file.suiteId, file.suiteName]).toEqual([null, 'a.json']);
  });

  it('a test or file run keeps the answer as its last result; a suite run has none', () => {
    const { book } = newBook();
    const tr = testResult();
    expect(book.start({ kind: 'test', testId: 't1' }, tr, {}, T0).lastResult).toBe(tr);
    expect(book.start({ kind: 'suite', suiteId: 's1' }, suiteResult(), {}, T0).lastResult).toBeUndefined();
  });
});

describe('the remote results followed', () => {
  it('are told when followed and once when released; only the active ones of this step may be cancelled', () => {
    const { book, heard } = newBook();
    const own = book.start({ kind: 'suite', suiteId: 's1' }, suiteResult({ _id: 'own' }), {}, T0).remote;
    const other = book.start(
      { kind: 'test', testId: 't1' },
      testResult({ _id: 'other' }),
      {},
      T0,
      true,
    ).remote;
    expect([own.type, other.type]).toEqual(['suite', 'test']);
    expect(other.inferred).toBe(true);
    expect('inferred' in own).toBe(false);
    expect(book.cancellable()).toEqual([own]);
    expect(book.activeCount()).toBe(2);
    expect(book.knownIds()).toEqual(new Set(['own', 'other']));
    // One remote, one follower: a result is followed by its kind and id together.
    expect([book.follows('suite', 'own'), book.follows('test', 'other')]).toEqual([true, true]);
    expect([book.follows('test', 'own'), book.follows('test', 'elsewhere')]).toEqual([false, false]);
    book.release(own);
    book.release(own);
    expect(heard).toEqual([
      { id: 'own', active: true },
      { id: 'other', active: true },
      { id: 'own', active: false },
    ]);
    expect(book.cancellable()).toEqual([]);
    expect(book.activeCount()).toBe(1);
    // Ended or cancelled, a result is still known: a lookup never adopts it again.
    expect(book.knownIds().has('own')).toBe(true);
  });

  it("a remote added without a word is this step's own: it may be cancelled", () => {
    const { book } = newBook();
    const rerun = book.addRemote('test', 'rerun');
    expect(book.cancellable()).toEqual([rerun]);
  });

  it('a remote the book does not follow is marked released, and nobody is told', () => {
    const { book, heard } = newBook();
    const stray: Remote = { type: 'test', id: 'stray', active: true };
    book.release(stray);
    expect(stray.active).toBe(false);
    expect(heard).toEqual([]);
  });

  it('links: the web app page of a suite result or a test result', () => {
    const { book } = newBook();
    expect(book.link('suite', 'a')).toBe(`${APP}/suite-results/a`);
    expect(book.link('test', 'b')).toBe(`${APP}/results/b`);
  });
});

describe('runs open and busy', () => {
  it('busy while runs are open or still being triggered', () => {
    const { book } = newBook();
    expect(book.busy()).toBe(false);
    book.triggering = true;
    expect(book.busy()).toBe(true);
    book.triggering = false;
    const handle = book.start({ kind: 'test', testId: 't1' }, testResult(), {}, T0);
    expect(book.open()).toEqual([handle]);
    expect(book.busy()).toBe(true);
    book.end(handle, 'cancelled');
    expect(book.open()).toEqual([]);
    expect(book.busy()).toBe(false);
  });
});

describe('a run without a result', () => {
  it('is ended at once with its outcome; its problem is told once with the others', async () => {
    const { book, clock } = newBook();
    const problem = { kind: 'error', label: 'test t1', id: 't1', message: 'refused' };
    await clock.advance(5_000);
    book.resultless(runBaseOf({ kind: 'test', testId: 't1' }), {}, { error: 'refused' }, problem, T0);
    book.resultless(runBaseOf({ kind: 'test', testId: 't1' }), {}, { notStarted: 'deadline', error: 'late' });
    expect(book.runs.map((r) => [r.key, r.triggeredAt, r.endedAt, r.error, r.tests])).toEqual([
      ['test-t1-0', '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:05.000Z', 'refused', []],
      ['test-t1-1', '2026-03-01T10:00:05.000Z', '2026-03-01T10:00:05.000Z', 'late', []],
    ]);
    expect(book.runs[1]!.notStarted).toBe('deadline');
    expect(book.takeProblems()).toEqual([problem]);
    expect(book.takeProblems()).toEqual([]);
  });
});

describe('what a read of a run records', () => {
  it('tried, until a read succeeds; seen is never undone; a test result read becomes the last result', () => {
    const { book } = newBook();
    const handle = book.start({ kind: 'suite', suiteId: 's1' }, suiteResult(), {}, T0);
    expect(handle.read).toBeUndefined();
    book.read(handle, 'tried');
    expect(handle.read).toBe('tried');
    const tr = testResult();
    book.read(handle, 'seen', tr);
    book.read(handle, 'tried');
    expect(handle.read).toBe('seen');
    expect(handle.lastResult).toBe(tr);
  });
});

describe('the test of a result', () => {
  it('testRunOf: its state, its link, its name (given, else the result, else the test, else "Test")', () => {
    const { book } = newBook();
    const passed = book.testRunOf(testResult({ _id: 'r1', name: 'Login' }), 'timed-out');
    expect(passed).toMatchObject({
      testName: 'Login',
      state: 'passed',
      url: `${APP}/results/r1`,
      attempts: [],
    });
    expect(passed.error).toBeUndefined();
    const test = { _id: 't1', name: 'From the test', organization: 'o', suite: 's' };
    expect(book.testRunOf(testResult({ name: '', test }), 'error').testName).toBe('From the test');
    expect(book.testRunOf(testResult({ name: '', test: 't1' as never }), 'error').testName).toBe('Test');
    expect(book.testRunOf(testResult({ name: 'Login' }), 'error', 'Given').testName).toBe('Given');
    expect(book.testRunOf(testResult({ test }), 'error').testId).toBe('t1');
  });

  it('testRunOf: one still running takes the state asked for; one ended without a verdict is an error', () => {
    const { book } = newBook();
    const running = testResult({
      passing: undefined,
      executionTime: undefined,
      dateExecutionFinished: undefined,
    });
    expect(book.testRunOf(running, 'timed-out')).toMatchObject({
      state: 'timed-out',
      error: 'The suite ended before this test finished.',
    });
    const noVerdict = testResult({ passing: undefined });
    expect(book.testRunOf(noVerdict, 'timed-out')).toMatchObject({
      state: 'error',
      error: 'The test result ended without a verdict.',
    });
    expect(book.testRunOf(testResult({ passing: false }), 'timed-out').error).toBeUndefined();
  });

  it("testOf: a test run's test is named by its result; a file run's by its result, else by the file's test", () => {
    const { book } = newBook();
    const test = book.start({ kind: 'test', testId: 't1' }, testResult(), {}, T0);
    const file = book.start(fileJob('a.json', 0, 'Checkout'), testResult(), {}, T0);
    const named = testResult({ name: 'From the answer', test: { _id: 't1', name: 'Stored' } as never });
    const unnamed = testResult({ name: '', test: { _id: 't1', name: 'Stored' } as never });
    expect(book.testOf(test, named).testName).toBe('From the answer');
    expect(book.testOf(test, unnamed).testName).toBe('Stored');
    expect(book.testOf(file, named).testName).toBe('From the answer');
    expect(book.testOf(file, unnamed).testName).toBe('Checkout');
    // A result still running when its run ended is an error, not a test still going.
    const running = testResult({
      passing: undefined,
      executionTime: undefined,
      dateExecutionFinished: undefined,
    });
    expect(book.testOf(test, running).state).toBe('error');
  });

  it('standInTest: named by the last result, else by what was asked for; linked only with a result', () => {
    const { book } = newBook();
    const suite = book.start({ kind: 'suite', suiteId: 's1' }, suiteResult(), {}, T0);
    const test = book.start({ kind: 'test', testId: 't1' }, testResult(), {}, T0);
    const file = book.start(fileJob('a.json', 0, 'Checkout'), testResult(), {}, T0);
    const names = [suite, test, file].map((h) => book.standInTest(h, null, 'error').testName);
    expect(names).toEqual(['Suite s1', 'Test t1', 'Checkout']);
    const last = testResult({ _id: 'r9', name: 'Last' });
    const stand = book.standInTest(test, last, 'timed-out', 'Still running.');
    expect(stand).toEqual({
      testId: 't1',
      testName: 'Last',
      state: 'timed-out',
      result: keptResult(last),
      attempts: [],
      error: 'Still running.',
      url: `${APP}/results/r9`,
    });
    expect(book.standInTest(test, null, 'error')).not.toHaveProperty('url');
    expect(book.standInTest(test, last, 'error', undefined, 'Own name').testName).toBe('Own name');
  });
});

describe('a re-run of a failed test', () => {
  it.each([
    [{ passing: true }, 'passed', 'flaky'],
    [{ passing: false }, 'failed', 'failed'],
    [{ passing: undefined }, 'error', 'error'],
    [{ passing: undefined, status: 8 }, 'cancelled', 'cancelled'],
    [{ passing: undefined, executionTime: undefined, dateExecutionFinished: undefined }, 'running', 'error'],
  ] as const)(
    'answered %j: the re-run is %s, the test %s; the earlier result is an attempt',
    (fields, rerun, state) => {
      const { book } = newBook();
      const first = testResult({ passing: false });
      const test = book.testRunOf(first, 'error');
      const again = testResult({ _id: 'again', ...fields });
      expect(book.retried(test, again)).toBe(rerun);
      expect(test.state).toBe(state);
      expect(test.attempts).toEqual([first]);
      expect(test.result).toEqual(keptResult(again));
      expect(test.url).toBe(`${APP}/results/again`);
    },
  );
});

describe('a re-run of a test that had no result', () => {
  it('adds no attempt', () => {
    const { book } = newBook();
    const handle = book.start({ kind: 'test', testId: 't1' }, testResult(), {}, T0);
    const test = book.standInTest(handle, null, 'error');
    book.retried(test, testResult({ passing: false }));
    expect(test.attempts).toEqual([]);
  });
});

describe('how a run ends', () => {
  it('settled: its tests recorded with the variant and each told and counted', () => {
    const { book, events } = newBook();
    const handle = book.start({ kind: 'suite', suiteId: 's1' }, suiteResult(), { browser: 'chrome' }, T0);
    const tests = [testResult({ name: 'A' }), testResult({ name: 'B', passing: false })].map((r) =>
      book.testRunOf(r, 'error'),
    );
    book.settle(handle, tests, { browser: 'chrome-120' });
    expect(handle.settled).toBe(true);
    expect(handle.run.tests).toBe(tests);
    expect(handle.run.variant).toEqual({ browser: 'chrome-120' });
    expect(told(events)).toEqual(['A: passed', 'B: failed']);
    expect(book.finishedTests).toBe(2);
    book.tell(handle.run, tests[1]!, false);
    expect(book.finishedTests).toBe(2);
    expect(told(events)).toHaveLength(3);
  });

  it('over: the tests its suite result lacks are added and told, its remote released, the end time kept', async () => {
    const { book, clock, events, heard } = newBook();
    const sr = suiteResult({ passing: false, countPassing: 1, countFailing: 1, countUnknown: 0 });
    const handle = book.start({ kind: 'suite', suiteId: 's1' }, sr, {}, T0);
    await clock.advance(30_000);
    const tests = [book.testRunOf(testResult({ name: 'A' }), 'error')];
    book.end(handle, 'over', { tests, told: tests });
    expect(handle.done).toBe(true);
    expect(handle.run.endedAt).toBe('2026-03-01T10:00:30.000Z');
    expect(handle.run.tests).toHaveLength(2);
    expect(handle.run.tests[1]!.state).toBe('error');
    expect(told(events)).toEqual(['A: passed', `${handle.run.tests[1]!.testName}: error`]);
    expect(heard.at(-1)).toEqual({ id: sr._id, active: false });
    expect(handle.run.timedOut).toBeUndefined();
  });

  it('error: the remote is released too; timed out and cancelled keep it (the stop phase cancels it)', () => {
    const { book } = newBook();
    const ended = (['error', 'timed-out', 'cancelled', 'unread'] as const).map((ending) => {
      const handle = book.start({ kind: 'test', testId: 't1' }, testResult(), {}, T0);
      book.end(handle, ending, { error: ending });
      return [ending, handle.remote.active, handle.run.timedOut ?? false, handle.run.error];
    });
    expect(ended).toEqual([
      ['error', false, false, 'error'],
      ['timed-out', true, true, 'timed-out'],
      ['cancelled', true, false, 'cancelled'],
      ['unread', true, false, 'unread'],
    ]);
  });

  it('a problem is recorded on the run; an ended suite result gives it its name', () => {
    const { book } = newBook();
    const handle = book.start({ kind: 'suite', suiteId: 's1' }, suiteResult({ name: 'First' }), {}, T0);
    book.problem(handle, 'Could not read it.');
    expect(handle.run.error).toBe('Could not read it.');
    const over = suiteResult({ name: 'Renamed' });
    book.suiteOver(handle, over);
    expect([handle.run.suiteResult, handle.run.suiteName]).toEqual([over, 'Renamed']);
    book.suiteOver(handle, suiteResult({ name: '' }));
    expect(handle.run.suiteName).toBe('Renamed');
  });
});
