/**
 * What every route module shares: the dependencies and queries over the store, the `on` registrar, and
 * helpers used by more than one resource (badges, imported tests, duplication, file names, zip answers).
 */
import type { SuiteResult, TestResult } from '../store.js';
import { badgeSvg, BADGE_CONTENT_TYPE, type BadgeState } from '../formats/badge.js';
import { zipFiles } from '../formats/zip.js';
import type { Engine } from '../engine.js';
import { paging, type ExecuteParams, type Params } from '../params.js';
import type { Handler, Route } from '../server.js';
import type { ApiKeyRecord, Store, SuiteRecord, TestRecord } from '../store.js';
import { clone, EPOCH, invalid, iso } from '../util.js';
import { realClock, RequestsInFlight, type EmulatorClock } from '../clock.js';
import { IMPORT_COMMAND, importedTest } from '../modules.js';

/** Web app base used in CSV links, as the real service writes them (docs/api-contract.md, "Resources"). */
export const APP_URL = 'https://app.ghostinspector.com';
/** Appended to the name of a duplicated suite or test. */
export const COPY_MARKER = ' (Copy)';

export interface ApiDeps {
  store: Store;
  engine: Engine;
  /** An opt-in fault: ms during which a new result answers "not found" to GET; 0 = off. */
  notFoundWindowMs?: number;
  /** The time records are dated with and the not-found window runs on (default real time). */
  clock?: EmulatorClock;
  /** Counts the requests being answered; an execute that waits for its runs is parked there. */
  inFlight?: RequestsInFlight;
  /** Takes each execute's webhooks (default: none are sent). */
  webhooks?: { register(resultIds: string[], params: ExecuteParams): void };
  /** An opt-in fault: the first read of a finished test result shows its verdict without its timing fields. */
  verdictBeforeTiming?: boolean;
}

/** A success answer: the envelope's `data`. */
export const ok = (data: unknown) => ({ data });

/** Registers a handler for one or more methods on a path pattern. */
export type On = (methods: string | string[], pattern: string, handler: Handler) => void;

/** The dependencies of a route module: the store, the engine, the registrar and the shared queries. */
export interface RouteDeps extends ApiDeps {
  clock: EmulatorClock;
  inFlight: RequestsInFlight;
  on: On;
  /** The organization ids an API key sees. */
  orgsOf: (key: ApiKeyRecord) => string[];
  /** Test results of a test, newest first. */
  testResultsOf: (testId: string) => TestResult[];
  /** Suite results of a suite, newest first. */
  suiteResultsOf: (suiteId: string) => SuiteResult[];
  /** One page of rows by the `count` and `offset` parameters (docs/api-contract.md, "Polling a run"). */
  page: <T>(rows: T[], params: Params) => T[];
  /** Running test results that match `filter`. */
  running: (filter: (r: TestResult) => boolean) => TestResult[];
  /** The organization's limit of data rows in an uploaded CSV. */
  maxCsvRows: (orgId: string) => number;
  /** Throws the "not found" error of `kind` while a result created at `dateCreated` is in the not-found window. */
  hideWhileNew: (kind: string, dateCreated: string) => void;
  /**
   * A test result as a read answers it: itself, or with the `verdictBeforeTiming` fault the first read after
   * it finished gets a copy whose `executionTime` and `dateExecutionFinished` are still null.
   */
  readResult: (result: TestResult) => TestResult;
}

/** Builds the route dependencies, registering into `routes`. */
export function routeDeps(deps: ApiDeps, routes: Route[]): RouteDeps {
  const { store, notFoundWindowMs = 0, clock = realClock } = deps;
  const timingShown = new Set<string>();
  return {
    ...deps,
    readResult: (result) => {
      if (!deps.verdictBeforeTiming || result.passing === null || timingShown.has(result._id)) return result;
      timingShown.add(result._id);
      return { ...result, executionTime: null, dateExecutionFinished: null } as unknown as TestResult;
    },
    clock,
    inFlight: deps.inFlight ?? new RequestsInFlight(),
    hideWhileNew: (kind, dateCreated) => {
      if (clock.now() - Date.parse(dateCreated) < notFoundWindowMs) invalid(`${kind} not found`);
    },
    on: (methods, pattern, handler) =>
      routes.push({ methods: Array.isArray(methods) ? methods : [methods], pattern, handler }),
    orgsOf: (key) => key.organizations,
    testResultsOf: (testId) =>
      [...store.results.values()]
        .filter((r) => store.resultMeta.get(r._id)?.testId === testId)
        .sort((a, b) => store.resultMeta.get(b._id)!.seq - store.resultMeta.get(a._id)!.seq),
    suiteResultsOf: (suiteId) =>
      [...store.suiteResults.values()]
        .filter((r) => r.suite._id === suiteId)
        .sort((a, b) => store.suiteResultMeta.get(b._id)!.seq - store.suiteResultMeta.get(a._id)!.seq),
    page: (rows, params) => {
      const { count, offset } = paging(params);
      return rows.slice(offset, offset + count);
    },
    running: (filter) =>
      [...store.results.values()].filter((r) => !store.resultMeta.get(r._id)!.finished && filter(r)),
    maxCsvRows: (orgId) => store.organizations.get(orgId)?.plan.maxCsvUploadRows ?? 1000,
  };
}

/** Tests a test pulls in through `importTest`/`execute` steps (value or target holds a test id). */
export function importedTests(store: Store, test: TestRecord, seen = new Set<string>()): TestRecord[] {
  const out: TestRecord[] = [];
  for (const step of test.steps) {
    if (step.command !== 'importTest' && step.command !== IMPORT_COMMAND) continue;
    const other = importedTest(store, step, test.organization);
    if (other && !seen.has(other._id)) {
      seen.add(other._id);
      out.push(other, ...importedTests(store, other, seen));
    }
  }
  return out;
}

export function fileName(name: string, ext: string): string {
  return `${name.replace(/[^\w.() -]+/g, '_').trim() || 'test'}.${ext}`;
}

/** The badge state of a test (latest result) or a suite (latest suite result); see docs/api-contract.md, "States and transitions". */
export function badgeState(
  latest: TestResult | SuiteResult | undefined,
  screenshot: boolean,
  isSuite: boolean,
): BadgeState {
  if (!latest) return 'unknown';
  if (latest.status === 8) return 'unknown';
  const running = isSuite
    ? !(latest as SuiteResult).dateExecutionFinished
    : (latest as TestResult).executionTime === null;
  if (running) return 'running';
  if (screenshot) {
    if (latest.screenshotComparePassing === true) return 'screenshot-compare-passing';
    if (latest.screenshotComparePassing === false) return 'screenshot-compare-failing';
    return 'unknown';
  }
  if (latest.passing === true) return 'passing';
  if (latest.passing === null) return 'unknown';
  if (isSuite && (latest as SuiteResult).countPassing > 0) return 'partially-failing';
  return 'failing';
}

export function badge(state: BadgeState) {
  return { raw: badgeSvg(state), contentType: BADGE_CONTENT_TYPE, headers: { 'cache-control': 'no-cache' } };
}

/**
 * Copies a test into `suite` under `name`, with fresh ids and no outcome (duplicate a suite or a test), dated
 * `nowMs` (epoch ms).
 */
export function duplicateTest(
  store: Store,
  test: TestRecord,
  suite: SuiteRecord,
  key: ApiKeyRecord,
  name: string,
  nowMs: number,
): TestRecord {
  const now = iso(nowMs);
  const copy: TestRecord = {
    ...clone(test),
    ...{ passing: null, screenshotComparePassing: null, baselines: {}, passingFromSeq: 0 },
    _id: store.newId(),
    name,
    suite: suite._id,
    user: key.user,
    steps: test.steps.map((s) => ({ ...clone(s), _id: store.newId() })),
    dateCreated: now,
    dateUpdated: now,
    dateExecutionStarted: EPOCH,
    dateExecutionFinished: EPOCH,
    dateExecutionTriggered: EPOCH,
  };
  store.tests.set(copy._id, copy);
  return copy;
}

/** A test as a .side export takes it. */
export const sideTest = (t: TestRecord) => ({
  _id: t._id,
  name: t.name,
  startUrl: t.startUrl,
  steps: t.steps,
});

/** A zip archive answer named after `name`. */
export const zipReply = (files: Array<{ name: string; content: string }>, name: string) => ({
  raw: zipFiles(files),
  contentType: 'application/zip',
  headers: {
    'content-disposition': `attachment; filename="${fileName(name.replace(/\.zip$/, ''), 'zip')}"`,
  },
});
