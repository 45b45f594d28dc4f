/**
 * The `browser` executor: runs tests for real in headless Chromium through playwright-core. Step commands:
 * `browser-steps.ts`.
 *
 * Browser and isolation: one Chromium process is shared by every run and launched on first use. Playwright
 * launches it with a fresh temporary user data dir (removed when the browser closes), and each run gets its own
 * browser context (cookies, storage, cache, permissions and HTTP credentials of its own, like a fresh
 * profile). At most `maxConcurrent` runs use the browser at once; later runs wait for a slot. A browser that
 * crashed or disconnected is launched again for the next run.
 *
 * Run settings honoured (docs/api-contract.md, "Resources" and "Execute parameters"): start URL, viewport, user agent,
 * HTTP auth, variables (`{{name}}` in start URL, targets, values and conditions), globalStepDelay between
 * steps, maxWaitDelay for element waits and assertions, maxAjaxDelay for pending requests after an action,
 * finalDelay before the screenshot, failOnJavaScriptError (an uncaught page error fails the run), the
 * run-time limit, screenshotExclusions, screenshotTarget and disableVisuals. Sleep-only delays
 * (globalStepDelay, pause, finalDelay) are multiplied by the time scale; waits for a condition (maxWaitDelay)
 * by the executor's wait scale instead, and a step's own action gets at least `ACTION_FLOOR_MS`: a busy
 * machine makes runs slower, never changes their outcome.
 */
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import type {
  ConsoleOutcome,
  Executor,
  RunOutcome,
  RunRequest,
  StepOutcome,
} from '../../emulator/executors/types.js';
import { Semaphore, untilAborted } from '../../emulator/util.js';
import {
  StepError,
  abortError,
  actionTimeout,
  contextOptions,
  isAction,
  playwrightSelector,
  poll,
  runScript,
  runStep,
  shortError,
  sleep,
  substitute,
  watchPage,
  type StepContext,
} from './browser-steps.js';
import { chromiumAvailable, defaultChromiumPath } from './chromium.js';

/**
 * Chromium flags: headless, no sandbox (containers), no background traffic of its own, and pages sharing
 * one renderer process where Chromium allows it (each run's context keeps its own storage; a process per
 * run cost more CPU).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--renderer-process-limit=1',
];

export interface BrowserExecutorOptions {
  /** Chromium executable; default `defaultChromiumPath()`. */
  executablePath?: string;
  /** Runs at once in the shared browser (default 2). */
  maxConcurrent?: number;
  /**
   * Multiplies the waits for a condition (maxWaitDelay: an element to appear, an assertion to hold); default
   * `BROWSER_WAIT_SCALE` when set, else 1. Tests raise it so that the steps that pass on a quiet machine pass
   * on a busy one; a step that fails on the page's content fails the same, only later.
   */
  waitScale?: number;
}

/**
 * The default wait scale: `BROWSER_WAIT_SCALE` (a number ≥ 1) when set, else 1. Throws an Error naming the
 * variable and its value when it is not such a number.
 */
export function defaultWaitScale(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.BROWSER_WAIT_SCALE;
  if (text === undefined || text === '') return 1;
  const scale = Number(text);
  if (!(scale >= 1)) throw new Error(`BROWSER_WAIT_SCALE must be a number of at least 1, got "${text}"`);
  return scale;
}

/** The run error when the run-time limit is reached (`ms` shown in seconds). */
function limitMessage(ms: number): string {
  return `The run-time limit of ${Math.round(ms / 100) / 10} s was reached`;
}

/** Runs tests in headless Chromium; see the module comment. */
export class BrowserExecutor implements Executor {
  readonly name = 'browser';
  readonly executablePath: string;
  readonly maxConcurrent: number;
  readonly waitScale: number;
  private browser: Promise<Browser> | undefined;
  private readonly slots: Semaphore;
  private closed = false;

  constructor(options: BrowserExecutorOptions = {}) {
    this.executablePath = options.executablePath ?? defaultChromiumPath();
    this.maxConcurrent = Math.max(1, Math.floor(options.maxConcurrent ?? 2));
    this.slots = new Semaphore(this.maxConcurrent);
    this.waitScale = options.waitScale ?? defaultWaitScale();
    if (!(this.waitScale >= 1)) throw new Error(`waitScale must be at least 1, got ${this.waitScale}`);
  }

  /** The shared browser, launched on first use and again after a crash. */
  private async getBrowser(): Promise<Browser> {
    if (this.closed) throw new Error('The browser executor is closed');
    if (this.browser) {
      const current = await this.browser.catch(() => undefined);
      if (current?.isConnected()) return current;
    }
    if (!chromiumAvailable(this.executablePath)) {
      throw new Error(`Chromium not found at ${this.executablePath} (set CHROMIUM_PATH)`);
    }
    this.browser = chromium
      .launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS, headless: true })
      .catch((error: unknown) => {
        this.browser = undefined;
        throw new Error(`Could not start Chromium at ${this.executablePath}: ${shortError(error)}`);
      });
    return this.browser;
  }

  /**
   * Runs one test. Resolves with the outcome (one step outcome per request step, in order; steps after a
   * failing non-optional step have `passing` null). Rejects with an AbortError when `request.signal` aborts
   * (the run's context is closed at once), or with an Error when Chromium cannot start.
   */
  async run(request: RunRequest): Promise<RunOutcome> {
    const release = await this.slots.acquire(request.signal);
    try {
      const browser = await this.getBrowser();
      return await this.runInBrowser(browser, request);
    } finally {
      release();
    }
  }

  /** Closes the shared browser; later runs fail. */
  async close(): Promise<void> {
    this.closed = true;
    const browser = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    await browser?.close().catch(() => undefined);
  }

  private async runInBrowser(browser: Browser, request: RunRequest): Promise<RunOutcome> {
    const control = new AbortController();
    let limitHit = false;
    const onCancel = () => control.abort();
    request.signal.addEventListener('abort', onCancel, { once: true });
    if (request.signal.aborted) control.abort();
    const limitTimer = setTimeout(() => {
      limitHit = true;
      control.abort();
    }, request.runTimeLimitMs);

    const consoleEntries: ConsoleOutcome[] = [];
    const urls: string[] = [];
    const pageErrors: string[] = [];
    const pending = new Set<Request>();
    const variables: Record<string, string> = { ...request.variables };
    const extractions: Record<string, string> = {};
    const steps: StepOutcome[] = request.steps.map((step) => ({ step, passing: null }));
    let context: BrowserContext | undefined;
    const closeContext = () => void context?.close().catch(() => undefined);
    control.signal.addEventListener('abort', closeContext, { once: true });

    try {
      context = await browser.newContext(contextOptions(request));
      // Cancelled while the context was being made: no page is opened on a context that is closing (a
      // `newPage` racing the close can stay pending); the `finally` closes it.
      if (control.signal.aborted) throw abortError();
      // A cancel while the page opens closes the context under it; that `newPage` may then never settle.
      const page = await untilAborted(context.newPage(), control.signal);
      watchPage(page, { consoleEntries, urls, pageErrors, pending });

      const ctx: StepContext = {
        page,
        variables,
        extractions,
        maxWaitDelay: request.maxWaitDelay * this.waitScale,
        timeScale: request.timeScale,
        signal: control.signal,
      };
      const settle = () => this.settle(page, pending, request.maxAjaxDelay, control.signal);

      let runError: string | undefined;
      let failed = false;
      const startUrl = substitute(request.startUrl, variables);
      try {
        await page.goto(startUrl, { waitUntil: 'load', timeout: actionTimeout(ctx.maxWaitDelay) });
        await settle();
      } catch (error) {
        if (control.signal.aborted) throw abortError();
        failed = true;
        runError = `Could not open the start URL ${request.startUrl.includes('{{') ? request.startUrl : startUrl}: ${shortError(error).replace(/ at \S+$/, '')}`;
      }

      if (!failed) {
        const ran = await this.runSteps(request, ctx, steps, settle, () => limitHit);
        failed = ran.failed;
        runError = ran.runError ?? runError;
      }

      if (control.signal.aborted && !limitHit) throw abortError();
      let screenshot: Buffer | undefined;
      if (!control.signal.aborted) {
        if (request.finalDelay > 0) await sleep(request.finalDelay * request.timeScale, control.signal);
        if (!request.disableVisuals) screenshot = await this.capture(page, request, consoleEntries);
      }
      if (!failed && request.failOnJavaScriptError && pageErrors.length > 0) {
        failed = true;
        runError = `JavaScript error on the page: ${pageErrors[0]}`;
      }
      const endUrl = control.signal.aborted ? (urls[urls.length - 1] ?? startUrl) : page.url();
      return {
        passing: !failed,
        steps,
        console: consoleEntries,
        urls,
        endUrl,
        ...(screenshot ? { screenshot } : {}),
        extractions,
        ...(runError ? { error: runError } : {}),
      };
    } catch (error) {
      if (request.signal.aborted) throw abortError();
      if (limitHit) {
        return {
          passing: false,
          steps,
          console: consoleEntries,
          urls,
          endUrl: urls[urls.length - 1] ?? request.startUrl,
          extractions,
          error: limitMessage(request.runTimeLimitMs),
        };
      }
      throw error;
    } finally {
      clearTimeout(limitTimer);
      request.signal.removeEventListener('abort', onCancel);
      await context?.close().catch(() => undefined);
    }
  }

  /**
   * Runs the steps in order until one that is not optional fails: a step whose condition is false is
   * skipped (`passing` null, `conditionResult` false). Throws an AbortError when the run is cancelled; the
   * run-time limit fails the current step.
   */
  private async runSteps(
    request: RunRequest,
    ctx: StepContext,
    steps: StepOutcome[],
    settle: () => Promise<void>,
    limitHit: () => boolean,
  ): Promise<{ failed: boolean; runError?: string }> {
    const { page, variables } = ctx;
    let failed = false;
    let runError: string | undefined;
    for (let i = 0; i < request.steps.length && !failed; i++) {
      const step = request.steps[i];
      const outcome = steps[i];
      if (i > 0 && request.globalStepDelay > 0)
        await sleep(request.globalStepDelay * request.timeScale, ctx.signal);
      outcome.dateExecuted = new Date().toISOString();
      outcome.url = page.url();
      try {
        if (step.condition?.statement) {
          const result = Boolean(
            await runScript(page, substitute(step.condition.statement, variables)).catch((error: unknown) => {
              throw new StepError(`Condition: ${error instanceof Error ? error.message : String(error)}`);
            }),
          );
          outcome.conditionResult = result;
          if (!result) continue; // skipped: passing stays null
        }
        await runStep(ctx, step);
        if (isAction(step.command)) await settle();
        if (step.command === 'open' || step.command === 'goto') outcome.url = page.url();
        outcome.passing = true;
      } catch (error) {
        if (ctx.signal.aborted) {
          if (!limitHit()) throw abortError();
          outcome.passing = false;
          outcome.error = limitMessage(request.runTimeLimitMs);
          runError = outcome.error;
          failed = true;
          break;
        }
        outcome.passing = false;
        outcome.error = error instanceof StepError ? error.message : shortError(error);
        if (!step.optional) failed = true;
      }
    }
    return { failed, runError };
  }

  /** Waits for the page's load event and for pending requests to finish, each up to `maxAjaxDelay`. */
  private async settle(
    page: Page,
    pending: Set<Request>,
    maxAjaxDelay: number,
    signal: AbortSignal,
  ): Promise<void> {
    const deadline = Date.now() + maxAjaxDelay;
    await page.waitForLoadState('load', { timeout: Math.max(1, maxAjaxDelay) }).catch(() => undefined);
    await poll(
      () => Promise.resolve(pending.size === 0 ? true : undefined),
      Math.max(0, deadline - Date.now()),
      signal,
    );
    // A navigation started by the action may have replaced the document meanwhile: wait for its load too.
    const left = deadline - Date.now();
    if (left > 0) await page.waitForLoadState('load', { timeout: left }).catch(() => undefined);
  }

  /**
   * The final screenshot: exclusions hidden (`visibility: hidden`), then the target element or the viewport.
   * A target that is not found falls back to the viewport and leaves a console entry saying so.
   */
  private async capture(
    page: Page,
    request: RunRequest,
    consoleEntries: ConsoleOutcome[],
  ): Promise<Buffer | undefined> {
    const exclusions = (request.screenshotExclusions ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (exclusions.length > 0) {
      await page
        .evaluate((selectors) => {
          for (const selector of selectors) {
            try {
              document.querySelectorAll<HTMLElement>(selector).forEach((el) => {
                el.style.setProperty('visibility', 'hidden', 'important');
              });
            } catch {
              // an invalid selector hides nothing
            }
          }
        }, exclusions)
        .catch(() => undefined);
    }
    const target = substitute(request.screenshotTarget ?? '', request.variables).trim();
    if (target !== '') {
      const locator = page.locator(playwrightSelector(target)).first();
      if ((await locator.count().catch(() => 0)) > 0) {
        try {
          return await locator.screenshot({ timeout: actionTimeout(request.maxWaitDelay * this.waitScale) });
        } catch {
          // fall back to the viewport below
        }
      }
      consoleEntries.push({
        dateExecuted: new Date().toISOString(),
        error: false,
        output: `Screenshot target not found: ${request.screenshotTarget}; the viewport was captured instead`,
        url: page.url(),
      });
    }
    try {
      return await page.screenshot({ fullPage: false });
    } catch (error) {
      // Chromium sometimes refuses to capture its own error page (a start URL that could not be opened):
      // the run's outcome stands, without a screenshot, and the console says why.
      consoleEntries.push({
        dateExecuted: new Date().toISOString(),
        error: false,
        output: `The final screenshot could not be captured: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        url: page.url(),
      });
      return undefined;
    }
  }
}
