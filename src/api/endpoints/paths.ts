/** Path and query helpers shared by the endpoint modules. */
import type { Paging } from '../types.js';

/** An identifier as one path segment (percent-encoded, so `/` or `?` in an id cannot change the path). */
export const seg = (id: string): string => encodeURIComponent(id);

/** The `count` and `offset` query parameters that are set (docs/api-contract.md: Polling a run). */
export function pagingQuery(paging?: Paging): Array<[string, string]> {
  const q: Array<[string, string]> = [];
  if (paging?.count !== undefined) q.push(['count', String(paging.count)]);
  if (paging?.offset !== undefined) q.push(['offset', String(paging.offset)]);
  return q;
}
