import { describe, expect, it } from 'vitest';

import { finishJUnit } from '../../../src/report/junit-finish.js';
import { hasXmllint, schemaErrors, xpath } from '../../support/junit.js';

const BUILDER_XML = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="Ghost Inspector" tests="2" failures="0" errors="0" skipped="1">
  <testsuite name="S" tests="2" failures="0" errors="0" skipped="1">
    <testcase classname="S" name="a"/>
    <testcase classname="S" name="b">
      <skipped/>
      <system-out><![CDATA[out]]></system-out>
    </testcase>
  </testsuite>
</testsuites>`;

describe('finishJUnit', () => {
  it.skipIf(!hasXmllint)('adds reruns to an empty test case, a skipped message, the wall time', () => {
    const xml = finishJUnit(BUILDER_XML, 9.7, [
      {
        reruns: [
          {
            element: 'flakyFailure',
            message: 'Attempt 1 of 2: <b>',
            type: 'StepFailure',
            stackTrace: 'ends ]]> and ]]> again',
            systemOut: 'Result: x',
          },
        ],
      },
      { skippedMessage: 'Cancelled: by the workflow', reruns: [] },
    ]);
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

  it('puts reruns before <system-out>, as Surefire does', () => {
    const xml = finishJUnit(BUILDER_XML, 1, [
      { reruns: [] },
      {
        reruns: [{ element: 'rerunFailure', message: 'm', type: 'TestFailure', stackTrace: 's' }],
      },
    ]);
    expect(xml.indexOf('<rerunFailure')).toBeGreaterThan(xml.indexOf('<skipped'));
    expect(xml.indexOf('<rerunFailure')).toBeLessThan(xml.indexOf('<system-out'));
  });

  it('refuses XML that does not parse', () => {
    expect(() => finishJUnit('<testsuites><testsuite>', 1, [])).toThrow(/JUnit XML/);
  });
});
