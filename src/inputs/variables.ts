/**
 * Custom variables (`variables`, `private-variables`): `NAME=VALUE` lines or a JSON object, parsed into
 * records without a prototype, so that names such as `constructor` or `__proto__` are ordinary names.
 */
import type { Fail } from './parse.js';
import { RESERVED_VARIABLE_NAMES, VARIABLE_NAME_PATTERN } from './schema.js';

/**
 * Parses `NAME=VALUE` lines (`#` comments skipped; the value is everything after the first `=`) or a JSON
 * object of names to strings or numbers. Problems go to `fail` (private values are never shown).
 */
export function parseVariables(text: string, input: string, fail: Fail): Record<string, string> {
  const result = Object.create(null) as Record<string, string>;
  const trimmed = text.trim();
  if (trimmed === '') return result;
  const secret = input === 'private-variables';
  const checkName = (name: string, shown: string): boolean => {
    if (!VARIABLE_NAME_PATTERN.test(name)) {
      fail(input, shown, 'variable names of letters, digits and underscores, not starting with a digit');
      return false;
    }
    if (RESERVED_VARIABLE_NAMES.has(name)) {
      fail(input, shown, `a variable name that is not an execute parameter (${name} is reserved)`);
      return false;
    }
    if (Object.hasOwn(result, name)) {
      fail(input, shown, `each variable name once (${name} repeats)`);
      return false;
    }
    return true;
  };
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      fail(input, secret ? '***' : trimmed, 'NAME=VALUE lines or a JSON object (the JSON does not parse)');
      return result;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      fail(input, secret ? '***' : trimmed, 'NAME=VALUE lines or a JSON object');
      return result;
    }
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (!checkName(name, name)) continue;
      if (typeof value === 'string') result[name] = value;
      else if (typeof value === 'number' && Number.isFinite(value)) result[name] = String(value);
      else fail(input, name, `a string or number value for ${name}`);
    }
    return result;
  }
  for (const line of text.split(/\r?\n/)) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    const eq = l.indexOf('=');
    if (eq <= 0) {
      fail(input, secret ? '***' : l, 'NAME=VALUE lines or a JSON object');
      continue;
    }
    const name = l.slice(0, eq).trim();
    if (!checkName(name, name)) continue;
    result[name] = l.slice(eq + 1).trim();
  }
  return result;
}
