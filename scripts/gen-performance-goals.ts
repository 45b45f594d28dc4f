/**
 * Writes docs/performance.md's table of goals from the bench's one list of goals (`bench/lib/goals.ts`), which
 * also judges bench/RESULTS.md, so the two cannot drift apart.
 *
 *   npm run docs          rewrites docs/performance.md between the `generated:goals` markers
 *   npm run docs:check    fails (exit 1) when docs/performance.md is not what `npm run docs` would write
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goalsTable } from '../bench/lib/goals.js';

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'performance.md');
const START = '<!-- generated:goals:start -->';
const END = '<!-- generated:goals:end -->';
const NOTE =
  '<!-- Generated from bench/lib/goals.ts by `npm run docs`: edit the list there, not this table. -->';

/** `doc` with the table between its markers made anew. @throws when a marker is missing. */
export function withGoals(doc: string): string {
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/performance.md needs the markers ${START} and ${END}`);
  return `${doc.slice(0, from)}${START}\n${NOTE}\n\n${goalsTable()}\n\n${doc.slice(to)}`;
}

const doc = readFileSync(FILE, 'utf8');
const next = withGoals(doc);
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/performance.md: the table of goals is not what `npm run docs` writes; run it.');
    process.exit(1);
  }
} else if (next !== doc) writeFileSync(FILE, next);
