/**
 * Export routes of suites and tests (docs/api-contract.md, "Endpoints the action calls"): native JSON, .side and recorder HTML. Every export
 * answers the document itself (JSON, zip or XHTML), never an envelope, so that a downloaded file imports back
 * (docs/api-contract.md, official client's tests); errors stay ERROR envelopes.
 */
import type { TestDefinition } from '../api-types.js';
import { testToRecorderHtml } from '../formats/recorder-html.js';
import { testsToSide } from '../formats/side.js';
import { testExport } from '../views.js';
import { fileName, importedTests, sideTest, zipReply, type RouteDeps } from './shared.js';

/** A JSON document answered as itself. */
const jsonDocument = (doc: unknown) => ({
  raw: JSON.stringify(doc, null, 2),
  contentType: 'application/json; charset=utf-8',
});

/** Registers the export routes of suites. */
function suiteExportRoutes(deps: RouteDeps): void {
  const { store, on } = deps;
  on('GET', '/v1/suites/:suiteId/export/json', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    const tests = store.testsOf(suite._id);
    const files = tests.map((t) => ({
      name: fileName(t.name, 'json'),
      content: JSON.stringify(testExport(t), null, 2),
    }));
    if (ctx.params.get('includeImports') !== undefined) {
      const seen = new Set(tests.map((t) => t._id));
      for (const t of tests) {
        for (const imported of importedTests(store, t, seen)) {
          files.push({
            name: `imports/${fileName(imported.name, 'json')}`,
            content: JSON.stringify(testExport(imported), null, 2),
          });
        }
      }
    }
    return zipReply(files, `${suite.name}.zip`);
  });
  on('GET', '/v1/suites/:suiteId/export/recorder-side', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    const tests = store.testsOf(suite._id);
    return jsonDocument(
      testsToSide(suite.name, suite.startUrl || tests[0]?.startUrl || '', tests.map(sideTest)),
    );
  });
  on('GET', '/v1/suites/:suiteId/export/recorder-html', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    const files = store
      .testsOf(suite._id)
      .map((t) => ({ name: fileName(t.name, 'html'), content: testToRecorderHtml(t) }));
    return zipReply(files, `${suite.name}.zip`);
  });
}

/** Registers the export routes of tests. */
function testExportRoutes(deps: RouteDeps): void {
  const { store, on } = deps;
  on('GET', '/v1/tests/:testId/export/json', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    const doc: TestDefinition & { imports?: TestDefinition[] } = testExport(test);
    if (ctx.params.get('includeImports') !== undefined)
      doc.imports = importedTests(store, test).map(testExport);
    return jsonDocument(doc);
  });
  on('GET', '/v1/tests/:testId/export/recorder-side', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return jsonDocument(testsToSide(test.name, test.startUrl, [sideTest(test)]));
  });
  on('GET', '/v1/tests/:testId/export/recorder-html', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return { raw: testToRecorderHtml(test), contentType: 'application/xhtml+xml; charset=utf-8' };
  });
}

/** Registers the export routes. */
export function exportRoutes(deps: RouteDeps): void {
  suiteExportRoutes(deps);
  testExportRoutes(deps);
}
