/** The action's inputs: names and types (`schema.ts`), parsing, and reading from the environment. */
export { readInputs, envInputGetter } from './from-env.js';
export { splitList } from './parse.js';
export { parseVariables } from './variables.js';
export { InputError, type ActionInputs } from './schema.js';
