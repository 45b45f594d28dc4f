/**
 * Writes the input and output tables of README.md (short) and docs/inputs.md (in full) from `action.yml`, the
 * README's `owner/name@vN` references to this action from `package.json` (`repository` and the major of
 * `version`), and the defaults the bundle applies (`src/inputs/action-defaults.ts`), so they cannot drift apart.
 *
 *   npm run docs          rewrites both files between the `generated:inputs` and `generated:outputs` markers,
 *                         and the defaults module whole
 *   npm run docs:check    fails (exit 1) when a file is not what `npm run docs` would write
 *
 * The README's front page shows one input table (a row per `# Group` comment of `action.yml`, in file order)
 * with the first clause of each description; docs/inputs.md shows one list per group, each input with its
 * default and the whole description. Both files are then formatted with the project's Prettier settings, so the check also holds
 * after `npm run format`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The parts of `action.yml` the README shows. */
export interface ActionMetadata {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

/** One group of inputs, named by the `# Heading` comment above it in `action.yml`. */
export interface InputGroup {
  title: string;
  names: string[];
}

/** The note above a generated part: a table in the README, a list in docs/inputs.md. */
const note = (form: TableForm): string =>
  `<!-- Generated from action.yml by \`npm run docs\`: edit action.yml, not this ${form === 'short' ? 'table' : 'list'}. -->`;

/** Parses `action.yml` text. @throws when it has no `inputs` or `outputs` mapping. */
export function parseAction(text: string): ActionMetadata {
  const action = parse(text) as Partial<ActionMetadata> | null;
  if (!action?.inputs || !action.outputs) throw new Error('action.yml needs inputs and outputs');
  return action as ActionMetadata;
}

/**
 * The input groups in file order: a comment line indented like the input names (`  # Connection`) starts a
 * group; inputs before the first comment fall in "Inputs".
 */
export function inputGroups(text: string): InputGroup[] {
  const groups: InputGroup[] = [];
  let inInputs = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      inInputs = line.startsWith('inputs:');
      continue;
    }
    if (!inInputs) continue;
    const comment = /^ {2}#\s*(.+?)\s*$/.exec(line);
    const name = /^ {2}([a-z0-9][a-z0-9-]*):\s*$/.exec(line);
    if (comment) groups.push({ title: comment[1], names: [] });
    else if (name) {
      if (groups.length === 0) groups.push({ title: 'Inputs', names: [] });
      groups[groups.length - 1].names.push(name[1]);
    }
  }
  return groups.filter((g) => g.names.length > 0);
}

/** Text for one table cell: pipes escaped, angle brackets as entities (GitHub would drop `<width>`). */
export function cell(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|');
}

/** What the Default column shows: `**required**`, `—` (empty) or the default as code. */
export function defaultCell(input: { required?: boolean; default?: string }): string {
  if (input.required) return '**required**';
  if (input.default === undefined || input.default === '') return '—';
  return `\`${input.default.replace(/\|/g, '\\|')}\``;
}

/**
 * How much of each description the docs show: the first clause in a table (README) or all of it in a list
 * (docs/inputs.md: `` - `name` (default): description ``).
 */
export type TableForm = 'short' | 'full';

/**
 * The first clause of a description, for the README's short tables: without a leading `true or false:` (the
 * default column shows the form), without parentheses, the first sentence (two when the first is short) up to
 * a colon or semicolon, and at most about 80 characters (cut at the last comma before). E.g. "Re-run each failed test alone up to this
 * many times (integer 0 to 3); a test…" becomes "Re-run each failed test alone up to this many times".
 */
export function shortDescription(description: string): string {
  let text = description.replace(/\s+/g, ' ').trim();
  if (text.startsWith('true or false: ')) {
    text = text.slice('true or false: '.length);
    text = text.charAt(0).toUpperCase() + text.slice(1);
  }
  text = text.replace(/ \([^()]*\)/g, '');
  // Sentences (not cut at "e.g."), as many as make 20 characters: "Organization id. Required with test-files".
  const sentences = text.split(/(?<!\be\.g|\bi\.e)\.(?:\s+|$)/).filter(Boolean);
  text = sentences[0] ?? text;
  for (const next of sentences.slice(1)) if (text.length < 20) text = `${text}. ${next}`;
  text = /^(.{25,}?)[:;]\s/.exec(text)?.[1] ?? text;
  if (text.length > 80) {
    const comma = text.lastIndexOf(', ', 80);
    if (comma > 25) text = text.slice(0, comma);
  }
  return text;
}

/** The markdown between the inputs markers (unformatted), in the README's short form or in full. */
export function renderInputs(text: string, form: TableForm = 'short'): string {
  const action = parseAction(text);
  const row = (name: string): string => {
    const input = action.inputs[name];
    const description = form === 'short' ? shortDescription(input.description) : input.description;
    return `| \`${name}\` | ${cell(description)} | ${defaultCell(input)} |`;
  };
  const head = ['| Input | Description | Default |', '| --- | --- | --- |'];
  const parts = [note(form), ''];
  if (form === 'short') {
    // One table; each group a row (`# What to run (any mix)`: the name in bold, the parenthesis beside it).
    parts.push(...head);
    for (const group of inputGroups(text)) {
      const [, name, note] = /^(.*?)(?:\s*\((.*)\))?$/.exec(group.title) ?? [];
      parts.push(`| **${cell(name ?? group.title)}** | ${note ? `_${cell(note)}_` : ''} | |`);
      parts.push(...group.names.map(row));
    }
  } else {
    const item = (name: string): string =>
      `- \`${name}\` (${defaultCell(action.inputs[name])}): ${cell(action.inputs[name].description)}`;
    for (const group of inputGroups(text)) parts.push(`### ${group.title}`, '', ...group.names.map(item), '');
  }
  return `${parts.join('\n')}\n`;
}

/** The markdown between the outputs markers (unformatted), in the README's short form or in full. */
export function renderOutputs(text: string, form: TableForm = 'short'): string {
  const action = parseAction(text);
  const parts = [note(form), ''];
  if (form === 'short') parts.push('| Output | Description |', '| --- | --- |');
  for (const [name, output] of Object.entries(action.outputs)) {
    if (form === 'short') parts.push(`| \`${name}\` | ${cell(shortDescription(output.description))} |`);
    else parts.push(`- \`${name}\`: ${cell(output.description)}`);
  }
  return `${parts.join('\n')}\n`;
}

/** Replaces the text between `<!-- generated:NAME:start -->` and `<!-- generated:NAME:end -->`. */
export function replaceBetween(readme: string, name: string, body: string): string {
  const start = `<!-- generated:${name}:start -->`;
  const end = `<!-- generated:${name}:end -->`;
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i < 0 || j < i) throw new Error(`README.md needs the markers ${start} and ${end}`);
  return `${readme.slice(0, i + start.length)}\n\n${body.trim()}\n\n${readme.slice(j)}`;
}

/**
 * The `owner/name@vN` users write for this action, from `package.json`: `repository` (a GitHub URL,
 * `github:owner/name` or `owner/name`) and the major of `version`.
 * @throws Error when `repository` names no GitHub repository
 */
export function actionRef(packageJson: string): string {
  const pkg = JSON.parse(packageJson) as { version: string; repository?: string | { url?: string } };
  const url = typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? '');
  const repo = /(?:github\.com[/:]|github:|^)([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url)?.[1];
  if (!repo) throw new Error(`package.json: repository "${url}" names no GitHub repository`);
  return `${repo}@v${pkg.version.split('.')[0]}`;
}

/** Rewrites every `owner/ghost-inspector-action@vN` (or `owner/<repository name>@vN`) to `ref`. */
export function pinActionRefs(readme: string, ref: string): string {
  const name = ref.split('@')[0].split('/')[1].replace(/[.]/g, '\\.');
  const pattern = new RegExp(`[\\w.-]+/(?:ghost-inspector-action|${name})@v\\d+`, 'g');
  return readme.replace(pattern, ref);
}

/**
 * Formats `text` as `npm run format` would for `file` (a path under the repository). Prettier loads here, not
 * with the module: the test harness reads action.yml's defaults through {@link actionDefaults}.
 */
async function formatAs(text: string, file: string): Promise<string> {
  const { default: prettier } = await import('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...config, filepath: file });
}

/** The README as `npm run docs` writes it: short tables and this action's references in place, formatted. */
export async function generateReadme(
  readme: string,
  actionYml: string,
  packageJson = readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
): Promise<string> {
  let out = replaceBetween(readme, 'inputs', renderInputs(actionYml, 'short'));
  out = replaceBetween(out, 'outputs', renderOutputs(actionYml, 'short'));
  out = pinActionRefs(out, actionRef(packageJson));
  return formatAs(out, path.join(ROOT, 'README.md'));
}

/**
 * The defaults of `action.yml` by input name, as the bundle applies them: inputs without a default, or with an
 * expression for one (`${{ github.token }}`, which only the runner can evaluate), are left out.
 */
export function actionDefaults(actionYml: string): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const [name, input] of Object.entries(parseAction(actionYml).inputs)) {
    if (typeof input.default === 'string' && !input.default.startsWith('${{')) defaults[name] = input.default;
  }
  return defaults;
}

/**
 * `src/inputs/action-defaults.ts` as `npm run docs` writes it: action.yml's defaults as a constant, so the
 * bundle neither reads nor parses YAML when it starts.
 */
export async function generateDefaultsModule(actionYml: string): Promise<string> {
  return formatAs(
    `/**
 * The defaults of \`action.yml\`. The runner applies them to inputs a workflow leaves out; the action applies
 * them to an input left out too (outside a runner nothing else does), and to one given empty (\`wait: \${{
 * inputs.wait }}\` with \`inputs.wait\` unset) but where empty means something (docs/api-contract.md, "Runtime").
 * Generated from action.yml by \`npm run docs\`: edit action.yml, not this file.
 */

/** action.yml's defaults by input name; inputs without one, or with an expression for one, are left out. */
export const ACTION_DEFAULTS: Readonly<Record<string, string>> = ${JSON.stringify(actionDefaults(actionYml))};
`,
    path.join(ROOT, 'src', 'inputs', 'action-defaults.ts'),
  );
}

/** docs/inputs.md as `npm run docs` writes it: the lists in full, formatted. */
export async function generateInputsDoc(doc: string, actionYml: string): Promise<string> {
  let out = replaceBetween(doc, 'inputs', renderInputs(actionYml, 'full'));
  out = replaceBetween(out, 'outputs', renderOutputs(actionYml, 'full'));
  return formatAs(out, path.join(ROOT, 'docs', 'inputs.md'));
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const actionYml = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
  const targets = [
    { file: 'README.md', generate: (text: string) => generateReadme(text, actionYml) },
    { file: 'docs/inputs.md', generate: (text: string) => generateInputsDoc(text, actionYml) },
    { file: 'src/inputs/action-defaults.ts', generate: () => generateDefaultsModule(actionYml) },
  ];
  for (const { file, generate } of targets) {
    const full = path.join(ROOT, file);
    const text = readFileSync(full, 'utf8');
    const expected = await generate(text);
    if (expected === text) console.log(`${file}: matches action.yml.`);
    else if (check) {
      console.error(`${file} is out of date with action.yml: run \`npm run docs\` and commit ${file}.`);
      process.exitCode = 1;
    } else {
      writeFileSync(full, expected);
      console.log(`${file}: written from action.yml.`);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
