/** Organization endpoints (the service's API v1 reference, "Organizations"). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { seg } from './paths.js';

/** The organization methods of the client. */
export type OrganizationEndpoints = Pick<
  GhostInspectorApi,
  'listOrganizations' | 'getOrganization' | 'listOrganizationRunning'
>;

/** Organizations: the key's organizations, one with its plan, and its running test results. */
export function organizationEndpoints(t: Transport): OrganizationEndpoints {
  return {
    listOrganizations: (opts) => t.get('/organizations/', opts),
    getOrganization: (organizationId, opts) => t.get(`/organizations/${seg(organizationId)}/`, opts),
    listOrganizationRunning: (organizationId, opts) =>
      t.get(`/organizations/${seg(organizationId)}/running/`, opts, [], 'envelope', 'list'),
  };
}
