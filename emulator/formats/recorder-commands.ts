/**
 * Translation between browser-recorder commands (Selenium IDE's `.side` JSON and its older HTML table format)
 * and Ghost Inspector step commands, shared by `side.ts` and `recorder-html.ts`.
 *
 * Contract section: "Suite import and export" (recorder-side and recorder-html import/export).
 *
 * Recorder command                                  Ghost Inspector step
 * open URL                                          open (value = absolute URL)
 * click / clickAt / clickAndWait                    click
 * type / typeAndWait                                assign (target, value)
 * sendKeys `${KEY_ENTER}` (one key)                 keypress (value = key code, e.g. 13); other text: assign
 * select `label=x` / `value=x`                      select (value = x)
 * assertText / verifyText / waitForText             assertText (target, value)
 * assertTextPresent / verifyTextPresent (html)      assertTextPresent (value = text)
 * assertTextNotPresent / verifyTextNotPresent       assertTextNotPresent (value = text)
 * assertElementPresent / verifyElementPresent /     assertElementPresent
 *   waitForElementPresent
 * assertElementNotPresent / verify... / waitFor...  assertElementNotPresent
 * waitForElementVisible / assertVisible             assertElementVisible
 * waitForElementNotVisible / assertNotVisible       assertElementNotVisible
 * assertTitle / verifyTitle                         assertEval (`document.title === "..."`)
 * storeText target var                              extract (target, variableName = var)
 * store value var                                   store (value, variableName = var)
 * executeScript / runScript / storeEval script [var] eval (value = script), or extractEval with a var
 * pause ms                                          pause (value = ms)
 * mouseOver                                         mouseOver
 * goBack / refresh                                  goBack / refresh
 *
 * Commands that Ghost Inspector has and the recorder lacks (assertEval, assertElementVisible written as such,
 * ...) keep their Ghost Inspector name in exports, and imports accept them back as they are. Recorder
 * variables `${name}` become `{{name}}` and back. Locators: `css=`, `xpath=` (or a bare `//...`), `id=`,
 * `name=`, `linkText=`/`link=` and `partialLinkText=` become CSS or XPath selectors; selectors are exported
 * as `css=...` or `xpath=...`.
 */
import type { Step, StepTarget } from '../api-types.js';
import { KEY_CODES, KEY_NAMES, NATIVE_COMMANDS } from './recorder-tables.js';

/** A step in import/export form: no `_id`, no result fields. */
export type PortableStep = Omit<Step, '_id' | 'passing' | 'dateExecuted' | 'url' | 'extra' | 'error'>;

/** One recorder command (the `.side` command shape without its id). */
export interface RecorderCommand {
  command: string;
  target: string;
  value: string;
  comment?: string;
  /** Alternate locators (`.side` `targets`: `[locator, strategy]` pairs). */
  targets?: string[][];
}

/** Escapes a string for use inside a double-quoted CSS attribute value or XPath/JS string. */
function quote(text: string): string {
  return JSON.stringify(text);
}

/** Recorder `${name}` variables to Ghost Inspector `{{name}}` (keys like `${KEY_ENTER}` are left alone). */
export function recorderVarsToSteps(text: string): string {
  return text.replace(/\$\{(?!KEY_)([A-Za-z_][\w.-]*)\}/g, '{{$1}}');
}

/** Ghost Inspector `{{name}}` variables to recorder `${name}`. */
export function stepVarsToRecorder(text: string): string {
  return text.replace(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g, '${$1}');
}

/**
 * Converts one recorder locator to a step selector (CSS, or XPath starting with `/` or `(`).
 * Throws an Error naming the locator when its strategy is unknown.
 */
export function locatorToSelector(locator: string): string {
  const trimmed = locator.trim();
  if (trimmed === '') return '';
  if (trimmed.startsWith('//') || trimmed.startsWith('(/')) return trimmed;
  const match = /^([A-Za-z]+)=(.*)$/s.exec(trimmed);
  if (!match) return trimmed; // a bare locator is taken as CSS
  const strategy = match[1] ?? '';
  const rest = match[2] ?? '';
  switch (strategy) {
    case 'css':
      return rest;
    case 'xpath':
      return rest;
    case 'id':
      return /^[A-Za-z_][\w-]*$/.test(rest) ? `#${rest}` : `[id=${quote(rest)}]`;
    case 'name':
      return `[name=${quote(rest)}]`;
    case 'link':
    case 'linkText':
      return `//a[normalize-space(.)=${xpathLiteral(rest)}]`;
    case 'partialLinkText':
      return `//a[contains(normalize-space(.), ${xpathLiteral(rest)})]`;
    case 'identifier':
      return `[id=${quote(rest)}], [name=${quote(rest)}]`;
    default:
      throw new Error(`Unsupported recorder locator strategy "${strategy}" in "${locator}"`);
  }
}

/** An XPath string literal for any text (XPath 1.0 has no escapes, so mixed quotes use concat()). */
function xpathLiteral(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  return `concat(${text
    .split('"')
    .map((part) => `"${part}"`)
    .join(`, '"', `)})`;
}

/** Converts a step selector to a recorder locator (`xpath=...` or `css=...`). */
export function selectorToLocator(selector: string): string {
  const trimmed = selector.trim();
  if (trimmed === '') return '';
  if (trimmed.startsWith('xpath=') || trimmed.startsWith('css=')) return trimmed;
  if (trimmed.startsWith('/') || trimmed.startsWith('(')) return `xpath=${trimmed}`;
  return `css=${trimmed}`;
}

/** The selectors of a step target, in order. */
export function targetSelectors(target: StepTarget): string[] {
  if (typeof target === 'string') return target === '' ? [] : [target];
  return target.map((t) => t.selector).filter((s) => s !== '');
}

function targetFromCommand(cmd: RecorderCommand): StepTarget {
  const first = recorderVarsToSteps(locatorToSelector(cmd.target));
  const alternates = (cmd.targets ?? [])
    .map((pair) => (Array.isArray(pair) && typeof pair[0] === 'string' ? pair[0] : ''))
    .filter((loc) => loc !== '')
    .map((loc) => recorderVarsToSteps(locatorToSelector(loc)));
  const all = [first, ...alternates.filter((s) => s !== first)].filter((s) => s !== '');
  if (all.length > 1) return all.map((selector) => ({ selector }));
  return first;
}

function newStep(sequence: number, command: string, fields: Partial<PortableStep> = {}): PortableStep {
  return {
    sequence,
    command,
    target: '',
    value: '',
    variableName: '',
    condition: null,
    optional: false,
    private: false,
    ...fields,
  };
}

/** The parts of a recorder command an assertion step is made of. */
interface CommandParts {
  value: string;
  rawTarget: string;
  notes: { notes?: string };
  target: () => StepTarget;
}

/** An assertion command (`assert…`, `verify…`, `waitFor…`) as a step; undefined for any other command. */
function assertionStep(base: string, sequence: number, parts: CommandParts): PortableStep | undefined {
  const { value, rawTarget, notes, target } = parts;
  switch (base) {
    case 'assertText':
    case 'verifyText':
    case 'waitForText':
      return newStep(sequence, 'assertText', { target: target(), value, ...notes });
    case 'assertTextPresent':
    case 'verifyTextPresent':
    case 'waitForTextPresent':
    case 'assertTextNotPresent':
    case 'verifyTextNotPresent':
    case 'waitForTextNotPresent': {
      const negated = base.endsWith('NotPresent');
      // Recorder form: the text is the target (value empty); Ghost Inspector form: element target + value.
      const text = value !== '' ? value : recorderVarsToSteps(rawTarget);
      const element = value !== '' ? target() : '';
      return newStep(sequence, negated ? 'assertTextNotPresent' : 'assertTextPresent', {
        target: element,
        value: text,
        ...notes,
      });
    }
    case 'assertElementPresent':
    case 'verifyElementPresent':
    case 'waitForElementPresent':
      return newStep(sequence, 'assertElementPresent', { target: target(), ...notes });
    case 'assertElementNotPresent':
    case 'verifyElementNotPresent':
    case 'waitForElementNotPresent':
      return newStep(sequence, 'assertElementNotPresent', { target: target(), ...notes });
    case 'assertElementVisible':
    case 'waitForElementVisible':
    case 'assertVisible':
    case 'verifyVisible':
      return newStep(sequence, 'assertElementVisible', { target: target(), ...notes });
    case 'assertElementNotVisible':
    case 'waitForElementNotVisible':
    case 'assertNotVisible':
    case 'verifyNotVisible':
      return newStep(sequence, 'assertElementNotVisible', { target: target(), ...notes });
    case 'assertTitle':
    case 'verifyTitle':
      return newStep(sequence, 'assertEval', {
        value: `return document.title === ${quote(recorderVarsToSteps(rawTarget))};`,
        ...notes,
      });
    case 'assertEval':
      return newStep(sequence, 'assertEval', { value: value || recorderVarsToSteps(rawTarget), ...notes });
    default:
      return undefined;
  }
}

/**
 * Converts one recorder command to a step (or null for a comment or an empty command).
 * `baseUrl` resolves relative `open` targets. `where` names the command in error messages.
 * Throws an Error naming the command when it has no Ghost Inspector equivalent.
 */
export function commandToStep(
  cmd: RecorderCommand,
  sequence: number,
  baseUrl: string,
  where: string,
): PortableStep | null {
  const name = cmd.command.trim();
  if (name === '' || name.startsWith('//')) return null;
  const base = name.replace(/AndWait$/, '');
  const value = recorderVarsToSteps(cmd.value ?? '');
  const rawTarget = cmd.target ?? '';
  const notes = cmd.comment ? { notes: cmd.comment } : {};
  const target = (): StepTarget => targetFromCommand(cmd);
  const assertion = assertionStep(base, sequence, { value, rawTarget, notes, target });
  if (assertion) return assertion;
  switch (base) {
    case 'open': {
      const url = recorderVarsToSteps(resolveUrl(rawTarget || cmd.value, baseUrl, where));
      return newStep(sequence, 'open', { value: url, ...notes });
    }
    case 'click':
    case 'clickAt':
      return newStep(sequence, 'click', { target: target(), ...notes });
    case 'type':
      return newStep(sequence, 'assign', { target: target(), value, ...notes });
    case 'sendKeys': {
      const key = /^\$\{KEY_([A-Z_]+)\}$/.exec(cmd.value ?? '');
      const code = key ? KEY_CODES[key[1] ?? ''] : undefined;
      if (code !== undefined)
        return newStep(sequence, 'keypress', { target: target(), value: String(code), ...notes });
      return newStep(sequence, 'assign', { target: target(), value, ...notes });
    }
    case 'keypress':
      return newStep(sequence, 'keypress', { target: target(), value, ...notes });
    case 'select':
      return newStep(sequence, 'select', {
        target: target(),
        value: value.replace(/^(label|value)=/, ''),
        ...notes,
      });
    case 'storeText':
    case 'extract':
      return newStep(sequence, 'extract', { target: target(), variableName: cmd.value.trim(), ...notes });
    case 'store':
      return newStep(sequence, 'store', {
        value: recorderVarsToSteps(rawTarget),
        variableName: cmd.value.trim(),
        ...notes,
      });
    case 'executeScript':
    case 'runScript':
    case 'storeEval':
    case 'executeAsyncScript':
    case 'eval':
    case 'extractEval': {
      const script = recorderVarsToSteps(rawTarget);
      const variable = (cmd.value ?? '').trim();
      if (base === 'extractEval' || (variable !== '' && base !== 'eval')) {
        return newStep(sequence, 'extractEval', { value: script, variableName: variable, ...notes });
      }
      return newStep(sequence, 'eval', { value: script, ...notes });
    }
    case 'pause':
      return newStep(sequence, 'pause', { value: (rawTarget || cmd.value || '0').trim(), ...notes });
    case 'mouseOver':
    case 'mouseOverAndWait':
      return newStep(sequence, 'mouseOver', { target: target(), ...notes });
    case 'goBack':
    case 'refresh':
      return newStep(sequence, base, { ...notes });
    default:
      if (NATIVE_COMMANDS.has(base)) {
        return newStep(sequence, base, { target: target(), value, ...notes });
      }
      throw new Error(`Unsupported recorder command "${name}" at ${where}`);
  }
}

function resolveUrl(url: string, baseUrl: string, where: string): string {
  const trimmed = url.trim();
  if (/^\{\{|^\$\{/.test(trimmed)) return trimmed;
  try {
    return new URL(trimmed, baseUrl || undefined).toString();
  } catch {
    throw new Error(`Invalid URL "${url}" in the open command at ${where} (base URL "${baseUrl}")`);
  }
}

/**
 * Converts one step to recorder commands (usually one). Targets given as a list export their first selector
 * as `target` and all of them in `targets`.
 */
export function stepToCommand(
  step: Pick<Step, 'command' | 'target' | 'value' | 'variableName' | 'notes'>,
): RecorderCommand {
  const selectors = targetSelectors(step.target ?? '').map((s) => stepVarsToRecorder(selectorToLocator(s)));
  const target = selectors[0] ?? '';
  const targets =
    selectors.length > 1
      ? selectors.map((loc) => [loc, loc.startsWith('xpath=') ? 'xpath' : 'css'])
      : undefined;
  const value = stepVarsToRecorder(step.value ?? '');
  const out = (command: string, t: string, v: string): RecorderCommand => ({
    command,
    target: t,
    value: v,
    ...(targets ? { targets } : {}),
    ...(step.notes ? { comment: step.notes } : {}),
  });
  switch (step.command) {
    case 'open':
    case 'goto':
      return out('open', value || target, '');
    case 'assign':
      return out('type', target, value);
    case 'keypress': {
      const name = KEY_NAMES[Number(step.value)];
      return name ? out('sendKeys', target, `\${KEY_${name}}`) : out('keypress', target, value);
    }
    case 'select':
      return out('select', target, value === '' ? '' : `label=${value}`);
    case 'assertTextPresent':
    case 'assertTextNotPresent':
      // Without an element, the recorder form carries the text as the target.
      return target === '' ? out(step.command, value, '') : out(step.command, target, value);
    case 'extract':
      return out('storeText', target, step.variableName ?? '');
    case 'store':
      return out('store', value, step.variableName ?? '');
    case 'eval':
      return out('executeScript', value, '');
    case 'extractEval':
      return out('executeScript', value, step.variableName ?? '');
    case 'assertEval':
      return out('assertEval', target, value);
    case 'pause':
      return out('pause', value, '');
    case 'goBack':
    case 'refresh':
      return out(step.command, '', '');
    case 'assertElementVisible':
      return out('waitForElementVisible', target, value);
    case 'assertElementNotVisible':
      return out('waitForElementNotVisible', target, value);
    default:
      return out(step.command, target, value);
  }
}
