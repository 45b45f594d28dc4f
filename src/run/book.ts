/** The run book: the one writer of the records of an engine run (`SuiteRun`, `TestRun`, `Handle`, `Remote`). */
import { refId, refName } from '../api/refs.js';
import type { SuiteResult, TestResult } from '../api/types.js';
import type { Clock } from '../common/clock.js';
import type { RunEvent, TriggerProblem } from './events.js';
import { RESULT_KINDS, type Answer } from './kinds.js';
import { classifyTestResult, suiteResultShortfall } from './outcome/outcome.js';
import type { SuiteRun, TestRun, TestState, TriggerJob, Variant } from './types.js';
import { keptResult, type KeptTestResult } from './kept-result.js';

/** A remote result the engine may have to cancel. */
export interface Remote {
  readonly type: 'suite' | 'test';
  readonly id: string;
  readonly active: boolean;
  /** Not proven this step's own (a `result-ids` run, unless `cancel-result-ids`): never cancelled nor kept. */
  readonly inferred?: boolean;
}

/** Told when a remote result starts being followed (`active` true) and when it ends or is cancelled. */
export type RemoteListener = (remote: Readonly<Remote>) => void;

/** One run being waited for. */
export interface Handle {
  readonly run: SuiteRun;
  readonly remote: Remote;
  readonly triggeredAtMs: number;
  readonly done: boolean;
  /** The first result is over and `run.tests` holds it (retries may still be going). */
  readonly settled: boolean;
  readonly job: TriggerJob;
  /** The last test result seen (kind test/file). */
  readonly lastResult?: TestResult;
  /** `tried` once the run's result was asked for, `seen` once a read of it succeeded (the execute's answer is none). */
  readonly read?: 'tried' | 'seen';
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** How a run ended: `over` and `error` stop following its remote; `over` adds the tests its suite result lacks. */
export type Ending = 'over' | 'error' | 'unread' | 'timed-out' | 'cancelled';

/** What an ending records on the run; `told`: the tests told finished now. */
export type EndRecord = Partial<Pick<SuiteRun, 'tests' | 'error' | 'cancelled' | 'suiteResult'>> & {
  told?: TestRun[];
};

/** The fields of a run known before any answer, and the base of its keys (`<keyBase>-<n>`). */
export type RunBase = Pick<SuiteRun, 'kind' | 'suiteId' | 'suiteName' | 'testId' | 'file'> & {
  keyBase: string;
};

/** A file-name-safe slug of a repository path. */
export function slug(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'file'
  );
}

/** The first fields of a run of `job`; key bases `suite-<id>`, `test-<id>`, `file-<slug>-<index>`. */
export function runBaseOf(job: TriggerJob): RunBase {
  if (job.kind === 'suite') {
    return {
      kind: 'suite',
      suiteId: job.suiteId,
      suiteName: `Suite ${job.suiteId}`,
      keyBase: `suite-${job.suiteId}`,
    };
  }
  if (job.kind === 'test') {
    return {
      kind: 'test',
      suiteId: null,
      suiteName: `Test ${job.testId}`,
      testId: job.testId,
      keyBase: `test-${job.testId}`,
    };
  }
  const keyBase = `file-${slug(job.file)}-${job.index}`;
  return { kind: 'file', suiteId: null, suiteName: job.file, file: job.file, testId: null, keyBase };
}

/** `ms` since the epoch as an ISO 8601 string. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The records of one engine run. `appUrl`: base of the web app links, without a trailing slash. */
export class RunBook {
  readonly runs: SuiteRun[] = [];
  private readonly all: Handle[] = [];
  /** Every run followed, in the order started. */
  readonly handles: readonly Handle[] = this.all;
  private readonly remotes = new Set<Remote>();
  private readonly keys = new Map<string, number>();
  /** Tests told finished, retries not counted. */
  finishedTests = 0;
  /** Runs are still being triggered: none open yet is no end. */
  triggering = false;
  /** Why runs did not start, told as one event once every trigger is done. */
  private problems: TriggerProblem[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly emit: (event: RunEvent) => void,
    readonly appUrl: string,
    private readonly onRemote: RemoteListener,
  ) {}

  open(): Handle[] {
    return this.all.filter((h) => !h.done);
  }

  /** Whether runs are open or still being triggered. */
  busy(): boolean {
    return this.triggering || this.open().length > 0;
  }

  /** The remote results the stop phase may cancel: still active, and known to be the action's own. */
  cancellable(): Remote[] {
    return [...this.remotes].filter((r) => r.active && !r.inferred);
  }

  activeCount(): number {
    return [...this.remotes].filter((r) => r.active).length;
  }

  /** The ids of every remote result followed (a lookup never adopts one twice). */
  knownIds(): Set<string> {
    return new Set([...this.remotes].map((r) => r.id));
  }

  /** Whether the remote result of this kind and id is followed already: one remote has one follower. */
  follows(type: Remote['type'], id: string): boolean {
    return [...this.remotes].some((r) => r.type === type && r.id === id);
  }

  link(type: Remote['type'], id: string): string {
    return `${this.appUrl}/${RESULT_KINDS[type].page}/${id}`;
  }

  private nextKey(base: string): string {
    const n = this.keys.get(base) ?? 0;
    this.keys.set(base, n + 1);
    return `${base}-${n}`;
  }

  /** Follows a started remote result; `onRemote` hears now and when it is released. */
  addRemote(type: Remote['type'], id: string, inferred = false): Remote {
    const remote: Remote = { type, id, active: true, ...(inferred ? { inferred } : {}) };
    this.remotes.add(remote);
    this.onRemote(remote);
    return remote;
  }

  /** The remote is no longer followed (it ended or was cancelled). */
  release(remote: Remote): void {
    if (!remote.active) return;
    (remote as Mutable<Remote>).active = false;
    if (this.remotes.has(remote)) this.onRemote(remote);
  }

  /** A started result joins the book: its run, its remote and its handle. */
  start(job: TriggerJob, result: Answer, variant: Variant, now: number, inferred = false): Handle {
    const { keyBase, ...base } = runBaseOf(job);
    const run: SuiteRun = { ...base, key: this.nextKey(keyBase), variant, triggeredAt: iso(now), tests: [] };
    if (job.kind === 'suite') {
      const sr = result as SuiteResult;
      run.suiteName = sr.name || refName(sr.suite) || run.suiteName;
      run.suiteResultId = sr._id;
      run.suiteResult = sr;
    } else {
      const tr = result as TestResult;
      if (job.kind === 'test') {
        run.suiteId = tr.test && typeof tr.test === 'object' ? refId(tr.test.suite) : null;
        run.suiteName = tr.name || run.suiteName;
      }
      run.testResultId = tr._id;
    }
    const remote = this.addRemote(job.kind === 'suite' ? 'suite' : 'test', result._id, inferred);
    this.runs.push(run);
    const last = job.kind !== 'suite' ? { lastResult: result as TestResult } : {};
    const handle: Handle = { run, remote, triggeredAtMs: now, done: false, settled: false, job, ...last };
    this.all.push(handle);
    return handle;
  }

  /** A run without a result (not started, failed to start, not found), ended now; `problem` joins the others. */
  resultless(
    { keyBase, ...base }: RunBase,
    variant: Variant,
    outcome: Pick<SuiteRun, 'error' | 'notStarted' | 'mayHaveStarted'>,
    problem?: TriggerProblem,
    triggeredAtMs = this.clock.now(),
  ): void {
    const key = this.nextKey(keyBase);
    const ended = { triggeredAt: iso(triggeredAtMs), endedAt: iso(this.clock.now()), tests: [] };
    this.runs.push({ ...base, key, variant, ...ended, ...outcome });
    if (problem) this.problems.push(problem);
  }

  /** The trigger problems told so far, in order; forgets them. */
  takeProblems(): TriggerProblem[] {
    const taken = this.problems;
    this.problems = [];
    return taken;
  }

  /** The run's result was asked for (`tried`), or a read of it succeeded (`seen`, with a test result). */
  read(handle: Handle, how: 'tried' | 'seen', result?: TestResult): void {
    const h = handle as Mutable<Handle>;
    if (how === 'tried') h.read ??= how;
    else h.read = how;
    if (result) h.lastResult = result;
  }

  /** Why the run's result could not be had (a short, redacted sentence). */
  problem(handle: Handle, reason: string): void {
    handle.run.error = reason;
  }

  /** The run's suite result is over: recorded, its name taken. */
  suiteOver(handle: Handle, result: SuiteResult): void {
    handle.run.suiteResult = result;
    if (result.name) handle.run.suiteName = result.name;
  }

  /** The run's first result is over: its tests recorded with its variant, and each told. */
  settle(handle: Handle, tests: TestRun[], variant = handle.run.variant): void {
    (handle as Mutable<Handle>).settled = true;
    handle.run.tests = tests;
    handle.run.variant = variant;
    for (const t of tests) this.tell(handle.run, t);
  }

  /** A re-run of `test` is over: the earlier result becomes an attempt. The re-run's state. */
  retried(test: TestRun, result: TestResult): TestState | 'running' {
    const state = classifyTestResult(result);
    if (test.result) test.attempts.push(test.result);
    test.result = keptResult(result);
    test.url = this.link('test', result._id);
    if (state !== 'failed') test.state = state === 'passed' ? 'flaky' : state === 'running' ? 'error' : state;
    return state;
  }

  /** A test of `run` has its state: counted (unless a retry's) and told. */
  tell(run: SuiteRun, test: TestRun, first = true): void {
    if (first) this.finishedTests += 1;
    this.emit({ type: 'test-finished', run, test });
  }

  end(handle: Handle, ending: Ending, record: EndRecord = {}): void {
    const { run } = handle;
    const { told = [], ...fields } = record;
    if (ending === 'timed-out') run.timedOut = true;
    Object.assign(run, fields);
    for (const t of told) this.tell(run, t);
    if (ending === 'over' || ending === 'error') {
      for (const test of suiteResultShortfall(run)) {
        run.tests.push(test);
        this.tell(run, test);
      }
      this.release(handle.remote);
    }
    (handle as Mutable<Handle>).done = true;
    run.endedAt = iso(this.clock.now());
  }

  /** The run model of a kept test result; one still running counts as `ifRunning`. */
  testRunOf(result: KeptTestResult, ifRunning: TestState, name?: string): TestRun {
    const state = classifyTestResult(result);
    const run: TestRun = {
      testId: refId(result.test),
      testName: name ?? (result.name || refName(result.test) || 'Test'),
      state: state === 'running' ? ifRunning : state,
      result,
      attempts: [],
      url: this.link('test', result._id),
    };
    if (state === 'running') run.error = 'The suite ended before this test finished.';
    else if (state === 'error') run.error = 'The test result ended without a verdict.';
    return run;
  }

  /** The one test of a test or file run whose `result` is over; a file's test keeps its name if the result has none. */
  testOf(handle: Handle, result: TestResult): TestRun {
    const { job } = handle;
    const name = job.kind === 'file' ? result.name || job.name : undefined;
    return this.testRunOf(keptResult(result), 'error', name);
  }

  /** The test of a test or file run that ended without a usable result (error, timed out, cancelled). */
  standInTest(
    handle: Handle,
    last: TestResult | null,
    state: TestState,
    error?: string,
    name = last?.name,
  ): TestRun {
    const { job } = handle;
    const named =
      job.kind === 'file' ? job.name : job.kind === 'test' ? `Test ${job.testId}` : `Suite ${job.suiteId}`;
    return {
      testId: handle.run.testId ?? null,
      testName: name || named,
      state,
      result: last && keptResult(last),
      attempts: [],
      error,
      ...(last ? { url: this.link('test', last._id) } : {}),
    };
  }
}
