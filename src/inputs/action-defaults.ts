/**
 * The defaults of `action.yml`. The runner applies them to inputs a workflow leaves out; the action applies
 * them to an input left out too (outside a runner nothing else does), and to one given empty (`wait: ${{
 * inputs.wait }}` with `inputs.wait` unset) but where empty means something (docs/api-contract.md, "Runtime").
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/** `action.yml` of the running bundle: the action's folder is the parent of `dist/`. */
export function bundleActionYml(): string {
  return path.resolve(path.dirname(process.argv[1] ?? '.'), '..', 'action.yml');
}

/**
 * The defaults of `file`, by input name; inputs without a default, or with an expression for one
 * (`${{ github.token }}`), are left out. A missing file gives `{}`.
 * @throws when the file is not YAML
 */
export function actionDefaults(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const action = parse(readFileSync(file, 'utf8')) as { inputs?: Record<string, { default?: unknown }> };
  const defaults: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs ?? {})) {
    if (typeof input.default === 'string' && !input.default.startsWith('${{')) defaults[name] = input.default;
  }
  return defaults;
}
