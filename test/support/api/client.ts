/**
 * The rest of the Ghost Inspector API v1 surface, beside the calls the action makes (`src/api/api.ts`): the
 * contract tests, the emulator tests and the test harnesses set accounts up and read them back through it.
 * Same transport, retries and redaction as the action's client (`src/api/client.ts`).
 */
import type { ClientOptions, GhostInspectorApi, RequestOptions } from '../../../src/api/api.js';
import { clientOn, pagingQuery, seg } from '../../../src/api/client.js';
import { ApiError } from '../../../src/api/errors.js';
import { getWith, readBinary, readDocument, readText, type BinaryAnswer } from './answers.js';
import { Transport } from '../../../src/api/transport.js';
import type * as Action from '../../../src/api/types.js';
import type {
  DataSource,
  Folder,
  Organization,
  OrganizationSummary,
  SideDocument,
  Suite,
  SuiteResult,
  Test,
  TestDefinition,
  TestResult,
} from '../../../emulator/api-types.js';

/** A record the action's client types by the fields the action reads, as the full contract resource. */
type Full<T> = T extends Action.TestResult
  ? TestResult
  : T extends Action.SuiteResult
    ? SuiteResult
    : T extends Action.Suite
      ? Suite
      : T extends Action.Test
        ? Test
        : T extends Array<infer U>
          ? Array<Full<U>>
          : T;

/** The action's calls, answering the full resources. */
type FullCalls = {
  [K in keyof GhostInspectorApi]: GhostInspectorApi[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Promise<Full<R>>
    : never;
};

/** Every endpoint of the API v1 reference, one method each (docs/api-contract.md). */
export interface TestApi extends FullCalls {
  listSuites(opts?: RequestOptions): Promise<Suite[]>;
  createSuite(body: { name: string; organization: string }, opts?: RequestOptions): Promise<Suite>;
  /** Body: fields to change; `variables.<name>` keys take `{value}`. */
  updateSuite(suiteId: string, body: Record<string, unknown>, opts?: RequestOptions): Promise<Suite>;
  deleteSuite(suiteId: string, opts?: RequestOptions): Promise<true>;
  duplicateSuite(suiteId: string, opts?: RequestOptions): Promise<Suite>;
  listSuiteTests(suiteId: string, opts?: RequestOptions): Promise<Test[]>;
  listSuiteResultsCsv(suiteId: string, paging?: Action.Paging, opts?: RequestOptions): Promise<string>;
  /** The badge image bytes and media type; no API key is sent. */
  getSuiteStatusBadge(
    suiteId: string,
    screenshot?: boolean,
    opts?: RequestOptions,
  ): Promise<{ contentType: string; body: Buffer }>;
  importTestJson(suiteId: string, test: TestDefinition, opts?: RequestOptions): Promise<Test>;
  importTestRecorderHtml(
    suiteId: string,
    file: { name: string; content: string | Uint8Array },
    opts?: RequestOptions,
  ): Promise<Test>;
  importTestRecorderSide(suiteId: string, side: SideDocument, opts?: RequestOptions): Promise<Test[]>;
  /** Legacy combined import (discouraged): body sent as JSON as given. */
  importTestLegacy(suiteId: string, body: Record<string, unknown>, opts?: RequestOptions): Promise<Test>;
  /** Zip archive bytes. */
  exportSuiteJson(suiteId: string, includeImports?: boolean, opts?: RequestOptions): Promise<Buffer>;
  exportSuiteRecorderSide(suiteId: string, opts?: RequestOptions): Promise<SideDocument>;
  /** Zip archive bytes. */
  exportSuiteRecorderHtml(suiteId: string, opts?: RequestOptions): Promise<Buffer>;
  listTests(opts?: RequestOptions): Promise<Test[]>;
  updateTest(testId: string, body: Record<string, unknown>, opts?: RequestOptions): Promise<Test>;
  duplicateTest(testId: string, opts?: RequestOptions): Promise<Test>;
  deleteTest(testId: string, opts?: RequestOptions): Promise<true>;
  acceptScreenshot(testId: string, opts?: RequestOptions): Promise<Test>;
  listTestResultsCsv(testId: string, paging?: Action.Paging, opts?: RequestOptions): Promise<string>;
  exportTestJson(testId: string, includeImports?: boolean, opts?: RequestOptions): Promise<TestDefinition>;
  exportTestRecorderSide(testId: string, opts?: RequestOptions): Promise<SideDocument>;
  /** XHTML text. */
  exportTestRecorderHtml(testId: string, opts?: RequestOptions): Promise<string>;
  getTestStatusBadge(
    testId: string,
    screenshot?: boolean,
    opts?: RequestOptions,
  ): Promise<{ contentType: string; body: Buffer }>;
  commentOnTestResult(resultId: string, message: string, opts?: RequestOptions): Promise<TestResult>;
  /** xUnit.net v2 XML text. */
  getSuiteResultXunit(suiteResultId: string, opts?: RequestOptions): Promise<string>;
  listOrganizations(opts?: RequestOptions): Promise<OrganizationSummary[]>;
  getOrganization(organizationId: string, opts?: RequestOptions): Promise<Organization>;
  listDataSources(organizationId: string, opts?: RequestOptions): Promise<DataSource[]>;
  getDataSource(organizationId: string, dataSourceId: string, opts?: RequestOptions): Promise<DataSource>;
  createDataSource(
    organizationId: string,
    body: { name: string; data: DataSource['data'] },
    opts?: RequestOptions,
  ): Promise<DataSource>;
  updateDataSource(
    organizationId: string,
    dataSourceId: string,
    body: { name: string; data: DataSource['data'] },
    opts?: RequestOptions,
  ): Promise<DataSource>;
  deleteDataSource(organizationId: string, dataSourceId: string, opts?: RequestOptions): Promise<true>;
  listFolders(opts?: RequestOptions): Promise<Folder[]>;
  getFolder(folderId: string, opts?: RequestOptions): Promise<Folder>;
  createFolder(body: { name: string; organization: string }, opts?: RequestOptions): Promise<Folder>;
  updateFolder(folderId: string, body: { name: string }, opts?: RequestOptions): Promise<Folder>;
}

type OneOrMore = DataSource | DataSource[];

/** One data source out of an answer that may be a list; throws `INVALID_RESPONSE` for an empty list. */
function single(t: Transport, value: OneOrMore, endpoint: string): DataSource {
  if (!Array.isArray(value)) return value;
  if (value.length > 0) return value[0];
  throw new ApiError({
    errorType: 'INVALID_RESPONSE',
    endpoint: t.redact(endpoint),
    attempts: 1,
    message: t.redact(`${endpoint}: the service answered an empty list where one data source was expected.`),
  });
}

const includeImportsQuery = (includeImports?: boolean): Array<[string, string]> =>
  includeImports ? [['includeImports', '1']] : [];

/** A client with every endpoint (see `TestApi`); options as `createClient()`'s. */
export function createTestClient(options: ClientOptions): TestApi {
  const t = new Transport(options);
  /** DELETE a path (a write); resolves with the envelope's `data` (`true`). */
  const del = (path: string, opts?: RequestOptions): Promise<true> =>
    t.request({ method: 'DELETE', path, kind: 'write', opts });
  /** GET a status badge image: no API key is sent; `screenshot` adds `?screenshot=1`. */
  const badge = (
    path: string,
    screenshot: boolean | undefined,
    opts?: RequestOptions,
  ): Promise<BinaryAnswer> =>
    t.request({
      method: 'GET',
      path,
      query: screenshot ? [['screenshot', '1']] : [],
      kind: 'read',
      read: readBinary,
      sendApiKey: false,
      opts,
    });
  /** The data sources of an organization, or one of them (Data sources). */
  const sources = (organizationId: string, dataSourceId?: string): string =>
    `/organizations/${seg(organizationId)}/data-sources/${dataSourceId ? `${seg(dataSourceId)}/` : ''}`;
  return {
    ...(clientOn(t) as FullCalls),
    importTestJson: (suiteId, test, opts) =>
      t.postJson(`/suites/${seg(suiteId)}/import-test/json`, test, opts),
    importTestRecorderHtml: (suiteId, file, opts) =>
      t.request({
        method: 'POST',
        path: `/suites/${seg(suiteId)}/import-test/recorder-html`,
        kind: 'write',
        body: {
          type: 'multipart',
          fields: [['apiKey', t.apiKey]],
          file: { name: file.name, content: file.content, type: 'text/html' },
        },
        opts,
      }),
    importTestRecorderSide: (suiteId, side, opts) =>
      t.postJson(`/suites/${seg(suiteId)}/import-test/recorder-side`, side, opts),
    importTestLegacy: (suiteId, body, opts) => t.postJson(`/suites/${seg(suiteId)}/import-test/`, body, opts),
    exportSuiteJson: async (suiteId, includeImports, opts) =>
      (
        await getWith<BinaryAnswer>(
          t,
          `/suites/${seg(suiteId)}/export/json/`,
          readBinary,
          opts,
          includeImportsQuery(includeImports),
        )
      ).body,
    exportSuiteRecorderSide: (suiteId, opts) =>
      getWith(t, `/suites/${seg(suiteId)}/export/recorder-side/`, readDocument, opts),
    exportSuiteRecorderHtml: async (suiteId, opts) =>
      (await getWith<BinaryAnswer>(t, `/suites/${seg(suiteId)}/export/recorder-html/`, readBinary, opts))
        .body,
    exportTestJson: (testId, includeImports, opts) =>
      getWith(
        t,
        `/tests/${seg(testId)}/export/json/`,
        readDocument,
        opts,
        includeImportsQuery(includeImports),
      ),
    exportTestRecorderSide: (testId, opts) =>
      getWith(t, `/tests/${seg(testId)}/export/recorder-side/`, readDocument, opts),
    exportTestRecorderHtml: (testId, opts) =>
      getWith(t, `/tests/${seg(testId)}/export/recorder-html/`, readText, opts),
    listDataSources: (organizationId, opts) => t.get(sources(organizationId), opts),
    getDataSource: async (organizationId, dataSourceId, opts) => {
      const path = sources(organizationId, dataSourceId);
      return single(t, await t.get<OneOrMore>(path, opts), t.endpointOf('GET', path));
    },
    createDataSource: async (organizationId, body, opts) => {
      const path = sources(organizationId);
      return single(t, await t.postJson<OneOrMore>(path, body, opts), t.endpointOf('POST', path));
    },
    updateDataSource: async (organizationId, dataSourceId, body, opts) => {
      const path = sources(organizationId, dataSourceId);
      return single(t, await t.postJson<OneOrMore>(path, body, opts), t.endpointOf('POST', path));
    },
    deleteDataSource: (organizationId, dataSourceId, opts) =>
      del(sources(organizationId, dataSourceId), opts),
    listSuites: (opts) => t.get('/suites/', opts),
    createSuite: (body, opts) => t.postJson('/suites/', body, opts),
    updateSuite: (suiteId, body, opts) => t.postJson(`/suites/${seg(suiteId)}/`, body, opts),
    deleteSuite: (suiteId, opts) => del(`/suites/${seg(suiteId)}/`, opts),
    duplicateSuite: (suiteId, opts) => t.postJson(`/suites/${seg(suiteId)}/duplicate/`, {}, opts),
    listSuiteTests: (suiteId, opts) => t.get(`/suites/${seg(suiteId)}/tests/`, opts),
    listSuiteResultsCsv: (suiteId, paging, opts) =>
      getWith(t, `/suites/${seg(suiteId)}/results/csv/`, readText, opts, pagingQuery(paging)),
    getSuiteStatusBadge: (suiteId, screenshot, opts) =>
      badge(`/suites/${seg(suiteId)}/status-badge`, screenshot, opts),
    listTests: (opts) => t.get('/tests/', opts),
    updateTest: (testId, body, opts) => t.postJson(`/tests/${seg(testId)}/`, body, opts),
    duplicateTest: (testId, opts) => t.postJson(`/tests/${seg(testId)}/duplicate/`, {}, opts),
    deleteTest: (testId, opts) => del(`/tests/${seg(testId)}/`, opts),
    acceptScreenshot: (testId, opts) => t.postJson(`/tests/${seg(testId)}/accept-screenshot/`, {}, opts),
    listTestResultsCsv: (testId, paging, opts) =>
      getWith(t, `/tests/${seg(testId)}/results/csv/`, readText, opts, pagingQuery(paging)),
    getTestStatusBadge: (testId, screenshot, opts) =>
      badge(`/tests/${seg(testId)}/status-badge`, screenshot, opts),
    commentOnTestResult: (resultId, message, opts) =>
      t.postJson(`/results/${seg(resultId)}/comment/`, { message }, opts),
    getSuiteResultXunit: (suiteResultId, opts) =>
      getWith(t, `/suite-results/${seg(suiteResultId)}/xunit/`, readText, opts),
    listOrganizations: (opts) => t.get('/organizations/', opts),
    getOrganization: (organizationId, opts) => t.get(`/organizations/${seg(organizationId)}/`, opts),
    listFolders: (opts) => t.get('/folders/', opts),
    getFolder: (folderId, opts) => t.get(`/folders/${seg(folderId)}/`, opts),
    createFolder: (body, opts) => t.postJson('/folders/', body, opts),
    updateFolder: (folderId, body, opts) => t.postJson(`/folders/${seg(folderId)}/`, body, opts),
  };
}
