/**
 * The one test world: an emulator on 127.0.0.1, a workspace, and the action run against them, in-process
 * (`run(deps)`, `run-action.ts`) or as the bundle (`dist/index.js` as a child process, `harness.ts`).
 *
 * Two clocks:
 * - `virtual` (the default): the emulator, the API client and in-process runs on one {@link VirtualClock}:
 *   runs take their production durations (time scale 1 unless `timeScale` says otherwise) in virtual time,
 *   the engine's polls and the request budget wait on the same clock, and time moves only when nothing is in
 *   flight (no tracked API call, no request being answered at the emulator, no file-system request of this
 *   process). Time figures are exact virtual ms. The bundle cannot run here: a child's calls are not tracked,
 *   so time would jump under it.
 * - `scaled`: the emulator on real time, its run durations scaled by `timeScale` (default 0.05); in-process
 *   runs wait on a clock `speed` times faster than real time (default 1: real time). The bundle runs here.
 *
 * ```ts
 * const world = useWorld({ apiKey: KEY });                        // one world for a file's tests
 * const run = await world.run({ inputs: { ...world.connection(), 'suite-ids': 's' } });
 * const worlds = useWorlds();                                      // a world per case, closed after the file
 * const own = await worlds.open({ clock: 'scaled', secrets, timeScale: 0.05 });
 * ```
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ClientOptions } from '../../src/api/api.js';
import { systemClock, type Clock } from '../../src/common/clock.js';
import { startEmulator, type Emulator, type EmulatorOptions, type Scenario } from '../../emulator/index.js';
import { defaultSeed } from '../../emulator/seed.js';
import { makeWorkspace } from './action-fixtures.js';
import { createTestClient, type TestApi } from './api/client.js';
import type { FakeGitHub } from './fakes/github.js';
import { checkJUnit, fileStamp, junitFile, startAction, type ActionRun } from './harness.js';
import { reliabilitySeed, type Secrets } from './reliability.js';
import { startActionInProcess, type InProcessOptions } from './run-action.js';
import { VirtualClock, type VirtualClockOptions } from './virtual-clock.js';

export type Client = TestApi;

/** How a world is made; every field of the emulator's options passes through. */
export interface WorldOptions extends Omit<EmulatorOptions, 'clock'> {
  /** `virtual` (default) or `scaled` (see above). */
  clock?: 'virtual' | 'scaled';
  /** Options of the virtual clock. */
  clockOptions?: VirtualClockOptions;
  /** Scaled worlds: how many times faster than real time in-process runs wait (default 1). */
  speed?: number;
  /** The reliability seed for these secrets, their API key the world's (`reliability.ts`). */
  secrets?: Secrets;
  /** false: the seed's tests run with visuals disabled (the emulator renders no screenshot). */
  visuals?: boolean;
  /** The workspace holds the fixture files (`makeWorkspace`); else it is empty. */
  fixtures?: boolean;
  /** A fake GitHub whose requests keep virtual time still and are timed on the world's clock. */
  github?: FakeGitHub;
  /** Starts the emulator (default `startEmulator`; the demo's `startDemoEmulator` for a Chromium world). */
  startEmulator?: (options: EmulatorOptions) => Promise<Emulator>;
}

/** How one action run starts: the harness's options, the workspace by default the world's. */
export type RunOptions = Omit<InProcessOptions, 'workspace'> & {
  workspace?: string;
  /** Run the bundle (`dist/index.js`) as a child process; scaled worlds only. */
  bundle?: boolean;
};

/** An action run under way, in-process or as a child process. */
export interface Started {
  done: Promise<ActionRun>;
  /** The run's stdout so far. */
  stdout(): string;
  /** Sends a workflow cancel (SIGINT by default), as the runner does. */
  cancel(signal?: NodeJS.Signals): void;
  /** Ends the run at once: `done` resolves with `signal: 'SIGKILL'`. */
  kill(): void;
  /** The child process of a bundle run. */
  child?: ChildProcess;
}

export interface World<C extends Clock = VirtualClock> {
  emulator: Emulator;
  clock: C;
  /** The API key the emulator accepts. */
  apiKey: string;
  /** A temporary folder, removed by `close`. */
  workspace: string;
  /** The seed's scenarios as they were at the start, for tests that change and restore them. */
  seedScenarios: Map<string, Scenario>;
  /** `api-key` and `api-base-url` inputs for this world. */
  connection(): Record<string, string>;
  /**
   * The real API client against the emulator (API key and base URL the world's unless `options` say
   * otherwise); on a virtual clock its waits are the clock's and every call is tracked as activity.
   */
  client(options?: Partial<ClientOptions>): Client;
  /** Another empty workspace, removed by `close`. */
  newWorkspace(): Promise<string>;
  start(options: RunOptions): Promise<Started>;
  /** Runs the action to its end. */
  run(options: RunOptions): Promise<ActionRun>;
  /** Closes the emulator, stops the clock, removes the workspaces. */
  close(): Promise<void>;
}

export type ScaledWorld = World<Clock>;

/** Starts a world (see above). */
export function startWorld(options?: WorldOptions & { clock?: 'virtual' }): Promise<World>;
export function startWorld(options: WorldOptions & { clock: 'scaled' }): Promise<ScaledWorld>;
export async function startWorld(options: WorldOptions = {}): Promise<World<Clock>> {
  const {
    clock: kind,
    clockOptions,
    speed = 1,
    secrets,
    visuals,
    fixtures,
    github,
    startEmulator: launch = startEmulator,
    ...emulatorOptions
  } = options;
  const seed =
    emulatorOptions.seed ??
    (secrets ? reliabilitySeed([secrets.apiKey]) : visuals === false ? defaultSeed() : undefined);
  if (visuals === false && typeof seed === 'object')
    for (const t of seed.tests ?? []) t.disableVisuals = true;
  const apiKey = apiKeyOf(options);
  const virtual = kind === 'scaled' ? undefined : new VirtualClock(clockOptions);
  const emulator = await launch({
    quiet: true,
    ...(virtual ? {} : { timeScale: 0.05 }),
    ...emulatorOptions,
    ...(seed ? { seed } : {}),
    ...(virtual ? { clock: virtual } : {}),
  });
  if (virtual) {
    // Requests being answered keep time still; a request parked on the clock at the emulator (a slow
    // answer, an execute waiting for its runs) is one of the tracked calls waiting on time. File-system
    // requests in flight (an action run in-process reading its test files, writing its reports) too.
    virtual.addProbe(() => {
      const { answering, waiting } = emulator.requestsInFlight();
      return answering - waiting;
    });
    virtual.addProbe(fileRequestsInFlight);
    if (github) virtual.addProbe(() => github.inFlight());
    virtual.start();
  }
  const clock: Clock = virtual ?? scaledClock(speed);
  if (github && virtual) github.now = () => virtual.now();
  const workspaces: string[] = [];
  const newWorkspace = async (): Promise<string> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gi-world-'));
    workspaces.push(dir);
    return dir;
  };
  const workspace = fixtures ? await makeWorkspace('gi-world-') : await newWorkspace();
  if (fixtures) workspaces.push(workspace);
  const client = (over: Partial<ClientOptions> = {}): Client =>
    clientOf({ apiKey, baseUrl: emulator.baseUrl, ...over }, virtual);
  /** Starts a run; its `done` checks the JUnit file it wrote, if it wrote one (`checkJUnit`). */
  const start = async ({ bundle, ...options }: RunOptions): Promise<Started> => {
    const run = { ...options, workspace: options.workspace ?? workspace };
    const junit = junitFile(run);
    const junitBefore = fileStamp(junit);
    let started: Started;
    if (bundle) {
      if (virtual) throw new Error('the bundle runs in a scaled world only (its calls are not tracked)');
      const action = await startAction(run);
      started = {
        ...action,
        cancel: (signal = 'SIGINT') => void action.child.kill(signal),
        kill: () => void action.child.kill('SIGKILL'),
      };
    } else {
      const createApi = virtual ? (o: Partial<ClientOptions>) => client(o) : undefined;
      started = startActionInProcess({ clock, ...(createApi ? { createApi } : {}), ...run });
    }
    const done = started.done.then((result) => {
      if (junit && fileStamp(junit) !== junitBefore) checkJUnit(junit, result);
      return result;
    });
    return { ...started, done };
  };
  return {
    emulator,
    clock,
    apiKey,
    workspace,
    seedScenarios: new Map(emulator.store.scenarios),
    connection: () => ({ 'api-key': apiKey, 'api-base-url': emulator.baseUrl }),
    client,
    newWorkspace,
    start,
    run: async (run) => (await start(run)).done,
    close: async () => {
      await emulator.close();
      await virtual?.stop();
      for (const dir of workspaces) await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/**
 * Registers a test file's hooks for one world shared by its tests: started before them, its request log
 * reset before each, closed after them. Its fields but `apiKey` are set once the file's `beforeAll` hooks
 * run (a file's own `beforeAll` runs after this one).
 */
export function useWorld(options?: WorldOptions & { clock?: 'virtual' }): World;
export function useWorld(options: WorldOptions & { clock: 'scaled' }): ScaledWorld;
export function useWorld(options: WorldOptions = {}): World<Clock> {
  const world = { apiKey: apiKeyOf(options) } as World<Clock>;
  beforeAll(async () => {
    Object.assign(world, await startWorld(options as WorldOptions & { clock: 'scaled' }));
  });
  afterAll(async () => {
    await world.close?.();
  });
  beforeEach(() => world.emulator.resetLog());
  return world;
}

/**
 * For files that make a world per case: `open` starts one, `newWorkspace` makes an empty workspace, `later`
 * registers any other close (a proxy, a fake); all are closed after the file's last test, the last
 * registered first (a proxy before the emulator behind it). Call at the top level of the file.
 */
export function useWorlds(): {
  open(options?: WorldOptions & { clock?: 'virtual' }): Promise<World>;
  open(options: WorldOptions & { clock: 'scaled' }): Promise<ScaledWorld>;
  newWorkspace(): Promise<string>;
  later(close: () => Promise<unknown>): void;
} {
  const closes: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closes.reverse()) await close();
  });
  const later = (close: () => Promise<unknown>): void => void closes.push(close);
  return {
    later,
    open: (async (options: WorldOptions = {}) => {
      const world = await startWorld(options as WorldOptions & { clock: 'scaled' });
      later(() => world.close());
      return world;
    }) as never,
    newWorkspace: async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'gi-world-'));
      later(() => rm(dir, { recursive: true, force: true, maxRetries: 5 }));
      return dir;
    },
  };
}

/** The API key of a world made with `options` (known before it starts). */
function apiKeyOf(options: WorldOptions): string {
  return options.apiKey ?? options.secrets?.apiKey ?? 'demo-api-key';
}

/** A clock `factor` (> 0) times faster than real time: `now()` moves `factor` ms per real ms. */
function scaledClock(factor: number): Clock {
  if (factor === 1) return systemClock;
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * factor,
    random: () => Math.random(),
    sleep: (ms, signal) => systemClock.sleep(ms / factor, signal),
  };
}

/** The real API client with `options`; on a virtual clock, its waits on it and every call tracked. */
function clientOf(options: ClientOptions, virtual: VirtualClock | undefined): Client {
  if (!virtual) return createTestClient(options);
  const time = options.clock ?? virtual;
  const api = createTestClient({
    ...options,
    clock: {
      now: () => time.now(),
      random: () => time.random(),
      sleep: (ms, signal) => virtual.untracked(time.sleep(ms, signal)),
    },
  });
  return trackCalls(virtual, api);
}

/**
 * This process's file-system requests in flight: Node's active `FSReqCallback`, `FSReqPromise` and
 * `CloseReq` (a file handle being closed) resources.
 */
function fileRequestsInFlight(): number {
  return process.getActiveResourcesInfo().filter((name) => /^(FSReq|CloseReq)/.test(name)).length;
}

/** `api` with every method that returns a promise tracked on `clock` until it settles. */
function trackCalls<T extends object>(clock: VirtualClock, api: T): T {
  return new Proxy(api, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out instanceof Promise ? clock.track(out) : out;
      };
    },
  });
}

/**
 * Keeps time still for `realMs` of real time after each run's end (its finish record), so that the webhooks
 * the emulator posts then (real HTTP to a listener, not tracked work) arrive at the virtual time of the
 * finish, as on a service whose webhooks take no time; a webhook lost changes nothing but that pause.
 */
export function holdForWebhooks(world: Pick<World, 'clock' | 'emulator'>, realMs = 100): void {
  const firstSeen = new Map<string, number>();
  world.clock.addProbe(() => {
    const now = performance.now();
    let busy = 0;
    for (const { resultId } of world.emulator.runs()) {
      if (!firstSeen.has(resultId)) firstSeen.set(resultId, now);
      if (now - firstSeen.get(resultId)! < realMs) busy = 1;
    }
    return busy;
  });
}
