/**
 * Step commands of the browser executor: how one Ghost Inspector step (docs/api-contract.md, "Resources") runs in a
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
import type { Locator } from 'playwright-core';
import type { Step } from '../../emulator/api-types.js';
import { runAssertion } from './browser-assertions.js';
import {
  abortError,
  actionTimeout,
  describeTarget,
  findElement,
  keyFor,
  selectorsOf,
  setVariable,
  shortError,
  sleep,
  substitute,
  runScript,
  normalizeText,
  elementText,
  StepError,
  type StepContext,
  type StepParts,
} from './browser-dom.js';

export * from './browser-dom.js';

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
      await action(el, actionTimeout(ctx.maxWaitDelay - (Date.now() - started)));
    } catch (error) {
      if (ctx.signal.aborted) throw abortError();
      throw new StepError(`Could not ${what} ${where}: ${shortError(error)}`);
    }
  };
  const parts: StepParts = { value, selectors, where, shownValue };
  if (await runAssertion(ctx, step, parts)) return;
  switch (step.command) {
    case 'open':
    case 'goto':
      return openStep(ctx, parts);
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
    case 'refresh':
      return navigate(ctx, step.command);
    default:
      throw new StepError(`Unsupported step command "${step.command}"`);
  }
}

/** `open` / `goto`: goes to the URL (value, else target), relative to the current page. */
async function openStep(ctx: StepContext, parts: StepParts): Promise<void> {
  const { page } = ctx;
  const { value, selectors, where, shownValue } = parts;
  const raw = value || selectors[0] || '';
  if (raw === '') throw new StepError('The open step has no URL');
  let url: string;
  try {
    url = new URL(raw, page.url() === 'about:blank' ? undefined : page.url()).toString();
  } catch {
    throw new StepError(`Invalid URL: ${shownValue || where}`);
  }
  try {
    await page.goto(url, { waitUntil: 'load', timeout: actionTimeout(ctx.maxWaitDelay) });
  } catch (error) {
    if (ctx.signal.aborted) throw abortError();
    const shownUrl = shownValue.includes('{{') || where.includes('{{') ? shownValue || where : url;
    throw new StepError(`Could not open ${shownUrl}: ${shortError(error).replace(/ at \S+$/, '')}`);
  }
}

/** `goBack` and `refresh`, waiting for the page to load. */
async function navigate(ctx: StepContext, command: 'goBack' | 'refresh'): Promise<void> {
  const options = { waitUntil: 'load' as const, timeout: actionTimeout(ctx.maxWaitDelay) };
  const go = command === 'goBack' ? ctx.page.goBack(options) : ctx.page.reload(options);
  await go.catch((error: unknown) => {
    throw new StepError(`Could not ${command === 'goBack' ? 'go back' : 'refresh'}: ${shortError(error)}`);
  });
}
