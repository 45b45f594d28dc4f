/** Organization endpoints (the service's API v1 reference, "Organizations"). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { seg } from './paths.js';

/** Organizations: the running test results of one. */
export function organizationEndpoints(t: Transport): Pick<GhostInspectorApi, 'listOrganizationRunning'> {
  return {
    listOrganizationRunning: (organizationId, opts) =>
      t.get(`/organizations/${seg(organizationId)}/running/`, opts, [], 'envelope', 'list'),
  };
}
