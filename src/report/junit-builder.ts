/**
 * JUnit documents through junit-report-builder's public API; what it cannot write (Surefire reruns,
 * `<skipped message>`, `<testsuites time>`) is added to each test case's element as it is built (docs/architecture.md).
 */
import junitReportBuilder, { type Builder, type TestCase, type TestSuite } from 'junit-report-builder';

export interface Rerun {
  /** Surefire's element for an earlier attempt: `flakyFailure` when the test passed at last. */
  element: 'flakyFailure' | 'rerunFailure';
  /** One line: what failed. */
  message: string;
  /** `StepFailure`, `TestFailure`, `Error`. */
  type: string;
  /** Details (several lines), written as `<stackTrace>`; CDATA text like the library's ({@link cdataText}). */
  stackTrace: string;
  /** Written as the rerun's own `<system-out>` (links of that attempt); CDATA text too. */
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

/**
 * A JUnit document: suites and test cases of the library, plus {@link TestCaseExtras} per test case. Each
 * suite is a document of its own until the whole is written: one suite's XML tree at a time, never the
 * tree of thousands of test cases (docs/performance.md, "Memory").
 */
export class JUnitReport {
  /** One builder per suite, in order; each is let go once its suite is written. */
  private suites: Builder[] = [];

  constructor(private readonly name: string) {}

  testSuite(): TestSuite {
    const builder = stock.newBuilder().name(this.name);
    this.suites.push(builder);
    return builder.testSuite();
  }

  /** Adds a test case to `suite`; its extras are written when the document is built. */
  testCase(suite: TestSuite): { testCase: TestCase; extras: TestCaseExtras } {
    const testCase = suite.testCase();
    const extras: TestCaseExtras = { reruns: [] };
    const build = testCase.build.bind(testCase);
    testCase.build = (parent) => withExtras(build(parent), extras);
    return { testCase, extras };
  }

  /**
   * The document, the library's text for all suites at once: each suite's lines as the library writes
   * them inside `<testsuites>`, under a `<testsuites>` whose counts are the suites' sums. Once only: the
   * suites are let go as they are written.
   * @param seconds the action's wall time in seconds (at most 3 decimals), not the suites' sum
   * @returns the document: UTF-8 declaration, pretty printed (two spaces a level)
   */
  toXml(seconds?: number): string {
    const time = seconds === undefined ? '' : ` time="${seconds}"`;
    const withTime = (tag: string): string => tag.replace(/ skipped="\d+"/, time);
    const suites = this.suites;
    this.suites = [];
    if (suites.length === 0) {
      return stock
        .newBuilder()
        .name(this.name)
        .build()
        .replace(/<testsuites\b[^>]*>/, withTime);
    }
    const counts = { tests: 0, failures: 0, errors: 0 };
    let head = '';
    const bodies: string[] = [];
    // Each suite's builder (and its test cases) is let go once its text is made.
    for (let suite = suites.shift(); suite; suite = suites.shift()) {
      const text = suite.build();
      const open = /<testsuites\b[^>]*>\n/.exec(text)!;
      for (const key of Object.keys(counts) as Array<keyof typeof counts>) {
        counts[key] += Number(new RegExp(` ${key}="(\\d+)"`).exec(open[0])![1]);
      }
      head ||= text.slice(0, open.index + open[0].length);
      bodies.push(text.slice(open.index + open[0].length, text.lastIndexOf('</testsuites>')));
    }
    const root = head.replace(/ (tests|failures|errors)="\d+"/g, (_, key: keyof typeof counts) => {
      return ` ${key}="${counts[key]}"`;
    });
    return `${withTime(root)}${bodies.join('')}</testsuites>`;
  }
}

type XmlElement = ReturnType<TestCase['build']>;

/** Adds a skipped message and the reruns (before `<system-out>`, as Surefire writes them) to a built test case. */
function withExtras(testCase: XmlElement, extras: TestCaseExtras): XmlElement {
  const children = testCase.children as XmlElement[];
  const out = children.find((c) => c.name === 'system-out');
  for (const r of extras.reruns) {
    const attributes = { message: r.message, type: r.type };
    const rerun = out ? out.insertBefore(r.element, attributes) : testCase.ele(r.element, attributes);
    rerun.ele('stackTrace').cdata(r.stackTrace);
    if (r.systemOut !== undefined) rerun.ele('system-out').cdata(r.systemOut);
  }
  const skipped = children.find((c) => c.name === 'skipped');
  if (skipped && extras.skippedMessage !== undefined) skipped.att('message', extras.skippedMessage);
  return testCase;
}
