/**
 * Runs the bundled action as the runner does (a child process with `INPUT_*` variables and the defaults of
 * action.yml, a workspace, output and step-summary files) and measures it from outside: spawn and exit times,
 * when each report file was last written (file mtimes), and optionally its peak memory.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NODE_BINARY } from '../../test/support/harness.js';
import { runnerInputs } from '../../test/support/runner-inputs.js';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hwm-probe.mjs');
export const RESULTS_FILE = 'ghost-inspector-results.json';
export const JUNIT_FILE = 'ghost-inspector-junit.xml';
const OUTPUT_FILE = '.runner-output.txt';
const SUMMARY_FILE = '.runner-summary.md';

export interface ActionOptions {
  /** The bundled action (`dist/index.js`). */
  entry: string;
  baseUrl: string;
  apiKey: string;
  /** Inputs by their action.yml names (`suite-ids`, ...). */
  inputs: Record<string, string>;
  /** Files to create in the workspace first (relative path → content). */
  files?: Record<string, string>;
  /** Sample the child's memory (/proc, every 20 ms) and read its VmHWM at exit. */
  measureMemory?: boolean;
  /** Stop the process with SIGTERM (as a workflow cancel) when it runs this long, ms; `killed` says so. */
  killAfterMs?: number;
}

export interface ActionRun {
  /** Epoch ms just before the spawn, and when the process closed. */
  spawnAt: number;
  exitAt: number;
  code: number | null;
  /** Whether it was stopped at `killAfterMs` (then its reports are the stop's, not a finish's). */
  killed: boolean;
  /** Epoch ms results.json was last written (mtime), null if it was not written. */
  resultsWrittenAt: number | null;
  /** Epoch ms the last of results.json, the JUnit file, the step summary and the outputs was written. */
  reportsWrittenAt: number | null;
  /** Peak RSS in kB: VmHWM read by the process at exit, else the highest sample; null if not measured. */
  peakRssKb: number | null;
  /** The action's outputs (`counts`, ...). */
  outputs: Record<string, string>;
  /** The last 4 kB of stdout and stderr, for error messages. */
  logTail: string;
}

function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!heredoc) continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) body.push(lines[i] ?? '');
    out[heredoc[1] as string] = body.join('\n');
  }
  return out;
}

function mtime(file: string): number | null {
  return existsSync(file) ? statSync(file).mtimeMs : null;
}

/** Highest VmRSS/VmHWM (kB) in /proc/<pid>/status, or 0 when it cannot be read. */
function readPeakKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+)/.exec(status);
    const rss = /VmRSS:\s+(\d+)/.exec(status);
    return Math.max(Number(hwm?.[1] ?? 0), Number(rss?.[1] ?? 0));
  } catch {
    return 0;
  }
}

/**
 * Runs the action once in a fresh temporary workspace (removed afterwards) and resolves when it exits.
 * Throws when the process cannot be started.
 */
export async function runAction(options: ActionOptions): Promise<ActionRun> {
  const workspace = await mkdtemp(path.join(os.tmpdir(), 'gi-bench-'));
  try {
    for (const [name, content] of Object.entries(options.files ?? {})) {
      await writeFile(path.join(workspace, name), content);
    }
    const outputFile = path.join(workspace, OUTPUT_FILE);
    const summaryFile = path.join(workspace, SUMMARY_FILE);
    await writeFile(outputFile, '');
    await writeFile(summaryFile, '');
    const hwmFile = path.join(workspace, '.hwm');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
    };
    if (options.measureMemory) {
      env.NODE_OPTIONS = `--import ${pathToFileURL(PROBE).href}`;
      env.BENCH_HWM_FILE = hwmFile;
    }
    const inputs = { 'api-key': options.apiKey, 'api-base-url': options.baseUrl, ...options.inputs };
    Object.assign(env, runnerInputs(inputs));

    const spawnAt = Date.now();
    // Node 24, the runtime action.yml declares, as the tests run the bundle (figures differ by Node version).
    const child = spawn(NODE_BINARY, [options.entry], {
      cwd: workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const keep = (d: Buffer) => {
      log = (log + d.toString()).slice(-4096);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let sampled = 0;
    const sampler = options.measureMemory
      ? setInterval(() => {
          if (child.pid) sampled = Math.max(sampled, readPeakKb(child.pid));
        }, 20)
      : undefined;
    let killed = false;
    const killer =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            killed = true;
            child.kill('SIGTERM');
          }, options.killAfterMs);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c) => resolve(c));
    });
    clearTimeout(killer);
    const exitAt = Date.now();
    if (sampler) clearInterval(sampler);

    const resultsWrittenAt = mtime(path.join(workspace, RESULTS_FILE));
    const written = [RESULTS_FILE, JUNIT_FILE, SUMMARY_FILE, OUTPUT_FILE]
      .map((f) => mtime(path.join(workspace, f)))
      .filter((t): t is number => t !== null);
    let peakRssKb: number | null = null;
    if (options.measureMemory) {
      const atExit = existsSync(hwmFile) ? Number(readFileSync(hwmFile, 'utf8')) : 0;
      peakRssKb = Math.max(atExit, sampled) || null;
    }
    return {
      spawnAt,
      exitAt,
      code,
      killed,
      resultsWrittenAt,
      reportsWrittenAt: resultsWrittenAt === null ? null : Math.max(...written),
      peakRssKb,
      outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
      logTail: log,
    };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
