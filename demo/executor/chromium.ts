/**
 * Where the demo finds Chromium, without loading the browser executor (playwright-core): the demo script
 * checks it before it starts anything.
 */
import { existsSync } from 'node:fs';

/**
 * The Chromium executables looked for, in order: the headless shell first (the build Playwright itself runs
 * for headless pages, https://playwright.dev/docs/browsers#chromium-headless-shell; Debian packages it as
 * `chromium-headless-shell`), which costs the machine far less CPU than the whole browser, then the browser.
 */
const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/**
 * Default Chromium: `CHROMIUM_PATH` when set, else the first of `CHROMIUM_CANDIDATES` that exists, else the
 * last of them (named in the error that no Chromium was found).
 */
export function defaultChromiumPath(): string {
  return (
    process.env.CHROMIUM_PATH ||
    CHROMIUM_CANDIDATES.find((path) => existsSync(path)) ||
    CHROMIUM_CANDIDATES[CHROMIUM_CANDIDATES.length - 1]!
  );
}

/** Whether a Chromium executable exists at `path` (default: `defaultChromiumPath()`). */
export function chromiumAvailable(path: string = defaultChromiumPath()): boolean {
  return existsSync(path);
}
