/** Data source endpoints of an organization (the service's API v1 reference, "Data sources"). */
import type { TestApi } from './client.js';
import { ApiError } from '../../../src/api/errors.js';
import type { Transport } from '../../../src/api/transport.js';
import type { DataSource } from '../../../emulator/api-types.js';
import { seg } from '../../../src/api/client.js';

/** The data source methods of the client. */
export type DataSourceEndpoints = Pick<
  TestApi,
  'listDataSources' | 'getDataSource' | 'createDataSource' | 'updateDataSource' | 'deleteDataSource'
>;

/** One data source out of an answer that may be a list; throws `INVALID_RESPONSE` for an empty list. */
function single(t: Transport, value: DataSource | DataSource[], endpoint: string): DataSource {
  if (!Array.isArray(value)) return value;
  if (value.length > 0) return value[0];
  throw new ApiError({
    errorType: 'INVALID_RESPONSE',
    endpoint: t.redact(endpoint),
    attempts: 1,
    message: t.redact(`${endpoint}: the service answered an empty list where one data source was expected.`),
  });
}

/** Data sources: list, read, create, update (each resolving with one data source), delete. */
export function dataSourceEndpoints(t: Transport): DataSourceEndpoints {
  const base = (organizationId: string): string => `/organizations/${seg(organizationId)}/data-sources/`;
  return {
    listDataSources: (organizationId, opts) => t.get(base(organizationId), opts),
    getDataSource: async (organizationId, dataSourceId, opts) => {
      const path = `${base(organizationId)}${seg(dataSourceId)}/`;
      return single(t, await t.get<DataSource | DataSource[]>(path, opts), t.endpointOf('GET', path));
    },
    createDataSource: async (organizationId, body, opts) => {
      const path = base(organizationId);
      return single(
        t,
        await t.postJson<DataSource | DataSource[]>(path, body, opts),
        t.endpointOf('POST', path),
      );
    },
    updateDataSource: async (organizationId, dataSourceId, body, opts) => {
      const path = `${base(organizationId)}${seg(dataSourceId)}/`;
      return single(
        t,
        await t.postJson<DataSource | DataSource[]>(path, body, opts),
        t.endpointOf('POST', path),
      );
    },
    deleteDataSource: (organizationId, dataSourceId, opts) =>
      t.request<true>({
        method: 'DELETE',
        path: `${base(organizationId)}${seg(dataSourceId)}/`,
        kind: 'write',
        opts,
      }),
  };
}
