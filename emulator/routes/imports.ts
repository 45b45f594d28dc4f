/** Test import routes (docs/api-contract.md, "Endpoints the action calls"): native JSON, recorder HTML, .side and the legacy combined one. */
import { recorderHtmlToTest } from '../formats/recorder-html.js';
import { sideToTests } from '../formats/side.js';
import type { RequestContext } from '../server.js';
import type { ApiKeyRecord, SuiteRecord } from '../store.js';
import { invalid } from '../util.js';
import { testView } from '../views.js';
import { bodyFields, createTest } from './fields.js';
import { ok, type RouteDeps } from './shared.js';

/** Registers the import routes of a suite. */
export function importRoutes(deps: RouteDeps): void {
  const { store, on, clock } = deps;
  const importJson = (ctx: RequestContext, suite: SuiteRecord, key: ApiKeyRecord) => {
    const body = bodyFields(ctx);
    if (body.steps === undefined) invalid('steps is required: an array of steps');
    return testView(store, createTest(store, suite, key.user, body, clock.now()), 'import');
  };
  const importHtml = (ctx: RequestContext, suite: SuiteRecord, key: ApiKeyRecord) => {
    const file = ctx.params.files.get('dataFile');
    if (!file) invalid('dataFile is required: a recorder .html file sent as multipart form data');
    let parsed;
    try {
      parsed = recorderHtmlToTest(file.content.toString('utf8'));
    } catch (error) {
      invalid(`dataFile is not a valid recorder HTML test: ${(error as Error).message}`);
    }
    return testView(store, createTest(store, suite, key.user, { ...parsed }, clock.now()), 'import');
  };
  const importSide = (ctx: RequestContext, suite: SuiteRecord, key: ApiKeyRecord) => {
    const doc = ctx.json as Record<string, unknown> | undefined;
    if (!doc || typeof doc !== 'object' || !Array.isArray(doc.tests))
      invalid('The body must be a recorder .side document with tests');
    let tests;
    try {
      tests = sideToTests(doc as never);
    } catch (error) {
      invalid(`The .side document is not valid: ${(error as Error).message}`);
    }
    return tests.map((t) =>
      testView(store, createTest(store, suite, key.user, { ...t }, clock.now()), 'import'),
    );
  };
  on('POST', '/v1/suites/:suiteId/import-test/json', (ctx) => {
    const key = ctx.auth();
    return ok(importJson(ctx, store.suite(ctx.pathParams.suiteId, key), key));
  });
  on('POST', '/v1/suites/:suiteId/import-test/recorder-html', (ctx) => {
    const key = ctx.auth();
    return ok(importHtml(ctx, store.suite(ctx.pathParams.suiteId, key), key));
  });
  on('POST', '/v1/suites/:suiteId/import-test/recorder-side', (ctx) => {
    const key = ctx.auth();
    return ok(importSide(ctx, store.suite(ctx.pathParams.suiteId, key), key));
  });
  on('POST', '/v1/suites/:suiteId/import-test', (ctx) => {
    // Legacy combined import: a recorder .html file, a .side document (its first test) or a native JSON test.
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    if (ctx.params.files.has('dataFile')) return ok(importHtml(ctx, suite, key));
    const json = ctx.json as Record<string, unknown> | undefined;
    if (json && Array.isArray(json.tests) && Array.isArray(json.suites))
      return ok(importSide(ctx, suite, key)[0]);
    return ok(importJson(ctx, suite, key));
  });
}
