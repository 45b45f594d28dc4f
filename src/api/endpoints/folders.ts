/** Folder endpoints (the service's API v1 reference, "Folders"). */
import type { GhostInspectorApi } from '../api.js';
import type { Transport } from '../transport.js';
import { seg } from './paths.js';

/** The folder methods of the client. */
export type FolderEndpoints = Pick<
  GhostInspectorApi,
  'listFolders' | 'getFolder' | 'createFolder' | 'updateFolder' | 'listFolderSuites'
>;

/** Folders: list, read, create, rename, and the suites of a folder (`organization` as an id string there). */
export function folderEndpoints(t: Transport): FolderEndpoints {
  return {
    listFolders: (opts) => t.get('/folders/', opts),
    getFolder: (folderId, opts) => t.get(`/folders/${seg(folderId)}/`, opts),
    createFolder: (body, opts) => t.postJson('/folders/', body, opts),
    updateFolder: (folderId, body, opts) => t.postJson(`/folders/${seg(folderId)}/`, body, opts),
    listFolderSuites: (folderId, opts) => t.get(`/folders/${seg(folderId)}/suites/`, opts),
  };
}
