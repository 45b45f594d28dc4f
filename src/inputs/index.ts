/**
 * The action's inputs: `schema.ts` (names, defaults, the typed result, the error), `parse.ts` and
 * `variables.ts` (pure parsing and validation), `from-env.ts` (from the environment and the files they name),
 * `test-files.ts` and `side.ts` (repository test files: native JSON and recorder documents).
 */
export { readInputs, envInputGetter } from './from-env.js';
export { splitList } from './parse.js';
export { parseVariables } from './variables.js';
export { INPUT_DEFAULTS, InputError, type ActionInputs } from './schema.js';
