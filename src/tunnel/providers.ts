/**
 * The tunnel agents behind one interface: how each is downloaded for the runner's OS and architecture, how
 * it is started for a local address, and how its log lines tell the public URL or a fatal error
 * (docs/tunnel.md). ngrok: `ngrok http ADDR --log stdout --log-format json`, the authtoken in
 * `NGROK_AUTHTOKEN`, the URL in the `started tunnel` line. Cloudflare quick tunnel:
 * `cloudflared tunnel --url ADDR`, no account, the `*.trycloudflare.com` URL in its log.
 */
import type { TunnelInputs, TunnelProviderName } from '../inputs/schema.js';

/** What a log line of the agent says, when it says something the action uses. */
export type AgentLine = { url: string } | { error: string } | null;

/** Where to download the agent: the archive's URL and its kind. */
interface AgentAsset {
  url: string;
  /** `tgz` and `zip` are extracted; `binary` is the executable itself. */
  kind: 'tgz' | 'zip' | 'binary';
  /** The tool-cache version the download is kept under. */
  version: string;
}

/** One tunnel agent. */
export interface TunnelProvider {
  name: TunnelProviderName;
  /** The executable's name without `.exe`. */
  command: string;
  /** The download for `platform`/`arch` as `process.platform`/`process.arch` name them; null when none. */
  asset(platform: NodeJS.Platform, arch: string): AgentAsset | null;
  /** Command-line arguments that expose `tunnel.address`. */
  args(tunnel: TunnelInputs): string[];
  /** Environment added for the agent (never on its command line: secrets stay out of the process list). */
  env(tunnel: TunnelInputs): Record<string, string>;
  /** Reads one line of the agent's output (stdout or stderr). */
  readLine: (line: string) => AgentLine;
}

const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };
const GO_OS: Readonly<Partial<Record<NodeJS.Platform, string>>> = {
  linux: 'linux',
  darwin: 'darwin',
  win32: 'windows',
};

/** ngrok's JSON log line, as far as the action reads it. */
interface NgrokLogLine {
  lvl?: string;
  msg?: string;
  url?: string;
  err?: string;
}

const ngrok: TunnelProvider = {
  name: 'ngrok',
  command: 'ngrok',
  asset(platform, arch) {
    const os = GO_OS[platform];
    const goArch = GO_ARCH[arch];
    if (!os || !goArch) return null;
    const kind = os === 'linux' ? 'tgz' : 'zip';
    return {
      url: `https://bin.equinox.io/c/bNyj1mQVY4c/ngrok-v3-stable-${os}-${goArch}.${kind}`,
      kind,
      version: '3.0.0',
    };
  },
  args(tunnel) {
    const args = ['http', tunnel.address, '--log', 'stdout', '--log-format', 'json'];
    if (tunnel.hostHeader) args.push(`--host-header=${tunnel.hostHeader}`);
    return args;
  },
  env: (tunnel) => ({ NGROK_AUTHTOKEN: tunnel.authtoken }),
  readLine(line) {
    let entry: NgrokLogLine;
    try {
      entry = JSON.parse(line) as NgrokLogLine;
    } catch {
      return null;
    }
    if (entry.msg === 'started tunnel' && typeof entry.url === 'string') return { url: entry.url };
    if (entry.lvl === 'crit' || entry.lvl === 'eror') {
      return { error: [entry.msg, entry.err].filter(Boolean).join(': ') };
    }
    return null;
  },
};

const CLOUDFLARED_VERSION = '2024.6.1';

const cloudflared: TunnelProvider = {
  name: 'cloudflared',
  command: 'cloudflared',
  asset(platform, arch) {
    const os = GO_OS[platform];
    const goArch = GO_ARCH[arch];
    if (!os || !goArch) return null;
    const base = `https://github.com/cloudflare/cloudflared/releases/download/${CLOUDFLARED_VERSION}`;
    if (os === 'darwin')
      return { url: `${base}/cloudflared-darwin-${goArch}.tgz`, kind: 'tgz', version: CLOUDFLARED_VERSION };
    const file = `cloudflared-${os}-${goArch}${os === 'windows' ? '.exe' : ''}`;
    return { url: `${base}/${file}`, kind: 'binary', version: CLOUDFLARED_VERSION };
  },
  args(tunnel) {
    const args = ['tunnel', '--no-autoupdate', '--url', tunnel.address];
    const host = tunnel.hostHeader === 'rewrite' ? new URL(tunnel.address).host : tunnel.hostHeader;
    if (host) args.push('--http-host-header', host);
    return args;
  },
  env: () => ({}),
  readLine(line) {
    const url = /https:\/\/[a-z0-9-]+\.trycloudflare\.com/.exec(line)?.[0];
    if (url) return { url };
    const error = /\bERR\b\s+(.*)$/.exec(line)?.[1];
    return error && /failed to (request|create) quick tunnel/i.test(error) ? { error } : null;
  },
};

/** The provider of `name`. */
export function tunnelProvider(name: TunnelProviderName): TunnelProvider {
  return name === 'cloudflared' ? cloudflared : ngrok;
}
