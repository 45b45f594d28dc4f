/**
 * What junit-report-builder cannot write, added to its XML with a DOM (`@xmldom/xmldom`), never by editing
 * the text: Surefire's rerun elements (`<flakyFailure>`, `<rerunFailure>`, … each with `<stackTrace>` and
 * `<system-out>`), a `message` on `<skipped>`, and the `<testsuites>`
 * attributes the Jenkins xUnit `junit-10.xsd` wants: `time` (the action's wall time, seconds) and no
 * `skipped` attribute (the schema forbids it there; each `<testsuite>` keeps its own).
 *
 * Test cases are matched by document order: the n-th `<testcase>` of the document gets the n-th entry of
 * the extras list. The builder's indentation (two spaces a level) is kept.
 */
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { Document, Element, Node } from '@xmldom/xmldom';

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

/** What one `<testcase>` gets beyond the builder's output. */
export interface CaseExtras {
  /** Sets `message` on the test case's `<skipped>` element. */
  skippedMessage?: string;
  /** Earlier attempts, oldest first. */
  reruns: Rerun[];
}

const INDENT = '  ';

/**
 * Finishes the builder's XML.
 * @param xml the document junit-report-builder wrote (`<testsuites>` root, pretty printed)
 * @param wallTimeSeconds the action's wall time in seconds (at most 3 decimals), for `<testsuites time>`
 * @param extras one entry per `<testcase>`, in document order (missing entries add nothing)
 * @returns the finished document, UTF-8 declaration kept
 * @throws Error when the XML does not parse (a bug: the builder's output always does)
 */
export function finishJUnit(xml: string, wallTimeSeconds: number, extras: CaseExtras[]): string {
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`JUnit XML did not parse: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  if (!root || root.tagName !== 'testsuites') throw new Error('JUnit XML has no <testsuites> root.');
  root.removeAttribute('skipped');
  root.setAttribute('time', String(wallTimeSeconds));

  const cases = doc.getElementsByTagName('testcase');
  for (let i = 0; i < cases.length; i += 1) {
    const testCase = cases.item(i);
    const extra = extras[i];
    if (!testCase || !extra) continue;
    if (extra.skippedMessage !== undefined) {
      const skipped = firstChild(testCase, 'skipped');
      if (skipped) skipped.setAttribute('message', extra.skippedMessage);
    }
    if (extra.reruns.length > 0) addReruns(doc, testCase, extra.reruns);
  }
  return new XMLSerializer().serializeToString(doc);
}

function firstChild(parent: Element, tagName: string): Element | null {
  for (let n: Node | null = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.ELEMENT_NODE && (n as Element).tagName === tagName) return n as Element;
  }
  return null;
}

/** Nesting depth of an element below the document (the root is 0). */
function depth(element: Element): number {
  let d = 0;
  for (let n = element.parentNode; n && n.nodeType === n.ELEMENT_NODE; n = n.parentNode) d += 1;
  return d;
}

/** Inserts the reruns before `<system-out>` (Surefire's order), else after the last child element. */
function addReruns(doc: Document, testCase: Element, reruns: Rerun[]): void {
  const inner = `\n${INDENT.repeat(depth(testCase) + 1)}`;
  const outer = `\n${INDENT.repeat(depth(testCase))}`;
  const before = firstChild(testCase, 'system-out') ?? firstChild(testCase, 'system-err');
  if (!testCase.firstChild) testCase.appendChild(doc.createTextNode(outer));
  for (const rerun of reruns) {
    const element = rerunElement(doc, rerun, inner);
    if (before) {
      testCase.insertBefore(element, before);
      testCase.insertBefore(doc.createTextNode(inner), before);
    } else {
      const closing = testCase.lastChild!;
      testCase.insertBefore(doc.createTextNode(inner), closing);
      testCase.insertBefore(element, closing);
    }
  }
}

function rerunElement(doc: Document, rerun: Rerun, indent: string): Element {
  const element = doc.createElement(rerun.element);
  element.setAttribute('message', rerun.message);
  element.setAttribute('type', rerun.type);
  const children: Array<[string, string]> = [['stackTrace', rerun.stackTrace]];
  if (rerun.systemOut) children.push(['system-out', rerun.systemOut]);
  for (const [name, text] of children) {
    element.appendChild(doc.createTextNode(indent + INDENT));
    const child = doc.createElement(name);
    appendCdata(doc, child, text);
    element.appendChild(child);
  }
  element.appendChild(doc.createTextNode(indent));
  return element;
}

/** Text as CDATA; a `]]>` inside is split over two sections (`]]` | `>`), so the text survives whole. */
function appendCdata(doc: Document, parent: Element, text: string): void {
  const parts = text.split(']]>');
  parts.forEach((part, i) => {
    const head = i > 0 ? '>' : '';
    const tail = i < parts.length - 1 ? ']]' : '';
    parent.appendChild(doc.createCDATASection(head + part + tail));
  });
}
