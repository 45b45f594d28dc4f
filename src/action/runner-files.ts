/** The runner's files outside GitHub: outputs and summary go to local files next to results.json. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitHubContext } from '../github.js';
import type { ActionSink } from '../common/sink.js';

/** Local files used when the runner's files are not set. */
const LOCAL_OUTPUTS_FILE = 'ghost-inspector-outputs.txt';
const LOCAL_SUMMARY_FILE = 'ghost-inspector-summary.md';

/**
 * Creates `dir` and an empty local file in it for each runner file the GitHub context lacks.
 * @throws the file-system error when `dir` or a file cannot be created
 */
export async function ensureRunnerFiles(dir: string, github: GitHubContext, sink: ActionSink): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (!github.outputFile) {
    const file = path.join(dir, LOCAL_OUTPUTS_FILE);
    await writeFile(file, '');
    sink.useRunnerFiles({ outputFile: file });
    sink.info(`GITHUB_OUTPUT is not set: outputs go to ${file}`);
  }
  if (!github.summaryFile) {
    const file = path.join(dir, LOCAL_SUMMARY_FILE);
    await writeFile(file, '');
    sink.useRunnerFiles({ summaryFile: file });
    sink.info(`GITHUB_STEP_SUMMARY is not set: the job summary goes to ${file}`);
  }
}
