/** Which organization's running list the watch loop asks (docs/architecture.md, "When the list fails"). */
import { refId } from '../../api/refs.js';
import type { GhostInspectorApi } from '../../api/api.js';
import type { Handle } from '../book.js';

/** The organization id known without a request (the input's, else the first an answer of `handles` names), or null. */
export function organizationOf(input: string | null, handles: readonly Handle[]): string | null {
  if (input) return input;
  for (const h of handles) {
    const fromTest = refId(h.lastResult?.organization);
    if (fromTest) return fromTest;
    const suite = h.run.suiteResult?.suite;
    const fromSuite = suite && typeof suite === 'object' ? refId(suite.organization) : null;
    if (fromSuite) return fromSuite;
  }
  return null;
}

/** The organization of the first suite run's suite; null when none or the read failed. Never throws. */
export async function readOrganization(
  api: GhostInspectorApi,
  handles: readonly Handle[],
  signal: AbortSignal,
): Promise<string | null> {
  const suiteId = handles.find((h) => h.run.suiteId)?.run.suiteId;
  if (!suiteId) return null;
  try {
    return refId((await api.getSuite(suiteId, { signal })).organization);
  } catch {
    return null;
  }
}
