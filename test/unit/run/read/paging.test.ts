/**
 * Paging a list of the service (docs/architecture.md, "Paging"): a list whose length is not known is read on until a
 * short page, bounded by the paging cap; a known length is read in its pages and a margin.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../../src/api/limits.js';
import { forEachPage, pagesFor, type Paging } from '../../../../src/run/read/paging.js';

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

describe('paging at its bounds', () => {
  /** A list that answers a full page of new records at every offset: it never ends by itself. */
  function endless() {
    const asked: Paging[] = [];
    const read = (paging: Paging) => {
      asked.push(paging);
      return Promise.resolve(
        Array.from({ length: paging.count }, (_, i) => ({ _id: `r${paging.offset + i}` })),
      );
    };
    return { read, asked };
  }

  it('a known length is read in at most its pages and one more; an unknown one up to the paging cap', async () => {
    const known = 2 * PAGE_SIZE + 20;
    expect(pagesFor(known)).toBeGreaterThanOrEqual(Math.ceil(known / PAGE_SIZE));
    expect(pagesFor(known)).toBeLessThanOrEqual(Math.ceil(known / PAGE_SIZE) + 1);
    const { read, asked } = endless();
    await forEachPage(read, () => {}, pagesFor(known));
    expect(asked).toHaveLength(pagesFor(known));
    const unknown = endless();
    await forEachPage(unknown.read, () => {}, pagesFor(null));
    expect(unknown.asked).toHaveLength(pagesFor(null));
    expect(pagesFor(null)).toBeGreaterThan(pagesFor(known));
  });

  it('never reads past the paging cap, whatever maxPages asks', async () => {
    const { read, asked } = endless();
    await forEachPage(read, () => {}, Infinity);
    expect(asked).toHaveLength(pagesFor(null));
  });

  it('asks the first pages at once, as many as asked, then one by one; at least one page', async () => {
    const { read, asked } = endless();
    const inFlight: number[] = [];
    let open = 0;
    await forEachPage(
      (paging) => {
        open += 1;
        inFlight.push(open);
        return read(paging).finally(() => (open -= 1));
      },
      () => {},
      8,
      5,
    );
    expect(asked.map((p) => p.offset)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((p) => p * PAGE_SIZE));
    // The five asked at once, then one at a time.
    expect(inFlight).toEqual([1, 2, 3, 4, 5, 1, 1, 1]);
    // Never more than the pages there are.
    const few = endless();
    await forEachPage(few.read, () => {}, 3, 10);
    expect(few.asked).toHaveLength(3);
    const one = endless();
    await forEachPage(one.read, () => {}, 2, 0);
    expect(one.asked).toHaveLength(2);
  });

  it('stops when the visitor says so, and at a page with nothing new', async () => {
    const { read, asked } = endless();
    await forEachPage(read, () => false, 5);
    expect(asked).toHaveLength(1);
    const same = { asked: [] as Paging[] };
    await forEachPage(
      (paging) => {
        same.asked.push(paging);
        return Promise.resolve(Array.from({ length: PAGE_SIZE }, (_, i) => ({ _id: `r${i}` })));
      },
      () => {},
      5,
    );
    expect(same.asked).toHaveLength(2);
  });

  it('records without an id are told apart by themselves; a null record does not end the read', async () => {
    const records = [...Array.from({ length: PAGE_SIZE - 1 }, (_, i) => `v${i}`), null];
    const seen: unknown[] = [];
    await forEachPage(
      (paging) => Promise.resolve(paging.offset === 0 ? (records as Array<{ _id?: unknown }>) : []),
      (page) => void seen.push(...page),
      3,
    );
    expect(seen).toHaveLength(PAGE_SIZE);
  });
});
