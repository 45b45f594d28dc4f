/**
 * Which organization's running list the watch loop asks: the `organization-id` input, else the first
 * one an answer names, else one read of the first suite run's suite (`GET /suites/{id}/`).
 */
import { refId } from '../../api/refs.js';
import type { EngineContext } from '../context.js';

/** The organization id known without a request, or null. */
export function organizationOf(ctx: EngineContext): string | null {
  if (ctx.plan.organizationId) return ctx.plan.organizationId;
  for (const h of ctx.book.handles) {
    const fromTest = refId(h.lastResult?.organization);
    if (fromTest) return fromTest;
    const suite = h.run.suiteResult?.suite;
    const fromSuite = suite && typeof suite === 'object' ? refId(suite.organization) : null;
    if (fromSuite) return fromSuite;
  }
  return null;
}

/** The organization of the first suite run's suite; null when none or the read failed. Never throws. */
export async function readOrganization(ctx: EngineContext): Promise<string | null> {
  const suiteId = ctx.book.handles.find((h) => h.run.suiteId)?.run.suiteId;
  if (!suiteId) return null;
  try {
    const suite = await ctx.api.getSuite(suiteId, { signal: ctx.stopper.signal });
    return refId(suite.organization);
  } catch {
    return null;
  }
}
