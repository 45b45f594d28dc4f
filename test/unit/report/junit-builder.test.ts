/**
 * junit-builder.ts: junit-report-builder's document with what its API cannot write (Surefire rerun elements,
 * `<skipped message>`, `<testsuites time>` without `skipped`), validated with xmllint and read back.
 */
import { describe, expect, it } from 'vitest';

import { cdataText, JUnitReport } from '../../../src/report/junit-builder.js';
import { schemaErrors, xpath } from '../../support/junit.js';

/**
 * Two test cases, `a` with nothing of its own and `b` with a `<system-out>`, in a document whose head counts
 * `failures` (default none) and the wall time `seconds`.
 */
function twoCases(seconds?: number, failures = 0) {
  const suites = new JUnitReport('Ghost Inspector', { tests: 2, failures, errors: 0 }, seconds);
  const suite = suites.testSuite().name('S');
  const a = suites.testCase(suite);
  const b = suites.testCase(suite);
  a.testCase.className('S').name('a');
  b.testCase.className('S').name('b').standardOutput('out');
  return { suites, a, b };
}

/** The whole document: every suite's text, then its end. */
function xmlOf(suites: JUnitReport): string {
  return [...suites.take(), suites.end()].join('');
}

describe('newJUnitReport', () => {
  it('adds reruns to an empty test case, a skipped message, the wall time', () => {
    const { suites, a, b } = twoCases(9.7);
    a.extras.reruns.push({
      element: 'flakyFailure',
      message: 'Attempt 1 of 2: <b>',
      type: 'StepFailure',
      stackTrace: cdataText('ends ]]> and ]]> again'),
      systemOut: 'Result: x',
    });
    b.testCase.skipped();
    b.extras.skippedMessage = 'Cancelled: by the workflow';
    const xml = xmlOf(suites);
    expect(schemaErrors(xml)).toBe('');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(xpath(xml, 'string(/testsuites/@time)')).toBe('9.7');
    expect(xpath(xml, 'count(/testsuites/@skipped)')).toBe('0');
    expect(xpath(xml, 'string(//testsuite/@skipped)')).toBe('1');
    expect(xpath(xml, 'string(//testcase[1]/flakyFailure/@message)')).toBe('Attempt 1 of 2: <b>');
    expect(xpath(xml, 'string(//testcase[1]/flakyFailure/stackTrace)')).toBe('ends ]]> and ]]> again');
    expect(xpath(xml, 'string(//testcase[1]/flakyFailure/system-out)')).toBe('Result: x');
    expect(xpath(xml, 'string(//testcase[2]/skipped/@message)')).toBe('Cancelled: by the workflow');
    expect(xml).toContain('    <testcase classname="S" name="a">\n      <flakyFailure ');
  });

  it('writes the <testsuites> time after the counts, and no skipped attribute', () => {
    const { suites, b } = twoCases(1.5);
    b.testCase.skipped();
    const xml = xmlOf(suites);
    expect(xml).toContain(
      '\n<testsuites name="Ghost Inspector" tests="2" failures="0" errors="0" time="1.5">\n',
    );
    expect(xml).toContain('<skipped/>');
  });

  it('puts reruns before <system-out>, as Surefire does, oldest first', () => {
    const { suites, b } = twoCases();
    b.testCase.skipped();
    b.extras.reruns.push({ element: 'rerunFailure', message: 'm1', type: 'TestFailure', stackTrace: 's' });
    b.extras.reruns.push({ element: 'rerunFailure', message: 'm2', type: 'TestFailure', stackTrace: 's' });
    const xml = xmlOf(suites);
    expect(xml.indexOf('<rerunFailure')).toBeGreaterThan(xml.indexOf('<skipped'));
    expect(xml.indexOf('message="m1"')).toBeLessThan(xml.indexOf('message="m2"'));
    expect(xml.indexOf('message="m2"')).toBeLessThan(xml.indexOf('<system-out'));
  });

  it('keeps every ]]> of a CDATA text whole (xmlbuilder splits only the first)', () => {
    const { suites, a, b } = twoCases(undefined, 1);
    a.testCase.failure('m', 'TestFailure').stacktrace(cdataText('one ]]> two ]]> three ]]>'));
    b.testCase.standardOutput(cdataText('x]]>y]]>z'));
    a.testCase.standardError(cdataText(']]>]]>'));
    const xml = xmlOf(suites);
    expect(xml).toContain(
      '<failure message="m" type="TestFailure"><![CDATA[one ]]]]><![CDATA[> two ]]]]><![CDATA[> three ]]]]><![CDATA[>]]></failure>',
    );
    expect(xml).toContain('<system-out><![CDATA[x]]]]><![CDATA[>y]]]]><![CDATA[>z]]></system-out>');
    expect(xml).toContain('<system-err><![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]></system-err>');
  });

  it('finds the test cases past CDATA text that looks like tags', () => {
    const { suites, a, b } = twoCases();
    a.testCase.standardOutput('<testcase name="x"/> <skipped/> </testcase> <system-out>');
    b.testCase.skipped();
    b.extras.skippedMessage = 'why';
    b.extras.reruns.push({ element: 'rerunFailure', message: 'm', type: 'Error', stackTrace: 's' });
    const xml = xmlOf(suites);
    expect(schemaErrors(xml)).toBe('');
    expect(xpath(xml, 'string(//testcase[1]/system-out)')).toBe(
      '<testcase name="x"/> <skipped/> </testcase> <system-out>',
    );
    expect(xpath(xml, 'count(//testcase[1]/*)')).toBe('1');
    expect(xpath(xml, 'string(//testcase[2]/skipped/@message)')).toBe('why');
    expect(xpath(xml, 'count(//testcase[2]/rerunFailure)')).toBe('1');
  });

  it('gives the text of each suite when it is taken, after a head that counts every suite to come', () => {
    const suites = new JUnitReport('Ghost Inspector', { tests: 3, failures: 1, errors: 1 }, 2);
    const first = suites.testSuite().name('S1');
    suites.testCase(first).testCase.className('S1').name('a').failure('m', 'TestFailure');
    const head = [...suites.take()].join('');
    expect(head.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(head).toContain('<testsuites name="Ghost Inspector" tests="3" failures="1" errors="1" time="2">');
    expect(head).toContain('name="S1"');
    expect([...suites.take()]).toEqual([]);
    const second = suites.testSuite().name('S2');
    suites.testCase(second).testCase.className('S2').name('b').error('e', 'Error');
    suites.testCase(second).testCase.className('S2').name('c');
    const rest = [...suites.take()].join('');
    expect(rest).toContain('name="S2"');
    expect(rest).not.toContain('name="S1"');
    const xml = head + rest + suites.end();
    expect(schemaErrors(xml)).toBe('');
    expect(xpath(xml, 'count(//testsuite)')).toBe('2');
    expect(xpath(xml, 'count(//testcase)')).toBe('3');
  });

  it('refuses to end a document whose test cases do not count what its head said', () => {
    const { suites, a } = twoCases();
    a.testCase.error('e', 'Error');
    expect(() => xmlOf(suites)).toThrow(
      'the JUnit head counts 2 tests, 0 failures, 0 errors, its test cases 2 tests, 0 failures, 1 errors',
    );
  });

  it('writes a document without suites whole at its end', () => {
    const suites = new JUnitReport('Ghost Inspector', { tests: 0, failures: 0, errors: 0 }, 0.5);
    const xml = xmlOf(suites);
    expect(schemaErrors(xml)).toBe('');
    expect(xpath(xml, 'count(//testsuite)')).toBe('0');
    expect(xpath(xml, 'string(/testsuites/@time)')).toBe('0.5');
  });
});
