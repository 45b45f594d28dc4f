/**
 * The agent's pinned download through the real download code (`findAgent` with `@actions/tool-cache`),
 * served from a loopback server: a good file is checked and kept in the tool cache under the pinned
 * version and its own name (and found there the next time, without a download); a corrupted one is refused
 * and deleted; a missing one is a clear error naming the URL. The pin is of the file downloaded: a `.tgz`
 * is checked as downloaded, before it is extracted. The kept file is checked again at every use: one
 * replaced after its download (as an earlier job on a persistent runner can) is refused before it runs.
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
import { startTunnel } from '../../../src/tunnel/tunnel.js';
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

/** The cloudflared provider with its download pointed at the loopback server (the file named by the URL). */
function providerWith(
  asset: Omit<AgentAsset, 'sha256' | 'file' | 'source'> & { sha256?: string },
  command: string,
): TunnelProvider {
  const file = new URL(asset.url).pathname.split('/').pop() ?? '';
  return {
    ...tunnelProvider('cloudflared'),
    command,
    asset: () => ({ sha256: sha256(GOOD), file, source: 'the test', ...asset }),
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
    expect(exe).toBe(
      path.join(process.env.RUNNER_TOOL_CACHE ?? '', 'gi-test-agent', '2026.9.3', process.arch, 'good'),
    );
    expect(await readFile(exe)).toEqual(GOOD);
    expect(spawnSync(exe).stdout.toString()).toBe('fake agent\n');
    const downloads = requested.length;
    expect(await find(provider)).toBe(exe);
    expect(requested.length).toBe(downloads);
  });

  it('downloads the pinned file when the entry under the pinned version holds only other files', async () => {
    const provider = providerWith({ url: `${base}/good`, kind: 'binary', version: '4.0.0' }, 'gi-test-agent');
    const dir = path.join(process.env.RUNNER_TOOL_CACHE ?? '', 'gi-test-agent', '4.0.0', process.arch);
    await mkdir(dir, { recursive: true });
    // The agent's own name, not the pinned file's: what an install by another tool leaves there.
    await writeFile(path.join(dir, 'gi-test-agent'), GOOD, { mode: 0o755 });
    await writeFile(`${dir}.complete`, '');
    const downloads = requested.length;
    const exe = await find(provider);
    expect(exe).toBe(path.join(dir, 'good'));
    expect(await readFile(exe)).toEqual(GOOD);
    expect(requested.length).toBe(downloads + 1);
  });

  it('refuses and deletes a download whose SHA-256 is not the pinned one', async () => {
    const provider = providerWith(
      { url: `${base}/corrupted`, kind: 'binary', version: '1.0.0' },
      'gi-corrupt-agent',
    );
    const tempBefore = await readdir(process.env.RUNNER_TEMP ?? '');
    await expect(find(provider)).rejects.toThrow(
      new RegExp(
        `The download of ${base}/corrupted has SHA-256 [0-9a-f]{64}, not the pinned ${sha256(GOOD)} \\(the test\\): it was deleted and not run`,
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

  it('checks a .tgz as downloaded, before extracting it: a pin of the executable inside is refused', async () => {
    const provider = providerWith(
      { url: `${base}/agent.tgz`, kind: 'tgz', version: '1.0.0', sha256: sha256(tgz) },
      'gi-test-agent',
    );
    expect(await readFile(await find(provider))).toEqual(GOOD);
    // The pin of the executable inside the archive (what cloudflared's release notes give for macOS).
    const inside = providerWith({ url: `${base}/agent.tgz`, kind: 'tgz', version: '2.0.0' }, 'gi-test-agent');
    await expect(find(inside)).rejects.toThrow(
      `The download of ${base}/agent.tgz has SHA-256 ${sha256(tgz)}, not the pinned ${sha256(GOOD)}`,
    );
  });

  it('keeps the pinned file itself, under its own name, and extracts it afresh at every use', async () => {
    const provider = providerWith(
      { url: `${base}/agent.tgz`, kind: 'tgz', version: '3.0.0', sha256: sha256(tgz) },
      'gi-test-agent',
    );
    const first = await find(provider);
    const kept = path.join(process.env.RUNNER_TOOL_CACHE ?? '', 'gi-test-agent', '3.0.0', process.arch);
    expect(await readdir(kept)).toEqual(['agent.tgz']);
    expect(sha256(await readFile(path.join(kept, 'agent.tgz')))).toBe(sha256(tgz));
    const second = await find(provider);
    expect(second).not.toBe(first);
    expect(await readFile(second)).toEqual(GOOD);
  });

  it('refuses a kept executable replaced after its download, before it runs', async () => {
    const provider = providerWith({ url: `${base}/good`, kind: 'binary', version: '4.0.0' }, 'gi-kept-agent');
    const exe = await find(provider);
    const ran = path.join(work, 'planted-ran');
    await writeFile(exe, `#!/bin/sh\ntouch '${ran}'\n`, { mode: 0o755 });
    const downloads = requested.length;
    await expect(find(provider)).rejects.toThrow(
      new RegExp(
        `The kept good \\(${exe.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) has SHA-256 [0-9a-f]{64}, not the pinned ${sha256(GOOD)} \\(the test\\): it was not run`,
      ),
    );
    expect(requested.length).toBe(downloads);
    expect(existsSync(ran)).toBe(false);
  });

  it('refuses a kept archive replaced after its download', async () => {
    const provider = providerWith(
      { url: `${base}/agent.tgz`, kind: 'tgz', version: '5.0.0', sha256: sha256(tgz) },
      'gi-test-agent',
    );
    await find(provider);
    const kept = path.join(
      process.env.RUNNER_TOOL_CACHE ?? '',
      'gi-test-agent',
      '5.0.0',
      process.arch,
      'agent.tgz',
    );
    await writeFile(kept, zip);
    await expect(find(provider)).rejects.toThrow(`has SHA-256 ${sha256(zip)}, not the pinned ${sha256(tgz)}`);
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

describe.skipIf(process.platform === 'win32')('a tool-cache entry planted under the pinned version', () => {
  it('is refused before it runs: NGROK_AUTHTOKEN never reaches it', async () => {
    const asset = tunnelProvider('ngrok').asset(process.platform, process.arch);
    if (!asset) throw new Error(`no ngrok download for ${process.platform}/${process.arch}`);
    const dir = path.join(process.env.RUNNER_TOOL_CACHE ?? '', 'ngrok', asset.version, process.arch);
    const seen = path.join(work, 'planted-env');
    const planted = `#!/bin/sh\nenv > '${seen}'\n`;
    await mkdir(dir, { recursive: true });
    // Both what the agent's own name and the pinned file's name would find there.
    await writeFile(path.join(dir, 'ngrok'), planted, { mode: 0o755 });
    await writeFile(
      path.join(dir, asset.file),
      zipSync({ ngrok: [new TextEncoder().encode(planted), { os: 3, attrs: 0o755 << 16 }] }),
    );
    await writeFile(`${dir}.complete`, '');
    const token = 'ngrok-token-planted-9Zq';
    await expect(
      startTunnel({
        tunnel: {
          address: 'http://127.0.0.1:9',
          provider: 'ngrok',
          authtoken: token,
          urlVariable: 'ngrokUrl',
          hostHeader: '',
        },
        env: { PATH: '' },
        log: () => {},
        signal: new AbortController().signal,
        timeoutMs: 5_000,
      }),
    ).rejects.toThrow(`not the pinned ${asset.sha256} (${asset.source}): it was not run`);
    expect(existsSync(seen)).toBe(false);
  });
});
