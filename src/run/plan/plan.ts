/**
 * Plan: the targets of the plan (suites, folders, tests, repository test files) × start URLs become trigger
 * jobs. Folders are expanded into their suites first (`GET /folders/{id}/suites/`); each job later starts
 * one run per variant and data row (see `execute.ts`).
 */
import type { EngineContext } from '../context.js';
import { messageOf, pushResultless } from '../context.js';
import { NOT_STARTED_ERROR, type StopReason } from '../stop/deadline.js';
import type { TriggerJob } from './execute.js';
import { definitionFor } from '../../inputs/test-files.js';
import type { RunPlan } from '../context.js';

/** A folder whose suites were never listed because the action stopped first: one run, not started. */
function notStartedFolder(ctx: EngineContext, folderId: string, reason: StopReason): void {
  const base = { kind: 'suite', suiteId: null, suiteName: `Folder ${folderId}` } as const;
  pushResultless(
    ctx,
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

/**
 * The suite ids to run: the plan's, then each folder's suites (each suite once, in order). A folder that
 * cannot be listed becomes one run in error; after a stop, one run not started.
 */
export async function expandFolders(ctx: EngineContext): Promise<string[]> {
  const suiteIds = [...ctx.plan.suiteIds];
  for (const folderId of ctx.plan.folderIds) {
    if (ctx.stopReason) {
      notStartedFolder(ctx, folderId, ctx.stopReason);
      continue;
    }
    try {
      const suites = await ctx.api.listFolderSuites(folderId, { signal: ctx.stop.signal });
      ctx.emit({ type: 'folder-listed', folderId, suiteCount: suites.length });
      for (const suite of suites) if (!suiteIds.includes(suite._id)) suiteIds.push(suite._id);
    } catch (error) {
      if (ctx.stopReason) {
        notStartedFolder(ctx, folderId, ctx.stopReason);
        continue;
      }
      pushResultless(
        ctx,
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

/**
 * The trigger jobs of a plan: for each start URL (or once, with the targets' own), every suite, then every
 * test, then every repository test file (its definition under that start URL). Pure.
 */
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
