/** The Ghost Inspector client calls the engine makes (`src/api/api.ts`); tests hand in any such object. */
import type { GhostInspectorApi } from '../api/api.js';

/** The client calls the engine makes (see docs/api-contract.md: Endpoints the action calls). */
export type ActionApi = GhostInspectorApi;
