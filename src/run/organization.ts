/**
 * Which organization's running list to ask (`running-list.ts`). The plan's (the `organization-id` input),
 * else the first one an answer names: a test's execute answer names it (`test.organization`), a suite's
 * does not (its immediate answer names the suite by id only, docs/api-contract.md "Resources"). When
 * several runs are watched and none of that is known, the first suite run's suite is read once
 * (`GET /suites/{id}/`, through the request budget): one request for the whole engine run, so that suites
 * run without the `organization-id` input are watched by the list too.
 */
import { refId } from '../api/refs.js';
import { metered } from './action-api.js';
import type { EngineContext } from './context.js';

/** The organization id known without a request, or null. */
export function organizationOf(ctx: EngineContext): string | null {
  if (ctx.plan.organizationId) return ctx.plan.organizationId;
  if (ctx.learnedOrganizationId) return ctx.learnedOrganizationId;
  for (const h of ctx.handles) {
    const fromTest = refId(h.lastResult?.organization);
    if (fromTest) return fromTest;
    const suite = h.run.suiteResult?.suite;
    const fromSuite = suite && typeof suite === 'object' ? refId(suite.organization) : null;
    if (fromSuite) return fromSuite;
  }
  return null;
}

/**
 * The organization id, reading the suite of the first suite run when nothing else names it. Reads at most
 * once per engine run (a failed read is not repeated: the runs keep their own schedules). Resolves null when
 * no suite run is known yet or the read failed; never throws.
 */
export async function learnOrganization(ctx: EngineContext): Promise<string | null> {
  const known = organizationOf(ctx);
  if (known) return known;
  if (ctx.organizationLookedUp) return null;
  const suiteId = ctx.handles.find((h) => h.run.suiteId)?.run.suiteId;
  if (!suiteId) return null;
  ctx.organizationLookedUp = true;
  try {
    const suite = await metered(ctx.budget, ctx.stop.signal, (signal) =>
      ctx.api.getSuite(suiteId, { signal }),
    );
    ctx.learnedOrganizationId = refId(suite.organization) ?? undefined;
  } catch {
    // The list stays unused; every run keeps its own adaptive schedule.
  }
  return ctx.learnedOrganizationId ?? null;
}
