/**
 * The xUnit.net v2 XML report of a suite result (docs/api-contract.md: `GET /v1/suite-results/{id}/xunit/`).
 */
import type { SuiteResult, TestResult } from './store.js';

function esc(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- XML 1.0 forbids these characters
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/**
 * Renders `<assemblies><assembly><collection><test/>...` for a suite result and its test results: result
 * Pass / Fail / Skip (running or cancelled), time in seconds, the failing step's error as the failure message.
 */
export function suiteResultXunit(suiteResult: SuiteResult, results: TestResult[]): string {
  const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);
  const passed = results.filter((r) => r.passing === true).length;
  const failed = results.filter((r) => r.passing === false).length;
  const skipped = results.length - passed - failed;
  const name = esc(suiteResult.name);
  const tests = results.map((r) => {
    const outcome = r.passing === true ? 'Pass' : r.passing === false ? 'Fail' : 'Skip';
    const attrs = `name="${esc(r.name)}" type="${name}" method="${esc(r.name)}" time="${seconds(r.executionTime)}" result="${outcome}"`;
    if (outcome === 'Pass') return `      <test ${attrs} />`;
    if (outcome === 'Skip') return `      <test ${attrs}><reason><![CDATA[Not finished]]></reason></test>`;
    const step = r.steps.find((s) => s.passing === false && !s.optional);
    const message = r.error?.details ?? step?.error ?? 'The test failed.';
    return `      <test ${attrs}><failure><message>${esc(String(message))}</message></failure></test>`;
  });
  const date = suiteResult.dateExecutionStarted;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<assemblies>',
    `  <assembly name="${name}" test-framework="Ghost Inspector" run-date="${date.slice(0, 10)}" run-time="${date.slice(11, 19)}" time="${seconds(suiteResult.executionTime)}" total="${results.length}" passed="${passed}" failed="${failed}" skipped="${skipped}" errors="0">`,
    `    <collection name="${name}" time="${seconds(suiteResult.executionTime)}" total="${results.length}" passed="${passed}" failed="${failed}" skipped="${skipped}">`,
    ...tests,
    '    </collection>',
    '  </assembly>',
    '</assemblies>',
    '',
  ].join('\n');
}
