/**
 * The official Node client (npm `ghost-inspector` 7.0.1) for side-by-side runs: installed on first use into
 * `bench/.official-client/` (scripts ignored: its ngrok dependency would download a binary), then driven in a
 * child process (`official-worker.ts`) pointed at the emulator through its `host` property.
 *
 * The client executes with `immediate=1`, then sleeps 5 s before each poll of the suite result (or test
 * result) until `passing` is not null, and for a suite pages its test results (50 a page) before resolving.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerAnswer, WorkerRequest } from './official-worker.js';

export const OFFICIAL_VERSION = '7.0.1';
const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OFFICIAL_DIR = path.join(BENCH, '.official-client');
const PACKAGE_DIR = path.join(OFFICIAL_DIR, 'node_modules', 'ghost-inspector');

/**
 * Installs the official client unless the right version is there. Throws when npm fails (e.g. offline on a
 * first run).
 */
export function ensureOfficialClient(): void {
  const manifest = path.join(PACKAGE_DIR, 'package.json');
  if (existsSync(manifest)) {
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string };
    if (version === OFFICIAL_VERSION) return;
  }
  console.log(`Installing ghost-inspector@${OFFICIAL_VERSION} into bench/.official-client/ (first use) ...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    [
      'install',
      '--ignore-scripts',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      OFFICIAL_DIR,
      `ghost-inspector@${OFFICIAL_VERSION}`,
    ],
    { stdio: 'inherit' },
  );
  if (result.status !== 0 || !existsSync(manifest)) {
    throw new Error(`npm install of ghost-inspector@${OFFICIAL_VERSION} failed (status ${result.status})`);
  }
}

/** One run of the official client: when the call started and when its promise resolved (epoch ms). */
export interface OfficialRun {
  startedAt: number;
  knownAt: number;
  passing: boolean | null;
  error?: string;
}

/** The worker process; several runs may be in flight at once. */
export class OfficialClient {
  private child!: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, (answer: WorkerAnswer) => void>();

  private constructor(private readonly host: string) {}

  /** Starts the worker; `host` is the emulator's origin (`http://127.0.0.1:PORT`). */
  static async start(host: string): Promise<OfficialClient> {
    const client = new OfficialClient(host);
    client.child = fork(path.join(BENCH, 'lib', 'official-worker.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_OFFICIAL_DIR: PACKAGE_DIR },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`official client worker exited (${code})`));
      client.child.once('error', reject);
      client.child.once('exit', onExit);
      client.child.once('message', () => {
        client.child.off('exit', onExit);
        resolve();
      });
    });
    client.child.on('message', (answer: WorkerAnswer) => {
      client.pending.get(answer.id)?.(answer);
      client.pending.delete(answer.id);
    });
    return client;
  }

  /** Executes a suite or a test and waits as the client does; resolves with its timing (never rejects). */
  run(kind: 'suite' | 'test', targetId: string, apiKey: string): Promise<OfficialRun> {
    const request: WorkerRequest = { id: this.nextId++, kind, targetId, apiKey, host: this.host };
    return new Promise((resolve) => {
      this.pending.set(request.id, ({ startedAt, knownAt, passing, error }) =>
        resolve({ startedAt, knownAt, passing, ...(error ? { error } : {}) }),
      );
      this.child.send(request);
    });
  }

  close(): void {
    this.child.kill();
  }
}
