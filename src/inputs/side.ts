/**
 * Conversion of recorder `.side` documents into Ghost Inspector tests in the native JSON format
 * (docs/api-contract.md, "Test definitions (repository test files)"). Pure; unsupported commands are
 * reported, never silently dropped, except those in `IGNORED_COMMANDS`.
 */
import type { SideDocument, TestDefinition } from '../api/types.js';

type StepDefinition = TestDefinition['steps'][number];

/** A conversion problem; the message names the recorder test, the command and its place. */
export class SideConversionError extends Error {}

/** Recorder commands without meaning in a hosted run; they are skipped. */
const IGNORED_COMMANDS: ReadonlySet<string> = new Set([
  'setWindowSize',
  'echo',
  'close',
  'selectFrame',
  'selectWindow',
  'setSpeed',
]);

/** Recorder command → Ghost Inspector step command, for commands whose meaning carries over one to one. */
const SIMPLE: Record<string, string> = {
  click: 'click',
  clickAt: 'click',
  mouseOver: 'mouseOver',
  type: 'assign',
  select: 'select',
  assertText: 'assertText',
  verifyText: 'assertText',
  assertValue: 'assertText',
  verifyValue: 'assertText',
  assertElementPresent: 'assertElementPresent',
  verifyElementPresent: 'assertElementPresent',
  waitForElementPresent: 'assertElementPresent',
  assertElementNotPresent: 'assertElementNotPresent',
  verifyElementNotPresent: 'assertElementNotPresent',
  waitForElementNotPresent: 'assertElementNotPresent',
  waitForElementVisible: 'assertElementVisible',
  assertElementVisible: 'assertElementVisible',
  waitForElementNotVisible: 'assertElementNotVisible',
  assertElementNotVisible: 'assertElementNotVisible',
  goBack: 'goBack',
  refresh: 'refresh',
  storeText: 'extract',
};

/** Recorder special keys (`${KEY_ENTER}`) → key codes, as Ghost Inspector's `keypress` step takes them. */
const KEY_CODES: Record<string, string> = {
  KEY_ENTER: '13',
  KEY_TAB: '9',
  KEY_ESC: '27',
  KEY_ESCAPE: '27',
  KEY_BACKSPACE: '8',
  KEY_DELETE: '46',
  KEY_UP: '38',
  KEY_DOWN: '40',
  KEY_LEFT: '37',
  KEY_RIGHT: '39',
  KEY_SPACE: '32',
};

/**
 * Turns a recorder locator into a Ghost Inspector target: `css=` → CSS, `id=x` → `#x` (or an attribute
 * selector when `x` is not a plain identifier), `name=x` → `[name="x"]`, `xpath=` → the XPath,
 * `linkText=x` → an XPath on the link's text; a bare string is kept as is.
 */
export function convertLocator(locator: string): string {
  const match = /^([a-zA-Z]+)=(.*)$/s.exec(locator);
  if (!match) return locator;
  const [, kind, rest] = match as unknown as [string, string, string];
  switch (kind) {
    case 'css':
    case 'xpath':
      return rest;
    case 'id':
      return /^[A-Za-z_][\w-]*$/.test(rest) ? `#${rest}` : `[id=${JSON.stringify(rest)}]`;
    case 'name':
      return `[name=${JSON.stringify(rest)}]`;
    case 'linkText':
      return `//a[normalize-space(.)=${xpathLiteral(rest)}]`;
    case 'partialLinkText':
      return `//a[contains(normalize-space(.), ${xpathLiteral(rest)})]`;
    default:
      return locator;
  }
}

function xpathLiteral(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  return `concat(${text
    .split('"')
    .map((part) => `"${part}"`)
    .join(`, '"', `)})`;
}

/** Resolves an `open` target against the document's base URL; absolute targets are kept. */
function resolveUrl(target: string, base: string): string {
  try {
    return new URL(target, base || undefined).toString();
  } catch {
    return target;
  }
}

/**
 * An `open` target under a base-URL override, as Selenium IDE runs a recorder file against another base URL:
 * a relative target is appended to the base (`/login` under `https://staging.test/app` gives
 * `https://staging.test/app/login`); an absolute target on the document's own site moves to the base.
 * @returns the URL to open, and whether an absolute target was moved
 */
export function rebaseOpenTarget(
  target: string,
  documentUrl: string,
  baseUrl: string,
): { url: string; moved: boolean } {
  const base = baseUrl.replace(/\/+$/, '');
  if (target.startsWith('//')) return { url: resolveUrl(target, baseUrl), moved: false };
  if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    const rest = target === '' ? '/' : /^[/?#]/.test(target) ? target : `/${target}`;
    return { url: base + rest, moved: false };
  }
  let own: URL;
  let url: URL;
  try {
    own = new URL(documentUrl);
    url = new URL(target);
  } catch {
    return { url: target, moved: false };
  }
  if (url.origin !== own.origin) return { url: target, moved: false };
  const ownPath = own.pathname.replace(/\/+$/, '');
  const inside = url.pathname === ownPath || url.pathname.startsWith(`${ownPath}/`);
  const path = inside ? url.pathname.slice(ownPath.length) : url.pathname;
  return { url: `${base}${path || '/'}${url.search}${url.hash}`, moved: true };
}

function step(command: string, target: string, value = '', variableName = ''): StepDefinition {
  return {
    sequence: 0,
    command,
    target,
    value,
    variableName,
    condition: null,
    optional: false,
    private: false,
  };
}

export interface SideConversionOptions {
  /** A base-URL override (the `start-url` input) for `open` targets; absent: the document's `url`. */
  startUrl?: string;
  /** Called for each absolute `open` target on the document's own site that was moved to `startUrl`. */
  onRebase?: (testName: string, from: string, to: string) => void;
}

/**
 * Converts one recorder document into native JSON tests, one per recorder test; the first `open` is the
 * start URL, later ones are `open` steps.
 * @throws SideConversionError for a command with no Ghost Inspector equivalent, or a test with no start URL
 */
export function convertSideDocument(
  side: SideDocument,
  options: SideConversionOptions = {},
): TestDefinition[] {
  const documentUrl = side.url ?? '';
  const { startUrl, onRebase } = options;
  return side.tests.map((test) => {
    const openUrl = (target: string): string => {
      if (startUrl === undefined) return resolveUrl(target, documentUrl);
      const { url, moved } = rebaseOpenTarget(target, documentUrl, startUrl);
      if (moved) onRebase?.(test.name, target, url);
      return url;
    };
    return convertSideTest(test, startUrl ?? documentUrl, openUrl);
  });
}

function convertSideTest(
  test: SideDocument['tests'][number],
  baseUrl: string,
  openUrl: (target: string) => string,
): TestDefinition {
  const steps: StepDefinition[] = [];
  let startUrl = '';
  test.commands.forEach((entry, index) => {
    const command = entry.command ?? '';
    const target = entry.target ?? '';
    const value = entry.value ?? '';
    if (command === '' || command.startsWith('//')) return; // disabled or empty command
    if (IGNORED_COMMANDS.has(command)) return;
    const fail = (reason: string): never => {
      throw new SideConversionError(`test "${test.name}", command ${index + 1} "${command}": ${reason}`);
    };
    if (command === 'open') {
      const url = openUrl(target);
      if (!startUrl && steps.length === 0) startUrl = url;
      else steps.push(step('open', url));
      return;
    }
    if (command in SIMPLE) {
      const giCommand = SIMPLE[command];
      if (giCommand === 'extract') steps.push(step('extract', convertLocator(target), '', value));
      else if (giCommand === 'select')
        steps.push(step('select', convertLocator(target), value.replace(/^label=/, '')));
      else steps.push(step(giCommand, convertLocator(target), value));
      return;
    }
    switch (command) {
      case 'sendKeys': {
        const key = /^\$\{(KEY_[A-Z_]+)\}$/.exec(value);
        if (key) {
          const code = KEY_CODES[key[1]];
          if (!code) fail(`special key ${value} is not supported`);
          steps.push(step('keypress', convertLocator(target), code));
        } else {
          steps.push(step('assign', convertLocator(target), value));
        }
        return;
      }
      case 'pause':
        steps.push(step('pause', '', String(Number(target || value) || 0)));
        return;
      case 'store':
        steps.push(step('store', '', target, value));
        return;
      case 'executeScript':
      case 'runScript':
        steps.push(step('eval', '', target, value));
        return;
      case 'assertTitle':
      case 'verifyTitle':
        steps.push(step('assertEval', '', `return document.title === ${JSON.stringify(target)};`));
        return;
      case 'assertTextPresent':
      case 'verifyTextPresent':
        steps.push(step('assertTextPresent', 'body', target));
        return;
      default:
        fail('no Ghost Inspector equivalent; edit the test or export it in the native JSON format');
    }
  });
  if (!startUrl) startUrl = baseUrl;
  if (!startUrl) {
    throw new SideConversionError(
      `test "${test.name}": no start URL: add an open command or the document url`,
    );
  }
  steps.forEach((s, i) => (s.sequence = i));
  return { name: test.name, startUrl, steps };
}
