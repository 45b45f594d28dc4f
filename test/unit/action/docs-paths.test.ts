/**
 * The contributor docs name the project's files (`src/run/watch.ts`, `test/e2e/verdict.test.ts`…); when a
 * module moves or is split, a stale name sends a newcomer to nothing. Every repository path a doc mentions
 * must exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/harness.js';

/**
 * A path into one of the project's own folders (not a URL path such as `/demo/index.html`), ending in a file
 * extension or a slash (a folder).
 */
const PROJECT_PATH =
  /(?<![/\w.-])(?:src|emulator|test|bench|probe|scripts|docs|demo)\/[A-Za-z0-9_./-]*[A-Za-z0-9_/-]/g;

/** The docs a contributor reads: README files, CONTRIBUTING and everything under docs/. */
function docs(): string[] {
  const top = [
    'README.md',
    'CONTRIBUTING.md',
    'test/README.md',
    'emulator/README.md',
    'emulator/DEVIATIONS.md',
  ];
  const underDocs = readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return [...top, ...underDocs];
}

/** Paths a doc mentions that name no file or folder of the repository. */
export function missingPaths(text: string, exists: (p: string) => boolean): string[] {
  const missing = new Set<string>();
  for (const match of text.matchAll(PROJECT_PATH)) {
    const mention = match[0].replace(/[.]+$/, '');
    // Only what looks like a file (has an extension) or a folder (ends in /) is checked; prose such as
    // "test/contract" without either is too ambiguous to hold to.
    if (!/\.[a-z]+$/.test(mention) && !mention.endsWith('/')) continue;
    if (mention.includes('*')) continue;
    // An import specifier names the .js a TypeScript module compiles to.
    const asSource = mention.replace(/\.js$/, '.ts');
    if (!exists(mention) && !exists(asSource)) missing.add(mention);
  }
  return [...missing];
}

describe('paths named in the docs', () => {
  it.each(docs())('%s names only files that exist', (doc) => {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    expect(missingPaths(text, (p) => existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  it('catches a moved module', () => {
    const exists = (p: string): boolean => p === 'src/run/watch.ts';
    const text =
      "see `src/run/watch.ts`, `import './src/run/watch.js'`, `/demo/index.html` and `src/run/engine-old.ts`.";
    expect(missingPaths(text, exists)).toEqual(['src/run/engine-old.ts']);
  });
});
