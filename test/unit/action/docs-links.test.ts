/**
 * Code, tests and docs cite the docs by file and section: `docs/watch.md, "Push"` in a docstring,
 * `[tunnel.md](tunnel.md#teardown)` in a page. When a page is merged or a heading renamed, a stale citation
 * sends a reader to nothing. Every cited page must exist, and every cited section must be a heading (or an
 * `<a id>`) of it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/harness.js';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A heading's text as a citation quotes it: without Markdown code marks. */
const plain = (heading: string): string => heading.replace(/`/g, '').trim();

/** The headings of a Markdown page (plain text) and its anchors (slugs and explicit `<a id>`s). */
export function sections(markdown: string): { headings: Set<string>; anchors: Set<string> } {
  const headings = new Set<string>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      headings.add(plain(heading));
      anchors.add(slug(plain(heading)));
    }
    for (const m of line.matchAll(/<a id="([^"]+)"/g)) anchors.add(m[1] as string);
  }
  return { headings, anchors };
}

/** One citation: the page (relative to the repository), and the anchor or quoted heading it names, if any. */
export interface Citation {
  page: string;
  anchor?: string;
  heading?: string;
}

/**
 * The citations of docs pages in `text`, a file at `file`: `docs/NAME.md`, `docs/NAME.md#anchor`,
 * `docs/NAME.md, "Heading"` (also after `:` or `(`, across a comment's line break, and further headings
 * joined by `, "…"`), and, in Markdown, relative links `[x](page.md#anchor)` and `[x](#anchor)`.
 */
export function citations(text: string, file: string): Citation[] {
  const out: Citation[] = [];
  const cited = /(?<![\w/.-])docs\/([a-z0-9-]+\.md)(#[\w-]+)?((?:[,:]?\s*(?:\*\s+|\/\/\s*)?\(?"[^"\n]+")*)/g;
  for (const m of text.matchAll(cited)) {
    const page = `docs/${m[1]}`;
    if (m[2]) out.push({ page, anchor: m[2].slice(1) });
    const quoted = [...(m[3] ?? '').matchAll(/"([^"\n]+)"/g)].map((q) => q[1] as string);
    // Only the headings that follow one another (`"A", "B"`) name sections; `"A": "a quote"` quotes the page.
    const chain = /^(?:[,:]?\s*(?:\*\s+|\/\/\s*)?\(?"[^"\n]+"(?=,|$|[^:]))+/.exec(m[3] ?? '')?.[0] ?? '';
    const headings = [...chain.matchAll(/"([^"\n]+)"/g)].map((q) => q[1] as string).slice(0, quoted.length);
    for (const heading of headings) out.push({ page, heading });
    if (!m[2] && headings.length === 0) out.push({ page });
  }
  if (file.endsWith('.md')) {
    for (const m of text.matchAll(/\]\(((?:[\w./-]+\.md)?)(#[\w-]+)?\)/g)) {
      if (!m[1] && !m[2]) continue;
      const page = m[1] ? path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])) : file;
      out.push({ page, ...(m[2] ? { anchor: m[2].slice(1) } : {}) });
    }
  }
  return out;
}

/** What is wrong with `citation`: a missing page, anchor or heading; undefined when it resolves. */
export function broken(citation: Citation, read: (page: string) => string | undefined): string | undefined {
  const text = read(citation.page);
  if (text === undefined) return `${citation.page}: no such page`;
  const { headings, anchors } = sections(text);
  if (citation.anchor !== undefined && !anchors.has(citation.anchor))
    return `${citation.page}#${citation.anchor}: no such section`;
  if (citation.heading !== undefined && !headings.has(citation.heading))
    return `${citation.page}, "${citation.heading}": no such heading`;
  return undefined;
}

/**
 * The repository's text files that may cite the docs: history in CHANGELOG.md, the bundle and this test's own
 * made-up citations left out.
 */
function citingFiles(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  return files.filter(
    (f) =>
      /\.(ts|mts|mjs|js|md|yml|yaml)$/.test(f) &&
      !f.startsWith('dist/') &&
      f !== 'CHANGELOG.md' &&
      f !==
        path
          .relative(ROOT, fileURLToPath(import.meta.url))
          .split(path.sep)
          .join('/') &&
      !f.includes('/golden/') &&
      existsSync(path.join(ROOT, f)),
  );
}

describe('citations of the docs', () => {
  it('every page and section cited in the repository exists', () => {
    const read = (page: string): string | undefined => {
      const file = path.join(ROOT, page);
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    };
    const problems: string[] = [];
    for (const file of citingFiles()) {
      for (const citation of citations(read(file) ?? '', file)) {
        const problem = broken(citation, read);
        if (problem) problems.push(`${file} cites ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('catches a page gone, an anchor gone and a heading renamed', () => {
    const pages: Record<string, string> = {
      'docs/watch.md':
        '# The watch\n\n## One loop, one table\n\n<a id="push"></a>\n```\n# not a heading\n```\n',
    };
    const read = (page: string): string | undefined => pages[page];
    const source = [
      '/** The loop (docs/watch.md, "One loop, one table"; docs/watch.md#push), also docs/gone.md.',
      ' * See docs/watch.md, "The table" and docs/watch.md#one-loop-one-table and docs/watch.md, "not a heading". */',
      '// docs/watch.md: "One loop, one table": "a quote of it"',
    ].join('\n');
    const found = citations(source, 'src/x.ts').map((c) => broken(c, read));
    expect(found.filter(Boolean)).toEqual([
      'docs/gone.md: no such page',
      'docs/watch.md, "The table": no such heading',
      'docs/watch.md, "not a heading": no such heading',
    ]);
    const markdown = 'See [the loop](watch.md#one-loop-one-table), [gone](watch.md#gone) and [here](#here).';
    expect(citations(markdown, 'docs/x.md').map((c) => broken(c, read))).toEqual([
      undefined,
      'docs/watch.md#gone: no such section',
      'docs/x.md: no such page',
    ]);
    expect(slug('Test definitions (repository `test-files`)')).toBe('test-definitions-repository-test-files');
  });
});
