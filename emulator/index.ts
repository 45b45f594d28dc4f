/**
 * In-process start of the local Ghost Inspector v1 emulator, for tests, the demo and benchmarks.
 *
 * ```ts
 * const emulator = await startEmulator({ timeScale: 0.01, quiet: true });
 * const res = await fetch(`${emulator.baseUrl}/suites/?apiKey=demo-api-key`);
 * await emulator.close();
 * ```
 */
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { adminRoutes } from './admin.js';
import { realClock, RequestsInFlight, type EmulatorClock } from './clock.js';
import { DEMO_SITE_FILES, demoSiteDir } from './demo-site/index.js';
import { apiRoutes } from './routes/index.js';
import { Engine, type FinishRecord } from './engine.js';
import { SimulatedExecutor, parseScenario, type Scenario } from './executors/simulated.js';
import type { Executor } from './executors/types.js';
import { checkFaultSpec, Faults, parseFaultSpec, type FaultSpec } from './faults.js';
import { placeholderScreenshot, pngImageKit } from './images.js';
import { defaultSeed, loadSeed, readSeedFile, type SeedFile } from './seed.js';
import { demoSeed, type DemoSeed } from './seed/demo.js';
import { createServer, type RequestRecord, type Route } from './server.js';
import { Store } from './store.js';
import {
  DEFAULT_NOT_FOUND_WINDOW_MS,
  DEFAULT_RATE_LIMIT,
  RateLimiter,
  type RateLimitSpec,
} from './limits.js';

export type { FinishRecord } from './engine.js';
export type { RequestRecord } from './server.js';
export type { Scenario } from './executors/simulated.js';
export type { FaultSpec, FaultKind } from './faults.js';
export type { SeedFile } from './seed.js';
export type { RateLimitSpec } from './limits.js';
export type { EmulatorClock } from './clock.js';
export {
  demoSeed,
  demoTestId,
  DEMO_FOLDER_ID,
  DEMO_ORGANIZATION_ID,
  DEMO_SUITE_ID,
  type DemoSeed,
} from './seed/demo.js';
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
   * A seed object, the path of a seed JSON file, or `demo` for the demo seed (the demo shop site's suites,
   * served by the emulator under `/demo/`; see README "Demo seed"). Default: the demo seed with the `browser`
   * executor, else the shipped default seed.
   */
  seed?: SeedFile | string;
  /** Multiplies simulated durations and the run and suite-wait limits; default 1 (real time). */
  timeScale?: number;
  /**
   * The time runs progress on (simulated executor), records are dated with, and the run-time limit, the
   * not-found window, the rate limit's refill, the suite execute wait and the `slow` fault run on. Default
   * real time; tests pass a virtual clock shared with the action (the shape of the action's `Clock`).
   */
  clock?: EmulatorClock;
  /** `simulated` (default), `browser` (headless Chromium, loaded lazily) or an Executor instance. */
  executor?: 'simulated' | 'browser' | Executor;
  /** Options of the browser executor. */
  browser?: { executablePath?: string; maxConcurrent?: number };
  /** Fault spec text (see faults.ts / README) or object. */
  faults?: string | FaultSpec;
  /**
   * The service's rate limit (docs/api-contract.md): default on, burst 300 then 10 requests/s per account, then
   * HTTP 429. `false` turns it off; a partial spec changes the figures (`retryAfterS` adds `Retry-After`).
   */
  rateLimit?: false | Partial<RateLimitSpec>;
  /**
   * ms during which a new test result or suite result answers "not found" to GET (docs/api-contract.md); default
   * 1000, 0 turns the window off.
   */
  notFoundWindowMs?: number;
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
  /** Attaches a scenario to a test (null removes it). Throws on an invalid scenario. */
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

/**
 * Creates the executor named `name` (`simulated` or `browser`). The browser executor is imported lazily,
 * so the simulated one needs no browser dependencies.
 */
async function makeExecutor(
  name: EmulatorOptions['executor'],
  store: Store,
  browser: EmulatorOptions['browser'],
): Promise<Executor> {
  if (name && typeof name === 'object') return name;
  if (name === undefined || name === 'simulated') {
    return new SimulatedExecutor({
      scenarioFor: (request) => (request.testId ? store.scenarios.get(request.testId) : undefined),
      renderScreenshot: (width, height, label, variant) =>
        placeholderScreenshot(label, width, height, variant),
    });
  }
  if (name === 'browser') {
    const path = './executors/browser.js';
    const mod = (await import(path)) as {
      BrowserExecutor: new (options: { executablePath?: string; maxConcurrent?: number }) => Executor;
    };
    return new mod.BrowserExecutor(browser ?? {});
  }
  throw new Error(`Unknown executor "${String(name)}"; expected simulated or browser`);
}

/** Routes serving the demo shop site's files under `/demo/` (`/demo` itself is its index page). */
function demoSiteRoutes(): Route[] {
  const serve = async (name: string) => {
    const contentType = DEMO_SITE_FILES[name];
    if (!contentType) return { raw: 'Not found', contentType: 'text/plain; charset=utf-8', status: 404 };
    return {
      raw: await readFile(`${demoSiteDir}/${name}`),
      contentType,
      headers: { 'cache-control': 'no-store' },
    };
  };
  return [
    { methods: ['GET', 'HEAD'], pattern: '/demo', handler: () => serve('index.html') },
    { methods: ['GET', 'HEAD'], pattern: '/demo/:file', handler: (ctx) => serve(ctx.pathParams.file) },
  ];
}

/**
 * Establishes the demo seed's screenshot comparison baseline through the emulator's own API: runs the
 * visual test with its baseline variables (synchronous execute) and accepts that screenshot (contract
 * "accept-screenshot"). Throws an Error when the run does not pass or gives no screenshot (e.g. no
 * Chromium).
 */
async function establishDemoBaseline(baseUrl: string, apiKey: string, demo: DemoSeed): Promise<void> {
  const { id, baseline } = demo.visual;
  const query = new URLSearchParams({ apiKey, ...baseline });
  const call = async (path: string) => {
    const res = await fetch(`${baseUrl}${path}?${query.toString()}`, { method: 'POST' });
    return (await res.json()) as { code: string; message?: string; data?: unknown };
  };
  const run = await call(`/tests/${id}/execute/`);
  const result = run.data as
    | {
        passing: boolean | null;
        screenshot?: unknown;
        error?: { details?: string };
        steps?: Array<{ error?: string }>;
      }
    | undefined;
  if (run.code !== 'SUCCESS' || !result?.passing || !result.screenshot) {
    const why =
      run.message ??
      result?.error?.details ??
      result?.steps?.find((s) => s.error)?.error ??
      'the run did not pass with a screenshot';
    throw new Error(`Demo seed: the baseline run of test ${id} failed: ${why}`);
  }
  const accepted = await call(`/tests/${id}/accept-screenshot/`);
  if (accepted.code !== 'SUCCESS') {
    throw new Error(`Demo seed: cannot accept the baseline of test ${id}: ${accepted.message ?? ''}`);
  }
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
  return { timeScale, notFoundWindowMs, rateLimiter, clock };
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

/** The seed of the `seed` option other than `demo`: a seed file's path, a seed object, or the default seed. */
function seedOf(seed: SeedFile | string | undefined): SeedFile {
  return typeof seed === 'string' ? readSeedFile(seed) : (seed ?? defaultSeed());
}

/** A fault spec from its text or object; throws an Error naming a bad part. */
function toSpec(spec: string | FaultSpec | undefined): FaultSpec {
  return typeof spec === 'string' ? parseFaultSpec(spec) : checkFaultSpec(spec ?? {});
}

/**
 * Starts an emulator on loopback. Resolves once it listens (with the demo seed: once the screenshot
 * comparison baseline of its visual test is accepted, about a second with Chromium). Throws when the seed,
 * fault spec or executor name is invalid, the port is taken, or the demo baseline run fails.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { timeScale, notFoundWindowMs, rateLimiter, clock } = checkedOptions(options);
  const inFlight = new RequestsInFlight();
  const store = new Store();
  // The demo seed needs the emulator's origin, so it is loaded once the server listens.
  const useDemoSeed =
    options.seed === 'demo' || (options.seed === undefined && options.executor === 'browser');
  const applySeed = (seed: SeedFile) => loadSeedWithKeys(store, seed, options);
  if (!useDemoSeed) applySeed(seedOf(options.seed));
  const initialFaults = toSpec(options.faults);
  // No faults while the demo baseline is being established.
  let faults = new Faults(useDemoSeed ? {} : initialFaults);
  let baselineDone = !useDemoSeed;
  let requests: RequestRecord[] = [];
  let runs: FinishRecord[] = [];
  let seq = 0;
  let origin = '';
  const resetLog = () => {
    requests = [];
    runs = [];
  };
  const executor = await makeExecutor(options.executor, store, options.browser);
  const engine = new Engine({
    store,
    executor,
    timeScale,
    clock,
    images: pngImageKit,
    origin: () => origin,
    onFinish: (record) => runs.push(record),
  });
  const setScenario = (testId: string, scenario: Scenario | null) => attachScenario(store, testId, scenario);
  const setFaults = (spec: string | FaultSpec) => {
    faults = new Faults(toSpec(spec));
  };
  const server: Server = createServer({
    store,
    routes: [
      ...demoSiteRoutes(),
      ...apiRoutes({ store, engine, notFoundWindowMs, clock, inFlight }),
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
    // No limit while the demo baseline is being established.
    rateLimiter: () => (baselineDone ? rateLimiter : undefined),
  });
  const destroySockets = trackSockets(server);
  const port = await listenOrClose(server, options, executor);
  origin = originOf(options.host ?? '127.0.0.1', port);
  const shutdown = async () => {
    engine.close();
    await executor.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      destroySockets();
    });
  };
  if (useDemoSeed) {
    try {
      const demo = demoSeed(origin, DEFAULT_API_KEY);
      applySeed(demo.seed);
      await establishDemoBaseline(`${origin}/v1`, DEFAULT_API_KEY, demo);
    } catch (error) {
      await shutdown();
      throw error;
    }
    resetLog();
    faults = new Faults(initialFaults);
    baselineDone = true;
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
