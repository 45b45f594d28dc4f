import { describe, expect, it } from 'vitest';
import {
  convertLocator,
  convertSideDocument,
  rebaseOpenTarget,
  SideConversionError,
} from '../../../src/inputs/side.js';
import type { SideDocument } from '../../../emulator/api-types.js';

function doc(
  commands: SideDocument['tests'][number]['commands'],
  url = 'https://shop.example.test',
): SideDocument {
  return {
    id: 'd',
    version: '2.0',
    name: 'D',
    url,
    tests: [{ id: 't', name: 'T', commands }],
    suites: [],
    plugins: [],
  };
}

describe('convertLocator', () => {
  it('maps recorder locators to Ghost Inspector targets', () => {
    expect(convertLocator('css=.btn > a')).toBe('.btn > a');
    expect(convertLocator('id=login')).toBe('#login');
    expect(convertLocator('id=a.b')).toBe('[id="a.b"]');
    expect(convertLocator('name=q')).toBe('[name="q"]');
    expect(convertLocator('xpath=//div[1]')).toBe('//div[1]');
    expect(convertLocator('linkText=Sign in')).toBe('//a[normalize-space(.)="Sign in"]');
    expect(convertLocator('#plain')).toBe('#plain');
  });
});

describe('convertSideDocument', () => {
  it('turns the first open into the start URL and maps commands to steps in sequence', () => {
    const [test] = convertSideDocument(
      doc([
        { command: 'open', target: '/cart', value: '' },
        { command: 'setWindowSize', target: '1280x800', value: '' },
        { command: 'click', target: 'css=.add', value: '' },
        { command: 'type', target: 'name=qty', value: '2' },
        { command: 'select', target: 'id=size', value: 'label=Large' },
        { command: 'assertText', target: 'css=.total', value: '$20' },
        { command: 'storeText', target: 'css=.total', value: 'total' },
        { command: 'pause', target: '500', value: '' },
        { command: 'open', target: 'https://other.example.test/x', value: '' },
      ]),
    );
    expect(test!.startUrl).toBe('https://shop.example.test/cart');
    expect(test!.steps.map((s) => [s.sequence, s.command, s.target, s.value, s.variableName])).toEqual([
      [0, 'click', '.add', '', ''],
      [1, 'assign', '[name="qty"]', '2', ''],
      [2, 'select', '#size', 'Large', ''],
      [3, 'assertText', '.total', '$20', ''],
      [4, 'extract', '.total', '', 'total'],
      [5, 'pause', '', '500', ''],
      [6, 'open', 'https://other.example.test/x', '', ''],
    ]);
  });

  it('reports a command without equivalent with the test and position', () => {
    expect(() =>
      convertSideDocument(
        doc([
          { command: 'open', target: '/', value: '' },
          { command: 'dragAndDropToObject', target: 'a', value: 'b' },
        ]),
      ),
    ).toThrow(SideConversionError);
    expect(() =>
      convertSideDocument(
        doc([
          { command: 'open', target: '/', value: '' },
          { command: 'dragAndDropToObject', target: 'a', value: 'b' },
        ]),
      ),
    ).toThrow('test "T", command 2 "dragAndDropToObject"');
  });

  it('falls back on the document URL, and needs one', () => {
    expect(convertSideDocument(doc([{ command: 'click', target: 'id=x', value: '' }]))[0]!.startUrl).toBe(
      'https://shop.example.test',
    );
    expect(() => convertSideDocument(doc([{ command: 'click', target: 'id=x', value: '' }], ''))).toThrow(
      'start URL',
    );
  });
});

describe('convertSideDocument with a start URL (base-URL override)', () => {
  const commands: SideDocument['tests'][number]['commands'] = [
    { command: 'open', target: '/login', value: '' },
    { command: 'click', target: 'id=go', value: '' },
    { command: 'open', target: '/cart?x=1', value: '' },
    { command: 'open', target: 'https://shop.example.test/account#top', value: '' },
    { command: 'open', target: 'https://other.example.test/x', value: '' },
    { command: 'open', target: 'help', value: '' },
  ];

  it('resolves relative opens against the start URL, first open included, and rebases own-site ones', () => {
    const moved: string[] = [];
    const [test] = convertSideDocument(doc(commands), {
      startUrl: 'https://staging.test/app/',
      onRebase: (name, from, to) => moved.push(`${name}: ${from} -> ${to}`),
    });
    expect(test!.startUrl).toBe('https://staging.test/app/login');
    expect(test!.steps.filter((s) => s.command === 'open').map((s) => s.target)).toEqual([
      'https://staging.test/app/cart?x=1',
      'https://staging.test/app/account#top',
      'https://other.example.test/x',
      'https://staging.test/app/help',
    ]);
    expect(moved).toEqual([
      'T: https://shop.example.test/account#top -> https://staging.test/app/account#top',
    ]);
  });

  it('without a start URL, behaviour is unchanged: opens resolve against the document url', () => {
    const [test] = convertSideDocument(doc(commands));
    expect(test!.startUrl).toBe('https://shop.example.test/login');
    expect(test!.steps.filter((s) => s.command === 'open').map((s) => s.target)).toEqual([
      'https://shop.example.test/cart?x=1',
      'https://shop.example.test/account#top',
      'https://other.example.test/x',
      'https://shop.example.test/help',
    ]);
  });

  it('rebases own-site paths under the document url path, and a test without open starts at the start URL', () => {
    expect(rebaseOpenTarget('https://shop.test/app/a?b', 'https://shop.test/app', 'https://s.test')).toEqual({
      url: 'https://s.test/a?b',
      moved: true,
    });
    expect(rebaseOpenTarget('https://shop.test/else', 'https://shop.test/app', 'https://s.test/v2/')).toEqual(
      {
        url: 'https://s.test/v2/else',
        moved: true,
      },
    );
    expect(rebaseOpenTarget('', 'https://shop.test', 'https://s.test')).toEqual({
      url: 'https://s.test/',
      moved: false,
    });
    const [test] = convertSideDocument(doc([{ command: 'click', target: 'id=go', value: '' }]), {
      startUrl: 'https://s.test/',
    });
    expect(test!.startUrl).toBe('https://s.test/');
  });
});
