/**
 * Finds the tunnel agent's executable: on `PATH` when installed, else in the runner's tool cache, else
 * downloaded once for this OS and architecture and kept in the tool cache for the jobs after this one
 * (`@actions/tool-cache`).
 */
import { access, chmod, constants } from 'node:fs/promises';
import path from 'node:path';
import type { TunnelProvider } from './providers.js';

/**
 * The path of the agent's executable.
 * @param searchPath the `PATH` to look in first (the agent's environment)
 * @param log progress lines (the download)
 * @throws Error when the agent is not installed and there is no download for this OS and architecture, or
 *   the download fails
 */
export async function findAgent(
  provider: TunnelProvider,
  searchPath: string,
  log: (line: string) => void,
): Promise<string> {
  const onPath = await onSearchPath(provider.command, searchPath);
  if (onPath) return onPath;
  const asset = provider.asset(process.platform, process.arch);
  if (!asset) {
    throw new Error(
      `${provider.command} is not on PATH and there is no download of it for ${process.platform}/${process.arch}: install it in an earlier step`,
    );
  }
  const exe = process.platform === 'win32' ? `${provider.command}.exe` : provider.command;
  // Loaded only here: most runs never download an agent.
  const toolCache = await import('@actions/tool-cache');
  const cached = toolCache.find(provider.command, asset.version, process.arch);
  if (cached) return path.join(cached, exe);
  log(`Downloading ${provider.command} from ${asset.url}`);
  const file = await toolCache.downloadTool(asset.url);
  if (asset.kind === 'binary') {
    await chmod(file, 0o755);
    const dir = await toolCache.cacheFile(file, exe, provider.command, asset.version, process.arch);
    return path.join(dir, exe);
  }
  const extracted =
    asset.kind === 'zip' ? await toolCache.extractZip(file) : await toolCache.extractTar(file);
  const dir = await toolCache.cacheDir(extracted, provider.command, asset.version, process.arch);
  return path.join(dir, exe);
}

/** The first executable named `command` (`.exe` on Windows) in the folders of `searchPath`, else null. */
async function onSearchPath(command: string, searchPath: string): Promise<string | null> {
  const name = process.platform === 'win32' ? `${command}.exe` : command;
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    const mode = process.platform === 'win32' ? constants.F_OK : constants.X_OK;
    if (
      await access(file, mode).then(
        () => true,
        () => false,
      )
    )
      return file;
  }
  return null;
}
