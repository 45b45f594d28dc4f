/**
 * The set-up most end-to-end files share: an emulator of their own (runs at 1/50 of their durations) and a
 * workspace with the fixture files, both made before the file's tests and removed after them; in-process
 * runs on a clock 10 times faster than real time.
 *
 * With `{ virtual: true }` the emulator and the in-process runs share one virtual clock instead
 * (`virtual-world.ts`): production run durations and engine waits, time figures exact
 * (`setup.world.clock.now()`), and a run takes milliseconds. Such an emulator must not serve the bundle
 * (`dist/index.js` as a child process): the child's calls are not tracked, so time would jump under it;
 * a file with bundle cases keeps a second, real-time set-up for them.
 *
 * With `{ visuals: false }` the seed's tests are run with visuals disabled: the emulator renders no
 * screenshot, for files where no case reads one.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type Emulator, type Scenario } from '../../emulator/index.js';
import { defaultSeed } from '../../emulator/seed.js';
import { startVirtualWorld, type VirtualWorld } from './virtual-world.js';
import { makeWorkspace } from './action-fixtures.js';
import type { ActionRun } from './harness.js';
import {
  runActionInProcess,
  startActionInProcess,
  type InProcessOptions,
  type InProcessRun,
} from './run-action.js';
import { scaledClock } from './scaled-clock.js';

/** What a file's tests use; the fields are set once `beforeAll` has run. */
export interface E2ESetup {
  /** The API key the emulator accepts. */
  readonly apiKey: string;
  readonly emulator: Emulator;
  /** The virtual world of a `{ virtual: true }` set-up (its clock and emulator), else undefined. */
  readonly world: VirtualWorld | undefined;
  /** The workspace folder (`makeWorkspace`). */
  readonly workspace: string;
  /** The seed's scenarios as they were at the start, for tests that change and restore them. */
  readonly seedScenarios: Map<string, Scenario>;
  /** `api-key` and `api-base-url` for this emulator. */
  connection(): Record<string, string>;
  /** Runs the action in-process on the 10x clock, or the virtual one (options may still set another clock). */
  run(options: RunOptions): Promise<ActionRun>;
  /** Starts the action in-process on the 10x clock, or the virtual one. */
  start(options: RunOptions): InProcessRun;
}

/**
 * Registers the file's `beforeAll`/`afterAll` for an emulator and a workspace.
 * @param name a short name for the file (in the API key and the workspace folder's name)
 * @param options `virtual`: the emulator and the in-process runs on one virtual clock; `visuals: false`:
 *   the seed's tests without screenshots (see above)
 */
export function useE2ESetup(name: string, options: { virtual?: boolean; visuals?: boolean } = {}): E2ESetup {
  const setup = new Setup(`e2e-${name}-key`);
  beforeAll(async () => {
    const seed = defaultSeed();
    if (options.visuals === false) for (const test of seed.tests ?? []) test.disableVisuals = true;
    if (options.virtual) {
      setup.world = await startVirtualWorld({ apiKey: setup.apiKey, seed });
      setup.emulator = setup.world.emulator;
    } else {
      setup.emulator = await startEmulator({
        timeScale: 0.02,
        apiKey: setup.apiKey,
        quiet: true,
        seed,
      });
    }
    setup.workspace = await makeWorkspace(`gi-e2e-${name}-`);
    setup.seedScenarios = new Map(setup.emulator.store.scenarios);
  });
  afterAll(async () => {
    await (setup.world ?? setup.emulator)?.close();
    if (setup.workspace) await rm(setup.workspace, { recursive: true, force: true });
  });
  return setup;
}

type RunOptions = Omit<InProcessOptions, 'workspace'> & { workspace?: string };

class Setup implements E2ESetup {
  emulator!: Emulator;
  world: VirtualWorld | undefined;
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
    const world = this.world;
    const time: Partial<InProcessOptions> = world
      ? { clock: world.clock, createApi: (api) => world.client(api) }
      : { clock: scaledClock(10) };
    return { ...time, ...options, workspace: options.workspace ?? this.workspace };
  }
}
