/**
 * The browser recorder's HTML test format (the Selenium IDE table), both ways (docs/api-contract.md, "Test definitions (repository test files)": `import-test/recorder-html` and the test/suite `export/recorder-html/` endpoints: "an XHTML document:
 * a table with one row per step of command, target, value").
 *
 * Shape: `<link rel="selenium.base" href="...">` gives the base URL, `<title>` and the `<thead>` cell give
 * the test name, and each `<tbody>` row holds three cells: command, target, value. Line breaks inside a
 * cell are written as `<br />`. Command and locator mapping: `recorder-commands.ts`.
 */
import { parse, HTMLElement, TextNode, type Node } from 'node-html-parser';
import type { Step } from '../api-types.js';
import { commandToStep, stepToCommand, type PortableStep } from './recorder-commands.js';

/** A test as `testToRecorderHtml` reads it. */
export interface RecorderHtmlTest {
  name: string;
  startUrl: string;
  steps: Array<Pick<Step, 'sequence' | 'command' | 'target' | 'value' | 'variableName' | 'notes'>>;
}

/** A test as `recorderHtmlToTest` returns it (steps in import form, no `_id`). */
export interface RecorderHtmlImportedTest {
  name: string;
  startUrl: string;
  steps: PortableStep[];
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Cell text: escaped, line breaks as `<br />`. */
function cell(text: string): string {
  return text.split(/\r?\n/).map(escapeXml).join('<br />');
}

/**
 * Renders one test as a well-formed XHTML recorder document: one row per step (in `sequence` order) of
 * command, target, value, as the service writes it; the start URL is the `selenium.base` link.
 */
export function testToRecorderHtml(test: RecorderHtmlTest): string {
  const steps = [...test.steps].sort((a, b) => a.sequence - b.sequence);
  const rows = steps.map((s) => stepToCommand(s));
  const name = escapeXml(test.name);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">',
    '<head profile="http://selenium-ide.openqa.org/profiles/test-case">',
    '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />',
    `<link rel="selenium.base" href="${escapeXml(test.startUrl)}" />`,
    `<title>${name}</title>`,
    '</head>',
    '<body>',
    '<table cellpadding="1" cellspacing="1" border="1">',
    '<thead>',
    `<tr><td rowspan="1" colspan="3">${name}</td></tr>`,
    '</thead><tbody>',
    ...rows.map(
      (r) =>
        `<tr>\n\t<td>${cell(r.command)}</td>\n\t<td>${cell(r.target)}</td>\n\t<td>${cell(r.value)}</td>\n</tr>`,
    ),
    '</tbody></table>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The text of a cell: entities decoded, `<br>` as a line break. */
function cellText(node: Node): string {
  let out = '';
  for (const child of node.childNodes) {
    if (child instanceof TextNode) out += child.text;
    else if (child instanceof HTMLElement) out += child.tagName === 'BR' ? '\n' : cellText(child);
  }
  return out;
}

/**
 * Parses a recorder HTML test. The start URL is the first row's `open` target resolved against the
 * `selenium.base` link, or the base itself when the first row is not `open`.
 * Throws an Error when the document has no steps table, a row does not hold three cells, a command is not
 * supported, or no start URL can be found.
 */
export function recorderHtmlToTest(html: string): RecorderHtmlImportedTest {
  const root = parse(html, { comment: false, blockTextElements: { script: false, style: false } });
  const table = root.querySelector('table');
  if (!table) throw new Error('Invalid recorder HTML: no <table> of steps found');
  const base = root.querySelector('link[rel="selenium.base"]')?.getAttribute('href')?.trim() ?? '';
  const headCell = table.querySelector('thead td, thead th');
  const title = root.querySelector('title');
  const name = (headCell ? cellText(headCell) : '').trim() || (title ? cellText(title) : '').trim();
  if (name === '')
    throw new Error('Invalid recorder HTML: the test name is missing (<thead> cell or <title>)');
  const bodyRows = table.querySelectorAll('tbody tr');
  const rows =
    bodyRows.length > 0 ? bodyRows : table.querySelectorAll('tr').filter((r) => !r.closest('thead'));
  const steps: PortableStep[] = [];
  let startUrl = '';
  rows.forEach((row, i) => {
    const cells = row.querySelectorAll('td');
    const where = `row ${i + 1} of test "${name}"`;
    if (cells.length !== 3) {
      throw new Error(
        `Invalid recorder HTML: ${where} has ${cells.length} cells; expected 3 (command, target, value)`,
      );
    }
    const [command, target, value] = cells.map((c) => cellText(c));
    const step = commandToStep(
      { command: (command ?? '').trim(), target: target ?? '', value: value ?? '' },
      steps.length,
      base,
      where,
    );
    if (!step) return;
    if (step.command === 'open' && startUrl === '' && steps.length === 0) {
      startUrl = step.value;
      return;
    }
    steps.push(step);
  });
  if (startUrl === '') startUrl = base;
  if (startUrl === '') {
    throw new Error(
      'Invalid recorder HTML: no start URL (neither a <link rel="selenium.base" href="..."> nor a first open row)',
    );
  }
  return { name, startUrl, steps };
}
