/**
 * Folders (docs/inputs.md, `folder-ids`): each folder is listed into its suites before any run starts; a suite
 * named twice runs once; a folder that cannot be listed is one run in error, and a folder the action stopped
 * before listing is one run not started, told as a trigger problem. The engine against the emulator.
 */
import { describe, expect, it } from 'vitest';
import { NOT_STARTED_ERROR } from '../../../../src/run/stop/deadline.js';
import { runInWorld } from '../../../support/run-factories.js';
import { useWorld } from '../../../support/world.js';

const API_KEY = 'folders-test-key';
const world = useWorld({ apiKey: API_KEY });

/** Runs `folderIds` (and `suiteIds`) to the end; the events told and the folder listings sent. */
async function runFolders(
  folderIds: string[],
  suiteIds: string[] = [],
  signal?: AbortSignal,
  onRequest?: (method: string, url: string) => void,
) {
  const { summary, events } = await runInWorld(
    world,
    API_KEY,
    { folderIds, suiteIds },
    {
      ...(onRequest && { api: world.client({ apiKey: API_KEY, onRequest }) }),
      ...(signal && { signal }),
    },
  );
  const listings = world.emulator.requests().filter((q) => /^\/v1\/folders\//.test(q.path));
  return { summary, events, listings };
}

describe('a folder that is listed', () => {
  it('runs its suites after the ones named, each suite once, and tells how many it holds', async () => {
    const { summary, events, listings } = await runFolders(['folder-web'], ['suite-smoke']);
    expect(listings.map((q) => q.path)).toEqual(['/v1/folders/folder-web/suites/']);
    expect(summary.runs.map((r) => r.suiteId)).toEqual(['suite-smoke', 'suite-checkout']);
    expect(summary.runs.every((r) => r.suiteResult && !r.error)).toBe(true);
    expect(events).toContainEqual({ type: 'folder-listed', folderId: 'folder-web', suiteCount: 2 });
    expect(events.some((e) => e.type === 'folder-failed')).toBe(false);
  });
});

describe('a folder that cannot be listed', () => {
  it('is one run in error named after the folder; the other targets still run', async () => {
    const { summary, events } = await runFolders(['folder-none'], ['suite-smoke']);
    expect(summary.runs).toHaveLength(2);
    const folder = summary.runs.find((r) => r.suiteName === 'Folder folder-none');
    expect(folder).toMatchObject({ kind: 'suite', suiteId: null, tests: [] });
    expect(folder?.key).toMatch(/^folder-folder-none/);
    expect(folder?.error).toMatch(/^The suites of folder folder-none could not be listed: .+/);
    expect(folder?.notStarted).toBeUndefined();
    const failed = events.find((e) => e.type === 'folder-failed');
    expect(failed).toMatchObject({ folderId: 'folder-none' });
    expect(folder?.error).toContain((failed as { message: string }).message);
    expect(summary.runs.find((r) => r.suiteId === 'suite-smoke')?.suiteResult).toBeTruthy();
    // A listing that failed is not a stop: it is said once, as the run's error, with no trigger problem.
    expect(events.filter((e) => e.type === 'trigger-problems')).toEqual([]);
  });
});

describe('a folder the action stopped before listing', () => {
  it('is one run not started, told as a trigger problem; nothing is listed or run', async () => {
    const stop = new AbortController();
    stop.abort();
    const { summary, events, listings } = await runFolders(['folder-web', 'folder-data'], [], stop.signal);
    expect(listings).toEqual([]);
    expect(summary.runs).toHaveLength(2);
    for (const [i, folderId] of ['folder-web', 'folder-data'].entries()) {
      expect(summary.runs[i]).toMatchObject({
        suiteName: `Folder ${folderId}`,
        error: NOT_STARTED_ERROR.signal,
        notStarted: 'signal',
      });
    }
    const problems = events.flatMap((e) => (e.type === 'trigger-problems' ? e.problems : []));
    expect(problems.map((p) => [p.id, p.label, p.message])).toEqual([
      ['folder-web', 'folder folder-web', NOT_STARTED_ERROR.signal],
      ['folder-data', 'folder folder-data', NOT_STARTED_ERROR.signal],
    ]);
  });
});

describe('a stop while a folder is listed', () => {
  it('aborts the listing: the folder is one run not started, none of its suites is run', async () => {
    const stop = new AbortController();
    const { summary, events } = await runFolders(['folder-web'], [], stop.signal, (_method, url) => {
      if (url.includes('/folders/')) stop.abort();
    });
    expect(summary.runs).toHaveLength(1);
    expect(summary.runs[0]).toMatchObject({
      suiteName: 'Folder folder-web',
      error: NOT_STARTED_ERROR.signal,
      notStarted: 'signal',
    });
    expect(events.some((e) => e.type === 'folder-listed' || e.type === 'folder-failed')).toBe(false);
  });
});
