/**
 * JUnit checks shared by the report, end-to-end and reliability tests: validation against the Jenkins xUnit
 * `junit-10.xsd` as it is (this folder, unmodified) with xmllint (Debian `libxml2-utils`, which CI installs;
 * a missing xmllint fails the check), XPath read in-process (`xpath` over `@xmldom/xmldom`), and a reading of
 * the file the way a consumer does (mikepenz/action-junit-report: a test case with `<failure>` or `<error>`
 * and no `<skipped>` failed, one with `<skipped>` was skipped, the rest passed; `<flakyFailure>` elements
 * are retries), with a different XML library (fast-xml-parser) than the one that wrote it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { DOMParser } from '@xmldom/xmldom';
import { XMLParser } from 'fast-xml-parser';
import * as xpathLib from 'xpath';
import type { Counts } from '../../src/run/outcome/outcome.js';

/** The Jenkins xUnit plugin's JUnit schema (MIT), unmodified. */
export const JUNIT_XSD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'junit-10.xsd');

/**
 * Validates a JUnit document against {@link JUNIT_XSD} with xmllint. The `file` attribute of `<testcase>`
 * (pytest's and jest-junit's, read by the JUnit publishing actions and GitLab) is not in that schema: it is
 * checked to be a workspace-relative path and taken off before validation.
 * @returns xmllint's complaints, '' when valid
 * @throws when xmllint is not installed (Debian `libxml2-utils`)
 */
export function schemaErrors(xml: string): string {
  // The document just checked (the world checks every run's file; a test may check it again) is not again.
  if (last?.xml !== xml) last = { xml, errors: validate(xml) };
  return last.errors;
}
let last: { xml: string; errors: string } | undefined;

function validate(xml: string): string {
  const files = [...xml.matchAll(/<testcase\b[^>]*?\sfile="([^"]*)"/g)].map((m) => m[1] ?? '');
  const absolute = files.find((f) => f === '' || f.startsWith('/') || f.split('/').includes('..'));
  if (absolute !== undefined) return `<testcase file="${absolute}"> is not relative to the workspace`;
  const r = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, '-'], {
    input: xml.replace(/(<testcase\b[^>]*?)\sfile="[^"]*"/g, '$1'),
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error)
    throw new Error(`xmllint is needed to validate JUnit (Debian libxml2-utils): ${r.error.message}`);
  const out = `${r.stdout.toString()}${r.stderr.toString()}`.replace(/^- validates\n$/, '');
  return r.status === 0 ? '' : out || `xmllint exited with ${r.status}`;
}

/**
 * Parses an XML document in-process.
 * @throws on a document that is not well-formed, with the parser's message
 */
export function parseXml(xml: string): ReturnType<DOMParser['parseFromString']> {
  return new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`not well-formed XML: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
}

/** Evaluates an XPath 1.0 expression that gives a string or a number (`string(…)`, `count(…)`), as text. */
export function xpath(xml: string, expr: string): string {
  // xmldom's document is a DOM Node at run time; its own types do not say so.
  const doc = parseXml(xml) as unknown as Parameters<typeof xpathLib.select>[1];
  const value = xpathLib.select(expr, doc);
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new Error(`${expr} selects nodes: wrap it in string() or count()`);
}

/** What a consumer counts in a JUnit file. */
export interface ConsumerCounts {
  tests: number;
  /** Test cases with `<failure>` or `<error>` and no `<skipped>`. */
  failed: number;
  /** …of which with `<error>` only (Jenkins shows these apart). */
  errors: number;
  skipped: number;
  passed: number;
  /** Passing test cases with at least one `<flakyFailure>`. */
  flaky: number;
  /** `<flakyFailure>` elements (mikepenz's "retries"). */
  retries: number;
  /** `<rerunFailure>` elements. */
  reruns: number;
  /** `<testsuites time>`, seconds. */
  time: number;
}

type Node = Record<string, unknown>;

const LISTS = new Set([
  'testsuite',
  'testcase',
  'failure',
  'error',
  'skipped',
  'flakyFailure',
  'rerunFailure',
]);

/**
 * Reads a JUnit document as mikepenz/action-junit-report does (`xml-js` compact form; here fast-xml-parser
 * in the same shape) and counts what it shows.
 */
export function consumerCounts(xml: string): ConsumerCounts {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => LISTS.has(name),
  });
  const doc = parser.parse(xml) as Node;
  const root = (doc.testsuites ?? { testsuite: doc.testsuite }) as Node;
  const counts: ConsumerCounts = {
    tests: 0,
    failed: 0,
    errors: 0,
    skipped: 0,
    passed: 0,
    flaky: 0,
    retries: 0,
    reruns: 0,
    time: Number(root.time ?? NaN),
  };
  const visit = (suite: Node): void => {
    for (const child of (suite.testsuite as Node[] | undefined) ?? []) visit(child);
    for (const tc of (suite.testcase as Node[] | undefined) ?? []) {
      counts.tests += 1;
      const failure = Array.isArray(tc.failure) && tc.failure.length > 0;
      const error = Array.isArray(tc.error) && tc.error.length > 0;
      const skipped = Array.isArray(tc.skipped) && tc.skipped.length > 0;
      const flaky = (tc.flakyFailure as unknown[] | undefined)?.length ?? 0;
      counts.retries += flaky;
      counts.reruns += (tc.rerunFailure as unknown[] | undefined)?.length ?? 0;
      if (skipped) counts.skipped += 1;
      else if (failure || error) {
        counts.failed += 1;
        if (!failure) counts.errors += 1;
      } else {
        counts.passed += 1;
        if (flaky > 0) counts.flaky += 1;
      }
    }
  };
  visit(root);
  return counts;
}

/** The verdict's counts by state (`Counts` of `src/run/outcome/outcome.ts`; the action's count outputs). */
export type StateCounts = Omit<Counts, 'screenshotCompareFailed'>;

/**
 * What a consumer must count, given the verdict's counts and the tests (results.json `results`, or the
 * report model's tests): failed = failed + error + timed out (+ tests that passed but whose failed
 * screenshot comparison fails the run, when the counts do not already hold them as failed); skipped =
 * cancelled; flaky = flaky tests not failed that way.
 */
export function expectedConsumerCounts(
  counts: StateCounts,
  tests: Iterable<{ state: string; failing: boolean; countedAs?: string }>,
): Partial<ConsumerCounts> {
  // Tests whose comparison fails them but that the counts still hold as passed / flaky (a verdict that
  // counts them as `failed`, `countedAs`, needs no correction).
  let comparePassed = 0;
  let compareFlaky = 0;
  for (const t of tests) {
    if (!t.failing || t.countedAs === 'failed') continue;
    if (t.state === 'passed') comparePassed += 1;
    if (t.state === 'flaky') compareFlaky += 1;
  }
  return {
    tests: counts.total,
    failed: counts.failed + counts.error + counts.timedOut + comparePassed + compareFlaky,
    errors: counts.error + counts.timedOut,
    skipped: counts.cancelled,
    passed: counts.passed + counts.flaky - comparePassed - compareFlaky,
    flaky: counts.flaky - compareFlaky,
  };
}
