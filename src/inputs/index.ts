/** The action's inputs: names and types (`schema.ts`), parsing, and reading from the environment. */
export { readInputs } from './from-env.js';
export { InputError, type ActionInputs } from './schema.js';
