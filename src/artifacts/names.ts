/** Screenshot and artifact names that GitHub and every file system accept (docs/api-contract.md, "Artifacts"). */
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
const MAX_SUITE_SEGMENT_BYTES = 100;
/** Longest file name (with variant, result id and extension), in UTF-8 bytes; well under the usual 255. */
export const MAX_FILE_NAME_BYTES = 200;
/** Longest artifact name we produce, in characters. */
const MAX_ARTIFACT_NAME_LENGTH = 200;

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  // A streaming decode holds back the bytes of a character cut in two.
  return new TextDecoder().decode(Buffer.from(text, 'utf8').subarray(0, maxBytes), { stream: true });
}

/** `text` as one path segment every file system accepts, ≤ `maxBytes` UTF-8 bytes; `fallback` when empty. */
export function sanitizeSegment(text: string, maxBytes: number, fallback = 'unnamed'): string {
  let s = text.replace(INVISIBLE, '').replace(/\s+/g, ' ').replace(ILLEGAL, '_');
  s = truncateUtf8(s.trim(), maxBytes);
  s = s.replace(/^[ .]+|[ .]+$/g, '');
  if (s === '') s = fallback;
  if (WINDOWS_RESERVED.test(s)) s = truncateUtf8(`_${s}`, maxBytes);
  return s;
}

/** The variant part of a screenshot's file name (`chrome, us-east-1, row 3`); empty when nothing varied. */
export function fileVariantLabel(variant: Variant): string {
  return variantParts(variant, false).join(', ');
}

/**
 * A screenshot's path inside the artifact: `<suite>/<test> [<variant>]-<resultId>.png` (`-comparison.png`
 * for the comparison image). Test name and variant are shortened first so the result id always survives.
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
 * The default artifact name, `ghost-inspector-screenshots-<job>-<attempt>-<hash8>`; `hash8` is the matrix
 * digest (src/github.ts), random outside GitHub. Clashes left are resolved by the uploader (`-2`, `-3`...).
 */
export function defaultArtifactName(env: NodeJS.ProcessEnv = process.env): string {
  const context = readGitHubContext(env);
  const job = context.job ? sanitizeSegment(context.job, 80, 'job') : 'local';
  const attempt = context.runAttempt ? sanitizeSegment(context.runAttempt, 10, '1') : '1';
  const hash = context.matrixDigest ?? randomBytes(4).toString('hex');
  return sanitizeArtifactName(`ghost-inspector-screenshots-${job}-${attempt}-${hash}`);
}

/** `name` with the characters GitHub refuses as `_`, cut to length; throws Error when nothing is left. */
export function sanitizeArtifactName(name: string): string {
  const s = name.replace(INVISIBLE, '').replace(ILLEGAL, '_').trim().slice(0, MAX_ARTIFACT_NAME_LENGTH);
  if (!s) throw new Error('artifact-name is empty: give a name such as "ghost-inspector-screenshots"');
  return s;
}

/** The name for 1-based `attempt`: `name`, then `name-2`, `name-3`... */
export function suffixedName(name: string, attempt: number): string {
  if (attempt <= 1) return name;
  const suffix = `-${attempt}`;
  return `${name.slice(0, MAX_ARTIFACT_NAME_LENGTH - suffix.length)}${suffix}`;
}
