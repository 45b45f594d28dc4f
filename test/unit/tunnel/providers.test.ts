/**
 * The agents' command lines, downloads and log lines: ngrok's JSON log (`started tunnel` with `url`, error
 * levels `eror`/`crit`) and Cloudflare's quick tunnel banner.
 */
import { describe, expect, it } from 'vitest';
import type { TunnelInputs } from '../../../src/inputs/schema.js';
import { tunnelProvider } from '../../../src/tunnel/providers.js';

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

  it('reads the public URL from the started tunnel line, and errors', () => {
    const started =
      '{"addr":"http://localhost:3000","lvl":"info","msg":"started tunnel","name":"command_line","obj":"tunnels","t":"2026-01-01T00:00:00Z","url":"https://a1b2.ngrok-free.app"}';
    expect(ngrok.readLine(started)).toEqual({ url: 'https://a1b2.ngrok-free.app' });
    expect(ngrok.readLine('{"lvl":"info","msg":"client session established"}')).toBeNull();
    expect(ngrok.readLine('t=2026 lvl=info msg="started tunnel" url=https://x')).toBeNull();
    expect(
      ngrok.readLine('{"lvl":"crit","msg":"command failed","err":"authentication failed ERR_NGROK_4018"}'),
    ).toEqual({
      error: 'command failed: authentication failed ERR_NGROK_4018',
    });
  });

  it('downloads the v3 stable agent for Linux, macOS and Windows', () => {
    expect(ngrok.asset('linux', 'x64')?.url).toMatch(/ngrok-v3-stable-linux-amd64\.tgz$/);
    expect(ngrok.asset('darwin', 'arm64')?.url).toMatch(/ngrok-v3-stable-darwin-arm64\.zip$/);
    expect(ngrok.asset('win32', 'x64')?.url).toMatch(/ngrok-v3-stable-windows-amd64\.zip$/);
    expect(ngrok.asset('aix', 'ppc64')).toBeNull();
  });
});

describe('cloudflared', () => {
  const cloudflared = tunnelProvider('cloudflared');

  it('starts a quick tunnel; rewrite sends the local host', () => {
    const tunnel = { ...TUNNEL, provider: 'cloudflared' as const, authtoken: '' };
    expect(cloudflared.args(tunnel)).toEqual(['tunnel', '--no-autoupdate', '--url', 'http://localhost:3000']);
    expect(cloudflared.args({ ...tunnel, hostHeader: 'rewrite' })).toContain('localhost:3000');
  });

  it('reads the trycloudflare.com URL from its banner', () => {
    expect(
      cloudflared.readLine('2026-01-01T00:00:00Z INF |  https://calm-river-tree.trycloudflare.com  |'),
    ).toEqual({
      url: 'https://calm-river-tree.trycloudflare.com',
    });
    expect(cloudflared.readLine('2026-01-01T00:00:00Z INF Starting metrics server')).toBeNull();
    expect(cloudflared.readLine('2026-01-01T00:00:00Z ERR failed to request quick Tunnel: 429')).toEqual({
      error: 'failed to request quick Tunnel: 429',
    });
  });
});
