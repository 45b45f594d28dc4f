/**
 * Assertion steps of the browser executor: element presence and visibility, text, JavaScript. Each retries
 * until it holds or `maxWaitDelay` passes.
 */
import type { Step } from '../../emulator/api-types.js';
import {
  elementText,
  findElement,
  firstPresent,
  playwrightSelector,
  poll,
  quoteShort,
  runScript,
  StepError,
  textMatches,
  type StepContext,
  type StepParts,
} from './browser-dom.js';

/** True when the first element of any selector is visible. */
async function anyVisible(ctx: StepContext, selectors: string[]): Promise<boolean> {
  for (const s of selectors)
    if (await ctx.page.locator(playwrightSelector(s)).first().isVisible()) return true;
  return false;
}

/** Runs an assertion step; false when the step is not an assertion. Throws a StepError when it fails. */
export async function runAssertion(ctx: StepContext, step: Step, parts: StepParts): Promise<boolean> {
  const { page } = ctx;
  const { value, selectors, where, shownValue } = parts;
  switch (step.command) {
    case 'assertElementPresent':
      await findElement(ctx, selectors, where);
      return true;
    case 'assertElementNotPresent': {
      const gone = await poll(
        async () => ((await firstPresent(page, selectors)) ? undefined : true),
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!gone) throw new StepError(`Element is present: ${where}`);
      return true;
    }
    case 'assertElementVisible': {
      await findElement(ctx, selectors, where);
      const visible = await poll(
        async () => ((await anyVisible(ctx, selectors)) ? true : undefined),
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!visible) throw new StepError(`Element not visible: ${where}`);
      return true;
    }
    case 'assertElementNotVisible': {
      const hidden = await poll(
        async () => ((await anyVisible(ctx, selectors)) ? undefined : true),
        ctx.maxWaitDelay,
        ctx.signal,
      );
      if (!hidden) throw new StepError(`Element is visible: ${where}`);
      return true;
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
      return true;
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
      return true;
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
      return true;
    }
    default:
      return false;
  }
}
