/** Organization routes (docs/api-contract.md, "Endpoints the action calls"): list, get, running, and the on-demand execute. */
import { newTestDefaults, type TestRecord } from '../store.js';
import { Params, parseExecuteParams } from '../params.js';
import { clone, fieldText, invalid, iso } from '../util.js';
import { organizationView } from '../views.js';
import { applyFields, bodyFields, IGNORED_ON_IMPORT, normaliseSteps, TEST_FIELDS } from './fields.js';
import { ok, type RouteDeps } from './shared.js';

/** Registers list, get and running of organizations. */
function organizationRecordRoutes(deps: RouteDeps): void {
  const { store, on, orgsOf, running } = deps;
  on('GET', '/v1/organizations', (ctx) => {
    const key = ctx.auth();
    return ok(
      orgsOf(key).flatMap((id) => {
        const o = store.organizations.get(id);
        return o ? [{ _id: o._id, name: o.name }] : [];
      }),
    );
  });
  on('GET', '/v1/organizations/:organizationId', (ctx) =>
    ok(organizationView(store, store.organization(ctx.pathParams.organizationId, ctx.auth()))),
  );
  on(['GET', 'POST'], '/v1/organizations/:organizationId/running', (ctx) => {
    const org = store.organization(ctx.pathParams.organizationId, ctx.auth());
    return ok(running((r) => r.organization === org._id));
  });
}

/** Custom variables of an on-demand body: `{name: value}` or `[{name, value}]`; anything else is refused. */
function bodyVariables(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === undefined || value === null) return out;
  if (Array.isArray(value)) {
    value.forEach((v: unknown, i) => {
      const entry = v as { name?: unknown; value?: unknown } | null;
      if (!entry || typeof entry.name !== 'string' || entry.value === undefined)
        invalid(`variables[${i}] must be {name, value}`);
      out[entry.name] = fieldText(entry.value);
    });
    return out;
  }
  if (typeof value !== 'object')
    invalid('variables must be an object of name: value or an array of {name, value}');
  for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return out;
}

/** Registers the on-demand execute: a test definition in the body, run without being stored. */
function onDemandRoutes(deps: RouteDeps): void {
  const { store, engine, on } = deps;
  on('POST', '/v1/organizations/:organizationId/on-demand/execute', (ctx) => {
    const key = ctx.auth();
    const org = store.organization(ctx.pathParams.organizationId, key);
    const body = bodyFields(ctx);
    if (body.steps === undefined) invalid('steps is required: an array of steps');
    const now = iso(deps.clock.now());
    const test: TestRecord = {
      ...newTestDefaults(),
      _id: store.newId(),
      name: typeof body.name === 'string' && body.name !== '' ? body.name : 'On-demand test',
      organization: org._id,
      suite: '',
      user: key.user,
      steps: [],
      dateCreated: now,
      dateUpdated: now,
    };
    applyFields(test as unknown as Record<string, unknown>, body, TEST_FIELDS, [
      'steps',
      'name',
      ...IGNORED_ON_IMPORT,
    ]);
    test.steps = normaliseSteps(store, body.steps, false);
    // Execute parameters come from the query string (the body is the test definition); a body's `variables`
    // are custom variables.
    const params = parseExecuteParams(new Params(ctx.url.searchParams, undefined), {
      maxCsvUploadRows: org.plan.maxCsvUploadRows,
    });
    Object.assign(params.variables, bodyVariables(body.variables));
    const { results, many } = engine.executeOnDemand(key, test, params);
    deps.webhooks?.register(
      results.map((r) => r._id),
      params,
    );
    // The answer comes at once with the created result (passing and executionTime null), with or without
    // `immediate`: the service's docs "trigger a test run ... and immediately return a result ID" (2020 docs
    // copied in bagpyp/ghostInspectorAPI, ghostInspector/Tests.py, its example has passing null) and two
    // independent 2026 clients; the result is then read with GET /results/{id} (docs/api-contract.md).
    return ok(clone(many ? results : results[0]));
  });
}

/** Registers the organization routes. */
export function organizationRoutes(deps: RouteDeps): void {
  organizationRecordRoutes(deps);
  onDemandRoutes(deps);
}
