/**
 * The links of a job summary (Markdown links, `href` and `src` attributes), opened one by one: the demo
 * shows that every link of its reports opens while the emulator runs.
 */

/** Every distinct http(s) URL in `markdown`'s links and images, in order of appearance. */
export function summaryLinks(markdown: string): string[] {
  const found = [
    ...markdown.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g),
    ...markdown.matchAll(/\b(?:href|src)="(https?:\/\/[^"]+)"/g),
  ].map((m) => m[1]!.replace(/&amp;/g, '&'));
  return [...new Set(found)];
}

/**
 * Opens every link of `markdown` (GET, 10 s each). A link opens when it answers 2xx and points at `origin`
 * (the emulator); a link elsewhere counts as broken, since the demo runs offline.
 * @returns how many links were checked and the ones that do not open (with the reason)
 */
export async function checkLinks(
  markdown: string,
  origin: string,
): Promise<{ checked: number; broken: string[] }> {
  const links = summaryLinks(markdown);
  const broken: string[] = [];
  for (const link of links) {
    if (!link.startsWith(`${origin}/`)) {
      broken.push(`${link} (not on the emulator)`);
      continue;
    }
    const status = await fetch(link, { signal: AbortSignal.timeout(10_000) }).then(
      async (res) => {
        await res.body?.cancel();
        return res.status;
      },
      (error: unknown) => (error as Error).message,
    );
    if (status !== 200) broken.push(`${link} (${status})`);
  }
  return { checked: links.length, broken };
}
