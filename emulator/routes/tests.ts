/** Test routes (docs/api-contract.md, "Endpoints the action calls"): list, get, update, delete, duplicate, execute, running, accept-screenshot, results, badge. */
import { testResultsCsv } from '../formats/csv.js';
import { parseExecuteParams } from '../params.js';
import { clone, invalid, iso } from '../util.js';
import { testView } from '../views.js';
import { applyFields, bodyFields, normaliseSteps, TEST_FIELDS } from './fields.js';
import { waitResults } from '../waits.js';
import { APP_URL, badge, badgeState, COPY_MARKER, duplicateTest, ok, type RouteDeps } from './shared.js';

/** Registers list, get, update, delete and duplicate of tests. */
function testRecordRoutes(deps: RouteDeps): void {
  const { store, on, orgsOf } = deps;
  on('GET', '/v1/tests', (ctx) => {
    const key = ctx.auth();
    return ok(
      [...store.tests.values()]
        .filter((t) => orgsOf(key).includes(t.organization))
        .map((t) => testView(store, t, 'list')),
    );
  });
  on('GET', '/v1/tests/:testId', (ctx) =>
    ok(testView(store, store.test(ctx.pathParams.testId, ctx.auth()), 'get')),
  );
  on('POST', '/v1/tests/:testId', (ctx) => {
    const key = ctx.auth();
    const test = store.test(ctx.pathParams.testId, key);
    const body = bodyFields(ctx);
    const next = clone(test);
    applyFields(next as unknown as Record<string, unknown>, body, TEST_FIELDS, ['steps']);
    if (body.steps !== undefined) next.steps = normaliseSteps(store, body.steps, true);
    if (body.suite !== undefined && body.suite !== null) {
      // `suite` (an id, or the `{_id, name}` a GET answers) moves the test to that suite (independent
      // clients; docs/api-contract.md, "Test definitions (repository test files)").
      const ref = body.suite as { _id?: unknown } | string;
      const suiteId = typeof ref === 'string' ? ref : ref?._id;
      if (typeof suiteId !== 'string' || suiteId === '')
        invalid(`suite must be a suite id or {_id}, got ${JSON.stringify(body.suite)}`);
      const suite = store.suite(suiteId, key);
      next.suite = suite._id;
      next.organization = suite.organization;
    }
    next.dateUpdated = iso(deps.clock.now());
    Object.assign(test, next);
    return ok(testView(store, test, 'get'));
  });
  on('DELETE', '/v1/tests/:testId', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    store.tests.delete(test._id);
    return ok(true);
  });
  on(['GET', 'POST'], '/v1/tests/:testId/duplicate', (ctx) => {
    const key = ctx.auth();
    const test = store.test(ctx.pathParams.testId, key);
    // `suiteId` (JSON body, form or query) copies the test into that suite.
    const suiteId = bodyFields(ctx).suiteId ?? ctx.params.get('suiteId');
    if (suiteId !== undefined && typeof suiteId !== 'string') invalid('suiteId must be a suite id string');
    const suite = suiteId ? store.suite(suiteId, key) : store.suites.get(test.suite)!;
    return ok(
      testView(
        store,
        duplicateTest(store, test, suite, key, test.name + COPY_MARKER, deps.clock.now()),
        'duplicate',
      ),
    );
  });
}

/** Registers execute, running, accept-screenshot, results and the status badge of a test. */
function testActionRoutes(deps: RouteDeps): void {
  const { store, engine, on, page, running, testResultsOf, maxCsvRows } = deps;
  on(['GET', 'POST'], '/v1/tests/:testId/execute', async (ctx) => {
    const key = ctx.auth();
    const test = store.test(ctx.pathParams.testId, key);
    const params = parseExecuteParams(ctx.params, { maxCsvUploadRows: maxCsvRows(test.organization) });
    const { results, many } = engine.executeTest(key, test, params);
    deps.webhooks?.register(
      results.map((r) => r._id),
      params,
    );
    if (!params.immediate)
      await deps.inFlight.parked(
        waitResults(
          store,
          results.map((r) => r._id),
        ),
      );
    return ok(clone(many ? results : results[0]));
  });
  on(['GET', 'POST'], '/v1/tests/:testId/running', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return ok(running((r) => r.test?._id === test._id));
  });
  on(['GET', 'POST'], '/v1/tests/:testId/accept-screenshot', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    engine.acceptScreenshot(test);
    return ok(testView(store, test, 'get'));
  });
  on('GET', '/v1/tests/:testId/results', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return ok(page(testResultsOf(test._id), ctx.params));
  });
  on('GET', '/v1/tests/:testId/results/csv', (ctx) => {
    const test = store.test(ctx.pathParams.testId, ctx.auth());
    return {
      raw: testResultsCsv(page(testResultsOf(test._id), ctx.params), APP_URL),
      contentType: 'text/csv; charset=utf-8',
    };
  });
  on('GET', '/v1/tests/:testId/status-badge', (ctx) => {
    const test = store.tests.get(ctx.pathParams.testId);
    if (!test) invalid('Test not found');
    if (!test.publicStatusEnabled)
      invalid('The status badge is not enabled for this test (publicStatusEnabled is false)');
    if (test.importOnly) return badge('import-only');
    return badge(badgeState(testResultsOf(test._id)[0], ctx.params.get('screenshot') !== undefined, false));
  });
}

/** Registers the test routes. */
export function testRoutes(deps: RouteDeps): void {
  testRecordRoutes(deps);
  testActionRoutes(deps);
}
