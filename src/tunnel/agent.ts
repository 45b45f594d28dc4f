/**
 * Finds the tunnel agent's executable: on `PATH` when installed, else in the runner's tool cache, else
 * downloaded once for this OS and architecture and kept in the tool cache for the jobs after this one
 * (`@actions/tool-cache`).
 */
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { which } from '@actions/io';
import * as toolCache from '@actions/tool-cache';
import type { TunnelProvider } from './providers.js';

/**
 * The path of the agent's executable.
 * @param log progress lines (the download)
 * @throws Error when the agent is not installed and there is no download for this OS and architecture, or
 *   the download fails
 */
export async function findAgent(provider: TunnelProvider, log: (line: string) => void): Promise<string> {
  const onPath = await which(provider.command, false);
  if (onPath) return onPath;
  const asset = provider.asset(process.platform, process.arch);
  if (!asset) {
    throw new Error(
      `${provider.command} is not on PATH and there is no download of it for ${process.platform}/${process.arch}: install it in an earlier step`,
    );
  }
  const exe = process.platform === 'win32' ? `${provider.command}.exe` : provider.command;
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
