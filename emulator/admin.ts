/**
 * The admin API under `/_emulator/` (never under `/v1`): observation (request log, finished runs), scenarios,
 * faults, state, and the files (screenshots, comparison images) the results link to. Answers are plain JSON,
 * not envelopes; errors come as HTTP 400 with an ERROR envelope. No API key; admin requests are not logged,
 * rate-limited or faulted (the files under `/_emulator/files/` are logged).
 */
import type { FinishRecord } from './run-records.js';
import { checkFaultSpec, type FaultSpec, parseFaultSpec } from './faults.js';
import { parseScenario, type Scenario } from './executors/simulated.js';
import type { Handler, RequestRecord, Route } from './server.js';
import type { OrganizationRecord, Store } from './store.js';
import { invalid } from './util.js';

export interface AdminDeps {
  store: Store;
  requests: () => RequestRecord[];
  runs: () => FinishRecord[];
  resetLog: () => void;
  faultSpec: () => FaultSpec;
  setFaults: (spec: FaultSpec) => void;
  setScenario: (testId: string, scenario: Scenario | null) => void;
  timeScale: number;
  executorName: string;
}

const json = (value: unknown) => ({
  raw: JSON.stringify(value),
  contentType: 'application/json; charset=utf-8',
});

/** Builds the admin routes. */
export function adminRoutes(deps: AdminDeps): Route[] {
  const routes: Route[] = [];
  const on = (methods: string | string[], pattern: string, handler: Handler) =>
    routes.push({ methods: Array.isArray(methods) ? methods : [methods], pattern, handler, admin: true });
  const { store } = deps;

  on('GET', '/_emulator/health', () => json({ ok: true }));
  on('GET', '/_emulator/requests', (ctx) => {
    const since = Number(ctx.params.string('since') ?? 0);
    const path = ctx.params.string('path');
    return json(
      deps.requests().filter((r) => r.seq > since && (path === undefined || r.path.includes(path))),
    );
  });
  on('GET', '/_emulator/runs', () => json(deps.runs()));
  on('POST', '/_emulator/reset-log', () => {
    deps.resetLog();
    return json({ ok: true });
  });
  on('GET', '/_emulator/scenarios', () => json(Object.fromEntries(store.scenarios)));
  on('POST', '/_emulator/scenarios', (ctx) => {
    const body = (ctx.json ?? {}) as { testId?: unknown; scenario?: unknown };
    if (typeof body.testId !== 'string' || !store.tests.has(body.testId))
      invalid(`testId must name a stored test, got ${JSON.stringify(body.testId)}`);
    let scenario: Scenario | null = null;
    if (body.scenario !== null && body.scenario !== undefined) {
      try {
        scenario = parseScenario(body.scenario);
      } catch (error) {
        invalid((error as Error).message);
      }
    }
    deps.setScenario(body.testId, scenario);
    return json({ ok: true, testId: body.testId, scenario });
  });
  // The organization's notification settings, which the web app sets (suites and tests "use organizational
  // settings"; emulator/webhooks.ts); the API has no endpoint for them.
  const org = (id: string) => {
    const record = store.organizations.get(id);
    if (!record) invalid(`organizationId must name a seeded organization, got ${JSON.stringify(id)}`);
    return record;
  };
  on('GET', '/_emulator/organizations/:organizationId/notifications', (ctx) =>
    json(org(ctx.pathParams.organizationId).notifications),
  );
  on('POST', '/_emulator/organizations/:organizationId/notifications', (ctx) => {
    const record = org(ctx.pathParams.organizationId);
    const body = ctx.json;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      invalid(
        'The body must be the notification settings: an object such as {"webhooks": {"enabled": true, ...}}',
      );
    record.notifications = body as OrganizationRecord['notifications'];
    return json(record.notifications);
  });
  on('GET', '/_emulator/faults', () => json(deps.faultSpec()));
  on('POST', '/_emulator/faults', (ctx) => {
    const body = ctx.json as { spec?: unknown } | undefined;
    let spec: FaultSpec;
    try {
      if (body && typeof body.spec === 'string') spec = parseFaultSpec(body.spec);
      else if (body && typeof body === 'object') spec = checkFaultSpec(body as FaultSpec);
      else spec = {};
    } catch (error) {
      invalid((error as Error).message);
    }
    deps.setFaults(spec);
    return json({ ok: true, faults: spec });
  });
  on('GET', '/_emulator/state', () =>
    json({
      executor: deps.executorName,
      timeScale: deps.timeScale,
      organizations: [...store.organizations.keys()],
      folders: [...store.folders.keys()],
      dataSources: [...store.dataSources.keys()],
      suites: [...store.suites.values()].map((s) => ({
        _id: s._id,
        name: s.name,
        tests: store.testsOf(s._id).map((t) => t._id),
      })),
      tests: [...store.tests.keys()],
      results: store.results.size,
      running: [...store.resultMeta.entries()].filter(([, m]) => !m.finished).map(([id]) => id),
      suiteResults: store.suiteResults.size,
    }),
  );
  on(['GET', 'HEAD'], '/_emulator/files/:name', (ctx) => {
    const file = store.files.get(ctx.pathParams.name);
    if (!file) return { raw: 'Not found', contentType: 'text/plain', status: 404 };
    return {
      raw: file.body,
      contentType: file.contentType,
      headers: { 'cache-control': 'public, max-age=31536000' },
    };
  });
  return routes;
}
