/**
 * Writes the README's input and output tables from `action.yml`, and its `owner/name@vN` references to this
 * action from `package.json` (`repository` and the major of `version`), so they cannot drift apart.
 *
 *   npm run docs          rewrites README.md between the `generated:inputs` and `generated:outputs` markers
 *   npm run docs:check    fails (exit 1) when README.md is not what `npm run docs` would write
 *
 * The input table follows the `# Group` comments of `action.yml` (a bold row per group, in file order). The
 * whole README is then formatted with the project's Prettier settings, so the check also holds after
 * `npm run format`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
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

const NOTE = '<!-- Generated from action.yml by `npm run docs`: edit action.yml, not this table. -->';

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
 * The markdown between the inputs markers (unformatted): one table, each group of `action.yml` a row above
 * its inputs (`# What to run (any mix)`: the name in bold, the parenthesis in italics beside it), so the
 * README stays short however many groups there are.
 */
export function renderInputs(text: string): string {
  const action = parseAction(text);
  const parts = [NOTE, '', '| Input | Description | Default |', '| --- | --- | --- |'];
  for (const group of inputGroups(text)) {
    const [, name, note] = /^(.*?)(?:\s*\((.*)\))?$/.exec(group.title) ?? [];
    parts.push(`| **${cell(name ?? group.title)}** | ${note ? `_${cell(note)}_` : ''} | |`);
    for (const name of group.names) {
      const input = action.inputs[name];
      parts.push(`| \`${name}\` | ${cell(input.description)} | ${defaultCell(input)} |`);
    }
  }
  return `${parts.join('\n')}\n`;
}

/** The markdown between the outputs markers (unformatted). */
export function renderOutputs(text: string): string {
  const action = parseAction(text);
  const parts = [NOTE, '', '| Output | Description |', '| --- | --- |'];
  for (const [name, output] of Object.entries(action.outputs)) {
    parts.push(`| \`${name}\` | ${cell(output.description)} |`);
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

/** The README as `npm run docs` writes it: generated tables and this action's references in place, formatted with Prettier. */
export async function generateReadme(
  readme: string,
  actionYml: string,
  packageJson = readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
): Promise<string> {
  let out = replaceBetween(readme, 'inputs', renderInputs(actionYml));
  out = replaceBetween(out, 'outputs', renderOutputs(actionYml));
  out = pinActionRefs(out, actionRef(packageJson));
  const file = path.join(ROOT, 'README.md');
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(out, { ...config, filepath: file });
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const readmePath = path.join(ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const expected = await generateReadme(readme, readFileSync(path.join(ROOT, 'action.yml'), 'utf8'));
  if (expected === readme) {
    console.log('README.md inputs and outputs match action.yml.');
    return;
  }
  if (check) {
    console.error('README.md is out of date with action.yml: run `npm run docs` and commit README.md.');
    process.exitCode = 1;
    return;
  }
  writeFileSync(readmePath, expected);
  console.log('README.md: inputs and outputs written from action.yml.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
