/** Data source routes (docs/api-contract.md, "Endpoints the action calls"): list, create, get, update, delete. */
import { invalid } from '../util.js';
import { bodyFields, requireString } from './fields.js';
import { ok, type RouteDeps } from './shared.js';

/** Checks the rows of a data source: objects mapping variable names to strings or numbers. */
function checkRows(value: unknown): Array<Record<string, string | number>> {
  if (!Array.isArray(value)) invalid('data must be an array of row objects');
  const rows: unknown[] = value;
  rows.forEach((row, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row))
      invalid(`data[${i}] must be an object mapping variable names to values`);
    for (const [k, v] of Object.entries(row)) {
      if (typeof v !== 'string' && typeof v !== 'number')
        invalid(`data[${i}].${k} must be a string or a number`);
    }
  });
  return rows as Array<Record<string, string | number>>;
}

/** Registers the data source routes. */
export function dataSourceRoutes(deps: RouteDeps): void {
  const { store, on } = deps;
  on('GET', '/v1/organizations/:organizationId/data-sources', (ctx) => {
    const org = store.organization(ctx.pathParams.organizationId, ctx.auth());
    return ok([...store.dataSources.values()].filter((d) => d.organization === org._id));
  });
  on('POST', '/v1/organizations/:organizationId/data-sources', (ctx) => {
    const org = store.organization(ctx.pathParams.organizationId, ctx.auth());
    const body = bodyFields(ctx);
    const source = {
      _id: store.newId(),
      name: requireString(body.name, 'name'),
      organization: org._id,
      data: checkRows(body.data ?? []),
    };
    store.dataSources.set(source._id, source);
    return ok(source);
  });
  on('GET', '/v1/organizations/:organizationId/data-sources/:dataSourceId', (ctx) =>
    ok(store.dataSource(ctx.pathParams.organizationId, ctx.pathParams.dataSourceId, ctx.auth())),
  );
  on('POST', '/v1/organizations/:organizationId/data-sources/:dataSourceId', (ctx) => {
    const key = ctx.auth();
    store.organization(ctx.pathParams.organizationId, key);
    const source = store.dataSource(ctx.pathParams.organizationId, ctx.pathParams.dataSourceId, key);
    const body = bodyFields(ctx);
    const name = requireString(body.name ?? source.name, 'name');
    const data = checkRows(body.data ?? []);
    Object.assign(source, { name, data });
    return ok(source);
  });
  on('DELETE', '/v1/organizations/:organizationId/data-sources/:dataSourceId', (ctx) => {
    const source = store.dataSource(ctx.pathParams.organizationId, ctx.pathParams.dataSourceId, ctx.auth());
    store.dataSources.delete(source._id);
    return ok(true);
  });
}
