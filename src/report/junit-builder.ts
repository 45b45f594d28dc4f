/**
 * JUnit documents through junit-report-builder's public API; what it cannot write (Surefire reruns,
 * `<skipped message>`, `<testsuites time>`) is added to the built text by a CDATA-aware tag scan (docs/junit.md).
 */
import junitReportBuilder, { type Builder, type TestCase, type TestSuite } from 'junit-report-builder';

export interface Rerun {
  /** Surefire's element for an earlier attempt: `flakyFailure` when the test passed at last. */
  element: 'flakyFailure' | 'rerunFailure';
  /** One line: what failed. */
  message: string;
  /** `StepFailure`, `TestFailure`, `Error`. */
  type: string;
  /** Details (several lines), written as `<stackTrace>`. */
  stackTrace: string;
  /** Written as the rerun's own `<system-out>` (links of that attempt). */
  systemOut?: string;
}

/** What a test case gets beyond the library's API. */
export interface TestCaseExtras {
  /** Written as `message` on `<skipped>` (the case must be `skipped()`). */
  skippedMessage?: string;
  /** Earlier attempts, oldest first, written before `<system-out>` as Surefire does. */
  reruns: Rerun[];
}

/** The library's ready builder, whichever way its CommonJS default export arrives (Node, bundler). */
const loaded: Builder | { default: Builder } = junitReportBuilder;
const stock: Builder = 'default' in loaded ? loaded.default : loaded;

/** Text for the library's CDATA sections: xmlbuilder splits only the first `]]>`, the rest are split here. */
export function cdataText(text: string): string {
  const first = text.indexOf(']]>');
  if (first < 0) return text;
  return text.slice(0, first + 3) + text.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>');
}

/** A JUnit document: suites and test cases of the library, plus {@link TestCaseExtras} per test case. */
export class JUnitReport {
  private readonly builder: Builder = stock.newBuilder();
  private readonly suites: Array<{ suite: TestSuite; extras: TestCaseExtras[] }> = [];
  private wallTimeSeconds?: number;

  constructor(name: string) {
    this.builder.name(name);
  }

  /** @param seconds the action's wall time in seconds (at most 3 decimals), not the suites' sum */
  time(seconds: number): this {
    this.wallTimeSeconds = seconds;
    return this;
  }

  testSuite(): TestSuite {
    const suite = this.builder.testSuite();
    this.suites.push({ suite, extras: [] });
    return suite;
  }

  /** Adds a test case to a suite of this report. @throws when `suite` is not one of this report's */
  testCase(suite: TestSuite): { testCase: TestCase; extras: TestCaseExtras } {
    const entry = this.suites.find((s) => s.suite === suite);
    if (!entry) throw new Error('JUnitReport.testCase: the suite is not one of this report’s.');
    const extras: TestCaseExtras = { reruns: [] };
    entry.extras.push(extras);
    return { testCase: suite.testCase(), extras };
  }

  /** @returns the document: UTF-8 declaration, pretty printed (two spaces a level) */
  toXml(): string {
    const extras = this.suites.flatMap((s) => s.extras);
    return withExtras(this.builder.build(), extras, this.wallTimeSeconds);
  }
}

function attr(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#x9;')
    .replaceAll('\n', '&#xA;')
    .replaceAll('\r', '&#xD;');
}

/** A CDATA section of any text: every `]]>` split across two sections. */
function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** A rerun element at the depth of a test case's children (6 spaces), as xmlbuilder prints it. */
function rerunXml(r: Rerun): string {
  const out = r.systemOut === undefined ? '' : `\n        <system-out>${cdata(r.systemOut)}</system-out>`;
  return (
    `      <${r.element} message="${attr(r.message)}" type="${attr(r.type)}">\n` +
    `        <stackTrace>${cdata(r.stackTrace)}</stackTrace>${out}\n      </${r.element}>\n`
  );
}

const TAGS =
  /<!\[CDATA\[[\s\S]*?\]\]>|<testsuites\b[^>]*>|<testcase\b(?:\s+[\w:-]+="[^"]*")*\s*(\/?)>|<\/testcase>|<skipped\/>|<system-(?:out|err)>/g;

/** Adds the extras, the n-th to the n-th `<testcase>` (the library writes them in the order they were made). */
function withExtras(xml: string, extras: TestCaseExtras[], wallTimeSeconds: number | undefined): string {
  const edits: Array<{ at: number; cut: number; text: string }> = [];
  let index = -1;
  let current: TestCaseExtras | undefined;
  let rerunsAt: number | undefined;
  for (const m of xml.matchAll(TAGS)) {
    const tag = m[0];
    const at = m.index;
    if (tag.startsWith('<![CDATA[')) continue;
    if (tag.startsWith('<testsuites')) {
      const time = wallTimeSeconds === undefined ? '' : ` time="${wallTimeSeconds}"`;
      edits.push({ at, cut: tag.length, text: tag.replace(/ skipped="\d+"/, time) });
    } else if (tag.startsWith('<testcase')) {
      current = extras[(index += 1)];
      rerunsAt = undefined;
      if (m[1] === '/' && current?.reruns.length) {
        const reruns = current.reruns.map(rerunXml).join('');
        edits.push({ at, cut: tag.length, text: `${tag.slice(0, -2)}>\n${reruns}    </testcase>` });
      }
    } else if (tag === '<skipped/>' && current?.skippedMessage !== undefined) {
      edits.push({ at, cut: tag.length, text: `<skipped message="${attr(current.skippedMessage)}"/>` });
    } else if (tag.startsWith('<system-') || tag === '</testcase>') {
      if (rerunsAt === undefined && current?.reruns.length) {
        rerunsAt = xml.lastIndexOf('\n', at) + 1;
        edits.push({ at: rerunsAt, cut: 0, text: current.reruns.map(rerunXml).join('') });
      }
    }
  }
  let out = xml;
  for (const e of edits.reverse()) out = out.slice(0, e.at) + e.text + out.slice(e.at + e.cut);
  return out;
}
