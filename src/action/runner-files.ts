/** The runner's files outside GitHub: outputs and summary go to local files next to results.json. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitHubContext } from '../github.js';
import type { ActionSink } from '../common/sink.js';

/** For each runner file: its context field, the local file used when it is not set, its variable, what goes there. */
const LOCAL_FILES = [
  ['outputFile', 'ghost-inspector-outputs.txt', 'GITHUB_OUTPUT', 'outputs go'],
  ['summaryFile', 'ghost-inspector-summary.md', 'GITHUB_STEP_SUMMARY', 'the job summary goes'],
] as const;

/**
 * Creates `dir` and an empty local file in it for each runner file the GitHub context lacks.
 * @throws the file-system error when `dir` or a file cannot be created
 */
export async function ensureRunnerFiles(dir: string, github: GitHubContext, sink: ActionSink): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [field, name, variable, what] of LOCAL_FILES) {
    if (github[field]) continue;
    const file = path.join(dir, name);
    await writeFile(file, '');
    sink.useRunnerFiles({ [field]: file });
    sink.info(`${variable} is not set: ${what} to ${file}`);
  }
}
