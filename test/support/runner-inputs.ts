/**
 * The inputs as the GitHub runner hands them to the action's steps, for everything that runs the action
 * outside GitHub (the harnesses, the demo, the benchmarks): the action applies no default itself.
 *
 * GitHub's docs ("Metadata syntax for GitHub Actions", `inputs.<input_id>.default`): the default is used when
 * the input is not specified in the workflow file; the runner then passes each input to the action as an
 * environment variable `INPUT_<NAME>` (upper case, spaces as underscores; `@actions/core` reads it so).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { actionDefaults } from '../../scripts/gen-readme-io.js';

const ACTION_YML = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../action.yml');

/** The defaults of the project's action.yml, by input name (expression defaults left out; read once). */
export function projectDefaults(): Record<string, string> {
  read ??= actionDefaults(readFileSync(ACTION_YML, 'utf8'));
  return { ...read };
}
let read: Record<string, string> | undefined;

/** The environment variable the runner sets for input `name`. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/**
 * The `INPUT_<NAME>` variables of a step `with:` the inputs `given`: each given value as it is (an empty one
 * stays empty), and the action.yml default of every other input. `${{ github.token }}`, the one expression
 * among the defaults, is the job's token: `GITHUB_TOKEN` of `env` here, empty when unset.
 */
export function runnerInputs(
  given: Record<string, string>,
  env: Record<string, string | undefined> = {},
): Record<string, string> {
  const values: Record<string, string> = {
    'github-token': '${{ github.token }}',
    ...projectDefaults(),
    ...given,
  };
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    out[inputVariable(name)] = value === '${{ github.token }}' ? (env.GITHUB_TOKEN ?? '') : value;
  }
  return out;
}
