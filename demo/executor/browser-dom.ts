/**
 * Page helpers of the browser executor's steps: the step context, selectors, waiting and polling, element
 * text, JavaScript, key names and step errors.
 */
import type { BrowserContextOptions, Locator, Page, Request } from 'playwright-core';
import type { ConsoleOutcome, RunRequest } from '../../emulator/executors/types.js';
import type { Step, StepTarget } from '../../emulator/api-types.js';
import { abortError, sleep, substitute } from '../../emulator/util.js';

/** Per-run settings a step needs. */
export interface StepContext {
  page: Page;
  /** Run variables, extracted values included; `{{name}}` in targets and values is replaced by them. */
  variables: Record<string, string>;
  extractions: Record<string, string>;
  /** ms to wait for an element or for an assertion to hold: the request's maxWaitDelay times the wait scale. */
  maxWaitDelay: number;
  timeScale: number;
  signal: AbortSignal;
}

/** A step failure with a message meant for the test result (e.g. `Element not found: #buy`). */
export class StepError extends Error {
  override name = 'StepError';
}

/** The selectors of a target, variables substituted, in order. */
export function selectorsOf(target: StepTarget, variables: Record<string, string>): string[] {
  const list = typeof target === 'string' ? [target] : target.map((t) => t?.selector ?? '');
  return list.map((s) => substitute(s, variables).trim()).filter((s) => s !== '');
}

/** A Playwright selector for a step selector: XPath when it starts with `/`, `(` or `xpath=`, else CSS. */
export function playwrightSelector(selector: string): string {
  if (selector.startsWith('xpath=')) return selector;
  if (selector.startsWith('css=')) return selector;
  if (selector.startsWith('/') || selector.startsWith('(')) return `xpath=${selector}`;
  return `css=${selector}`;
}

/** How a target reads in messages: its selectors joined by ` or `. */
export function describeTarget(selectors: string[]): string {
  return selectors.join(' or ');
}

export { abortError, sleep, substitute };

const POLL_MS = 50;

/**
 * The least time, in ms, a step's own action gets (a click, typing, choosing an option, a navigation): a
 * busy machine makes an action slower, never makes it fail, so an outcome depends on the page, not on speed.
 */
export const ACTION_FLOOR_MS = 5000;

/** The timeout in ms of an action that may still use `leftMs` of its step's wait: at least `ACTION_FLOOR_MS`. */
export function actionTimeout(leftMs: number): number {
  return Math.max(leftMs, ACTION_FLOOR_MS);
}

/**
 * Calls `probe` until it returns a value other than undefined or `timeoutMs` passes (at least one call).
 * Errors from `probe` (a page navigating away, a detached element) count as "not yet".
 */
export async function poll<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (signal.aborted) throw abortError();
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (signal.aborted) throw abortError();
      void error;
    }
    if (Date.now() >= deadline) return undefined;
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), signal);
  }
}

/** The first of `selectors` that matches an element now, as a locator of that element. */
export async function firstPresent(page: Page, selectors: string[]): Promise<Locator | undefined> {
  for (const selector of selectors) {
    const locator = page.locator(playwrightSelector(selector)).first();
    if ((await locator.count()) > 0) return locator;
  }
  return undefined;
}

/** Waits up to `maxWaitDelay` for an element of the target; throws `Element not found: ...`. */
export async function findElement(
  ctx: StepContext,
  selectors: string[],
  shown: string = describeTarget(selectors),
): Promise<Locator> {
  if (selectors.length === 0) throw new StepError('The step has no target element');
  const found = await poll(() => firstPresent(ctx.page, selectors), ctx.maxWaitDelay, ctx.signal);
  if (!found) throw new StepError(`Element not found: ${shown}`);
  return found;
}

/** Collapses whitespace and trims. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether `text` contains `expected` (a `/pattern/flags` expected value is a regular expression). */
export function textMatches(text: string, expected: string): boolean {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(expected);
  if (regex) {
    try {
      return new RegExp(regex[1] ?? '', regex[2]).test(text);
    } catch {
      // not a valid regular expression: compare as text
    }
  }
  return normalizeText(text).includes(normalizeText(expected));
}

/** The text of an element as a user reads it: a field's value, a select's chosen label, else innerText. */
export async function elementText(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
    if (el instanceof HTMLSelectElement) return el.selectedOptions[0]?.text ?? '';
    return (el as HTMLElement).innerText ?? el.textContent ?? '';
  });
}

/** Shortens a Playwright error to its first line, without the call log. */
export function shortError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).replace(/^[\w.]+: /, '').trim();
}

/**
 * Runs JavaScript in the page: `code` as a function body (async allowed), or as one expression when it has
 * no `return`. Returns the (awaited) result. Throws a StepError with the page's error message.
 */
export async function runScript(page: Page, code: string): Promise<unknown> {
  const asBody = `(async () => {\n${code}\n})()`;
  if (!/\breturn\b/.test(code) && code.trim() !== '') {
    try {
      return await page.evaluate(`(async () => (\n${code}\n))()`);
    } catch (error) {
      if (!/SyntaxError/.test(String(error))) throw new StepError(`JavaScript error: ${shortError(error)}`);
    }
  }
  try {
    return await page.evaluate(asBody);
  } catch (error) {
    throw new StepError(`JavaScript error: ${shortError(error)}`);
  }
}

/** A key for Playwright from a keypress value: key codes (`13`) or names (`Enter`, `ENTER`, `a`). */
export function keyFor(value: string): string {
  const trimmed = value.trim();
  const byCode: Record<number, string> = {
    8: 'Backspace',
    9: 'Tab',
    13: 'Enter',
    16: 'Shift',
    17: 'Control',
    18: 'Alt',
    27: 'Escape',
    32: 'Space',
    33: 'PageUp',
    34: 'PageDown',
    35: 'End',
    36: 'Home',
    37: 'ArrowLeft',
    38: 'ArrowUp',
    39: 'ArrowRight',
    40: 'ArrowDown',
    45: 'Insert',
    46: 'Delete',
  };
  if (/^\d+$/.test(trimmed)) {
    const code = Number(trimmed);
    return byCode[code] ?? String.fromCharCode(code);
  }
  const byName: Record<string, string> = {
    ENTER: 'Enter',
    RETURN: 'Enter',
    TAB: 'Tab',
    ESC: 'Escape',
    ESCAPE: 'Escape',
    BACKSPACE: 'Backspace',
    DELETE: 'Delete',
    SPACE: 'Space',
    UP: 'ArrowUp',
    DOWN: 'ArrowDown',
    LEFT: 'ArrowLeft',
    RIGHT: 'ArrowRight',
  };
  return byName[trimmed.toUpperCase()] ?? trimmed;
}

export function quoteShort(text: string): string {
  const t = normalizeText(text);
  return JSON.stringify(t.length > 200 ? `${t.slice(0, 200)}…` : t);
}

/** A step's value and selectors (variables substituted) and how messages show them (as written). */
export interface StepParts {
  value: string;
  selectors: string[];
  /** The target as written, for messages. */
  where: string;
  /** The value as written, for messages. */
  shownValue: string;
}

/** Stores an extracted value under the step's variable name. Throws a StepError without a name. */
export function setVariable(ctx: StepContext, step: Step, value: string): void {
  const name = (step.variableName ?? '').trim();
  if (name === '') throw new StepError(`The ${step.command} step has no variable name`);
  ctx.variables[name] = value;
  ctx.extractions[name] = value;
}

/** What a page reports while a run goes on. */
export interface PageWatch {
  consoleEntries: ConsoleOutcome[];
  urls: string[];
  pageErrors: string[];
  pending: Set<Request>;
}

/** Records the page's console output, uncaught errors, visited URLs and pending requests. */
export function watchPage(page: Page, watch: PageWatch): void {
  const { consoleEntries, urls, pageErrors, pending } = watch;
  page.on('console', (msg) => {
    consoleEntries.push({
      dateExecuted: new Date().toISOString(),
      error: msg.type() === 'error',
      output: msg.text(),
      url: page.url(),
    });
  });
  page.on('pageerror', (error) => {
    const output = `Uncaught ${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}`;
    pageErrors.push(output);
    consoleEntries.push({ dateExecuted: new Date().toISOString(), error: true, output, url: page.url() });
  });
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    const url = frame.url();
    if (url !== 'about:blank' && urls[urls.length - 1] !== url) urls.push(url);
  });
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
}

/** The browser context of a run: viewport, user agent, HTTP authentication; HTTPS errors ignored. */
export function contextOptions(request: RunRequest): BrowserContextOptions {
  return {
    viewport: { width: request.viewport.width, height: request.viewport.height },
    userAgent: request.userAgent || undefined,
    httpCredentials: request.httpAuth
      ? { username: request.httpAuth.username, password: request.httpAuth.password }
      : undefined,
    ignoreHTTPSErrors: true,
  };
}
