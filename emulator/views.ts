/**
 * Response shapes of stored records, per endpoint, as the contract's "Resources and their fields" gives them
 * (organization and suite references as `{_id, name}` or identifier strings depending on the endpoint).
 */
import type { Step, Suite, Test } from './api-types.js';
import type { TestDefinition } from './api-types.js';
import type { Organization } from './api-types.js';
import type { OrganizationRecord, Store, SuiteRecord, TestRecord } from './store.js';
import { clone, maskedVariables } from './util.js';

/**
 * A suite as an endpoint returns it.
 * - `get` (get, create, update): organization `{_id, name}`, with dataSource.
 * - `list`: organization adds `personal`; no dataSource; notifications present.
 * - `folder` (folder-suites listing): organization as an identifier string.
 * - `duplicate`: adds dateExecutionTriggered, user `{_id, firstName, lastName}` and notifications.
 */
export function suiteView(
  store: Store,
  s: SuiteRecord,
  mode: 'get' | 'list' | 'folder' | 'duplicate',
): Suite {
  const org = store.organizations.get(s.organization);
  const orgRef = { _id: s.organization, name: org?.name ?? '' };
  const {
    organization: _o,
    user,
    dataSource,
    notifications,
    notificationsSuite,
    dateExecutionTriggered,
    ...rest
  } = clone(s);
  const view: Suite = {
    ...rest,
    variables: maskedVariables(rest.variables),
    organization:
      mode === 'folder' ? s.organization : mode === 'list' ? { ...orgRef, personal: false } : orgRef,
    testCount: store.testsOf(s._id).length,
  };
  if (mode !== 'list') view.dataSource = dataSource;
  if (mode === 'list' || mode === 'duplicate') {
    view.notifications = notifications;
    view.notificationsSuite = notificationsSuite;
  }
  if (mode === 'duplicate') {
    view.dateExecutionTriggered = dateExecutionTriggered;
    const u = store.users.get(user);
    view.user = { _id: user, firstName: u?.firstName ?? '', lastName: u?.lastName ?? '' };
  }
  return sortKeys(view);
}

/**
 * A test as an endpoint returns it.
 * - `get`: with steps, user as identifier.
 * - `list`: without steps.
 * - `import`: organization and suite as empty objects (docs/api-contract.md, "Resources": "empty object on imported test").
 * - `duplicate`: with steps, user as `{_id, firstName, lastName}`.
 */
export function testView(store: Store, t: TestRecord, mode: 'get' | 'list' | 'import' | 'duplicate'): Test {
  const { organization, suite, user, steps, baselines: _b, passingFromSeq: _p, ...rest } = clone(t);
  const org = store.organizations.get(organization);
  const s = store.suites.get(suite);
  const view: Test = {
    ...rest,
    organization: mode === 'import' ? {} : { _id: organization, name: org?.name ?? '' },
    suite: mode === 'import' ? {} : { _id: suite, name: s?.name ?? '' },
  };
  if (mode !== 'list') view.steps = mode === 'import' ? steps.map(portableStep) : steps;
  if (mode === 'duplicate') {
    const u = store.users.get(user);
    view.user = { _id: user, firstName: u?.firstName ?? '', lastName: u?.lastName ?? '' };
  } else {
    view.user = user;
  }
  return sortKeys(view);
}

/** A step without `_id` and result fields (import/export payloads). */
export function portableStep(s: Step): TestDefinition['steps'][number] {
  const step: TestDefinition['steps'][number] = {
    sequence: s.sequence,
    command: s.command,
    target: s.target,
    value: s.value,
    variableName: s.variableName,
    condition: s.condition,
    optional: s.optional,
    private: s.private,
  };
  if (s.notes !== undefined) step.notes = s.notes;
  return step;
}

/** The native JSON test document with the fields a real export carries beyond the contract's Test. */
export type TestDocument = TestDefinition & { httpHeaders: unknown[]; importOnly: boolean };

/**
 * The native JSON test document (docs/api-contract.md, "Endpoints the action calls", export json): the Test fields minus identifiers,
 * dates, organization, suite, user and outcomes, with notifications and steps (without `_id`); also
 * `httpHeaders` and `importOnly`, as in real exports (`"httpHeaders": []` in the service's 2020 example).
 */
export function testExport(t: TestRecord): TestDocument {
  return {
    name: t.name,
    details: t.details,
    startUrl: t.startUrl,
    autoRetry: t.autoRetry,
    disableVisuals: t.disableVisuals,
    disallowInsecureCertificates: t.disallowInsecureCertificates,
    failOnJavaScriptError: t.failOnJavaScriptError,
    browser: t.browser,
    language: t.language,
    region: t.region,
    finalDelay: t.finalDelay,
    globalStepDelay: t.globalStepDelay,
    maxAjaxDelay: t.maxAjaxDelay,
    maxWaitDelay: t.maxWaitDelay,
    dataSource: t.dataSource,
    screenshotCompareEnabled: t.screenshotCompareEnabled,
    screenshotCompareThreshold: t.screenshotCompareThreshold,
    publicStatusEnabled: t.publicStatusEnabled,
    viewportSize: clone(t.viewportSize),
    filters: clone(t.filters),
    links: clone(t.links),
    notifications: clone(t.notifications),
    httpHeaders: clone(t.httpHeaders),
    importOnly: t.importOnly,
    userAgent: t.userAgent,
    screenshotTarget: t.screenshotTarget,
    screenshotExclusions: t.screenshotExclusions,
    testFrequency: t.testFrequency,
    testFrequencyAdvanced: clone(t.testFrequencyAdvanced),
    steps: t.steps.map(portableStep),
  };
}

/** The single organization with its computed counts. */
export function organizationView(store: Store, o: OrganizationRecord): Organization {
  const suites = [...store.suites.values()].filter((s) => s.organization === o._id).length;
  const tests = [...store.tests.values()].filter((t) => t.organization === o._id).length;
  const { notifications: _n, ...rest } = clone(o);
  return { ...rest, suiteCount: suites, testCount: tests };
}

function sortKeys<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).sort(([a], [b]) => (a === '_id' ? -1 : b === '_id' ? 1 : a.localeCompare(b))),
  ) as T;
}
