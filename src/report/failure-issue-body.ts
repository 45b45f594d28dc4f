/**
 * The failure issue's marker and body: the key's digest, and what the body remembers between runs in a hidden
 * comment (docs/reports.md, "Failure issue"; docs/api-contract.md, "Failure issues"). Pure.
 */
import { createHash } from 'node:crypto';
import { plural } from '../common/words.js';
import type { FailureIssueKey } from '../github.js';
import { MAX_COMMENT_CHARS } from './pr-comment.js';
import { escapeInline, truncate } from './text.js';

/** What the issue's body remembers between runs. */
export interface IssueState {
  /** ISO date of the first failing run. */
  since: string;
  /** Links (HTML) of the first and the last failing run. */
  sinceRun: string;
  lastRun: string;
  failedRuns: number;
  /** `<run id>.<attempt>` of the last run that wrote: the same run never writes twice. */
  seen: string;
  /** Link (HTML) of the run that passed and closed the issue; '' while failing. */
  passedRun: string;
  /** Link (HTML) of the own issue of the key closed before this one was opened; '' when none. */
  earlier: string;
}

const STATE_PREFIX = '<!-- ghost-inspector-action-state ';

/**
 * The hidden marker of the key's issue: `<!-- ghost-inspector-action:failure-issue:<digest> -->`, the digest
 * (16 hex digits of SHA-256) of the key's parts as a JSON list, so that no two keys share a marker whatever
 * their parts hold.
 */
export function issueMarker(key: FailureIssueKey): string {
  const parts = JSON.stringify([key.workflow, key.job, key.ref, key.commentKey]);
  const digest = createHash('sha256').update(parts).digest('hex').slice(0, 16);
  return `<!-- ghost-inspector-action:failure-issue:${digest} -->`;
}

/** The key as people read it: `workflow Nightly · job e2e · refs/heads/main · comment-key chrome`, escaped. */
function keyLine(key: FailureIssueKey): string {
  const parts = [
    key.workflow && `workflow ${key.workflow}`,
    key.job && `job ${key.job}`,
    key.ref,
    key.commentKey && `comment-key ${key.commentKey}`,
  ].filter(Boolean);
  return `<sub>${escapeInline(truncate(parts.join(' · '), 400))}</sub>`;
}

/** The issue's body: marker, hidden state, the story so far, `text` (failures or the passing line). */
export function issueBody(marker: string, key: FailureIssueKey, state: IssueState, text: string): string {
  // JSON inside an HTML comment: `-`, `<` and `>` escaped so that no `-->` can end it early.
  const json = JSON.stringify(state).replace(/[-<>]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
  const date = state.since.slice(0, 10);
  const story = `Failing since ${date}, ${state.sinceRun}; last failed ${state.lastRun}; ${plural(state.failedRuns, 'failed run')}.`;
  return truncate(
    [
      marker,
      `${STATE_PREFIX}${json} -->`,
      keyLine(key),
      '',
      state.earlier ? `${story} Failed before in ${state.earlier}.` : story,
      '',
      text,
    ].join('\n'),
    MAX_COMMENT_CHARS,
  );
}

/** The state in an own issue's body; what is missing (a body edited by hand) starts over at `now`. */
export function readState(body: string, now: string): IssueState {
  const state: IssueState = {
    since: now,
    sinceRun: '',
    lastRun: '',
    failedRuns: 0,
    seen: '',
    passedRun: '',
    earlier: '',
  };
  const start = body.indexOf(STATE_PREFIX);
  let saved: Record<string, unknown> = {};
  try {
    const parsed: unknown =
      start >= 0 ? JSON.parse(body.slice(start + STATE_PREFIX.length, body.indexOf(' -->', start))) : null;
    if (parsed !== null && typeof parsed === 'object') saved = parsed as Record<string, unknown>;
  } catch {
    // Not JSON any more: start over.
  }
  for (const key of Object.keys(state) as Array<keyof IssueState>) {
    if (typeof saved[key] === typeof state[key]) Object.assign(state, { [key]: saved[key] });
  }
  return state;
}
