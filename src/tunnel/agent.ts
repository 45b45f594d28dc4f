/** Finds or downloads the tunnel agent's executable (docs/tunnel.md, "Agent"). */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { access, chmod, constants, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AgentAsset, TunnelProvider } from './providers.js';

/**
 * The path of the agent's executable: on `searchPath`, else from the pinned file kept in the tool cache
 * (downloaded first when it is not there). The kept file is the pinned file exactly as downloaded (the
 * `.tgz`, the `.zip`, the executable), and its SHA-256 is checked against the pin every time, before
 * anything of it runs: an archive is then extracted into a folder of its own under the runner's temp.
 * @throws Error when it is not installed and there is no download for this OS and architecture, the
 *   download fails, or the SHA-256 of the download or of the kept file is not the pinned one
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
  const file = keptFile(provider, asset, toolCache) ?? (await download(provider, asset, toolCache, log));
  const actual = await sha256Of(file);
  if (actual !== asset.sha256.toLowerCase()) {
    throw new Error(
      `The kept ${asset.file} (${file}) has SHA-256 ${actual}, not the pinned ${asset.sha256} (${asset.source}): it was not run. Something replaced it after its check (an earlier job on this runner can); delete ${path.dirname(file)} to download it again.`,
    );
  }
  if (asset.kind === 'binary') return file;
  const extracted =
    asset.kind === 'zip' ? await toolCache.extractZip(file) : await toolCache.extractTar(file);
  return path.join(extracted, exe);
}

type ToolCache = typeof import('@actions/tool-cache');

/** The pinned file in the tool cache under the pinned version, else null (the entry holds something else). */
function keptFile(provider: TunnelProvider, asset: AgentAsset, toolCache: ToolCache): string | null {
  const dir = toolCache.find(provider.command, asset.version, process.arch);
  const file = dir ? path.join(dir, asset.file) : '';
  return file && existsSync(file) ? file : null;
}

/** Downloads the pinned file, checks it, and keeps it in the tool cache under its own name. */
async function download(
  provider: TunnelProvider,
  asset: AgentAsset,
  toolCache: ToolCache,
  log: (line: string) => void,
): Promise<string> {
  log(`Downloading ${provider.command} ${asset.version} from ${asset.url}`);
  const file = await toolCache.downloadTool(asset.url).catch((error: Error) => {
    throw new Error(`Could not download ${provider.command} from ${asset.url}: ${error.message}`);
  });
  const actual = await sha256Of(file);
  if (actual !== asset.sha256.toLowerCase()) {
    await rm(file, { force: true });
    throw new Error(
      `The download of ${asset.url} has SHA-256 ${actual}, not the pinned ${asset.sha256} (${asset.source}): it was deleted and not run. Install the agent in an earlier step, or retry if the download was cut short.`,
    );
  }
  const dir = await toolCache.cacheFile(file, asset.file, provider.command, asset.version, process.arch);
  await rm(file, { force: true });
  const kept = path.join(dir, asset.file);
  if (asset.kind === 'binary') await chmod(kept, 0o755);
  return kept;
}

/** The SHA-256 of `file`, lower-case hex. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
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
