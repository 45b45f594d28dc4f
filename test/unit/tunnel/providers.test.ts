/**
 * The agents' command lines, pinned downloads, allow-listed environment and log lines: ngrok's JSON log
 * (`started tunnel`, `starting web service`, levels `eror`/`crit`), cloudflared's quick-tunnel announcement
 * and its error lines.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TunnelInputs } from '../../../src/inputs/schema.js';
import { agentMaySee, tunnelProvider } from '../../../src/tunnel/providers.js';
import { ROOT } from '../../support/harness.js';

const TUNNEL: TunnelInputs = {
  address: 'http://localhost:3000',
  provider: 'ngrok',
  authtoken: 'ngrok-token-7Qx2Lm9Zr4Kp1Vb8',
  urlVariable: 'ngrokUrl',
  hostHeader: '',
};

describe('ngrok', () => {
  const ngrok = tunnelProvider('ngrok');

  it('starts an http tunnel with JSON logs on stdout; the token in the environment, never in the arguments', () => {
    expect(ngrok.args(TUNNEL)).toEqual([
      'http',
      'http://localhost:3000',
      '--log',
      'stdout',
      '--log-format',
      'json',
    ]);
    expect(ngrok.args({ ...TUNNEL, hostHeader: 'rewrite' })).toContain('--host-header=rewrite');
    expect(ngrok.env(TUNNEL)).toEqual({ NGROK_AUTHTOKEN: TUNNEL.authtoken });
  });

  it('reads the public URL from the started tunnel line, its API address, and errors', () => {
    const read = ngrok.lineReader();
    const started =
      '{"addr":"http://localhost:3000","lvl":"info","msg":"started tunnel","name":"command_line","obj":"tunnels","t":"2026-01-01T00:00:00Z","url":"https://a1b2.ngrok-free.app"}';
    expect(read(started)).toEqual({ url: 'https://a1b2.ngrok-free.app' });
    expect(read('{"lvl":"info","msg":"starting web service","obj":"web","addr":"127.0.0.1:4041"}')).toEqual({
      api: 'http://127.0.0.1:4041',
    });
    expect(read('{"lvl":"info","msg":"client session established"}')).toBeNull();
    expect(read('t=2026 lvl=info msg="started tunnel" url=https://x')).toBeNull();
    expect(
      read('{"lvl":"crit","msg":"command failed","err":"authentication failed ERR_NGROK_4018"}'),
    ).toEqual({
      error: 'command failed: authentication failed ERR_NGROK_4018',
      fatal: true,
    });
    expect(read('{"lvl":"eror","msg":"failed to check for update","err":"timeout"}')).toEqual({
      error: 'failed to check for update: timeout',
      fatal: false,
    });
    expect(read('ERROR:  authentication failed: Usage of ngrok requires a verified account  ')).toEqual({
      error: 'authentication failed: Usage of ngrok requires a verified account',
      fatal: true,
    });
  });

  it('reads nothing from a line that lacks the field it names, and quotes a fatal line without `err`', () => {
    const read = ngrok.lineReader();
    expect(read('{"lvl":"info","msg":"started tunnel","obj":"tunnels"}')).toBeNull();
    expect(read('{"lvl":"info","msg":"starting web service","obj":"web"}')).toBeNull();
    expect(
      read('{"lvl":"info","msg":"join connections","addr":"127.0.0.1:3000","url":"https://x"}'),
    ).toBeNull();
    expect(read('{"lvl":"crit","msg":"command failed"}')).toEqual({ error: 'command failed', fatal: true });
  });

  it('downloads one pinned 3.x release for every runner platform: the zip ngrok serves', () => {
    const versions = new Set<string>();
    for (const [platform, arch] of RUNNER_PLATFORMS) {
      const asset = ngrok.asset(platform, arch);
      expect(asset?.url).toMatch(/^https:\/\/bin\.ngrok\.com\/a\/\w+\/ngrok-v3-3\.\d+\.\d+-\w+-\w+\.zip$/);
      expect(asset?.url).toContain(`-${asset?.version}-`);
      expect(asset?.kind).toBe('zip');
      versions.add(asset?.version ?? '');
    }
    expect(versions.size).toBe(1);
    expect(ngrok.asset('aix', 'ppc64')).toBeNull();
  });
});

/** The platforms of GitHub-hosted runners: Linux x64/arm64, macOS x64/arm64, Windows x64. */
const RUNNER_PLATFORMS: Array<[NodeJS.Platform, string]> = [
  ['linux', 'x64'],
  ['linux', 'arm64'],
  ['darwin', 'x64'],
  ['darwin', 'arm64'],
  ['win32', 'x64'],
];

describe('cloudflared', () => {
  const cloudflared = tunnelProvider('cloudflared');

  it('starts a quick tunnel; rewrite sends the local host', () => {
    const tunnel = { ...TUNNEL, provider: 'cloudflared' as const, authtoken: '' };
    expect(cloudflared.args(tunnel)).toEqual(['tunnel', '--no-autoupdate', '--url', 'http://localhost:3000']);
    expect(cloudflared.args({ ...tunnel, hostHeader: 'rewrite' }).slice(-2)).toEqual([
      '--http-host-header',
      'localhost:3000',
    ]);
    expect(cloudflared.args({ ...tunnel, hostHeader: 'shop.example.com' }).slice(-2)).toEqual([
      '--http-host-header',
      'shop.example.com',
    ]);
    expect(cloudflared.env(tunnel)).toEqual({});
  });

  it('reads the URL only from the quick-tunnel announcement', () => {
    const read = cloudflared.lineReader();
    expect(read('2026-01-01T00:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...')).toBeNull();
    expect(read('2026-01-01T00:00:00Z INF |  https://api.trycloudflare.com  |')).toBeNull();
    expect(
      read(
        '2026-01-01T00:00:00Z INF |  Your quick Tunnel has been created! Visit it at (it may take some time to be reachable):  |',
      ),
    ).toBeNull();
    expect(
      read(
        '2026-01-01T00:00:00Z INF |  https://calm-river-tree.trycloudflare.com                                           |',
      ),
    ).toEqual({
      url: 'https://calm-river-tree.trycloudflare.com',
    });
  });

  it('reads ERR lines and the bare error it exits with as fatal', () => {
    const read = cloudflared.lineReader();
    expect(
      read('2026-01-01T00:00:00Z ERR Error unmarshaling QuickTunnel response: error code: 1015'),
    ).toEqual({
      error: 'Error unmarshaling QuickTunnel response: error code: 1015',
      fatal: true,
    });
    const bare =
      'failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host';
    expect(read(bare)).toEqual({ error: bare, fatal: true });
    expect(read(`Failed to create tunnel  `)).toEqual({ error: 'Failed to create tunnel', fatal: true });
    expect(read('2026-01-01T00:00:00Z ERR Connection terminated  ')).toEqual({
      error: 'Connection terminated',
      fatal: true,
    });
    expect(read('2026-01-01T00:00:00Z INF Starting metrics server')).toBeNull();
  });

  it('downloads one pinned release for every runner platform, each with a SHA-256', () => {
    const versions = new Set<string>();
    for (const [platform, arch] of RUNNER_PLATFORMS) {
      const asset = cloudflared.asset(platform, arch);
      expect(asset?.url).toContain(`/releases/download/${asset?.version}/cloudflared-`);
      expect(asset?.sha256).toMatch(/^[0-9a-f]{64}$/);
      versions.add(asset?.version ?? '');
    }
    expect(versions.size).toBe(1);
    expect(cloudflared.asset('darwin', 'arm64')?.url).toMatch(/cloudflared-darwin-arm64\.tgz$/);
    expect(cloudflared.asset('darwin', 'arm64')?.kind).toBe('tgz');
    expect(cloudflared.asset('linux', 'x64')?.kind).toBe('binary');
    expect(cloudflared.asset('win32', 'x64')?.kind).toBe('binary');
  });
});

describe('pinned downloads', () => {
  const pins = (['cloudflared', 'ngrok'] as const).flatMap((name) =>
    RUNNER_PLATFORMS.map(([platform, arch]) => ({
      where: `${name} ${platform}-${arch}`,
      asset: tunnelProvider(name).asset(platform, arch),
    })),
  );

  it('each names the file its digest is of: the last segment of its URL, unpacked as its extension says', () => {
    for (const { where, asset } of pins) {
      expect(asset, where).not.toBeNull();
      expect(asset?.url.endsWith(`/${asset.file}`), where).toBe(true);
      const kind = asset?.file.endsWith('.tgz') ? 'tgz' : asset?.file.endsWith('.zip') ? 'zip' : 'binary';
      expect(asset?.kind, where).toBe(kind);
      expect(asset?.sha256, where).toMatch(/^[0-9a-f]{64}$/);
      expect(asset?.source, where).not.toBe('');
    }
    expect(new Set(pins.map(({ asset }) => asset?.sha256)).size).toBe(pins.length);
  });

  it('docs/tunnel.md lists each with its file and SHA-256 on one line', async () => {
    const lines = (await readFile(path.join(ROOT, 'docs', 'tunnel.md'), 'utf8')).split('\n');
    for (const { where, asset } of pins) {
      const line = lines.find((l) => l.includes(asset?.sha256 ?? '-'));
      expect(line, where).toContain(asset?.file);
    }
  });
});

describe('agentMaySee', () => {
  it('lets the agent see its paths, temp, proxy and own settings, never the job secrets', () => {
    for (const name of ['PATH', 'HOME', 'TMPDIR', 'HTTPS_PROXY', 'no_proxy']) {
      expect(agentMaySee('cloudflared', name)).toBe(true);
    }
    expect(agentMaySee('ngrok', 'NGROK_CONFIG')).toBe(true);
    expect(agentMaySee('cloudflared', 'NGROK_AUTHTOKEN')).toBe(false);
    for (const secret of [
      'AWS_SECRET_ACCESS_KEY',
      'DB_PASSWORD',
      'INPUT_API-KEY',
      'ACTIONS_RUNTIME_TOKEN',
      'GITHUB_TOKEN',
    ]) {
      expect(agentMaySee('ngrok', secret)).toBe(false);
      expect(agentMaySee('cloudflared', secret)).toBe(false);
    }
  });
});
