/** Importing tests into a suite and exporting suites and tests: native JSON, recorder `.side` and HTML. */
import type { TestApi } from './client.js';
import type { Transport } from '../../../src/api/transport.js';
import { seg } from '../../../src/api/client.js';
import { getWith, readBinary, readDocument, readText, type BinaryAnswer } from './answers.js';

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
  };
}
