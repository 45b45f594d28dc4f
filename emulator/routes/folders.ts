/** Folder routes (docs/api-contract.md, "Endpoints the action calls"): list, create, get, rename, suites of a folder. */
import { suiteView } from '../views.js';
import { bodyFields, requireString } from './fields.js';
import { ok, type RouteDeps } from './shared.js';

/** Registers the folder routes. */
export function folderRoutes(deps: RouteDeps): void {
  const { store, on, orgsOf } = deps;
  on('GET', '/v1/folders', (ctx) => {
    const key = ctx.auth();
    return ok([...store.folders.values()].filter((f) => orgsOf(key).includes(f.organization)));
  });
  on('POST', '/v1/folders', (ctx) => {
    const key = ctx.auth();
    const body = bodyFields(ctx);
    const name = requireString(body.name, 'name');
    const orgId = body.organization ?? (orgsOf(key).length === 1 ? orgsOf(key)[0] : undefined);
    store.organization(requireString(orgId, 'organization'), key);
    const folder = { _id: store.newId(), name, organization: orgId as string };
    store.folders.set(folder._id, folder);
    return ok(folder);
  });
  on('GET', '/v1/folders/:folderId', (ctx) => ok(store.folder(ctx.pathParams.folderId, ctx.auth())));
  on('POST', '/v1/folders/:folderId', (ctx) => {
    const folder = store.folder(ctx.pathParams.folderId, ctx.auth());
    folder.name = requireString(bodyFields(ctx).name, 'name');
    return ok(folder);
  });
  on('GET', '/v1/folders/:folderId/suites', (ctx) => {
    const folder = store.folder(ctx.pathParams.folderId, ctx.auth());
    return ok(
      [...store.suites.values()]
        .filter((s) => s.folder === folder._id)
        .map((s) => suiteView(store, s, 'folder')),
    );
  });
}
