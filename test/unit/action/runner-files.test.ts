/**
 * The runner's files outside GitHub (`ensureRunnerFiles` of `src/action/runner-files.ts`,
 * docs/architecture.md): each runner file the context lacks becomes an empty local file beside results.json,
 * the sink is pointed at it and the log says where outputs and the job summary go; a file the runner gave
 * is left alone.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureRunnerFiles } from '../../../src/action/runner-files.js';
import { readGitHubContext } from '../../../src/github.js';
import { RecordingSink } from '../../support/run-action.js';
import { useWorlds } from '../../support/world.js';

const { newWorkspace } = useWorlds();
let workspace: string;

beforeAll(async () => {
  workspace = await newWorkspace();
});

/** A sink that keeps each `useRunnerFiles` call. */
class FilesSink extends RecordingSink {
  files: Array<{ outputFile?: string; summaryFile?: string }> = [];
  override useRunnerFiles(files: { outputFile?: string; summaryFile?: string } = {}): void {
    this.files.push(files);
  }
}

describe('ensureRunnerFiles', () => {
  it('outside GitHub: an empty local file for outputs and one for the summary, the sink pointed at them', async () => {
    const dir = path.join(workspace, 'none', 'reports');
    const output = path.join(dir, 'ghost-inspector-outputs.txt');
    const summary = path.join(dir, 'ghost-inspector-summary.md');
    const sink = new FilesSink();
    await ensureRunnerFiles(dir, readGitHubContext({}), sink);
    expect(await readFile(output, 'utf8')).toBe('');
    expect(await readFile(summary, 'utf8')).toBe('');
    expect(sink.files).toEqual([{ outputFile: output }, { summaryFile: summary }]);
    expect(sink.stdout).toBe(
      `GITHUB_OUTPUT is not set: outputs go to ${output}\n` +
        `GITHUB_STEP_SUMMARY is not set: the job summary goes to ${summary}\n`,
    );
    // A second run starts from empty files again.
    await writeFile(output, 'total=3\n');
    await ensureRunnerFiles(dir, readGitHubContext({}), new FilesSink());
    expect(await readFile(output, 'utf8')).toBe('');
  });

  it('a file the runner gave is left alone', async () => {
    const dir = path.join(workspace, 'some');
    const sink = new FilesSink();
    await ensureRunnerFiles(dir, readGitHubContext({ GITHUB_OUTPUT: path.join(workspace, 'out.txt') }), sink);
    expect(existsSync(path.join(dir, 'ghost-inspector-outputs.txt'))).toBe(false);
    expect(sink.files).toEqual([{ summaryFile: path.join(dir, 'ghost-inspector-summary.md') }]);
    expect(sink.stdout).not.toContain('GITHUB_OUTPUT');
    const both = new FilesSink();
    const github = readGitHubContext({ GITHUB_OUTPUT: 'o', GITHUB_STEP_SUMMARY: 's' });
    await ensureRunnerFiles(path.join(workspace, 'all'), github, both);
    expect(both.files).toEqual([]);
    expect(both.stdout).toBe('');
    expect(existsSync(path.join(workspace, 'all'))).toBe(true);
  });
});
