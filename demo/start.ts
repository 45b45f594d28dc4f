/**
 * The demo's emulator: the emulator (the API double) with the Chromium executor handed in, the demo shop
 * site's files served under `/demo/`, the demo seed, and the screenshot comparison baseline of its visual
 * test, established through the emulator's own API.
 */
import { readFile } from 'node:fs/promises';
import {
  DEFAULT_API_KEY,
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type Route,
} from '../emulator/index.js';
import { BrowserExecutor, type BrowserExecutorOptions } from './executor/browser.js';
import { DEMO_SITE_FILES, demoSiteDir } from './site/index.js';
import { demoSeed, type DemoSeed } from './seed.js';

/** Routes serving the demo shop site's files under `/demo/` (`/demo` itself is its index page). */
export function demoSiteRoutes(): Route[] {
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
export async function establishDemoBaseline(baseUrl: string, apiKey: string, demo: DemoSeed): Promise<void> {
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

/** The emulator's options the demo's emulator takes: all but the executor, the seed and the routes. */
export type DemoEmulatorOptions = Omit<EmulatorOptions, 'executor' | 'seed' | 'routes'> & {
  /** Options of the Chromium executor (executable, runs at once, wait scale). */
  browser?: BrowserExecutorOptions;
};

/**
 * Starts the emulator with the Chromium executor, the demo shop under `/demo/` and the demo seed (API key
 * `demo-api-key`), and accepts the baseline of its visual test (`establishDemoBaseline`, about a second):
 * the options' faults apply from then on, and the request and run logs start empty. Throws as
 * `startEmulator` does, or when the baseline run fails (e.g. no Chromium); the emulator is closed then.
 */
export async function startDemoEmulator(options: DemoEmulatorOptions = {}): Promise<Emulator> {
  const { browser, faults, ...rest } = options;
  let demo: DemoSeed | undefined;
  const emulator = await startEmulator({
    ...rest,
    executor: new BrowserExecutor(browser),
    routes: demoSiteRoutes(),
    seed: (origin) => (demo = demoSeed(origin, DEFAULT_API_KEY)).seed,
  });
  try {
    await establishDemoBaseline(emulator.baseUrl, DEFAULT_API_KEY, demo!);
  } catch (error) {
    await emulator.close();
    throw error;
  }
  emulator.resetLog();
  if (faults) emulator.setFaults(faults);
  return emulator;
}
