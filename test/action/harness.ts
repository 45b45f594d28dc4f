/**
 * Runs the built action (`dist/index.js`) as a child process the way the runner does: `INPUT_<NAME>`
 * variables (dashes kept, upper case), `GITHUB_WORKSPACE`, and files for outputs and the step summary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ENTRY = path.join(ROOT, 'dist', 'index.js');
/** For development only: `ACTION_FROM_SOURCE=1` runs `src/index.ts` through tsx instead of the bundle. */
const FROM_SOURCE = process.env.ACTION_FROM_SOURCE === '1';
/**
 * The Node binary that runs the action: `GI_NODE_BINARY` when set (CI points it at Node 24, the runtime
 * `action.yml` declares, with `npm run test:node24`), else the Node running the tests.
 */
export const NODE_BINARY = process.env.GI_NODE_BINARY
  ? path.resolve(process.env.GI_NODE_BINARY)
  : process.execPath;
const ARGS = FROM_SOURCE
  ? ['--import', path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs'), path.join(ROOT, 'src/index.ts')]
  : [ENTRY];

export interface ActionRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Parses the runner's output file (`name<<delimiter` blocks, or `name=value` lines). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delimiter] = heredoc as unknown as [string, string, string];
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) body.push(lines[i] ?? '');
      out[name] = body.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

export interface StartOptions {
  workspace: string;
  inputs: Record<string, string>;
  /** Extra environment. */
  env?: Record<string, string>;
}

/** Starts the action; `done` resolves when it exits. */
export async function startAction(
  options: StartOptions,
): Promise<{ child: ChildProcess; done: Promise<ActionRun> }> {
  if (!FROM_SOURCE && !existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run npm run build`);
  if (!existsSync(NODE_BINARY)) throw new Error(`GI_NODE_BINARY ${NODE_BINARY} does not exist`);
  const outputFile = path.join(options.workspace, '.runner-output.txt');
  const summaryFile = path.join(options.workspace, '.runner-summary.md');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs)) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  const child = spawn(NODE_BINARY, ARGS, {
    cwd: options.workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<ActionRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout,
        stderr,
        outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
        summary: readFileSync(summaryFile, 'utf8'),
      }),
    );
  });
  return { child, done };
}

/** Runs the action to its end. */
export async function runAction(options: StartOptions): Promise<ActionRun> {
  return (await startAction(options)).done;
}

/** Waits until `check` holds, polling every 20 ms, for at most `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every count output, as action.yml names them. */
export const COUNT_NAMES = [
  'total',
  'passed',
  'failed',
  'flaky',
  'timed-out',
  'cancelled',
  'error',
  'screenshot-compare-failed',
];

/** The counts, read from the separate outputs, after checking that `counts` (JSON) holds the same. */
export function counts(r: ActionRun): Record<string, number> {
  const json = JSON.parse(r.outputs.counts ?? '{}') as Record<string, number>;
  expect(Object.keys(json).sort()).toEqual([...COUNT_NAMES].sort());
  const separate: Record<string, number> = {};
  for (const name of COUNT_NAMES) {
    expect(r.outputs[name], name).toMatch(/^\d+$/);
    separate[name] = Number(r.outputs[name]);
  }
  expect(separate).toEqual(json);
  return separate;
}
