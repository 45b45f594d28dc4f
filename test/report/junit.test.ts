import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { renderJUnit, writeJUnit } from '../../src/report/junit.js';
import { buildReport } from '../../src/report/model.js';
import { cleanText } from '../../src/report/text.js';
import { largeSummary } from './fixtures.js';
import { HOSTILE, SCENARIOS } from './scenarios.js';

const xsd = join(dirname(fileURLToPath(import.meta.url)), 'junit-10-relaxed.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
if (!hasXmllint) console.warn('xmllint is missing (Debian libxml2-utils): XML parsing checks are skipped.');

const tmp = mkdtempSync(join(tmpdir(), 'junit-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Evaluates an XPath string expression on a document with xmllint (a real XML parser). */
function xpath(xml: string, expr: string): string {
  return execFileSync('xmllint', ['--xpath', expr, '-'], { input: xml, maxBuffer: 64 * 1024 * 1024 })
    .toString()
    .replace(/\n$/, '');
}

function render(name: string, policy?: { failOnScreenshotCompare: boolean; failOnTimeout: boolean }) {
  const s = SCENARIOS[name]!();
  return renderJUnit(buildReport(s.summary, policy ?? s.policy, s.attachments));
}

describe('renderJUnit', () => {
  it('writes one testsuite per suite run and unique test case names', () => {
    const xml = render('variants');
    const names = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    expect(names).toHaveLength(12);
    expect(new Set(names).size).toBe(12);
    expect([...xml.matchAll(/<testsuite /g)]).toHaveLength(4);
    expect(xml).toContain('name="Menu [chrome · us-east-1 · 375x667]"');
    expect(xml).toContain('name="Menu [chrome · us-east-1 · 375x667] (2)"');
  });

  it('maps states: failure, error (Timeout / Error), skipped', () => {
    const failures = render('failures');
    expect(failures).toContain(
      '<failure message="Step #5 assertTextPresent .confirmation: Element &quot;.confirmation&quot; not found within 15000 ms" type="StepFailure">',
    );
    expect(failures).toContain('type="TestFailure"');
    const timedOut = render('timed-out');
    expect(timedOut).toMatch(/<error message="Still running[^"]*" type="Timeout">/);
    expect(timedOut).toMatch(/<error message="Execute failed[^"]*" type="Error">/);
    const cancelled = render('cancelled');
    expect([...cancelled.matchAll(/<skipped\/>/g)]).toHaveLength(2);
    expect(cancelled).toContain('Cancelled: The workflow was cancelled');
  });

  it.skipIf(!hasXmllint)(
    'lists steps with outcomes, console errors and the result link in the failure text',
    () => {
      const xml = render('failures');
      const text = xpath(xml, 'string(//testcase[@name="Pay with card"]/failure)');
      expect(text).toContain('#4 failed (optional) click .cookie-banner .close: Element not found');
      expect(text).toContain('#6 not run click a.receipt');
      expect(text).toContain('#2 passed  assign #card = "********"');
      expect(text).toContain('Uncaught TypeError: Cannot read properties of null (reading "submit")');
      expect(text).toMatch(/Result: https:\/\/app\.ghostinspector\.com\/results\/\w+/);
      expect(xml).not.toContain('4111111111111111');
    },
  );

  it.skipIf(!hasXmllint)(
    'reports a failed screenshot comparison as a failure only under failOnScreenshotCompare',
    () => {
      const strict = render('failures', { failOnScreenshotCompare: true, failOnTimeout: true });
      const lenient = render('failures', { failOnScreenshotCompare: false, failOnTimeout: true });
      const sel = '//testcase[@name="Visual check of the basket"]';
      expect(xpath(strict, `string(${sel}/failure/@type)`)).toBe('ScreenshotComparison');
      expect(xpath(lenient, `count(${sel}/failure)`)).toBe('0');
      expect(xpath(lenient, `string(${sel}/system-out)`)).toContain(
        'Screenshot comparison failed: difference 18.4% (threshold 10%)',
      );
      expect(xpath(lenient, `string(${sel}/properties/property[@name="screenshotComparison"]/@value)`)).toBe(
        'failed',
      );
      expect(strict).toMatch(/<testsuites [^>]*failures="3"/);
      expect(lenient).toMatch(/<testsuites [^>]*failures="2"/);
    },
  );

  it.skipIf(!hasXmllint)('shows a flaky test as passing, its failed attempt in system-out', () => {
    const xml = render('flaky');
    const sel = '//testcase[@name="Search suggestions"]';
    expect(xpath(xml, `count(${sel}/failure | ${sel}/error)`)).toBe('0');
    const out = xpath(xml, `string(${sel}/system-out)`);
    expect(out).toContain('Flaky: passed on attempt 2 of 2 after 1 failed.');
    expect(out).toContain('Attempt 1 (15.9 s): Step #3 assertElementPresent .suggestions li');
    expect(xpath(xml, `string(${sel}/properties/property[@name="flaky"]/@value)`)).toBe('true');
  });

  it.skipIf(!hasXmllint)('writes links and attachments in system-out and variant properties', () => {
    const xml = render('failures');
    const out = xpath(xml, 'string(//testcase[@name="Visual check of the basket"]/system-out)');
    expect(out).toContain('[[ATTACHMENT|ghost-inspector/Checkout/Visual-check.png]]');
    expect(out).toContain('[[ATTACHMENT|ghost-inspector/Checkout/Visual-check.comparison.png]]');
    for (const label of ['Result: ', 'Suite result: ', 'Start URL: ', 'End URL: ', 'Video: ']) {
      expect(out).toContain(label);
    }
    for (const name of ['browser', 'region', 'viewport', 'resultId', 'suiteResultId']) {
      expect(xpath(xml, `count(//testcase[1]/properties/property[@name="${name}"])`)).toBe('1');
    }
  });

  it.skipIf(!hasXmllint)(
    'keeps hostile service text whole and well-formed (CDATA ends, controls, surrogates)',
    () => {
      const xml = render('hostile-text');
      execFileSync('xmllint', ['--noout', '--schema', xsd, '-'], {
        input: xml,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const failure = xpath(xml, 'string(//testcase[1]/failure)');
      const expected = cleanText(HOSTILE).replace(/\r\n?/g, '\n');
      expect(failure).toContain(`Error ${expected}`);
      // Step sentence (command, target, error), test error, step line (command, target, error), console error.
      expect(failure.split(expected).length - 1).toBe(8);
      expect(failure.split(']]>').length - 1).toBe(16);
      expect(failure).not.toContain('hunter2');
    },
  );

  it.skipIf(!hasXmllint)('stays valid for a large run (2,000 results)', () => {
    const report = buildReport(largeSummary(2000), { failOnScreenshotCompare: false, failOnTimeout: true });
    const xml = renderJUnit(report);
    execFileSync('xmllint', ['--noout', '--schema', xsd, '-'], {
      input: xml,
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(xpath(xml, 'count(//testcase)')).toBe('2000');
    expect(xpath(xml, 'string(/testsuites/@failures)')).toBe('200');
  });
});

describe('writeJUnit', () => {
  it('creates the folder and writes the XML', async () => {
    const s = SCENARIOS['all-passing']!();
    const report = buildReport(s.summary, s.policy);
    const path = join(tmp, 'nested', 'deeper', 'junit.xml');
    await writeJUnit(report, path);
    expect(readFileSync(path, 'utf8')).toBe(renderJUnit(report));
  });
});
