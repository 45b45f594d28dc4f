/**
 * The `/v1` endpoints: every row of the contract's "Endpoints" section plus the suite-result endpoints of
 * the docs/api-contract.md, one module per resource. Paths answer with and without a trailing slash. Errors are
 * `ERROR` envelopes with HTTP 200 (thrown as ApiError); unknown ids are VALIDATION_ERRORs ("Test not found").
 */
import type { Route } from '../server.js';
import { dataSourceRoutes } from './data-sources.js';
import { exportRoutes } from './exports.js';
import { folderRoutes } from './folders.js';
import { importRoutes } from './imports.js';
import { organizationRoutes } from './organizations.js';
import { resultRoutes, suiteResultRoutes } from './results.js';
import { runnerIpRoutes } from './runner-ips.js';
import { routeDeps, type ApiDeps } from './shared.js';
import { suiteRoutes } from './suites.js';
import { testRoutes } from './tests.js';

export { APP_URL, COPY_MARKER, type ApiDeps } from './shared.js';

/** Builds the `/v1` route table. */
export function apiRoutes(apiDeps: ApiDeps): Route[] {
  const routes: Route[] = [];
  const deps = routeDeps(apiDeps, routes);
  suiteRoutes(deps);
  importRoutes(deps);
  testRoutes(deps);
  exportRoutes(deps);
  resultRoutes(deps);
  suiteResultRoutes(deps);
  organizationRoutes(deps);
  dataSourceRoutes(deps);
  folderRoutes(deps);
  runnerIpRoutes(deps);
  // The official Node client (npm `ghost-inspector` 7.0.1) calls the recorder exports by their former names,
  // `export/selenium-side/` and `export/selenium-html/`, and the JSON export as `export/selenium-json/`
  // (suites: zip; tests: JSON): those paths answer like the current ones.
  for (const route of [...routes]) {
    const alias = route.pattern
      .replace(/\/export\/recorder-(side|html)$/, '/export/selenium-$1')
      .replace(/\/export\/json$/, '/export/selenium-json');
    if (alias !== route.pattern) routes.push({ ...route, pattern: alias });
  }
  return routes;
}
