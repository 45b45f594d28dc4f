import { describe, expect, it } from 'vitest';
import { convertLocator, convertSideDocument, SideConversionError } from '../../src/run/side.js';
import type { SideDocument } from '../../src/api/types.js';

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
