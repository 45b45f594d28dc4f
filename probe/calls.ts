/**
 * The probe's calls: every read endpoint of the contract and the docs/api-contract.md, ids discovered from the
 * answers (the first organization, folder, suite, test, result...), and with `write` a self-cleaning
 * sequence: create a suite and a test, execute them immediately, poll until they end, cancel the ended
 * results, export, delete.
 */
import { probeCall, skip, type ProbeContext } from './http.js';

type Rec = Record<string, unknown>;
const first = (list: unknown): Rec | undefined =>
  Array.isArray(list) && list.length > 0 ? (list[0] as Rec) : undefined;
const idOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  const id = (value as Rec | undefined)?._id;
  return typeof id === 'string' ? id : undefined;
};

/** Organization, folder, data source and the error shapes. */
async function probeAccount(
  ctx: ProbeContext,
  organization: string | undefined,
): Promise<string | undefined> {
  const orgs = await probeCall(ctx, { method: 'GET', template: '/organizations/' });
  const org = organization ?? idOf(first(orgs));
  if (org) {
    const values = { organizationId: org };
    await probeCall(ctx, { method: 'GET', template: '/organizations/{organizationId}/', values });
    await probeCall(ctx, { method: 'GET', template: '/organizations/{organizationId}/running/', values });
    const sources = await probeCall(ctx, {
      method: 'GET',
      template: '/organizations/{organizationId}/data-sources/',
      values,
    });
    const source = idOf(first(sources));
    if (source) {
      await probeCall(ctx, {
        method: 'GET',
        template: '/organizations/{organizationId}/data-sources/{dataSourceId}/',
        values: { ...values, dataSourceId: source },
      });
    } else skip(ctx, 'GET /organizations/{organizationId}/data-sources/{dataSourceId}/', 'no data source');
  } else skip(ctx, 'GET /organizations/{organizationId}/', 'no organization');
  const folders = await probeCall(ctx, { method: 'GET', template: '/folders/' });
  const folder = idOf(first(folders));
  if (folder) {
    await probeCall(ctx, { method: 'GET', template: '/folders/{folderId}/', values: { folderId: folder } });
    await probeCall(ctx, {
      method: 'GET',
      template: '/folders/{folderId}/suites/',
      values: { folderId: folder },
    });
  } else skip(ctx, 'GET /folders/{folderId}/', 'no folder');
  await probeCall(ctx, { method: 'GET', template: '/test-runner-ip-addresses', key: false });
  await probeCall(ctx, {
    method: 'GET',
    template: '/suites/{suiteId}/',
    values: { suiteId: '000000000000000000000000' },
    as: 'GET /suites/{suiteId}/ (unknown id)',
  });
  await probeCall(ctx, { method: 'GET', template: '/suites/', key: false, as: 'GET /suites/ (no API key)' });
  return org;
}

/** A suite's reads and exports; with `results`, its latest suite result's reads too. */
async function probeSuite(ctx: ProbeContext, suiteId: string, results: boolean): Promise<void> {
  const values = { suiteId };
  for (const template of [
    '/suites/{suiteId}/',
    '/suites/{suiteId}/tests/',
    '/suites/{suiteId}/export/json/',
    '/suites/{suiteId}/export/selenium-json/',
    '/suites/{suiteId}/export/recorder-side/',
    '/suites/{suiteId}/export/recorder-html/',
  ]) {
    await probeCall(ctx, { method: 'GET', template, values });
  }
  const list = await probeCall(ctx, {
    method: 'GET',
    template: '/suites/{suiteId}/results/',
    values,
    query: { count: '1' },
  });
  await probeCall(ctx, {
    method: 'GET',
    template: '/suites/{suiteId}/results/csv/',
    values,
    query: { count: '1' },
  });
  const suiteResult = idOf(first(list));
  if (!results) return;
  if (!suiteResult) {
    skip(ctx, 'GET /suite-results/{suiteResultId}/', 'no suite result');
    return;
  }
  const srValues = { suiteResultId: suiteResult };
  await probeCall(ctx, { method: 'GET', template: '/suite-results/{suiteResultId}/', values: srValues });
  await probeCall(ctx, {
    method: 'GET',
    template: '/suite-results/{suiteResultId}/results/',
    values: srValues,
    query: { count: '1' },
  });
  await probeCall(ctx, {
    method: 'GET',
    template: '/suite-results/{suiteResultId}/xunit/',
    values: srValues,
  });
}

/** A test's reads and exports; with `results`, its latest result's read too. */
async function probeTest(ctx: ProbeContext, testId: string, results: boolean): Promise<void> {
  const values = { testId };
  for (const template of [
    '/tests/{testId}/',
    '/tests/{testId}/running/',
    '/tests/{testId}/export/json/',
    '/tests/{testId}/export/selenium-json/',
    '/tests/{testId}/export/recorder-side/',
    '/tests/{testId}/export/recorder-html/',
  ]) {
    await probeCall(ctx, { method: 'GET', template, values });
  }
  const list = await probeCall(ctx, {
    method: 'GET',
    template: '/tests/{testId}/results/',
    values,
    query: { count: '1' },
  });
  await probeCall(ctx, {
    method: 'GET',
    template: '/tests/{testId}/results/csv/',
    values,
    query: { count: '1' },
  });
  const result = idOf(first(list));
  if (!results) return;
  if (result)
    await probeCall(ctx, { method: 'GET', template: '/results/{resultId}/', values: { resultId: result } });
  else skip(ctx, 'GET /results/{resultId}/', 'no test result');
}

/** Every read endpoint; ids from the answers. Returns the organization used. */
export async function probeReads(ctx: ProbeContext, organization?: string): Promise<string | undefined> {
  const org = await probeAccount(ctx, organization);
  const suites = await probeCall(ctx, { method: 'GET', template: '/suites/' });
  const suite = idOf(first(suites));
  if (suite) await probeSuite(ctx, suite, true);
  else skip(ctx, 'GET /suites/{suiteId}/', 'no suite');
  const tests = await probeCall(ctx, { method: 'GET', template: '/tests/' });
  const test = idOf(first(tests));
  if (test) await probeTest(ctx, test, true);
  else skip(ctx, 'GET /tests/{testId}/', 'no test');
  return org;
}

export { first, idOf };
