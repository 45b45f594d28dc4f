/** Plan: the targets × start URLs become trigger jobs; folders are expanded into their suites first. */
import type { EngineContext } from '../context.js';
import { messageOf } from '../../common/log.js';
import { NOT_STARTED_ERROR, type StopReason } from '../stop/deadline.js';
import type { TriggerJob } from './execute.js';
import { definitionFor } from '../../inputs/test-files.js';
import type { RunPlan } from '../context.js';

/** A folder whose suites were never listed because the action stopped first: one run, not started. */
function notStartedFolder(ctx: EngineContext, folderId: string, reason: StopReason): void {
  const base = { kind: 'suite', suiteId: null, suiteName: `Folder ${folderId}` } as const;
  ctx.book.resultless(
    base,
    `folder-${folderId}`,
    {},
    { error: NOT_STARTED_ERROR[reason], notStarted: reason },
  );
  ctx.problems.add(NOT_STARTED_ERROR[reason], {
    label: `folder ${folderId}`,
    id: folderId,
    message: NOT_STARTED_ERROR[reason],
  });
}

/** The suite ids to run: the plan's, then each folder's (each once); an unlisted folder: one run in error. */
export async function expandFolders(ctx: EngineContext): Promise<string[]> {
  const suiteIds = [...ctx.plan.suiteIds];
  for (const folderId of ctx.plan.folderIds) {
    if (ctx.stopper.reason) {
      notStartedFolder(ctx, folderId, ctx.stopper.reason);
      continue;
    }
    try {
      const suites = await ctx.api.listFolderSuites(folderId, { signal: ctx.stopper.signal });
      ctx.emit({ type: 'folder-listed', folderId, suiteCount: suites.length });
      for (const suite of suites) if (!suiteIds.includes(suite._id)) suiteIds.push(suite._id);
    } catch (error) {
      if (ctx.stopper.reason) {
        notStartedFolder(ctx, folderId, ctx.stopper.reason);
        continue;
      }
      ctx.book.resultless(
        { kind: 'suite', suiteId: null, suiteName: `Folder ${folderId}` },
        `folder-${folderId}`,
        {},
        { error: `The suites of folder ${folderId} could not be listed: ${messageOf(error)}` },
      );
      ctx.emit({ type: 'folder-failed', folderId, message: messageOf(error) });
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
      jobs.push({
        kind: 'file',
        file: t.file,
        index: t.index,
        name: t.name,
        definition: definitionFor(t, startUrl),
        ...s,
      });
    }
  }
  return jobs;
}
