import { describe, expect, it } from 'vitest';
import type { Step } from '../../../emulator/api-types.js';
import type { SideDocument } from '../../../emulator/api-types.js';
import { sideToTests, testsToSide } from '../../../emulator/formats/side.js';

function step(sequence: number, command: string, fields: Partial<Step> = {}): Step {
  return {
    _id: `s${sequence}`,
    sequence,
    command,
    target: '',
    value: '',
    variableName: '',
    condition: null,
    optional: false,
    private: false,
    ...fields,
  };
}

const checkout: Step[] = [
  step(0, 'assign', { target: '#user', value: '{{username}}' }),
  step(1, 'click', { target: [{ selector: '#login' }, { selector: '//button[@type="submit"]' }] }),
  step(2, 'assertText', { target: '#total', value: 'Total: $30' }),
  step(3, 'assertTextPresent', { value: 'Welcome' }),
  step(4, 'assertElementPresent', { target: '.cart' }),
  step(5, 'assertElementNotPresent', { target: '.error' }),
  step(6, 'assertElementVisible', { target: '#banner' }),
  step(7, 'extract', { target: '#order', variableName: 'orderId' }),
  step(8, 'store', { value: 'abc', variableName: 'token' }),
  step(9, 'eval', { value: 'console.log(1)' }),
  step(10, 'extractEval', { value: 'return 2', variableName: 'two' }),
  step(11, 'assertEval', { value: 'return true' }),
  step(12, 'pause', { value: '500' }),
  step(13, 'keypress', { target: '#q', value: '13' }),
  step(14, 'select', { target: '#size', value: 'Large' }),
  step(15, 'mouseOver', { target: '#menu' }),
  step(16, 'open', { value: 'https://shop.example/cart.html' }),
];

function portable(steps: Step[]) {
  return steps.map(({ _id: _ignored, ...rest }) => rest);
}

describe('testsToSide / sideToTests', () => {
  it('round-trips tests with every mapped command', () => {
    const doc = testsToSide('Shop', 'https://shop.example/', [
      { _id: 't1', name: 'Checkout', startUrl: 'https://shop.example/index.html', steps: checkout },
      {
        name: 'Home',
        startUrl: 'https://shop.example/',
        steps: [step(0, 'assertTextPresent', { value: 'Shop' })],
      },
    ]);
    expect(doc.version).toBe('2.0');
    expect(doc.url).toBe('https://shop.example/');
    expect(doc.tests.map((t) => t.name)).toEqual(['Checkout', 'Home']);
    expect(doc.tests[0]?.id).toBe('t1');
    expect(doc.suites[0]?.tests).toEqual(doc.tests.map((t) => t.id));
    expect(doc.plugins).toEqual([]);
    // recorder form of a few commands
    const cmds = doc.tests[0]!.commands;
    expect(cmds[0]).toMatchObject({ command: 'open', target: 'https://shop.example/index.html' });
    expect(cmds[1]).toMatchObject({ command: 'type', target: 'css=#user', value: '${username}' });
    expect(cmds[2]).toMatchObject({ command: 'click', target: 'css=#login' });
    expect(cmds[14]).toMatchObject({ command: 'sendKeys', value: '${KEY_ENTER}' });

    const back = sideToTests(JSON.parse(JSON.stringify(doc)) as SideDocument);
    expect(back).toHaveLength(2);
    expect(back[0]).toEqual({
      name: 'Checkout',
      startUrl: 'https://shop.example/index.html',
      steps: portable(checkout),
    });
    expect(back[1]?.steps[0]).toMatchObject({ command: 'assertTextPresent', value: 'Shop', target: '' });
  });

  it('reads a recorder document: locators, relative opens, several tests, variables, comments', () => {
    const doc = {
      id: 'x',
      version: '2.0',
      name: 'Recorded',
      url: 'https://app.example',
      tests: [
        {
          id: 'a',
          name: 'Login',
          commands: [
            { id: '1', command: 'open', target: '/login', value: '' },
            { id: '2', command: 'type', target: 'id=email', value: 'me@example.com' },
            { id: '3', command: 'type', target: 'name=password', value: '${pw}' },
            { id: '4', command: 'click', target: 'linkText=Sign in', value: '', comment: 'submit' },
            { id: '5', command: 'verifyText', target: 'xpath=//h1', value: 'Hello' },
            { id: '6', command: 'storeText', target: 'css=.user', value: 'who' },
            { id: '7', command: 'waitForElementPresent', target: '//div[@id="ok"]', value: '3000' },
            { id: '8', command: '//click', target: 'css=#disabled', value: '' },
            { id: '9', command: 'assertTitle', target: 'Dashboard', value: '' },
            { id: '10', command: 'open', target: '/settings', value: '' },
          ],
        },
        { id: 'b', name: 'Empty', commands: [] },
      ],
      suites: [],
      plugins: [],
    } as SideDocument;
    const [login, empty] = sideToTests(doc);
    expect(login?.startUrl).toBe('https://app.example/login');
    expect(login?.steps.map((s) => [s.command, s.target, s.value, s.variableName])).toEqual([
      ['assign', '#email', 'me@example.com', ''],
      ['assign', '[name="password"]', '{{pw}}', ''],
      ['click', '//a[normalize-space(.)="Sign in"]', '', ''],
      ['assertText', '//h1', 'Hello', ''],
      ['extract', '.user', '', 'who'],
      ['assertElementPresent', '//div[@id="ok"]', '', ''],
      ['assertEval', '', 'return document.title === "Dashboard";', ''],
      ['open', '', 'https://app.example/settings', ''],
    ]);
    expect(login?.steps.map((s) => s.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(login?.steps[2]?.notes).toBe('submit');
    expect(empty).toEqual({ name: 'Empty', startUrl: 'https://app.example', steps: [] });
  });

  it('names the missing or invalid field', () => {
    const bad = (v: unknown) => () => sideToTests(v as SideDocument);
    expect(bad(null)).toThrow(/document must be a JSON object/);
    expect(bad({ url: 'https://a.example' })).toThrow(/"tests" is missing or not an array/);
    expect(bad({ url: 'https://a.example', tests: [] })).toThrow(/"tests" is empty/);
    expect(bad({ url: 3, tests: [] })).toThrow(/"url" must be a string/);
    expect(bad({ url: 'https://a.example', tests: [{ commands: [] }] })).toThrow(/tests\[0\]\.name must be/);
    expect(bad({ url: 'https://a.example', tests: [{ name: 'n' }] })).toThrow(
      /tests\[0\]\.commands is missing/,
    );
    expect(bad({ url: 'https://a.example', tests: [{ name: 'n', commands: [{ target: 'x' }] }] })).toThrow(
      /tests\[0\]\.commands\[0\]\.command must be a string/,
    );
    expect(
      bad({
        url: 'https://a.example',
        tests: [{ name: 'n', commands: [{ command: 'dragAndDropToObject', target: 'a', value: 'b' }] }],
      }),
    ).toThrow(/Unsupported recorder command "dragAndDropToObject" at tests\[0\]\.commands\[0\]/);
    expect(
      bad({ url: '', tests: [{ name: 'n', commands: [{ command: 'click', target: 'css=a', value: '' }] }] }),
    ).toThrow(/no start URL/);
    expect(
      bad({
        url: 'https://a.example',
        tests: [{ name: 'n', commands: [{ command: 'click', target: 'foo=bar', value: '' }] }],
      }),
    ).toThrow(/Unsupported recorder locator strategy "foo"/);
  });
});
