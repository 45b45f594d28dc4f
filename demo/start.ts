/**
 * The demo seed's start-up parts: the demo shop site's files served under `/demo/`, and the screenshot
 * comparison baseline of its visual test, established through the emulator's own API.
 */
import { readFile } from 'node:fs/promises';
import { DEMO_SITE_FILES, demoSiteDir } from './site/index.js';
import { demoSeed, type DemoSeed } from './seed.js';
import type { SeedFile } from '../emulator/seed.js';
import type { Route } from '../emulator/server.js';

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

/**
 * Loads the demo seed for the emulator at `origin` through `applySeed`, then establishes its baseline
 * (`establishDemoBaseline`) with `apiKey`. Throws as that does.
 */
export async function loadDemoSeed(
  origin: string,
  apiKey: string,
  applySeed: (seed: SeedFile) => void,
): Promise<void> {
  const demo = demoSeed(origin, apiKey);
  applySeed(demo.seed);
  await establishDemoBaseline(`${origin}/v1`, apiKey, demo);
}
