/** Plan: the targets × start URLs become trigger jobs; folders are expanded into their suites first. */
import type { EngineContext, RunPlan } from '../context.js';
import type { RunBook } from '../book.js';
import { messageOf } from '../../common/log.js';
import { NOT_STARTED_ERROR } from '../stop/deadline.js';
import type { StopReason } from '../types.js';
import type { TriggerJob } from './execute.js';
import { definitionFor } from '../../inputs/test-files.js';

/** A folder's run: one in error, or not started when `reason` says the action stopped first. */
function folderRun(book: RunBook, folderId: string, error: string, reason?: StopReason): void {
  const base = {
    kind: 'suite',
    suiteId: null,
    suiteName: `Folder ${folderId}`,
    keyBase: `folder-${folderId}`,
  } as const;
  const problem = reason && { kind: error, label: `folder ${folderId}`, id: folderId, message: error };
  book.resultless(base, {}, { error, ...(reason && { notStarted: reason }) }, problem);
}

/**
 * The suite ids to run: the plan's, then each folder's (each once). A folder whose listing fails is one run in
 * error, or one run not started when a stop aborted the listing.
 */
export async function expandFolders(
  ctx: Pick<EngineContext, 'plan' | 'api' | 'emit' | 'stopper' | 'book'>,
): Promise<string[]> {
  const { book, stopper } = ctx;
  const suiteIds = [...ctx.plan.suiteIds];
  for (const folderId of ctx.plan.folderIds) {
    try {
      const suites = await ctx.api.listFolderSuites(folderId, { signal: stopper.signal });
      ctx.emit({ type: 'folder-listed', folderId, suiteCount: suites.length });
      for (const suite of suites) if (!suiteIds.includes(suite._id)) suiteIds.push(suite._id);
    } catch (error) {
      const reason = stopper.reason;
      if (reason) {
        folderRun(book, folderId, NOT_STARTED_ERROR[reason], reason);
      } else {
        const message = messageOf(error);
        folderRun(book, folderId, `The suites of folder ${folderId} could not be listed: ${message}`);
        ctx.emit({ type: 'folder-failed', folderId, message });
      }
    }
  }
  return suiteIds;
}

/** The trigger jobs of a plan, per start URL: every suite, then test, then repository test file. Pure. */
export function planJobs(
  plan: Pick<RunPlan, 'startUrls' | 'testIds' | 'repoTests'>,
  suiteIds: string[],
): TriggerJob[] {
  const starts: Array<string | undefined> = plan.startUrls.length ? plan.startUrls : [undefined];
  const jobs: TriggerJob[] = [];
  for (const startUrl of starts) {
    const s = startUrl === undefined ? {} : { startUrl };
    for (const suiteId of suiteIds) jobs.push({ kind: 'suite', suiteId, ...s });
    for (const testId of plan.testIds) jobs.push({ kind: 'test', testId, ...s });
    for (const t of plan.repoTests) {
      const { file, index, name } = t;
      jobs.push({ kind: 'file', file, index, name, definition: definitionFor(t, startUrl), ...s });
    }
  }
  return jobs;
}
