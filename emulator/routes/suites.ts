/** Suite routes (docs/api-contract.md, "Endpoints the action calls"): list, create, get, update, delete, duplicate, tests, results, execute, badge. */
import { suiteResultsCsv } from '../formats/csv.js';
import { parseExecuteParams } from '../params.js';
import { newSuiteDefaults, type SuiteRecord } from '../store.js';
import { clone, EPOCH, fieldText, invalid, iso, keepMaskedValues, PRIVATE_VALUE_MASK } from '../util.js';
import { suiteView, testView } from '../views.js';
import { applyFields, bodyFields, requireString, SUITE_FIELDS } from './fields.js';
import { waitSuiteResults } from '../waits.js';
import { APP_URL, badge, badgeState, COPY_MARKER, duplicateTest, ok, type RouteDeps } from './shared.js';

/** Registers list, create, get, update and delete of suites. */
function suiteRecordRoutes(deps: RouteDeps): void {
  const { store, on, orgsOf } = deps;
  on('GET', '/v1/suites', (ctx) => {
    const key = ctx.auth();
    return ok(
      [...store.suites.values()]
        .filter((s) => orgsOf(key).includes(s.organization))
        .map((s) => suiteView(store, s, 'list')),
    );
  });
  on('POST', '/v1/suites', (ctx) => {
    const key = ctx.auth();
    const body = bodyFields(ctx);
    const name = requireString(body.name, 'name');
    const orgId = body.organization ?? (orgsOf(key).length === 1 ? orgsOf(key)[0] : undefined);
    store.organization(requireString(orgId, 'organization'), key);
    const now = iso(deps.clock.now());
    const suite: SuiteRecord = {
      ...newSuiteDefaults(),
      _id: store.newId(),
      name,
      organization: orgId as string,
      user: key.user,
      dateCreated: now,
      dateExecutionTriggered: EPOCH,
    };
    applyFields(suite as unknown as Record<string, unknown>, body, SUITE_FIELDS, ['name', 'organization']);
    store.suites.set(suite._id, suite);
    return ok(suiteView(store, suite, 'get'));
  });
  on('GET', '/v1/suites/:suiteId', (ctx) =>
    ok(suiteView(store, store.suite(ctx.pathParams.suiteId, ctx.auth()), 'get')),
  );
  on('POST', '/v1/suites/:suiteId', (ctx) => {
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    const body = bodyFields(ctx);
    const next = clone(suite);
    applyFields(next as unknown as Record<string, unknown>, body, SUITE_FIELDS);
    next.variables = keepMaskedValues(next.variables, suite.variables);
    for (const [name, raw] of Object.entries(body)) {
      if (!name.startsWith('variables.')) continue;
      const varName = name.slice('variables.'.length);
      if (varName === '') invalid('variables.<varName> needs a variable name');
      const v = raw as { value?: unknown; private?: unknown } | null;
      if (!v || typeof v !== 'object' || v.value === undefined)
        invalid(`${name} must be an object with value`);
      const existing = next.variables.find((x) => x.name === varName);
      const value = fieldText(v.value);
      const entry = {
        name: varName,
        value: existing?.private && value === PRIVATE_VALUE_MASK ? existing.value : value,
        private: v.private === true || (existing?.private ?? false),
      };
      if (existing) Object.assign(existing, entry);
      else next.variables.push(entry);
    }
    if (next.folder !== null) store.folder(next.folder, key);
    if (next.dataSource !== null) store.dataSource(next.organization, next.dataSource, key);
    Object.assign(suite, next);
    return ok(suiteView(store, suite, 'get'));
  });
  on('DELETE', '/v1/suites/:suiteId', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    for (const test of store.testsOf(suite._id)) store.tests.delete(test._id);
    store.suites.delete(suite._id);
    return ok(true);
  });
}

/** Registers duplicate, tests, results, execute and the status badge of a suite. */
function suiteActionRoutes(deps: RouteDeps): void {
  const { store, engine, on, page, suiteResultsOf, maxCsvRows } = deps;
  on(['GET', 'POST'], '/v1/suites/:suiteId/duplicate', (ctx) => {
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    const copy: SuiteRecord = {
      ...clone(suite),
      _id: store.newId(),
      name: suite.name + COPY_MARKER,
      user: key.user,
      dateCreated: iso(deps.clock.now()),
      dateExecutionTriggered: EPOCH,
    };
    store.suites.set(copy._id, copy);
    for (const test of store.testsOf(suite._id))
      duplicateTest(store, test, copy, key, test.name, deps.clock.now());
    return ok(suiteView(store, copy, 'duplicate'));
  });
  on('GET', '/v1/suites/:suiteId/tests', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    return ok(store.testsOf(suite._id).map((t) => testView(store, t, 'list')));
  });
  on('GET', '/v1/suites/:suiteId/results', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    return ok(page(suiteResultsOf(suite._id), ctx.params));
  });
  on('GET', '/v1/suites/:suiteId/results/csv', (ctx) => {
    const suite = store.suite(ctx.pathParams.suiteId, ctx.auth());
    return {
      raw: suiteResultsCsv(page(suiteResultsOf(suite._id), ctx.params), APP_URL),
      contentType: 'text/csv; charset=utf-8',
    };
  });
  on(['GET', 'POST'], '/v1/suites/:suiteId/execute', async (ctx) => {
    const key = ctx.auth();
    const suite = store.suite(ctx.pathParams.suiteId, key);
    const params = parseExecuteParams(ctx.params, { maxCsvUploadRows: maxCsvRows(suite.organization) });
    const { suiteResults, many } = engine.executeSuite(key, suite, params);
    deps.webhooks?.register(
      suiteResults.map((r) => r._id),
      params,
    );
    if (params.immediate) {
      // The immediate answer names the suite by its id (docs/api-contract.md, official client's tests); GET keeps the object.
      const answers = suiteResults.map((sr) => ({ ...clone(sr), suite: sr.suite._id }));
      return ok(many ? answers : answers[0]);
    }
    await deps.inFlight.parked(
      waitSuiteResults(
        store,
        suiteResults.map((r) => r._id),
        engine.scale,
        deps.clock,
      ),
    );
    if (many) return ok(clone(suiteResults));
    const ids = store.suiteResultMeta.get(suiteResults[0]._id)!.resultIds;
    return ok(ids.map((id) => clone(store.results.get(id)!)));
  });
  on('GET', '/v1/suites/:suiteId/status-badge', (ctx) => {
    const suite = store.suites.get(ctx.pathParams.suiteId);
    if (!suite) invalid('Suite not found');
    if (!suite.publicStatusEnabled)
      invalid('The status badge is not enabled for this suite (publicStatusEnabled is false)');
    return badge(badgeState(suiteResultsOf(suite._id)[0], ctx.params.get('screenshot') !== undefined, true));
  });
}

/** Registers the suite routes. */
export function suiteRoutes(deps: RouteDeps): void {
  suiteRecordRoutes(deps);
  suiteActionRoutes(deps);
}
