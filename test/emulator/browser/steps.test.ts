import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserExecutor, defaultWaitScale } from '../../../demo/executor/browser.js';
import { ACTION_FLOOR_MS } from '../../../demo/executor/browser-dom.js';
import { BROWSER_TIMEOUT_MS, hasChromium, request, step } from '../../support/browser-request.js';
import { startSite, type TestSite } from '../../support/browser-site.js';

const FORM = `<!doctype html><html><head><title>Form</title></head><body>
<h1 id="title">Order form</h1>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Submitted ' + document.getElementById('name').value + ' / ' + document.getElementById('size').value;">
  <input id="name" name="name" />
  <select id="size"><option value="s">Small</option><option value="l">Large</option></select>
  <input id="agree" type="checkbox" />
  <button id="go" type="submit">Go</button>
</form>
<p id="out"></p>
<p id="hidden" style="display:none">Hidden text</p>
<div id="menu" onmouseover="this.textContent = 'Menu open'">Menu</div>
<p id="price" data-v="42">Price: $42</p>
<a id="next" href="/t/second">Next page</a>
<button id="later" onclick="setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'Arrived late'; document.body.appendChild(p); }, 300)">Later</button>
</body></html>`;

/** A button that is enabled 2.5 s after the page loads: clicking it waits for it. */
const LATE_ENABLED = `<!doctype html><html><body>
<button id="go" disabled onclick="document.getElementById('out').textContent = 'Clicked'">Go</button>
<p id="out"></p>
<script>setTimeout(() => { document.getElementById('go').disabled = false; }, 2500);</script>
</body></html>`;

const SECOND = `<!doctype html><html><head><title>Second</title></head><body><h1 id="title">Second page</h1></body></html>`;

describe.skipIf(!hasChromium)('browser executor: step commands', { timeout: BROWSER_TIMEOUT_MS }, () => {
  let site: TestSite;
  let executor: BrowserExecutor;
  beforeAll(async () => {
    site = await startSite({ form: FORM, second: SECOND, 'late-enabled': LATE_ENABLED });
    executor = new BrowserExecutor({ maxConcurrent: 2 });
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await executor?.close();
    await site?.close();
  }, BROWSER_TIMEOUT_MS);

  it('runs actions and assertions that pass, recording date and URL per step', async () => {
    const start = `${site.url}/t/form`;
    const before = Date.now();
    const outcome = await executor.run(
      request(start, [
        step('assertElementPresent', '#title'),
        step('assertText', '#title', 'Order form'),
        step('assertTextPresent', '', 'Price: $42'),
        step('assertTextNotPresent', '', 'Sold out'),
        step('assertElementNotPresent', '#missing'),
        step('assertElementVisible', '#menu'),
        step('assertElementNotVisible', '#hidden'),
        step('assign', '#name', 'Ada'),
        step('select', '#size', 'Large'),
        step('assign', '#agree', 'true'),
        step('click', '#go'),
        step('assertText', '#out', 'Submitted Ada / l'),
        step('assertEval', '', 'return document.getElementById("agree").checked === true;'),
        step('mouseOver', '#menu'),
        step('assertText', '#menu', 'Menu open'),
        step('click', '#later'),
        step('assertText', '#late', 'Arrived late'),
        step('click', '#next'),
        step('assertText', '#title', 'Second page'),
        step('goBack'),
        step('assertText', '#title', 'Order form'),
        step('open', '', '/t/second'),
        step('assertTextPresent', '#title', 'Second'),
      ]),
    );
    expect(outcome.steps.map((s) => [s.step.command, s.passing, s.error])).toEqual(
      outcome.steps.map((s) => [s.step.command, true, undefined]),
    );
    expect(outcome.passing).toBe(true);
    expect(outcome.error).toBeUndefined();
    for (const s of outcome.steps) {
      expect(Date.parse(s.dateExecuted!)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(outcome.steps[0]?.url).toBe(start);
    expect(outcome.steps[18]?.url).toBe(`${site.url}/t/second`);
    expect(outcome.steps[21]?.url).toBe(`${site.url}/t/second`);
    expect(outcome.urls).toEqual([start, `${site.url}/t/second`, start, `${site.url}/t/second`]);
    expect(outcome.endUrl).toBe(`${site.url}/t/second`);
  });

  it('fails at a failing assertion with a clear error and skips the rest', async () => {
    const outcome = await executor.run(
      request(`${site.url}/t/form`, [step('assertText', '#price', 'Price: $40'), step('click', '#go')], {
        maxWaitDelay: 300,
        disableVisuals: false,
      }),
    );
    expect(outcome.passing).toBe(false);
    expect(outcome.steps[0]).toMatchObject({
      passing: false,
      error: 'Text "Price: $40" not found in #price; found "Price: $42"',
    });
    expect(outcome.steps[1]?.passing).toBeNull();
    expect(outcome.steps[1]?.dateExecuted).toBeUndefined();
    expect(outcome.screenshot).toBeInstanceOf(Buffer);
  });

  it('reports the failure of each command clearly', async () => {
    const cases: Array<[command: string, target: string, value: string, error: string]> = [
      ['click', '#buy', '', 'Element not found: #buy'],
      ['assertElementPresent', '//div[@id="nope"]', '', 'Element not found: //div[@id="nope"]'],
      ['assertElementNotPresent', '#title', '', 'Element is present: #title'],
      ['assertElementVisible', '#hidden', '', 'Element not visible: #hidden'],
      ['assertElementNotVisible', '#menu', '', 'Element is visible: #menu'],
      ['assertTextPresent', '', 'Sold out', 'Text "Sold out" not present on the page'],
      ['assertTextNotPresent', '', 'Order form', 'Text "Order form" is present on the page'],
      ['assertEval', '', 'return 1 + 1 === 3', 'JavaScript returned false, expected true'],
      ['execute', '', 'throw new Error("boom")', 'JavaScript error: Error: boom'],
      ['frobnicate', '#title', '', 'Unsupported step command "frobnicate"'],
    ];
    // Each a run of its own, two at a time (the executor's limit): the failures wait out their short waits together.
    const outcomes = await Promise.all(
      cases.map(([command, target, value]) =>
        executor.run(request(`${site.url}/t/form`, [step(command, target, value)], { maxWaitDelay: 200 })),
      ),
    );
    expect(outcomes.map((o, i) => [cases[i]![0], o.passing, o.steps[0]?.error])).toEqual(
      cases.map(([command, , , error]) => [command, false, error]),
    );
  });

  it('gives a step its own action at least the action floor, whatever is left of its element wait', async () => {
    // The button is there at once but takes 2.5 s to become clickable: a wait of 200 ms finds it, and the
    // click then waits for it (ACTION_FLOOR_MS), as a navigation does, so a busy machine does not fail it.
    const outcome = await executor.run(
      request(`${site.url}/t/late-enabled`, [step('click', '#go'), step('assertText', '#out', 'Clicked')], {
        maxWaitDelay: 200,
      }),
    );
    expect(outcome.steps.map((s) => [s.passing, s.error])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    expect(ACTION_FLOOR_MS).toBeGreaterThan(2500);
  });

  it('multiplies the waits for a condition by the wait scale', async () => {
    const scaled = new BrowserExecutor({ maxConcurrent: 1, waitScale: 20 });
    try {
      // The element comes 1.5 s after the step that adds it: a wait of 300 ms times 20 finds it.
      const outcome = await scaled.run(
        request(
          `${site.url}/t/form`,
          [
            step(
              'execute',
              '',
              'setTimeout(() => { document.body.append(Object.assign(document.createElement("p"), { id: "later-still" })); }, 1500)',
            ),
            step('assertElementPresent', '#later-still'),
          ],
          { maxWaitDelay: 300 },
        ),
      );
      expect(outcome.steps.map((s) => [s.passing, s.error])).toEqual([
        [true, undefined],
        [true, undefined],
      ]);
    } finally {
      await scaled.close();
    }
    expect(() => new BrowserExecutor({ waitScale: 0.5 })).toThrow('waitScale must be at least 1, got 0.5');
    expect(defaultWaitScale({})).toBe(1);
    expect(defaultWaitScale({ BROWSER_WAIT_SCALE: '3' })).toBe(3);
    expect(() => defaultWaitScale({ BROWSER_WAIT_SCALE: 'fast' })).toThrow(
      'BROWSER_WAIT_SCALE must be a number of at least 1, got "fast"',
    );
  });

  it('tries the selectors of a target in order, CSS and XPath', async () => {
    const outcome = await executor.run(
      request(
        `${site.url}/t/form`,
        [
          step('assertText', [{ selector: '#gone' }, { selector: '//h1[@id="title"]' }], 'Order form'),
          step('click', [{ selector: 'xpath=//button[@id="go"]' }]),
          step('assertElementPresent', [{ selector: '#a' }, { selector: '#b' }]),
        ],
        { maxWaitDelay: 300 },
      ),
    );
    expect(outcome.steps.map((s) => s.passing)).toEqual([true, true, false]);
    expect(outcome.steps[2]?.error).toBe('Element not found: #a or #b');
  });

  it('goes on after a failing optional step and skips steps whose condition is false', async () => {
    const outcome = await executor.run(
      request(
        `${site.url}/t/form`,
        [
          step('click', '#cookie-banner', '', { optional: true }),
          step('assign', '#name', 'never', {
            condition: { statement: 'return document.title === "Other";' },
          }),
          step('assign', '#name', 'Grace', { condition: { statement: 'document.title === "Form"' } }),
          step('assertEval', '', 'return document.getElementById("name").value === "Grace"'),
        ],
        { maxWaitDelay: 200 },
      ),
    );
    expect(outcome.passing).toBe(true);
    expect(outcome.steps[0]).toMatchObject({ passing: false, error: 'Element not found: #cookie-banner' });
    expect(outcome.steps[1]).toMatchObject({ passing: null, conditionResult: false });
    expect(outcome.steps[2]).toMatchObject({ passing: true, conditionResult: true });
    expect(outcome.steps[3]?.passing).toBe(true);
  });

  it('substitutes variables and keeps extracted values', async () => {
    const outcome = await executor.run(
      request(
        `${site.url}/t/{{page}}`,
        [
          step('extract', '#price', '', { variableName: 'price' }),
          step('extractEval', '', 'return document.getElementById("price").dataset.v', {
            variableName: 'raw',
          }),
          step('store', '', 'x-{{raw}}', { variableName: 'stored' }),
          step('assign', '{{field}}', '{{who}} {{stored}}'),
          step('click', '#go'),
          step('assertText', '#out', 'Submitted Ada Lovelace x-42 / s'),
          step('assertText', '#price', '{{price}}'),
          step('assertText', '#price', '/\\$\\d+/'),
        ],
        { variables: { page: 'form', field: '#name', who: 'Ada Lovelace' } },
      ),
    );
    expect(outcome.steps.map((s) => s.error)).toEqual(outcome.steps.map(() => undefined));
    expect(outcome.extractions).toEqual({ price: 'Price: $42', raw: '42', stored: 'x-42' });
  });

  it('keeps variable values out of step errors and reports condition errors', async () => {
    const outcome = await executor.run(
      request(
        `${site.url}/t/form`,
        [
          step('assertText', '{{where}}', 'token {{secret}}', { optional: true }),
          step('click', '#{{secret}}', '', { optional: true }),
          step('click', '#go', '', { condition: { statement: 'return undefinedThing.x' } }),
        ],
        { maxWaitDelay: 200, variables: { secret: 'hunter2', where: '#price' } },
      ),
    );
    expect(outcome.steps.map((s) => s.error)).toEqual([
      'Text "token {{secret}}" not found in {{where}}; found "Price: $42"',
      'Element not found: #{{secret}}',
      'Condition: JavaScript error: ReferenceError: undefinedThing is not defined',
    ]);
    expect(JSON.stringify(outcome)).not.toContain('hunter2');
  });

  it('presses keys and pauses', async () => {
    const outcome = await executor.run(
      request(`${site.url}/t/form`, [
        step('assign', '#name', 'Key'),
        step('keypress', '#name', '13'),
        step('assertText', '#out', 'Submitted Key'),
        step('pause', '', '200'),
        step('keypress', '', 'Tab'),
      ]),
    );
    expect(outcome.steps.map((s) => s.passing)).toEqual([true, true, true, true, true]);
    const paused = Date.parse(outcome.steps[4]!.dateExecuted!) - Date.parse(outcome.steps[3]!.dateExecuted!);
    expect(paused).toBeGreaterThanOrEqual(190);
  });

  it('records console output, errors and page errors; failOnJavaScriptError fails the run', async () => {
    const steps = [
      step('execute', '', 'console.log("hello from the page"); console.error("bad thing")'),
      // The page marks the moment it throws; waiting for the mark (not a pause) lets a busy machine
      // deliver the error before the run ends.
      step(
        'execute',
        '',
        'setTimeout(() => { document.body.dataset.thrown = "1"; throw new Error("late failure"); }, 0)',
      ),
      step('assertElementPresent', 'body[data-thrown]'),
    ];
    const lenient = await executor.run(request(`${site.url}/t/form`, steps));
    expect(lenient.passing).toBe(true);
    expect(lenient.console.map((c) => [c.output, c.error])).toEqual([
      ['hello from the page', false],
      ['bad thing', true],
      ['Uncaught late failure', true],
    ]);
    expect(lenient.console[0]?.url).toBe(`${site.url}/t/form`);
    const strict = await executor.run(request(`${site.url}/t/form`, steps, { failOnJavaScriptError: true }));
    expect(strict.passing).toBe(false);
    expect(strict.error).toBe('JavaScript error on the page: Uncaught late failure');
    expect(strict.steps.every((s) => s.passing === true)).toBe(true);
  });
});
