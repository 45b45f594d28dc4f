/**
 * junit-builder.ts: junit-report-builder extended with what it cannot write (Surefire rerun elements,
 * `<skipped message>`, `<testsuites time>` without `skipped`), read back with xmllint.
 */
import { describe, expect, it } from 'vitest';

import { newJUnitReport } from '../../../src/report/junit-builder.js';
import { schemaErrors, xpath } from '../../support/junit.js';

/** Two test cases: `a` with nothing of its own, `b` skipped with a `<system-out>`. */
function twoCases() {
  const suites = newJUnitReport().name('Ghost Inspector');
  const suite = suites.testSuite().name('S');
  const a = suite.testCase().className('S').name('a');
  const b = suite.testCase().className('S').name('b');
  b.standardOutput('out');
  return { suites, a, b };
}

describe('newJUnitReport', () => {
  it('adds reruns to an empty test case, a skipped message, the wall time', () => {
    const { suites, a, b } = twoCases();
    suites.time(9.7);
    a.rerun({
      element: 'flakyFailure',
      message: 'Attempt 1 of 2: <b>',
      type: 'StepFailure',
      stackTrace: 'ends ]]> and ]]> again',
      systemOut: 'Result: x',
    });
    b.skipped('Cancelled: by the workflow');
    const xml = suites.toXml();
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
    const { suites, b } = twoCases();
    b.skipped();
    const xml = suites.time(1.5).toXml();
    expect(xml).toContain(
      '\n<testsuites name="Ghost Inspector" tests="2" failures="0" errors="0" time="1.5">\n',
    );
    expect(xml).toContain('<skipped/>');
  });

  it('puts reruns before <system-out>, as Surefire does, oldest first', () => {
    const { suites, b } = twoCases();
    b.skipped();
    b.rerun({ element: 'rerunFailure', message: 'm1', type: 'TestFailure', stackTrace: 's' });
    b.rerun({ element: 'rerunFailure', message: 'm2', type: 'TestFailure', stackTrace: 's' });
    const xml = suites.toXml();
    expect(xml.indexOf('<rerunFailure')).toBeGreaterThan(xml.indexOf('<skipped'));
    expect(xml.indexOf('message="m1"')).toBeLessThan(xml.indexOf('message="m2"'));
    expect(xml.indexOf('message="m2"')).toBeLessThan(xml.indexOf('<system-out'));
  });

  it('keeps every ]]> of a CDATA text whole (xmlbuilder splits only the first)', () => {
    const { suites, a, b } = twoCases();
    a.failure('m', 'TestFailure').stacktrace('one ]]> two ]]> three ]]>');
    b.standardOutput('x]]>y]]>z');
    a.standardError(']]>]]>');
    const xml = suites.toXml();
    expect(xml).toContain(
      '<failure message="m" type="TestFailure"><![CDATA[one ]]]]><![CDATA[> two ]]]]><![CDATA[> three ]]]]><![CDATA[>]]></failure>',
    );
    expect(xml).toContain('<system-out><![CDATA[x]]]]><![CDATA[>y]]]]><![CDATA[>z]]></system-out>');
    expect(xml).toContain('<system-err><![CDATA[]]]]><![CDATA[>]]]]><![CDATA[>]]></system-err>');
  });
});
