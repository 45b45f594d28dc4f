/**
 * junit-report-builder 5, extended through its own classes with what it cannot write: Surefire's rerun
 * elements (`<flakyFailure>`, `<rerunFailure>`, … each with `<stackTrace>` and `<system-out>`), a `message`
 * on `<skipped>`, and the `<testsuites>` attributes the Jenkins xUnit `junit-10.xsd` wants: `time` (the
 * action's wall time, seconds) and no `skipped` attribute (the schema forbids it there; each `<testsuite>`
 * keeps its own). Each node's `build` adds its extras to the xmlbuilder element the library made (the
 * library's own dependency, reached through the elements it returns): no second XML library, no editing of
 * the text.
 *
 * junit-report-builder 5 exports only a ready builder, not its classes (`TestCase`, `TestSuite`, their base
 * `TestGroup`, `Factory` are in its typings only): the classes are taken from the nodes that builder makes,
 * and `<testsuites>` is our own `TestGroup`, as the library's `TestSuites` is.
 *
 * Text for CDATA sections (system-out, failure and error bodies, rerun texts) is written whole: xmlbuilder
 * splits only the first `]]>` of a CDATA text, every later one is split here.
 */
import junitReportBuilder from 'junit-report-builder';
import type { Builder, TestCase, TestSuite } from 'junit-report-builder';
import type { Factory } from 'junit-report-builder/dist/factory.js';
import type { TestGroup } from 'junit-report-builder/dist/test_group.js';

/** The xmlbuilder element a node's `build` returns. */
type XmlElement = ReturnType<TestCase['build']>;
type XmlNode = XmlElement['children'][number];

/**
 * Surefire's elements for earlier attempts: `flakyFailure` when the test passed at last, `rerunFailure`
 * when it did not (Surefire also has `flakyError`/`rerunError`, which fewer consumers read).
 */
export type RerunElement = 'flakyFailure' | 'flakyError' | 'rerunFailure' | 'rerunError';

/** One earlier attempt of a test, as a Surefire rerun element. */
export interface Rerun {
  element: RerunElement;
  /** One line: what failed. */
  message: string;
  /** `StepFailure`, `TestFailure`, `Error`. */
  type: string;
  /** Details (several lines), written as `<stackTrace>`. */
  stackTrace: string;
  /** Written as the rerun's own `<system-out>` (links of that attempt). */
  systemOut?: string;
}

/** The builder instance, whichever way the CommonJS default export arrives (Node, bundler, test runner). */
const stockBuilder: Builder =
  (junitReportBuilder as unknown as { default?: Builder }).default ??
  (junitReportBuilder as unknown as Builder);
const probe = stockBuilder.newBuilder();
const TestCaseBase = probe.testCase().constructor as new () => TestCase;
const TestSuiteBase = probe.testSuite().constructor as new (factory: Factory) => TestSuite;
const TestGroupBase = Object.getPrototypeOf(TestSuiteBase) as typeof TestGroup;

/**
 * Text xmlbuilder writes whole into a CDATA section: it splits the first `]]>` itself (`]]]]><![CDATA[>`),
 * every later one is split here the same way.
 */
function cdataText(text: string): string {
  const first = text.indexOf(']]>');
  if (first < 0) return text;
  return text.slice(0, first + 3) + text.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>');
}

function childElement(parent: XmlElement, name: string): XmlElement | undefined {
  return parent.children.find((n: XmlNode): n is XmlElement => 'name' in n && n.name === name);
}

/** A `<testcase>` that also writes a skipped message and Surefire's rerun elements. */
export class JUnitTestCase extends TestCaseBase {
  private skippedMessage?: string;
  private readonly reruns: Rerun[] = [];

  /**
   * Marks the test case skipped.
   * @param message written as `message` on `<skipped>` when given
   */
  override skipped(message?: string): this {
    if (message !== undefined) this.skippedMessage = message;
    return super.skipped();
  }

  /**
   * Adds an earlier attempt, written before `<system-out>` as Surefire does (oldest first).
   * @param rerun the attempt
   */
  rerun(rerun: Rerun): this {
    this.reruns.push(rerun);
    return this;
  }

  override stacktrace(stacktrace?: string): this {
    return super.stacktrace(stacktrace === undefined ? undefined : cdataText(stacktrace));
  }

  override error(message?: string, type?: string, content?: string): this {
    return super.error(message, type, content === undefined ? undefined : cdataText(content));
  }

  override standardOutput(log?: string): this {
    return super.standardOutput(log === undefined ? undefined : cdataText(log));
  }

  override standardError(log?: string): this {
    return super.standardError(log === undefined ? undefined : cdataText(log));
  }

  override build(parentElement: XmlElement): XmlElement {
    const element = super.build(parentElement);
    if (this.skippedMessage !== undefined) {
      childElement(element, 'skipped')?.att('message', this.skippedMessage);
    }
    const before = childElement(element, 'system-out') ?? childElement(element, 'system-err');
    for (const rerun of this.reruns) {
      const attributes = { message: rerun.message, type: rerun.type };
      const added = before
        ? before.insertBefore(rerun.element, attributes)
        : element.ele(rerun.element, attributes);
      added.ele('stackTrace').cdata(cdataText(rerun.stackTrace));
      if (rerun.systemOut) added.ele('system-out').cdata(cdataText(rerun.systemOut));
    }
    return element;
  }
}

/** A `<testsuite>` whose test cases are {@link JUnitTestCase}s. */
export class JUnitTestSuite extends TestSuiteBase {
  override testCase(): JUnitTestCase {
    const testCase = new JUnitTestCase();
    this._children.push(testCase);
    return testCase;
  }
}

/** The `<testsuites>` root: `time` is the wall time given, and it has no `skipped` attribute. */
export class JUnitTestSuites extends TestGroupBase {
  private wallTimeSeconds?: number;

  constructor(factory: Factory) {
    super(factory, 'testsuites');
  }

  /** @returns a new `<testsuite>` */
  testSuite(): JUnitTestSuite {
    const suite = new JUnitTestSuite(this._factory);
    this._children.push(suite);
    return suite;
  }

  /**
   * Sets `time`, written after the counts.
   * @param timeInSeconds the action's wall time in seconds (at most 3 decimals), not the suites' sum
   */
  override time(timeInSeconds: number): this {
    this.wallTimeSeconds = timeInSeconds;
    return this;
  }

  override build(parentElement?: XmlElement): XmlElement {
    const element = super.build(parentElement);
    element.removeAttribute('skipped');
    if (this.wallTimeSeconds !== undefined) element.att('time', this.wallTimeSeconds);
    return element;
  }

  /** @returns the document: UTF-8 declaration, pretty printed (two spaces a level) */
  toXml(): string {
    return this.build().end({ pretty: true });
  }
}

/** The library's factory, making the extended nodes (a `JUnitReportBuilder` would write its own root). */
const factory: Factory = {
  newBuilder: () => {
    throw new Error('JUnit reports start at newJUnitReport(), not at a junit-report-builder builder.');
  },
  newTestSuites: () => new JUnitTestSuites(factory),
  newTestSuite: () => new JUnitTestSuite(factory),
  newTestCase: () => new JUnitTestCase(),
};

/**
 * Starts a JUnit document.
 * @returns an empty `<testsuites>` root; add suites with `testSuite()`, write with `toXml()`
 */
export function newJUnitReport(): JUnitTestSuites {
  return new JUnitTestSuites(factory);
}
