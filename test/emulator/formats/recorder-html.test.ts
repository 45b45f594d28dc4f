import { describe, expect, it } from 'vitest';
import { parseXml } from '../../support/junit.js';
import { recorderHtmlToTest, testToRecorderHtml } from '../../../emulator/formats/recorder-html.js';

const legacy = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
<head profile="http://selenium-ide.openqa.org/profiles/test-case">
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<link rel="selenium.base" href="https://shop.example/" />
<title>Buy a hat</title>
</head>
<body>
<table cellpadding="1" cellspacing="1" border="1">
<thead>
<tr><td rowspan="1" colspan="3">Buy a hat</td></tr>
</thead><tbody>
<tr><td>open</td><td>/products.html</td><td></td></tr>
<tr><td>clickAndWait</td><td>link=Hats &amp; caps</td><td></td></tr>
<tr><td>type</td><td>id=qty</td><td>2</td></tr>
<tr><td>verifyTextPresent</td><td>Total: $30 &lt;incl. tax&gt;</td><td></td></tr>
<tr><td>assertTextNotPresent</td><td>Out of stock</td><td></td></tr>
<tr><td>store</td><td>line one<br />line two</td><td>note</td></tr>
<tr><td>select</td><td>css=#size</td><td>label=Large</td></tr>
</tbody></table>
</body>
</html>`;

describe('recorder HTML', () => {
  it('parses the recorder table format', () => {
    const test = recorderHtmlToTest(legacy);
    expect(test.name).toBe('Buy a hat');
    expect(test.startUrl).toBe('https://shop.example/products.html');
    expect(test.steps.map((s) => [s.command, s.target, s.value, s.variableName])).toEqual([
      ['click', '//a[normalize-space(.)="Hats & caps"]', '', ''],
      ['assign', '#qty', '2', ''],
      ['assertTextPresent', '', 'Total: $30 <incl. tax>', ''],
      ['assertTextNotPresent', '', 'Out of stock', ''],
      ['store', '', 'line one\nline two', 'note'],
      ['select', '#size', 'Large', ''],
    ]);
  });

  it('writes well-formed XHTML that reads back to the same test', () => {
    const original = {
      name: 'Cart <total> & "tax"',
      startUrl: 'https://shop.example/cart.html?a=1&b=2',
      steps: [
        { sequence: 1, command: 'assertText', target: '#total', value: 'Total: $30', variableName: '' },
        { sequence: 0, command: 'click', target: 'a[href="/x"]', value: '', variableName: '' },
        {
          sequence: 2,
          command: 'eval',
          target: '',
          value: 'if (a < b && c) {\n  go();\n}',
          variableName: '',
        },
        { sequence: 3, command: 'assertTextPresent', target: '', value: "It's 5 > 4", variableName: '' },
      ],
    };
    const html = testToRecorderHtml(original);
    expect(html).toContain('<link rel="selenium.base" href="https://shop.example/cart.html?a=1&amp;b=2" />');
    expect(html).toContain('<td>click</td>');
    expect(() => parseXml(html)).not.toThrow();
    const back = recorderHtmlToTest(html);
    expect(back.name).toBe(original.name);
    expect(back.startUrl).toBe(original.startUrl);
    expect(back.steps.map((s) => [s.sequence, s.command, s.target, s.value])).toEqual([
      [0, 'click', 'a[href="/x"]', ''],
      [1, 'assertText', '#total', 'Total: $30'],
      [2, 'eval', '', 'if (a < b && c) {\n  go();\n}'],
      [3, 'assertTextPresent', '', "It's 5 > 4"],
    ]);
  });

  it('is well-formed XHTML', () => {
    const html = testToRecorderHtml({ name: 'n', startUrl: 'https://a.example/', steps: [] });
    expect(html.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(() => parseXml(html)).not.toThrow();
  });

  it('rejects documents without a table, with bad rows or without a start URL', () => {
    expect(() => recorderHtmlToTest('<html><body><p>hi</p></body></html>')).toThrow(/no <table> of steps/);
    expect(() =>
      recorderHtmlToTest(
        '<link rel="selenium.base" href="https://a.example"/><table><thead><tr><td>T</td></tr></thead><tbody><tr><td>click</td><td>#a</td></tr></tbody></table>',
      ),
    ).toThrow(/row 1 of test "T" has 2 cells; expected 3/);
    expect(() =>
      recorderHtmlToTest(
        '<table><thead><tr><td>T</td></tr></thead><tbody><tr><td>click</td><td>#a</td><td></td></tr></tbody></table>',
      ),
    ).toThrow(/no start URL/);
    expect(() =>
      recorderHtmlToTest(
        '<link rel="selenium.base" href="https://a.example"/><table><tbody><tr><td>click</td><td>#a</td><td></td></tr></tbody></table>',
      ),
    ).toThrow(/test name is missing/);
  });
});
