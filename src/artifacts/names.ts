/**
 * Safe, readable names for screenshot files and the screenshot artifact.
 *
 * GitHub rejects artifact file paths holding `" : < > | * ? \r \n` and artifact names holding those plus
 * `\ /` (docs/github-platform.md). Windows also refuses trailing dots and spaces and a few
 * reserved device names, and most file systems cap one name at 255 bytes.
 */
import { randomBytes } from 'node:crypto';

import { readGitHubContext } from '../github.js';

import type { Variant } from '../run/types.js';
import { variantParts } from '../report/console.js';

/** Characters GitHub refuses in an artifact name or in one segment of an artifact path, plus controls. */
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[":<>|*?\r\n\\/\u0000-\u001f\u007f]/g;
/** Bidirectional controls and zero-width characters: they make a name read other than it is; removed. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Longest suite folder name, in UTF-8 bytes. */
export const MAX_SUITE_SEGMENT_BYTES = 100;
/** Longest file name (with variant, result id and extension), in UTF-8 bytes; well under the usual 255. */
export const MAX_FILE_NAME_BYTES = 200;
/** Longest artifact name we produce, in characters. */
export const MAX_ARTIFACT_NAME_LENGTH = 200;

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character.
 * @param text any string
 * @param maxBytes limit in bytes (>= 0)
 */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (used + size > maxBytes) break;
    out += ch;
    used += size;
  }
  return out;
}

/**
 * Makes one path segment (a folder or file name, no slashes) safe for an artifact and every common file
 * system: runs of white space (tabs and line breaks too) become one space, the other illegal characters
 * (`" : < > | * ? \ /` and control characters) become `_`, bidi and zero-width characters go,
 * leading/trailing spaces and dots are dropped, Windows device names get a `_` prefix, and the result is
 * cut to `maxBytes` UTF-8 bytes. Never returns an empty string (`fallback`).
 * @param text raw name from the service (suite name, test name)
 * @param maxBytes limit in UTF-8 bytes
 * @param fallback used when nothing printable is left; default `unnamed`
 */
export function sanitizeSegment(text: string, maxBytes: number, fallback = 'unnamed'): string {
  let s = text.replace(INVISIBLE, '').replace(/\s+/g, ' ').replace(ILLEGAL, '_');
  s = truncateUtf8(s.trim(), maxBytes);
  s = s.replace(/^[ .]+|[ .]+$/g, '');
  if (s === '') s = fallback;
  if (WINDOWS_RESERVED.test(s)) s = truncateUtf8(`_${s}`, maxBytes);
  return s;
}

/**
 * The variant part of a screenshot's file name, e.g. `chrome, us-east-1, 1280x800, row 3`: the parts of
 * the one variant label (`variantParts`, report/console.ts) without the start URL, comma-separated.
 * Empty string when nothing was varied.
 */
export function fileVariantLabel(variant: Variant): string {
  return variantParts(variant, false).join(', ');
}

/**
 * The path of a screenshot inside the artifact, with forward slashes:
 * `<suite>/<test> [<variant>]-<resultId>.png`, or `...-<resultId>-comparison.png` for the screenshot
 * comparison image. The variant part is left out when nothing was varied. Suite and test names are
 * sanitized ({@link sanitizeSegment}); the test name and variant are shortened first so that the result id
 * and the extension always survive and the file name stays within {@link MAX_FILE_NAME_BYTES}.
 * @param suiteName suite name (for a repository test file: its path; slashes become `_`)
 * @param testName test name
 * @param variant what was varied for this run
 * @param resultId the test result id (kept whole; sanitized)
 * @param kind `screenshot` (final screenshot) or `comparison` (screenshot comparison image)
 */
export function screenshotPath(
  suiteName: string,
  testName: string,
  variant: Variant,
  resultId: string,
  kind: 'screenshot' | 'comparison',
): string {
  const folder = sanitizeSegment(suiteName, MAX_SUITE_SEGMENT_BYTES);
  const suffix = `-${sanitizeSegment(resultId, 64, 'result')}${kind === 'comparison' ? '-comparison' : ''}.png`;
  const room = MAX_FILE_NAME_BYTES - Buffer.byteLength(suffix, 'utf8');
  const label = fileVariantLabel(variant);
  const variantPart = label ? ` [${sanitizeSegment(label, 60, 'variant')}]` : '';
  const testRoom = Math.max(16, room - Buffer.byteLength(variantPart, 'utf8'));
  const test = sanitizeSegment(testName, testRoom);
  const stem = truncateUtf8(`${test}${variantPart}`, room);
  return `${folder}/${stem}${suffix}`;
}

/**
 * The default artifact name:
 * `ghost-inspector-screenshots-<GITHUB_JOB>-<GITHUB_RUN_ATTEMPT>-<hash8>`, where `hash8` is the GitHub
 * context's matrix digest (`src/github.ts`: the step id, `RUNNER_OS`, `RUNNER_ARCH` and an allow-list of
 * non-secret inputs, so matrix legs that pass different targets or variants differ; never a private
 * variable, credential or key). Outside GitHub (no `GITHUB_JOB`) the job part is `local` and the hash is random. Matrix legs with identical inputs on the
 * same OS can still collide: the uploader then adds `-2`, `-3`... on the 409 it gets.
 * @param env environment (default `process.env`), read through {@link readGitHubContext}
 * @returns a name without characters GitHub refuses
 */
export function defaultArtifactName(env: NodeJS.ProcessEnv = process.env): string {
  const context = readGitHubContext(env);
  const job = context.job ? sanitizeSegment(context.job, 80, 'job') : 'local';
  const attempt = context.runAttempt ? sanitizeSegment(context.runAttempt, 10, '1') : '1';
  const hash = context.matrixDigest ?? randomBytes(4).toString('hex');
  return sanitizeArtifactName(`ghost-inspector-screenshots-${job}-${attempt}-${hash}`);
}

/**
 * Makes a user-given artifact name acceptable to GitHub: illegal characters (`" : < > | * ? \r \n \ /`)
 * become `_`, surrounding white space goes, and the name is cut to {@link MAX_ARTIFACT_NAME_LENGTH}.
 * @throws Error when nothing is left (empty name)
 */
export function sanitizeArtifactName(name: string): string {
  const s = name.replace(INVISIBLE, '').replace(ILLEGAL, '_').trim().slice(0, MAX_ARTIFACT_NAME_LENGTH);
  if (!s) throw new Error('artifact-name is empty: give a name such as "ghost-inspector-screenshots"');
  return s;
}

/**
 * The name to try after `attempt` clashes: `name` for attempt 1, then `name-2`, `name-3`...
 * @param name base artifact name
 * @param attempt 1-based attempt number
 */
export function suffixedName(name: string, attempt: number): string {
  if (attempt <= 1) return name;
  const suffix = `-${attempt}`;
  return `${name.slice(0, MAX_ARTIFACT_NAME_LENGTH - suffix.length)}${suffix}`;
}
