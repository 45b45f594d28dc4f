/**
 * The agent's pinned download through the real download code (`findAgent` with `@actions/tool-cache`),
 * served from a loopback server: a good file is checked and kept in the tool cache under the pinned
 * version (and found there the next time, without a download); a corrupted one is refused and deleted; a
 * missing one is a clear error naming the URL. A `.tgz` is checked before it is extracted.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAgent } from '../../../src/tunnel/agent.js';
import { tunnelProvider, type AgentAsset, type TunnelProvider } from '../../../src/tunnel/providers.js';

const GOOD = Buffer.from('#!/bin/sh\necho fake agent\n');
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
let server: Server;
let base: string;
let work: string;
let tgz: Buffer;
let zip: Buffer;
const requested: string[] = [];
const saved = { cache: process.env.RUNNER_TOOL_CACHE, temp: process.env.RUNNER_TEMP };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'gi-agent-download-'));
  process.env.RUNNER_TOOL_CACHE = path.join(work, 'cache');
  process.env.RUNNER_TEMP = path.join(work, 'temp');
  await writeFile(path.join(work, 'gi-test-agent'), GOOD, { mode: 0o755 });
  const archive = path.join(work, 'agent.tgz');
  expect(spawnSync('tar', ['-czf', archive, '-C', work, 'gi-test-agent']).status).toBe(0);
  tgz = await readFile(archive);
  zip = Buffer.from(zipSync({ 'gi-zip-agent': [new Uint8Array(GOOD), { os: 3, attrs: 0o755 << 16 }] }));
  const files: Record<string, Buffer> = {
    '/good': GOOD,
    '/corrupted': Buffer.concat([GOOD.subarray(0, 10), Buffer.from('x')]),
    '/agent.tgz': tgz,
    '/agent.zip': zip,
  };
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    const body = files[req.url ?? ''];
    if (body) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
    else res.writeHead(404).end('Not Found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  process.env.RUNNER_TOOL_CACHE = saved.cache;
  process.env.RUNNER_TEMP = saved.temp;
  await rm(work, { recursive: true, force: true });
});

/** The cloudflared provider with its download pointed at the loopback server. */
function providerWith(
  asset: Omit<AgentAsset, 'sha256'> & { sha256?: string },
  command: string,
): TunnelProvider {
  return {
    ...tunnelProvider('cloudflared'),
    command,
    asset: () => ({ sha256: sha256(GOOD), ...asset }),
  };
}

const find = (provider: TunnelProvider) => findAgent(provider, '', () => {});

describe.skipIf(process.platform === 'win32')('findAgent download', () => {
  it('checks a good download, keeps it under the pinned version, and finds it there next time', async () => {
    const provider = providerWith(
      { url: `${base}/good`, kind: 'binary', version: '2026.9.3' },
      'gi-test-agent',
    );
    const exe = await find(provider);
    expect(exe).toContain(path.join('gi-test-agent', '2026.9.3'));
    expect(await readFile(exe)).toEqual(GOOD);
    const downloads = requested.length;
    expect(await find(provider)).toBe(exe);
    expect(requested.length).toBe(downloads);
  });

  it('refuses and deletes a download whose SHA-256 is not the pinned one', async () => {
    const provider = providerWith(
      { url: `${base}/corrupted`, kind: 'binary', version: '1.0.0' },
      'gi-corrupt-agent',
    );
    const tempBefore = await readdir(process.env.RUNNER_TEMP ?? '');
    await expect(find(provider)).rejects.toThrow(
      new RegExp(
        `The download of ${base}/corrupted has SHA-256 [0-9a-f]{64}, not the pinned ${sha256(GOOD)}: it was deleted and not run`,
      ),
    );
    expect(existsSync(path.join(process.env.RUNNER_TOOL_CACHE ?? '', 'gi-corrupt-agent'))).toBe(false);
    expect(await readdir(process.env.RUNNER_TEMP ?? '')).toEqual(tempBefore);
  });

  it('names the URL when the download is missing', async () => {
    const provider = providerWith(
      { url: `${base}/missing`, kind: 'binary', version: '1.0.0' },
      'gi-missing-agent',
    );
    await expect(find(provider)).rejects.toThrow(`Could not download gi-missing-agent from ${base}/missing`);
  });

  it('checks a .tgz before extracting it', async () => {
    const provider = providerWith(
      { url: `${base}/agent.tgz`, kind: 'tgz', version: '1.0.0', sha256: sha256(tgz) },
      'gi-test-agent',
    );
    expect(await readFile(await find(provider))).toEqual(GOOD);
    const bad = providerWith({ url: `${base}/agent.tgz`, kind: 'tgz', version: '2.0.0' }, 'gi-test-agent');
    await expect(find(bad)).rejects.toThrow(/not the pinned/);
  });
});

describe.skipIf(process.platform === 'win32')('findAgent', () => {
  it('says what it downloads, from where', async () => {
    const lines: string[] = [];
    const provider = providerWith({ url: `${base}/good`, kind: 'binary', version: '3.0.0' }, 'gi-log-agent');
    await findAgent(provider, '', (line) => lines.push(line));
    expect(lines).toEqual([`Downloading gi-log-agent 3.0.0 from ${base}/good`]);
  });

  it('extracts a .zip as a zip', async () => {
    const provider = providerWith(
      { url: `${base}/agent.zip`, kind: 'zip', version: '1.0.0', sha256: sha256(zip) },
      'gi-zip-agent',
    );
    expect(await readFile(await find(provider))).toEqual(GOOD);
  });

  it('without a download for this OS and architecture, says so and asks for an install', async () => {
    const provider: TunnelProvider = {
      ...tunnelProvider('cloudflared'),
      command: 'gi-nowhere',
      asset: () => null,
    };
    await expect(find(provider)).rejects.toThrow(
      `gi-nowhere is not on PATH and there is no download of it for ${process.platform}/${process.arch}: install it in an earlier step`,
    );
  });

  it('takes the first executable of that name on the search path, skipping folders without one', async () => {
    const dirs = ['empty', 'not-executable', 'executable'].map((d) => path.join(work, 'path', d));
    for (const d of dirs) await mkdir(d, { recursive: true });
    await writeFile(path.join(dirs[1]!, 'gi-path-agent'), GOOD, { mode: 0o644 });
    await writeFile(path.join(dirs[2]!, 'gi-path-agent'), GOOD, { mode: 0o755 });
    const provider = providerWith(
      { url: `${base}/missing`, kind: 'binary', version: '1.0.0' },
      'gi-path-agent',
    );
    const downloads = requested.length;
    expect(await findAgent(provider, dirs.join(path.delimiter), () => {})).toBe(
      path.join(dirs[2]!, 'gi-path-agent'),
    );
    expect(requested.length).toBe(downloads);
  });
});
