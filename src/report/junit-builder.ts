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

/** The counts of a `<testsuites>` element: test cases, those with a `<failure>`, those with an `<error>`. */
export interface JUnitCounts {
  tests: number;
  failures: number;
  errors: number;
}

/**
 * A JUnit document written piece by piece: suites and test cases of the library, plus {@link TestCaseExtras}
 * per test case. Each suite is a document of its own, made into text by {@link JUnitReport.take} and let go:
 * one suite's XML tree at a time, never the tree or the text of thousands of test cases (docs/performance.md,
 * "Memory"). The `<testsuites>` head comes first, so its counts are given up front and checked at the end.
 */
export class JUnitReport {
  /** The suites not yet made into text, in order. */
  private pending: Builder[] = [];
  /** Whether the head was written. */
  private started = false;
  /** What the suites written so far count, summed. */
  private written: JUnitCounts = { tests: 0, failures: 0, errors: 0 };

  /**
   * @param counts what the test cases to come will count, for the head
   * @param seconds the action's wall time in seconds (at most 3 decimals), not the suites' sum
   */
  constructor(
    private readonly name: string,
    private readonly counts: JUnitCounts,
    private readonly seconds?: number,
  ) {}

  testSuite(): TestSuite {
    const builder = stock.newBuilder().name(this.name);
    this.pending.push(builder);
    return builder.testSuite();
  }

  /** Adds a test case to `suite`; its extras are written when its suite is made into text. */
  testCase(suite: TestSuite): { testCase: TestCase; extras: TestCaseExtras } {
    const testCase = suite.testCase();
    const extras: TestCaseExtras = { reruns: [] };
    const build = testCase.build.bind(testCase);
    testCase.build = (parent) => withExtras(build(parent), extras);
    return { testCase, extras };
  }

  /**
   * The text of the suites added since the last call, as the library writes them inside `<testsuites>`
   * (pretty printed, two spaces a level); the first call's text starts with the UTF-8 declaration and the
   * `<testsuites>` head. The suites are let go as they are made into text.
   */
  *take(): Generator<string> {
    for (let suite = this.pending.shift(); suite; suite = this.pending.shift()) {
      const text = suite.build();
      const open = /<testsuites\b[^>]*>\n/.exec(text)!;
      for (const key of Object.keys(this.written) as Array<keyof JUnitCounts>) {
        this.written[key] += Number(new RegExp(` ${key}="(\\d+)"`).exec(open[0])![1]);
      }
      if (!this.started) {
        this.started = true;
        yield this.head(text.slice(0, open.index + open[0].length));
      }
      yield text.slice(open.index + open[0].length, text.lastIndexOf('</testsuites>'));
    }
  }

  /**
   * The end of the document after {@link JUnitReport.take}'s pieces (the whole document when there was no
   * suite). @throws Error when the suites do not count what the constructor was told
   */
  end(): string {
    const rest = [...this.take()].join('');
    const told = countWords(this.counts);
    const found = countWords(this.written);
    if (told !== found) throw new Error(`the JUnit head counts ${told}, its test cases ${found}`);
    if (!this.started) return this.head(stock.newBuilder().name(this.name).build());
    return `${rest}</testsuites>`;
  }

  /** The library's `<testsuites>` head with the given counts and the wall time instead of `skipped`. */
  private head(text: string): string {
    const time = this.seconds === undefined ? '' : ` time="${this.seconds}"`;
    return text.replace(/<testsuites\b[^>]*>/, (tag) =>
      tag
        .replace(
          / (tests|failures|errors)="\d+"/g,
          (_, key: keyof JUnitCounts) => ` ${key}="${this.counts[key]}"`,
        )
        .replace(/ skipped="\d+"/, time),
    );
  }
}

const countWords = (c: JUnitCounts): string => `${c.tests} tests, ${c.failures} failures, ${c.errors} errors`;

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
