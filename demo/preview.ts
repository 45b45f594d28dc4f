/**
 * The demo's job summary preview: the Markdown/HTML the action writes as its job summary, rendered into a
 * standalone HTML page a person can open in a browser (GitHub-like look), with the emulator's images saved
 * next to it so the page still shows them after the emulator has stopped.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Marked } from 'marked';

/** The page's style: close to how GitHub shows a job summary, light and dark. */
const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --bg: #ffffff;
  --subtle: #f6f8fa; --link: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #f0f6fc; --muted: #9198a1; --border: #3d444d;
  --bg: #0d1117; --subtle: #151b23; --link: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--subtle); color: var(--fg); line-height: 1.5;
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
header { max-width: 1012px; margin: 24px auto 0; padding: 0 16px; color: var(--muted); font-size: 12px; }
main { max-width: 1012px; margin: 8px auto 32px; padding: 16px 24px; background: var(--bg);
  border: 1px solid var(--border); border-radius: 6px; }
a { color: var(--link); text-decoration: none; } a:hover { text-decoration: underline; }
h2 { font-size: 1.5em; border-bottom: 1px solid var(--border); padding-bottom: .3em; margin: .5em 0 16px; }
h3 { font-size: 1.25em; margin: 24px 0 16px; }
table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; overflow: auto;
  margin-bottom: 16px; }
th, td { border: 1px solid var(--border); padding: 6px 13px; text-align: left; }
th { font-weight: 600; } tr:nth-child(2n) { background: var(--subtle); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 85%;
  background: var(--subtle); border-radius: 6px; padding: .2em .4em; }
pre { background: var(--subtle); border-radius: 6px; padding: 12px 16px; overflow: auto; white-space: pre-wrap;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 85%; }
details { border: 1px solid var(--border); border-radius: 6px; padding: 8px 16px; margin-bottom: 12px; }
summary { cursor: pointer; } details[open] summary { margin-bottom: 8px; }
img { max-width: 100%; border: 1px solid var(--border); border-radius: 4px; }
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/**
 * Renders a job summary (GitHub-flavoured Markdown with inline HTML, as the action writes it) into a
 * standalone HTML page: `<!doctype html>`, UTF-8, the style inline, no external resources apart from the
 * links and images the summary itself holds.
 * @param markdown the job summary text
 * @param title the page title and the line above the summary, e.g. "Ghost Inspector job summary (preview)"
 * @returns the HTML page
 */
export function renderSummaryPage(markdown: string, title: string): string {
  // The summary's HTML is the action's own escaped output: it is passed through as GitHub would.
  const body = new Marked({ gfm: true }).parse(markdown, { async: false });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<header>${escapeHtml(title)}</header>`,
    `<main>\n${body}</main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Saves the images and files a job summary links under the emulator's `/_emulator/files/` into `dir` and
 * rewrites those links to `relativeDir/NAME`, so the summary still shows them once the emulator stops.
 * Files that cannot be fetched keep their links.
 * @param markdown the job summary text
 * @param origin the emulator's origin, e.g. `http://127.0.0.1:4010`
 * @param dir the folder to write the files into (created when needed)
 * @param relativeDir how the page refers to `dir`, e.g. `ghost-inspector-summary-files`
 * @returns the summary with the saved links rewritten, and how many files were saved
 */
export async function saveLinkedFiles(
  markdown: string,
  origin: string,
  dir: string,
  relativeDir: string,
): Promise<{ markdown: string; saved: number }> {
  const prefix = `${origin}/_emulator/files/`;
  const pattern = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}([A-Za-z0-9._-]+)`, 'g');
  const names = new Set([...markdown.matchAll(pattern)].map((m) => m[1] as string));
  const saved = new Set<string>();
  if (names.size > 0) await mkdir(dir, { recursive: true });
  for (const name of names) {
    try {
      const res = await fetch(prefix + name);
      if (!res.ok) continue;
      await writeFile(path.join(dir, name), Buffer.from(await res.arrayBuffer()));
      saved.add(name);
    } catch {
      // The link stays as it was.
    }
  }
  return {
    markdown: markdown.replace(pattern, (whole, name: string) =>
      saved.has(name) ? `${relativeDir}/${name}` : whole,
    ),
    saved: saved.size,
  };
}
