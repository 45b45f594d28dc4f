/** Finds or downloads the tunnel agent's executable (docs/tunnel.md, "How it goes", "Agent"). */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, chmod, constants, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AgentAsset, TunnelProvider } from './providers.js';

/**
 * The path of the agent's executable: on `searchPath`, else in the tool cache, else downloaded and cached.
 * @throws Error when it is not installed and there is no download for this OS and architecture, the
 *   download fails, or its SHA-256 is not the pinned one
 */
export async function findAgent(
  provider: TunnelProvider,
  searchPath: string,
  log: (line: string) => void,
): Promise<string> {
  // Stryker disable next-line all: Windows only; the tests run on Linux
  const exe = process.platform === 'win32' ? `${provider.command}.exe` : provider.command;
  const onPath = await onSearchPath(exe, searchPath);
  if (onPath) return onPath;
  const asset = provider.asset(process.platform, process.arch);
  if (!asset) {
    throw new Error(
      `${provider.command} is not on PATH and there is no download of it for ${process.platform}/${process.arch}: install it in an earlier step`,
    );
  }
  // Loaded only here: most runs never download an agent.
  const toolCache = await import('@actions/tool-cache');
  const cached = toolCache.find(provider.command, asset.version, process.arch);
  if (cached) return path.join(cached, exe);
  log(`Downloading ${provider.command} ${asset.version} from ${asset.url}`);
  const file = await toolCache.downloadTool(asset.url).catch((error: Error) => {
    throw new Error(`Could not download ${provider.command} from ${asset.url}: ${error.message}`);
  });
  await checkSha256(file, asset);
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

/** Deletes `file` and throws naming both values when its SHA-256 is not `asset.sha256`. */
async function checkSha256(file: string, asset: AgentAsset): Promise<void> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = hash.digest('hex');
  if (actual === asset.sha256.toLowerCase()) return;
  await rm(file, { force: true });
  throw new Error(
    `The download of ${asset.url} has SHA-256 ${actual}, not the pinned ${asset.sha256}: it was deleted and not run. Install the agent in an earlier step, or retry if the download was cut short.`,
  );
}

/** The first executable `exe` in the folders of `searchPath`, else null. */
async function onSearchPath(exe: string, searchPath: string): Promise<string | null> {
  // Stryker disable next-line all: Windows only; the tests run on Linux
  const mode = process.platform === 'win32' ? constants.F_OK : constants.X_OK;
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, exe);
    // `access` resolves with nothing when the file may be run, else rejects.
    if (!(await access(file, mode).catch(() => true))) return file;
  }
  return null;
}
