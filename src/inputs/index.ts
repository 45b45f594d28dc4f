/**
 * The action's inputs: `schema.ts` (names, defaults, the typed result, the error), `parse.ts` and
 * `variables.ts` (pure parsing and validation), `from-env.ts` (from the environment and the files they name),
 * `test-files.ts` and `side.ts` (repository test files: native JSON and recorder documents).
 */
export { readInputs, envInputGetter, type ReadInputsOptions } from './from-env.js';
export { parseBoolean, splitList } from './parse.js';
export { parseVariables } from './variables.js';
export {
  ID_PATTERN,
  INPUT_DEFAULTS,
  InputError,
  RESERVED_VARIABLE_NAMES,
  type ActionInputs,
  type InputGetter,
  type InputProblem,
  type ScreenshotSelection,
} from './schema.js';
export { definitionFor, loadTestFiles, type RepoTest } from './test-files.js';
