/**
 * Step commands of the browser executor: how one Ghost Inspector step (contract "Step") runs in a
 * Playwright page. Used by `browser.ts`, which owns the browser, the run loop and the outcome.
 *
 * Commands (Ghost Inspector names, Selenium IDE style):
 * - `open` / `goto`: go to the URL in `value` (or `target`), relative URLs resolved against the current page.
 * - `click`, `mouseOver`: wait for the element, then click or hover it.
 * - `assign`: type `value` into a field (replacing its content; a `<select>` gets the option; a checkbox or
 *   radio is checked when `value` is truthy).
 * - `keypress`: press a key (`value`: key code such as `13`, or a key name such as `Enter`) in the element,
 *   or in the page when `target` is empty.
 * - `select`: choose the option whose value or label is `value`.
 * - `assertText`: the element's text contains `value` (whitespace collapsed; `/pattern/flags` is a regular
 *   expression). `assertTextPresent` / `assertTextNotPresent`: the text is (not) in the element, or in the page
 *   when `target` is empty.
 * - `assertElementPresent` / `assertElementNotPresent` / `assertElementVisible` / `assertElementNotVisible`.
 * - `assertEval`: JavaScript (`value`) returns a truthy value. `execute` (alias `eval`): run JavaScript.
 * - `extract`: the element's text (a field's value) into `variableName`; `extractEval`: JavaScript's return
 *   value into `variableName`; `store`: `value` into `variableName`.
 * - `pause`: wait `value` ms (times the time scale). `goBack`, `refresh`.
 *
 * Assertions retry until they hold or `maxWaitDelay` passes, like element waits. JavaScript in `value` or a
 * condition is a function body (`return ...`), or a single expression.
 */
import type { Locator, Page } from 'playwright-core';
import type { Step, StepTarget } from '../../src/api/types.js';
import { abortError, sleep } from '../util.js';

/** Per-run settings a step needs. */
export interface StepContext {
  page: Page;
  /** Run variables, extracted values included; `{{name}}` in targets and values is replaced by them. */
  variables: Record<string, string>;
  extractions: Record<string, string>;
  /** ms to wait for an element or for an assertion to hold. */
  maxWaitDelay: number;
  timeScale: number;
  signal: AbortSignal;
}

/** A step failure with a message meant for the test result (e.g. `Element not found: #buy`). */
export class StepError extends Error {
  override name = 'StepError';
}

/** Replaces `{{name}}` by the variable's value; unknown names are left as they are. */
export function substitute(text: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? (variables[name] ?? '') : whole,
  );
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

export { abortError, sleep };

const POLL_MS = 50;

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
async function firstPresent(page: Page, selectors: string[]): Promise<Locator | undefined> {
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
async function elementText(locator: Locator): Promise<string> {
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

function quoteShort(text: string): string {
  const t = normalizeText(text);
  return JSON.stringify(t.length > 200 ? `${t.slice(0, 200)}…` : t);
}

/** Whether the command changes the page (so the executor waits for loads and pending requests after it). */
export function isAction(command: string): boolean {
  return [
    'open',
    'goto',
    'click',
    'assign',
    'keypress',
    'select',
    'mouseOver',
    'execute',
    'eval',
    'goBack',
    'refresh',
  ].includes(command);
}

/**
 * Runs one step (condition already checked). Returns normally when the step passes; throws a StepError with
 * a message for the result when it fails, or an AbortError when the run is aborted.
 */
export async function runStep(ctx: StepContext, step: Step): Promise<void> {
  const { page } = ctx;
  const value = substitute(step.value ?? '', ctx.variables);
  const selectors = selectorsOf(step.target ?? '', ctx.variables);
  // Messages show targets and values as written ({{name}} kept), so no variable's value reaches a result.
  const where = describeTarget(selectorsOf(step.target ?? '', {}));
  const shownValue = step.value ?? '';
  const act = async (what: string, action: (el: Locator, timeout: number) => Promise<unknown>) => {
    const started = Date.now();
    const el = await findElement(ctx, selectors, where);
    try {
      await action(el, Math.max(1000, ctx.maxWaitDelay - (Date.now() - started)));
    } catch (error) {
      if (ctx.signal.aborted) throw abortError();
      throw new StepError(`Could not ${what} ${where}: ${shortError(error)}`);
    }
  };
  switch (step.command) {
    case 'open':
    case 'goto': {
      const raw = value || selectors[0] || '';
      if (raw === '') throw new StepError('The open step has no URL');
      let url: string;
      try {
        url = new URL(raw, page.url() === 'about:blank' ? undefined : page.url()).toString();
      } catch {
        throw new StepError(`Invalid URL: ${shownValue || where}`);
      }
      try {
        await page.goto(url, { waitUntil: 'load', timeout: Math.max(ctx.maxWaitDelay, 5000) });
      } catch (error) {
        if (ctx.signal.aborted) throw abortError();
        const shownUrl = shownValue.includes('{{') || where.includes('{{') ? shownValue || where : url;
        throw new StepError(`Could not open ${shownUrl}: ${shortError(error).replace(/ at \S+$/, '')}`);
      }
      return;
    }
    case 'click':
      return act('click', (el, timeout) => el.click({ timeout }));
    case 'mouseOver':
      return act('move the mouse over', (el, timeout) => el.hover({ timeout }));
    case 'assign':
      return act('assign a value to', async (el, timeout) => {
        const kind = await el.evaluate((node) =>
          node instanceof HTMLSelectElement
            ? 'select'
            : node instanceof HTMLInputElement && (node.type === 'checkbox' || node.type === 'radio')
              ? 'check'
              : 'fill',
        );
        if (kind === 'select') await el.selectOption(value, { timeout });
        else if (kind === 'check')
          await el.setChecked(!['', '0', 'false', 'off'].includes(value.toLowerCase()), { timeout });
        else await el.fill(value, { timeout });
      });
    case 'select':
      return act('select an option in', async (el, timeout) => {
        const byValue = await el.evaluate(
          (node, v) =>
            node instanceof HTMLSelectElement && Array.from(node.options).some((o) => o.value === v),
          value,
        );
        await el.selectOption(byValue ? { value } : { label: value }, { timeout });
      });
    case 'keypress': {
      const key = keyFor(value);
      if (selectors.length === 0) {
        await page.keyboard.press(key);
        return;
      }
      return act('press a key in', (el, timeout) => el.press(key, { timeout }));
    }
    case 'assertElementPresent':
      await findElement(ctx, selectors, where);
      return;
    case 'assertElementNotPresent': {
      const gone = await poll(
        async () => ((await firstPresent(page, selectors)) ? undefined : true),
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!gone) throw new StepError(`Element is present: ${where}`);
      return;
    }
    case 'assertElementVisible': {
      await findElement(ctx, selectors, where);
      const visible = await poll(
        async () => {
          for (const s of selectors)
            if (await page.locator(playwrightSelector(s)).first().isVisible()) return true;
          return undefined;
        },
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!visible) throw new StepError(`Element not visible: ${where}`);
      return;
    }
    case 'assertElementNotVisible': {
      const hidden = await poll(
        async () => {
          for (const s of selectors)
            if (await page.locator(playwrightSelector(s)).first().isVisible()) return undefined;
          return true;
        },
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!hidden) throw new StepError(`Element is visible: ${where}`);
      return;
    }
    case 'assertText': {
      const el = await findElement(ctx, selectors, where);
      let last = '';
      const ok = await poll(
        async () => {
          last = await elementText(el);
          return textMatches(last, value) ? true : undefined;
        },
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!ok)
        throw new StepError(
          `Text ${quoteShort(shownValue)} not found in ${where}; found ${quoteShort(last)}`,
        );
      return;
    }
    case 'assertTextPresent':
    case 'assertTextNotPresent': {
      const wanted = step.command === 'assertTextPresent';
      const el = selectors.length > 0 ? await findElement(ctx, selectors, where) : page.locator('body');
      const place = selectors.length > 0 ? `in ${where}` : 'on the page';
      const ok = await poll(
        async () => (textMatches(await elementText(el), value) === wanted ? true : undefined),
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!ok) {
        throw new StepError(
          wanted
            ? `Text ${quoteShort(shownValue)} not present ${place}`
            : `Text ${quoteShort(shownValue)} is present ${place}`,
        );
      }
      return;
    }
    case 'assertEval': {
      let last: unknown;
      const ok = await poll(
        async () => {
          last = await runScript(page, value);
          return last ? true : undefined;
        },
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!ok) {
        // A script that throws fails with its error; one that returns a falsy value fails with that value.
        last = await runScript(page, value);
        if (!last)
          throw new StepError(`JavaScript returned ${JSON.stringify(last) ?? 'undefined'}, expected true`);
      }
      return;
    }
    case 'execute':
    case 'eval':
      await runScript(page, value);
      return;
    case 'extract': {
      const el = await findElement(ctx, selectors, where);
      setVariable(ctx, step, normalizeText(await elementText(el)));
      return;
    }
    case 'extractEval': {
      const result = await runScript(page, value);
      setVariable(ctx, step, typeof result === 'string' ? result : (JSON.stringify(result) ?? ''));
      return;
    }
    case 'store':
      setVariable(ctx, step, value);
      return;
    case 'pause': {
      const ms = Number(value || selectors[0] || 0);
      if (!Number.isFinite(ms) || ms < 0)
        throw new StepError(`Invalid pause "${shownValue}": expected milliseconds`);
      await sleep(ms * ctx.timeScale, ctx.signal);
      return;
    }
    case 'goBack':
      await page
        .goBack({ waitUntil: 'load', timeout: Math.max(ctx.maxWaitDelay, 5000) })
        .catch((error: unknown) => {
          throw new StepError(`Could not go back: ${shortError(error)}`);
        });
      return;
    case 'refresh':
      await page
        .reload({ waitUntil: 'load', timeout: Math.max(ctx.maxWaitDelay, 5000) })
        .catch((error: unknown) => {
          throw new StepError(`Could not refresh: ${shortError(error)}`);
        });
      return;
    default:
      throw new StepError(`Unsupported step command "${step.command}"`);
  }
}

function setVariable(ctx: StepContext, step: Step, value: string): void {
  const name = (step.variableName ?? '').trim();
  if (name === '') throw new StepError(`The ${step.command} step has no variable name`);
  ctx.variables[name] = value;
  ctx.extractions[name] = value;
}
