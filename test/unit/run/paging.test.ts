/**
 * Paging a list of the service (docs/read.md, "Paging"): a list whose length is not known is read on until a
 * short page, bounded by the paging cap; a known length is read in its pages and a margin.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../src/api/limits.js';
import { forEachPage, pagesFor, type Paging } from '../../../src/run/read/paging.js';

/** A list of `n` records as the service pages it, and the pages asked. */
function listOf(n: number) {
  const records = Array.from({ length: n }, (_, i) => ({ _id: `r${i}` }));
  const asked: Paging[] = [];
  const read = (paging: Paging) => {
    asked.push(paging);
    return Promise.resolve(records.slice(paging.offset, paging.offset + paging.count));
  };
  return { read, asked };
}

describe('paging a list', () => {
  it('reads a list of unknown length on until a short page: every record, one page more than full ones', async () => {
    const n = 2 * PAGE_SIZE + 20;
    const { read, asked } = listOf(n);
    const seen: string[] = [];
    await forEachPage(read, (page) => void seen.push(...page.map((r) => r._id)), pagesFor(null));
    expect(seen).toHaveLength(n);
    expect(asked).toHaveLength(3);
  });

  it('reads a list of known length in its pages, stopping at a short page', async () => {
    const { read, asked } = listOf(PAGE_SIZE + 1);
    let seen = 0;
    await forEachPage(read, (page) => void (seen += page.length), pagesFor(PAGE_SIZE + 1));
    expect(seen).toBe(PAGE_SIZE + 1);
    expect(asked).toHaveLength(2);
  });
});
