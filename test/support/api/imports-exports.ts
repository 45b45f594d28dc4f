/** Importing tests into a suite and exporting suites and tests: native JSON, recorder `.side` and HTML. */
import type { TestApi } from './client.js';
import type { Transport } from '../../../src/api/transport.js';
import { seg } from '../../../src/api/client.js';

/** The import and export methods of the client. */
export type ImportExportEndpoints = Pick<
  TestApi,
  | 'importTestJson'
  | 'importTestRecorderHtml'
  | 'importTestRecorderSide'
  | 'importTestLegacy'
  | 'exportSuiteJson'
  | 'exportSuiteRecorderSide'
  | 'exportSuiteRecorderHtml'
  | 'exportTestJson'
  | 'exportTestRecorderSide'
  | 'exportTestRecorderHtml'
>;

const includeImportsQuery = (includeImports?: boolean): Array<[string, string]> =>
  includeImports ? [['includeImports', '1']] : [];

/**
 * Imports (writes; recorder HTML as a multipart form) and exports (reads: zip bytes, `.side` or JSON
 * documents, XHTML text).
 */
export function importExportEndpoints(t: Transport): ImportExportEndpoints {
  return {
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
        expect: 'envelope',
        opts,
      }),
    importTestRecorderSide: (suiteId, side, opts) =>
      t.postJson(`/suites/${seg(suiteId)}/import-test/recorder-side`, side, opts),
    importTestLegacy: (suiteId, body, opts) => t.postJson(`/suites/${seg(suiteId)}/import-test/`, body, opts),
    exportSuiteJson: async (suiteId, includeImports, opts) =>
      (
        await t.get<{ body: Buffer }>(
          `/suites/${seg(suiteId)}/export/json/`,
          opts,
          includeImportsQuery(includeImports),
          'binary',
        )
      ).body,
    exportSuiteRecorderSide: (suiteId, opts) =>
      t.get(`/suites/${seg(suiteId)}/export/recorder-side/`, opts, [], 'document'),
    exportSuiteRecorderHtml: async (suiteId, opts) =>
      (await t.get<{ body: Buffer }>(`/suites/${seg(suiteId)}/export/recorder-html/`, opts, [], 'binary'))
        .body,
    exportTestJson: (testId, includeImports, opts) =>
      t.get(`/tests/${seg(testId)}/export/json/`, opts, includeImportsQuery(includeImports), 'document'),
    exportTestRecorderSide: (testId, opts) =>
      t.get(`/tests/${seg(testId)}/export/recorder-side/`, opts, [], 'document'),
    exportTestRecorderHtml: (testId, opts) =>
      t.get(`/tests/${seg(testId)}/export/recorder-html/`, opts, [], 'text'),
  };
}
