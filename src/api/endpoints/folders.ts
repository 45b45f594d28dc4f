/** Folder endpoints (the service's API v1 reference, "Folders"). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { seg } from './paths.js';

/** Folders: the suites of a folder (`organization` as an id string there). */
export function folderEndpoints(t: Transport): Pick<GhostInspectorApi, 'listFolderSuites'> {
  return {
    listFolderSuites: (folderId, opts) => t.get(`/folders/${seg(folderId)}/suites/`, opts),
  };
}
