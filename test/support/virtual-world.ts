/**
 * The emulator and the action's API client on one virtual clock (`virtual-clock.ts`), for engine tests:
 * runs take their production durations (time scale 1) in virtual time, the engine's polls and the request
 * budget wait on the same clock, and time moves only when neither side has work in flight (nor the file
 * system: a request of this process to it counts as work too).
 *
 * ```ts
 * const world = await startVirtualWorld({ apiKey: KEY });
 * const summary = await runPlan(plan, { api: world.client({ apiKey: KEY }), clock: world.clock });
 * await world.close();
 * ```
 */
import type { ClientOptions } from '../../src/api/api.js';
import { createTestClient, type TestApi } from './api/client.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/index.js';
import { VirtualClock, type VirtualClockOptions } from './virtual-clock.js';

export type Client = TestApi;

export interface VirtualWorld {
  clock: VirtualClock;
  emulator: Emulator;
  /**
   * The real API client against the emulator on the virtual clock (its `now`, `random`, retry and budget
   * waits), every call tracked as activity. `options` override the defaults (API key `demo-api-key`, the
   * emulator's base URL); the waits of a `clock` given there still count as idle time.
   */
  client(options?: Partial<ClientOptions>): Client;
  /** Closes the emulator, then stops the clock. */
  close(): Promise<void>;
}

/**
 * Starts an emulator on a new (started) virtual clock: quiet, time scale 1 (production durations), the rate
 * limit and the not-found window at their defaults unless `options` say otherwise.
 */
export async function startVirtualWorld(
  options: EmulatorOptions = {},
  clockOptions: VirtualClockOptions = {},
): Promise<VirtualWorld> {
  const clock = new VirtualClock(clockOptions);
  const emulator = await startEmulator({ quiet: true, ...options, clock });
  // Requests being answered keep time still; a request parked on the clock at the emulator (a slow answer,
  // an execute waiting for its runs) is one of the tracked calls waiting on time.
  clock.addProbe(() => {
    const { answering, waiting } = emulator.requestsInFlight();
    return answering - waiting;
  });
  // File-system requests in flight (an action run in-process reading its test files, writing its reports)
  // keep time still too.
  clock.addProbe(fileRequestsInFlight);
  clock.start();
  const client = (options: Partial<ClientOptions> = {}): Client => {
    const time = options.clock ?? clock;
    const api = createTestClient({
      apiKey: 'demo-api-key',
      baseUrl: emulator.baseUrl,
      ...options,
      clock: {
        now: () => time.now(),
        random: () => time.random(),
        sleep: (ms, signal) => clock.untracked(time.sleep(ms, signal)),
      },
    });
    return trackCalls(clock, api);
  };
  return {
    clock,
    emulator,
    client,
    close: async () => {
      await emulator.close();
      await clock.stop();
    },
  };
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
 * Registers a test file's hooks for one virtual world shared by its tests: started before them (options
 * as `startVirtualWorld`), its request log reset before each, closed after them. Returns the world, whose
 * fields are set once the file's `beforeAll` hooks run (a file's own `beforeAll` runs after this one).
 */
export function useVirtualWorld(
  options: EmulatorOptions = {},
  clockOptions: VirtualClockOptions = {},
): VirtualWorld {
  const world = {} as VirtualWorld;
  beforeAll(async () => {
    Object.assign(world, await startVirtualWorld(options, clockOptions));
  });
  afterAll(async () => {
    await world.close?.();
  });
  beforeEach(() => world.emulator.resetLog());
  return world;
}

/**
 * Keeps time still for `realMs` of real time after each run's end (its finish record), so that the webhooks
 * the emulator posts then (real HTTP to a listener, not tracked work) arrive at the virtual time of the
 * finish, as on a service whose webhooks take no time; a webhook lost changes nothing but that pause.
 */
export function holdForWebhooks(world: Pick<VirtualWorld, 'clock' | 'emulator'>, realMs = 100): void {
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
