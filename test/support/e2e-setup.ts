/**
 * The set-up most end-to-end files share: an emulator of their own (runs at 1/50 of their durations, the
 * not-found window on the scale of a 10x clock) and a workspace with the fixture files, both made before the
 * file's tests and removed after them; in-process runs on a clock 10 times faster than real time.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type Emulator, type Scenario } from '../../emulator/index.js';
import { makeWorkspace } from './action-fixtures.js';
import type { ActionRun } from './harness.js';
import {
  runActionInProcess,
  startActionInProcess,
  type InProcessOptions,
  type InProcessRun,
} from './run-action.js';
import { NOT_FOUND_WINDOW_MS_AT_10X, scaledClock } from './scaled-clock.js';

/** What a file's tests use; the fields are set once `beforeAll` has run. */
export interface E2ESetup {
  /** The API key the emulator accepts. */
  readonly apiKey: string;
  readonly emulator: Emulator;
  /** The workspace folder (`makeWorkspace`). */
  readonly workspace: string;
  /** The seed's scenarios as they were at the start, for tests that change and restore them. */
  readonly seedScenarios: Map<string, Scenario>;
  /** `api-key` and `api-base-url` for this emulator. */
  connection(): Record<string, string>;
  /** Runs the action in-process on the 10x clock (options may still set another clock). */
  run(options: RunOptions): Promise<ActionRun>;
  /** Starts the action in-process on the 10x clock. */
  start(options: RunOptions): InProcessRun;
}

/**
 * Registers the file's `beforeAll`/`afterAll` for an emulator and a workspace.
 * @param name a short name for the file (in the API key and the workspace folder's name)
 */
export function useE2ESetup(name: string): E2ESetup {
  const setup = new Setup(`e2e-${name}-key`);
  beforeAll(async () => {
    setup.emulator = await startEmulator({
      timeScale: 0.02,
      apiKey: setup.apiKey,
      quiet: true,
      notFoundWindowMs: NOT_FOUND_WINDOW_MS_AT_10X,
    });
    setup.workspace = await makeWorkspace(`gi-e2e-${name}-`);
    setup.seedScenarios = new Map(setup.emulator.store.scenarios);
  });
  afterAll(async () => {
    await setup.emulator?.close();
    if (setup.workspace) await rm(setup.workspace, { recursive: true, force: true });
  });
  return setup;
}

type RunOptions = Omit<InProcessOptions, 'workspace'> & { workspace?: string };

class Setup implements E2ESetup {
  emulator!: Emulator;
  workspace!: string;
  seedScenarios = new Map<string, Scenario>();
  constructor(readonly apiKey: string) {}
  connection(): Record<string, string> {
    return { 'api-key': this.apiKey, 'api-base-url': this.emulator.baseUrl };
  }
  run(options: RunOptions): Promise<ActionRun> {
    return runActionInProcess(this.inProcess(options));
  }
  start(options: RunOptions): InProcessRun {
    return startActionInProcess(this.inProcess(options));
  }
  private inProcess(options: RunOptions): InProcessOptions {
    return { clock: scaledClock(10), ...options, workspace: options.workspace ?? this.workspace };
  }
}
