/**
 * In-process start of the local Ghost Inspector v1 emulator, for tests, the demo and benchmarks.
 *
 * ```ts
 * const emulator = await startEmulator({ timeScale: 0.01, quiet: true });
 * const res = await fetch(`${emulator.baseUrl}/suites/?apiKey=demo-api-key`);
 * await emulator.close();
 * ```
 */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { adminRoutes } from './admin.js';
import { appPageRoutes } from './app-pages.js';
import { realClock, RequestsInFlight, type EmulatorClock } from './clock.js';
import { apiRoutes } from './routes/index.js';
import { Engine } from './engine.js';
import type { FinishRecord } from './run-records.js';
import { SimulatedExecutor, parseScenario, type Scenario } from './executors/simulated.js';
import type { Executor } from './executors/types.js';
import { checkFaultSpec, Faults, parseFaultSpec, type FaultSpec } from './faults.js';
import { placeholderScreenshot, pngImageKit } from './images.js';
import { defaultSeed, loadSeed, readSeedFile, type SeedFile } from './seed.js';
import { createServer, type RequestRecord, type Route } from './server.js';
import { Store } from './store.js';
import { Webhooks } from './webhooks.js';
import {
  DEFAULT_NOT_FOUND_WINDOW_MS,
  DEFAULT_RATE_LIMIT,
  RateLimiter,
  type RateLimitSpec,
} from './limits.js';

export type { FinishRecord } from './run-records.js';
export type { RequestRecord, Route } from './server.js';
export type { Scenario } from './executors/simulated.js';
export type { FaultSpec, FaultKind } from './faults.js';
export type { SeedFile } from './seed.js';
export type { RateLimitSpec } from './limits.js';
export type { EmulatorClock } from './clock.js';
export type { Executor } from './executors/types.js';
export { Store } from './store.js';

/** The API key of the default seed. */
export const DEFAULT_API_KEY = 'demo-api-key';

export interface EmulatorOptions {
  /** Port to listen on; 0 (default) picks a free port. */
  port?: number;
  /** Host to bind; default 127.0.0.1. */
  host?: string;
  /** An extra API key that sees every seeded organization (added to the seed's keys). */
  apiKey?: string;
  /** Extra API keys that see every seeded organization. */
  apiKeys?: string[];
  /**
   * A seed object, the path of a seed JSON file, or a function making the seed from the emulator's origin
   * (e.g. `http://127.0.0.1:4010`), called once the server listens: for tests whose start URLs are pages
   * the emulator serves (`routes`). Default: the shipped default seed.
   */
  seed?: SeedFile | string | ((origin: string) => SeedFile);
  /** Multiplies simulated durations and the run and suite-wait limits; default 1 (real time). */
  timeScale?: number;
  /**
   * The time runs progress on (simulated executor), records are dated with, and the run-time limit, the
   * not-found window, the rate limit's refill, the suite execute wait and the `slow` fault run on. Default
   * real time; tests pass a virtual clock shared with the action (the shape of the action's `Clock`).
   */
  clock?: EmulatorClock;
  /**
   * What runs the tests: `simulated` (default: scenarios, see `executors/simulated.ts`) or an executor handed
   * in from outside (the demo's Chromium executor); the emulator closes it when it closes.
   */
  executor?: 'simulated' | Executor;
  /** Extra routes, matched before the API's (e.g. the pages a seed's tests visit). */
  routes?: Route[];
  /** Fault spec text (syntax in faults.ts) or object. */
  faults?: string | FaultSpec;
  /**
   * The service's rate limit (docs/api-contract.md): default on, burst 300 then 10 requests/s per account, then
   * HTTP 429. `false` turns it off; a partial spec changes the figures (`retryAfterS` adds `Retry-After`).
   */
  rateLimit?: false | Partial<RateLimitSpec>;
  /**
   * An opt-in fault: ms (at time scale 1, multiplied by `timeScale`) during which a new test result or suite
   * result answers "not found" to GET. Default 0: the service answers a triggered result at once.
   */
  notFoundWindowMs?: number;
  /**
   * POST each ended run's result to its webhooks (the execute's `webhook`, the notification webhooks of the
   * test, else its suite, else its organization; see `webhooks.ts`); default true, `false` sends none.
   */
  webhooks?: boolean;
  /**
   * An opt-in fault: the first read of a finished test result (GET, or a suite result's list) shows its
   * `passing` while `executionTime` and `dateExecutionFinished` are still null.
   */
  verdictBeforeTiming?: boolean;
  /** Default true: no log lines. (The emulator itself never logs requests to the console.) */
  quiet?: boolean;
}

export interface Emulator {
  /** e.g. `http://127.0.0.1:4010/v1` (no trailing slash). */
  baseUrl: string;
  /** e.g. `http://127.0.0.1:4010`. */
  origin: string;
  port: number;
  /** Typed access to the records (tests may read and change them). */
  store: Store;
  /** Every non-admin request so far, oldest first (API key redacted). */
  requests(): RequestRecord[];
  /** Every ended run (test results and suite results), in the order they ended. */
  runs(): FinishRecord[];
  /** Clears the request log and the run records. */
  resetLog(): void;
  /** Attaches a scenario to a test by id, an on-demand test by name (null removes it). Throws if invalid. */
  setScenario(testId: string, scenario: Scenario | null): void;
  /** Replaces the fault spec (text or object); `''` or `{}` turns faults off. */
  setFaults(spec: string | FaultSpec): void;
  /**
   * The requests being answered now: `answering` (being worked on) and `waiting` (parked on the clock: a
   * `slow` fault, an execute that is not immediate). A virtual clock moves time only when none is answering.
   */
  requestsInFlight(): { answering: number; waiting: number };
  /** Cancels running results, closes the executor and the server. */
  close(): Promise<void>;
}

/** The options' executor: the one handed in, else the simulated executor with the store's scenarios. */
function makeExecutor(executor: EmulatorOptions['executor'], store: Store): Executor {
  if (executor && typeof executor === 'object') return executor;
  if (executor !== undefined && executor !== 'simulated')
    throw new Error(`Unknown executor "${String(executor)}"; expected simulated or an Executor`);
  return new SimulatedExecutor({
    scenarioFor: (request) => store.scenarios.get(request.testId || request.testName),
    renderScreenshot: (width, height, label, variant) => placeholderScreenshot(label, width, height, variant),
  });
}

/**
 * The checked time scale, not-found window, clock and rate limiter of the options; throws an Error naming a
 * bad one.
 */
function checkedOptions(options: EmulatorOptions) {
  const clock = options.clock ?? realClock;
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error(`timeScale must be a positive number, got ${timeScale}`);
  const notFoundWindowMs = options.notFoundWindowMs ?? DEFAULT_NOT_FOUND_WINDOW_MS;
  if (!(notFoundWindowMs >= 0))
    throw new Error(`notFoundWindowMs must be a non-negative number of ms, got ${notFoundWindowMs}`);
  const rateLimiter =
    options.rateLimit === false
      ? undefined
      : new RateLimiter({ ...DEFAULT_RATE_LIMIT, ...options.rateLimit }, () => clock.now());
  return { timeScale, notFoundWindowMs: notFoundWindowMs * timeScale, rateLimiter, clock };
}

/** Loads a seed (dated on the options' clock), then the options' extra API keys (each seeing every organization). */
function loadSeedWithKeys(store: Store, seed: SeedFile, options: EmulatorOptions): void {
  loadSeed(store, seed, (options.clock ?? realClock).now());
  for (const key of [...(options.apiKeys ?? []), ...(options.apiKey ? [options.apiKey] : [])]) {
    store.apiKeys.set(key, {
      key,
      user: store.users.keys().next().value ?? 'user-demo',
      organizations: [...store.organizations.keys()],
    });
  }
}

/** Listens on host:port (0 = a free port); resolves with the bound port. */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Listens on the options' host and port (default 127.0.0.1, a free port); closes the executor on failure. */
async function listenOrClose(server: Server, options: EmulatorOptions, executor: Executor): Promise<number> {
  try {
    return await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (error) {
    await executor.close();
    throw error;
  }
}

const originOf = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** Attaches a checked scenario to a test; null removes it. Throws an Error naming a bad field. */
function attachScenario(store: Store, testId: string, scenario: Scenario | null): void {
  if (scenario === null) store.scenarios.delete(testId);
  else store.scenarios.set(testId, parseScenario(scenario));
}

/** Closes the server, destroying its open sockets (`destroySockets`) for a prompt close. */
function closeServer(server: Server, destroySockets: () => void): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    destroySockets();
  });
}

/** Keeps the server's open sockets; returns a function destroying them (for a prompt close). */
function trackSockets(server: Server): () => void {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return () => {
    for (const socket of sockets) socket.destroy();
  };
}

/** The seed of the `seed` option other than a function: a seed file's path, a seed object, or the default seed. */
function seedOf(seed: SeedFile | string | undefined): SeedFile {
  return typeof seed === 'string' ? readSeedFile(seed) : (seed ?? defaultSeed());
}

/** A fault spec from its text or object; throws an Error naming a bad part. */
function toSpec(spec: string | FaultSpec | undefined): FaultSpec {
  return typeof spec === 'string' ? parseFaultSpec(spec) : checkFaultSpec(spec ?? {});
}

/**
 * Starts an emulator on loopback. Resolves once it listens and holds its seed. Throws when the seed, fault
 * spec or executor name is invalid, or the port is taken.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { timeScale, notFoundWindowMs, rateLimiter, clock } = checkedOptions(options);
  const { verdictBeforeTiming } = options;
  const inFlight = new RequestsInFlight();
  const store = new Store();
  // A seed made from the emulator's origin is loaded once the server listens.
  const seedFromOrigin = typeof options.seed === 'function' ? options.seed : undefined;
  if (typeof options.seed !== 'function') loadSeedWithKeys(store, seedOf(options.seed), options);
  let faults = new Faults(toSpec(options.faults));
  let requests: RequestRecord[] = [];
  let runs: FinishRecord[] = [];
  let seq = 0;
  let origin = '';
  const resetLog = () => {
    requests = [];
    runs = [];
  };
  const executor = makeExecutor(options.executor, store);
  const webhooks = new Webhooks(store, options.webhooks !== false);
  const onFinish = (record: FinishRecord) => {
    runs.push(record);
    webhooks.onFinish(record);
  };
  const engine = new Engine({
    store,
    executor,
    timeScale,
    clock,
    images: pngImageKit,
    origin: () => origin,
    onFinish,
  });
  const setScenario = (testId: string, scenario: Scenario | null) => attachScenario(store, testId, scenario);
  const setFaults = (spec: string | FaultSpec) => {
    faults = new Faults(toSpec(spec));
  };
  const server: Server = createServer({
    store,
    routes: [
      ...(options.routes ?? []),
      ...appPageRoutes(store),
      ...apiRoutes({ store, engine, notFoundWindowMs, clock, inFlight, webhooks, verdictBeforeTiming }),
      ...adminRoutes({
        store,
        requests: () => requests,
        runs: () => runs,
        resetLog,
        faultSpec: () => faults.spec,
        setFaults,
        setScenario,
        timeScale,
        executorName: executor.name,
      }),
    ],
    faults: () => faults,
    record: (r) => requests.push(r),
    nextSeq: () => ++seq,
    clock,
    inFlight,
    rateLimiter: () => rateLimiter,
  });
  const destroySockets = trackSockets(server);
  const port = await listenOrClose(server, options, executor);
  origin = originOf(options.host ?? '127.0.0.1', port);
  const shutdown = async () => {
    webhooks.stop();
    engine.close();
    await executor.close();
    await closeServer(server, destroySockets);
  };
  if (seedFromOrigin) {
    try {
      loadSeedWithKeys(store, seedFromOrigin(origin), options);
    } catch (error) {
      await shutdown();
      throw error;
    }
  }
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    port,
    store,
    requests: () => [...requests],
    runs: () => [...runs],
    resetLog,
    setScenario,
    setFaults,
    requestsInFlight: () => ({ answering: inFlight.answering, waiting: inFlight.waiting }),
    close: () => (closing ??= shutdown()),
  };
}
