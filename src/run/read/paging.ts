/** Paging a list of the service, bounded whatever the service answers (docs/architecture.md, "Paging"). */
import { MAX_LIST_RECORDS, PAGE_SIZE } from '../../api/limits.js';

/** One page request: `count` and `offset` as the service's lists take them. */
export interface Paging {
  count: number;
  offset: number;
}

/** Pages read of a list beyond what its known length needs (it may grow while it is paged). */
const PAGE_MARGIN = 1;

export const MAX_PAGES = MAX_LIST_RECORDS / PAGE_SIZE;

/** The most pages a list of `known` records (null: not known) is read in: its pages plus `PAGE_MARGIN`. */
export function pagesFor(known: number | null): number {
  return known === null ? MAX_PAGES : Math.floor(known / PAGE_SIZE) + 1 + PAGE_MARGIN;
}

/**
 * Reads a list page by page until a short page, a page with nothing new, `maxPages` pages (at most
 * `MAX_PAGES`) or `visit` returns false. The first `atOnce` pages (those a known length announces) are asked
 * at once, each within the request budget as every request is, and visited in order; the pages after them
 * one at a time. Errors of `read` propagate.
 */
export async function forEachPage<T extends { _id?: unknown }>(
  read: (paging: Paging) => Promise<T[]>,
  visit: (page: T[]) => boolean | void,
  maxPages = Infinity,
  atOnce = 1,
): Promise<void> {
  const pages = Math.min(maxPages, MAX_PAGES);
  const seen = new Set<unknown>();
  const goOn = (list: T[]): boolean => {
    let added = 0;
    for (const item of list) {
      const id = item?._id ?? item;
      if (seen.has(id)) continue;
      seen.add(id);
      added += 1;
    }
    return visit(list) !== false && list.length >= PAGE_SIZE && added > 0;
  };
  const first = Math.max(1, Math.min(atOnce, pages));
  const lists = await Promise.all(
    Array.from({ length: first }, (_, page) => read({ count: PAGE_SIZE, offset: page * PAGE_SIZE })),
  );
  for (const list of lists) if (!goOn(list)) return;
  for (let page = first; page < pages; page++) {
    if (!goOn(await read({ count: PAGE_SIZE, offset: page * PAGE_SIZE }))) return;
  }
}
