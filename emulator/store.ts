/**
 * The emulator's in-memory records. Suites, tests, folders, data sources and organizations are kept in a
 * storage form (references as identifiers); `views.ts` turns them into the response shapes of the contract.
 * Test results and suite results are kept in their response shape, since the engine updates them in place.
 */
import type {
  Comment,
  DataSource,
  Folder,
  Notifications,
  Step,
  Ref,
  Suite,
  SuiteResult as ServiceSuiteResult,
  Test,
  TestResult as ServiceTestResult,
  Variable,
} from './api-types.js';
import type { Organization } from './api-types.js';
import type { Scenario } from './executors/simulated.js';

/**
 * A test result as the emulator stores it: references populated (`test` with id strings inside,
 * `organization` an id, `user` an object). Answers that name a reference by id are shaped by the route.
 */
export type TestResult = Omit<ServiceTestResult, 'test' | 'organization' | 'user'> & {
  test: { _id: string; name: string; organization: string; suite: string } | null;
  organization: string;
  user: Ref;
};

/** A suite result as the emulator stores it: `suite` populated (GET answers it so). */
export type SuiteResult = Omit<ServiceSuiteResult, 'suite' | 'user'> & {
  suite: { _id: string; name: string; organization: string };
  user: Ref;
};
import { ApiError, invalid, SERVICE_ERROR_MESSAGES } from './util.js';

export interface UserRecord {
  _id: string;
  firstName: string;
  lastName: string;
}

/** An API key: the user it stands for and the organizations it may see. */
export interface ApiKeyRecord {
  key: string;
  user: string;
  organizations: string[];
}

/**
 * Organization without the counts, which are computed; with its notification settings, which the web app
 * sets and the API does not show (suites and tests "use organizational settings").
 */
export type OrganizationRecord = Omit<Organization, 'suiteCount' | 'testCount'> & {
  notifications: Notifications;
};

export type FolderRecord = Folder;
export type DataSourceRecord = DataSource;

/** A suite as stored: organization and user as identifiers. */
export interface SuiteRecord extends Omit<
  Suite,
  'organization' | 'testCount' | 'user' | 'dataSource' | 'notifications' | 'notificationsSuite'
> {
  organization: string;
  user: string;
  dataSource: string | null;
  notifications: Notifications;
  notificationsSuite: Notifications;
  dateExecutionTriggered: string;
  /** HTTP authentication for the suite's runs; empty strings when unset. */
  httpAuthUsername: string;
  httpAuthPassword: string;
  /** Extra HTTP headers of the suite's runs (`[]` in the service's examples; the entries' form is not known). */
  httpHeaders: unknown[];
}

/** A test as stored: organization, suite and user as identifiers; the accepted baseline and scenario. */
export interface TestRecord extends Omit<Test, 'organization' | 'suite' | 'user' | 'steps'> {
  organization: string;
  suite: string;
  user: string;
  steps: Step[];
  /**
   * Screenshot comparison baselines by browser, viewport and region (`baselineKey`): the test result of the
   * last passing run with a passing (or first) comparison, or the accepted screenshot.
   */
  baselines: Record<string, string>;
  /** Creation order of the result `passing` was last taken from (so an older run finishing late loses). */
  passingFromSeq: number;
  /** A module: a test only imported by other tests' steps. */
  importOnly: boolean;
  /** HTTP authentication for the test's runs; null when unset (the suite's applies). */
  httpAuthUsername: string | null;
  httpAuthPassword: string | null;
  /** Extra HTTP headers of the test's runs (`[]` in the service's examples and exports). */
  httpHeaders: unknown[];
}

/** Internal bookkeeping of a test result that is not part of its response shape. */
export interface ResultMeta {
  seq: number;
  testId: string | null;
  suiteResultId: string | null;
  controller: AbortController;
  /** Final screenshot PNG (for comparison against later runs). */
  screenshot?: Buffer;
  /** Settles when the run ends (finished or cancelled). */
  done: Promise<void>;
  finished: boolean;
}

export interface SuiteResultMeta {
  seq: number;
  suiteId: string;
  resultIds: string[];
  /** Test runs still to create or finish. */
  expected: number;
  /** Its test results that ended, counted as each ends: a suite result of thousands never recounts them. */
  ended: EndedTally;
  cancelled: boolean;
  done: Promise<void>;
}

/** How many test results of a suite result ended, and their verdicts and screenshot comparisons. */
export interface EndedTally {
  count: number;
  passing: number;
  failing: number;
  comparePassing: number;
  compareFailing: number;
}

/** A tally of none ended, for a suite result just created. */
export function newTally(): EndedTally {
  return { count: 0, passing: 0, failing: 0, comparePassing: 0, compareFailing: 0 };
}

/** Counts a test result that ended (finished or cancelled) into `tally`. */
export function countEnded(tally: EndedTally, result: TestResult): void {
  tally.count += 1;
  if (result.passing !== null) tally[result.passing ? 'passing' : 'failing'] += 1;
  const compare = result.screenshotComparePassing;
  if (compare !== null) tally[compare ? 'comparePassing' : 'compareFailing'] += 1;
}

/** All records of one emulator instance. */
export class Store {
  readonly organizations = new Map<string, OrganizationRecord>();
  readonly users = new Map<string, UserRecord>();
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly folders = new Map<string, FolderRecord>();
  readonly dataSources = new Map<string, DataSourceRecord>();
  readonly suites = new Map<string, SuiteRecord>();
  readonly tests = new Map<string, TestRecord>();
  readonly results = new Map<string, TestResult>();
  readonly resultMeta = new Map<string, ResultMeta>();
  readonly suiteResults = new Map<string, SuiteResult>();
  readonly suiteResultMeta = new Map<string, SuiteResultMeta>();
  /** Scenarios of the simulated executor, by test id. */
  readonly scenarios = new Map<string, Scenario>();
  /** Files served under `/_emulator/files/{name}` (screenshots, comparison images). */
  readonly files = new Map<string, { contentType: string; body: Buffer }>();

  private counter = 0;
  private seqCounter = 0;

  /** A new 24-hex-digit identifier, unique within this instance. */
  newId(): string {
    this.counter++;
    return ('e' + this.counter.toString(16)).padStart(24, '0');
  }

  /** A new creation-order number. */
  nextSeq(): number {
    return ++this.seqCounter;
  }

  /**
   * The API key record for `key`, or an AUTHENTICATION_ERROR with the service's documented text (the same for a
   * missing key: which text the service gives then is not documented).
   */
  authenticate(key: string | undefined): ApiKeyRecord {
    const record = key ? this.apiKeys.get(key) : undefined;
    if (!record) throw new ApiError('AUTHENTICATION_ERROR', SERVICE_ERROR_MESSAGES.AUTHENTICATION_ERROR);
    return record;
  }

  /** The user record of an API key. */
  userOf(key: ApiKeyRecord): UserRecord {
    return this.users.get(key.user) ?? { _id: key.user, firstName: 'Emulator', lastName: 'User' };
  }

  private owned<T extends { organization: string }>(
    map: Map<string, T>,
    kind: string,
    id: string,
    key: ApiKeyRecord,
  ): T {
    const record = map.get(id);
    if (!record || !key.organizations.includes(record.organization)) invalid(`${kind} not found`);
    return record;
  }

  organization(id: string, key: ApiKeyRecord): OrganizationRecord {
    const record = this.organizations.get(id);
    if (!record || !key.organizations.includes(id)) invalid('Organization not found');
    return record;
  }
  suite(id: string, key: ApiKeyRecord): SuiteRecord {
    return this.owned(this.suites, 'Suite', id, key);
  }
  test(id: string, key: ApiKeyRecord): TestRecord {
    return this.owned(this.tests, 'Test', id, key);
  }
  folder(id: string, key: ApiKeyRecord): FolderRecord {
    return this.owned(this.folders, 'Folder', id, key);
  }
  dataSource(orgId: string, id: string, key: ApiKeyRecord): DataSourceRecord {
    const record = this.owned(this.dataSources, 'Data source', id, key);
    if (record.organization !== orgId) invalid('Data source not found');
    return record;
  }
  result(id: string, key: ApiKeyRecord): TestResult {
    return this.owned(this.results, 'Result', id, key);
  }
  suiteResult(id: string, key: ApiKeyRecord): SuiteResult {
    const record = this.suiteResults.get(id);
    if (!record || !key.organizations.includes(record.suite.organization)) {
      invalid('Suite result not found');
    }
    return record;
  }

  /** Tests of a suite in creation order. */
  testsOf(suiteId: string): TestRecord[] {
    return [...this.tests.values()].filter((t) => t.suite === suiteId);
  }

  /** Comments are kept on the result records; a new one by the key's user. */
  newComment(key: ApiKeyRecord, message: string, now: string): Comment {
    const user = this.userOf(key);
    return {
      _id: this.newId(),
      author: { _id: user._id, name: `${user.firstName} ${user.lastName}`.trim() },
      message,
      dateCreated: now,
    };
  }
}

/** Suite settings a new suite has (docs/api-contract.md, "Resources": "A newly created suite has"). */
export function newSuiteDefaults(): Omit<
  SuiteRecord,
  '_id' | 'name' | 'organization' | 'user' | 'dateCreated' | 'dateExecutionTriggered'
> {
  return {
    folder: null,
    httpAuthUsername: '',
    httpAuthPassword: '',
    httpHeaders: [],
    abortOnTestFailure: false,
    autoRetry: false,
    browser: 'chrome',
    dataSource: null,
    disableVisuals: false,
    disallowInsecureCertificates: false,
    failOnJavaScriptError: false,
    finalDelay: 0,
    globalStepDelay: 250,
    language: null,
    maxAjaxDelay: 10000,
    maxConcurrentTests: 0,
    maxWaitDelay: 15000,
    notifications: {},
    notificationsSuite: {},
    persistVariables: false,
    publicStatusEnabled: false,
    region: 'us-east-1',
    screenshotCompareEnabled: false,
    screenshotCompareThreshold: 0.1,
    startUrl: '',
    testFrequency: 0,
    testFrequencyAdvanced: [],
    variables: [] as Variable[],
    viewportSize: { height: 768, width: 1024 },
    userAgent: '',
    screenshotTarget: '',
    screenshotExclusions: '',
  };
}

/** Settings of a new test: null where not set, so the suite's settings apply. */
export function newTestDefaults(): Omit<
  TestRecord,
  '_id' | 'name' | 'organization' | 'suite' | 'user' | 'steps' | 'dateCreated' | 'dateUpdated'
> {
  return {
    details: '',
    startUrl: '',
    autoRetry: null,
    disableVisuals: null,
    disallowInsecureCertificates: null,
    failOnJavaScriptError: null,
    browser: null,
    language: null,
    region: null,
    finalDelay: null,
    globalStepDelay: null,
    maxAjaxDelay: null,
    maxWaitDelay: null,
    dataSource: null,
    screenshotCompareEnabled: null,
    screenshotCompareThreshold: 0.1,
    publicStatusEnabled: false,
    viewportSize: null,
    filters: [],
    links: [],
    notifications: {},
    passing: null,
    screenshotComparePassing: null,
    dateExecutionStarted: '1970-01-01T00:00:00.000Z',
    dateExecutionFinished: '1970-01-01T00:00:00.000Z',
    dateExecutionTriggered: '1970-01-01T00:00:00.000Z',
    testFrequency: 0,
    testFrequencyAdvanced: [],
    baselines: {},
    passingFromSeq: 0,
    importOnly: false,
    httpAuthUsername: null,
    httpAuthPassword: null,
    httpHeaders: [],
    userAgent: '',
    screenshotTarget: '',
    screenshotExclusions: '',
  };
}
