/** The API v1 client: the endpoint modules assembled over one `Transport` (docs/api-client.md). */
import type { ClientOptions, GhostInspectorApi } from './api.js';
import { folderEndpoints } from './endpoints/folders.js';
import { onDemandEndpoints } from './endpoints/on-demand.js';
import { organizationEndpoints } from './endpoints/organizations.js';
import { resultEndpoints } from './endpoints/results.js';
import { suiteResultEndpoints } from './endpoints/suite-results.js';
import { suiteEndpoints } from './endpoints/suites.js';
import { testEndpoints } from './endpoints/tests.js';
import { Transport } from './transport.js';

/** Create a client for the Ghost Inspector API v1 (see `ClientOptions`; errors: a redacted `ApiError`). */
export function createClient(options: ClientOptions): GhostInspectorApi {
  return clientOn(new Transport(options));
}

/** The client's methods over the transport `t` (tests add the rest of the API's surface on the same one). */
export function clientOn(t: Transport): GhostInspectorApi {
  return {
    ...suiteEndpoints(t),
    ...testEndpoints(t),
    ...onDemandEndpoints(t),
    ...resultEndpoints(t),
    ...suiteResultEndpoints(t),
    ...organizationEndpoints(t),
    ...folderEndpoints(t),
  };
}
