/**
 * The tunnel agents behind one interface: pinned download, arguments, and what their log lines say
 * (docs/tunnel.md, "What the action relies on", lists each behaviour with its source).
 */
import type { TunnelInputs, TunnelProviderName } from '../inputs/schema.js';

/** What a log line says that the action uses (`fatal`: the agent will not open the tunnel). */
type AgentLine = { url: string } | { api: string } | { error: string; fatal: boolean } | null;

export interface AgentAsset {
  url: string;
  kind: 'tgz' | 'zip' | 'binary';
  /** The pinned version, also the tool-cache version the download is kept under. */
  version: string;
  /** The SHA-256 of the file at `url`, lower-case hex, checked before the agent is used. */
  sha256: string;
}

export interface TunnelProvider {
  name: TunnelProviderName;
  /** The executable's name without `.exe`. */
  command: string;
  /** The download for `platform`/`arch` as `process.platform`/`process.arch` name them; null when none. */
  asset(platform: NodeJS.Platform, arch: string): AgentAsset | null;
  args(tunnel: TunnelInputs): string[];
  /** Environment added for the agent (never on its command line: secrets stay out of the process list). */
  env(tunnel: TunnelInputs): Record<string, string>;
  /** A reader of the agent's output lines (stdout and stderr) for one agent: it may keep state. */
  lineReader(): (line: string) => AgentLine;
}

/** Pinned downloads by `<platform>-<arch>`, each its URL and SHA-256. */
type PinnedAssets = Readonly<Record<string, Pick<AgentAsset, 'url' | 'sha256'>>>;

function pinned(assets: PinnedAssets, version: string): TunnelProvider['asset'] {
  return (platform, arch) => {
    const asset = assets[`${platform}-${arch}`];
    const kind = asset?.url.endsWith('.zip') ? 'zip' : asset?.url.endsWith('.tgz') ? 'tgz' : 'binary';
    return asset ? { ...asset, kind, version } : null;
  };
}

const NGROK_VERSION = '3.10.1';
/**
 * Linux and macOS as ngrok's update service answered (transcribed in nixpkgs, pkgs/by-name/ng/ngrok/versions.json),
 * Windows as in its chocolatey package; not checked against a download (a wrong value fails the download).
 */
const NGROK_ASSETS: PinnedAssets = {
  'linux-x64': {
    url: 'https://bin.equinox.io/a/81d5kzodW8G/ngrok-v3-3.10.1-linux-amd64',
    sha256: 'd23ed659469e6f58ed0c34bdbc9846744df908c960f1b1e576cf147345f5e833',
  },
  'linux-arm64': {
    url: 'https://bin.equinox.io/a/c2kv1gi2bti/ngrok-v3-3.10.1-linux-arm64',
    sha256: '86ecd3f4e43c1631a8332a9ee7d629073a7d7bf7412d2d60e1f390f7b2d30bc1',
  },
  'darwin-x64': {
    url: 'https://bin.equinox.io/a/44qfe6kGiDc/ngrok-v3-3.10.1-darwin-amd64',
    sha256: 'fb0676289962f1310d8902e9c42d2d2ad1d653138e00490209bd422471888429',
  },
  'darwin-arm64': {
    url: 'https://bin.equinox.io/a/9EoBqwofoME/ngrok-v3-3.10.1-darwin-arm64',
    sha256: '8cee685b259bf32088acee05d6388b912fb10a8e3ba5d99569066ebdad5d5a6f',
  },
  'win32-x64': {
    url: 'https://bin.equinox.io/a/5ftQ9CGJSEU/ngrok-v3-3.10.1-windows-amd64.zip',
    sha256: '14a2dfcbac6aecec98c46162b903809a562e51f8045e7dece6a508b40c3f33ea',
  },
};

const CLOUDFLARED_VERSION = '2026.9.3';
const CLOUDFLARED_BASE = `https://github.com/cloudflare/cloudflared/releases/download/${CLOUDFLARED_VERSION}`;
/** The "SHA256 Checksums" of github.com/cloudflare/cloudflared/releases/tag/2026.9.3; not checked either. */
const CLOUDFLARED_ASSETS: PinnedAssets = {
  'linux-x64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-linux-amd64`,
    sha256: '77e26d8d900e0b8469f416239d14b5f296525fdf79fee6f511ef55609e3fbac2',
  },
  'linux-arm64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-linux-arm64`,
    sha256: 'aaeb2d7d0da3614634c7e03ab13487a1522c2e79165ed2929cfe23d5e95b326d',
  },
  'darwin-x64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-darwin-amd64.tgz`,
    sha256: 'ab588b3b4db9cdb4476c30a3db2a72635b1d8327d44741fee6799a0f37b0ec07',
  },
  'darwin-arm64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-darwin-arm64.tgz`,
    sha256: '5472c1a01c84bc31b3021056a73b4e5774ddddefc572124ea8fdf6c340639f32',
  },
  'win32-x64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-windows-amd64.exe`,
    sha256: 'f096265ec2fcbe9bb6e2d64268db167ced3fcbb83d894bdb9e2fcdb26f2ea7e2',
  },
};

const ngrok: TunnelProvider = {
  name: 'ngrok',
  command: 'ngrok',
  asset: pinned(NGROK_ASSETS, NGROK_VERSION),
  args(tunnel) {
    const args = ['http', tunnel.address, '--log', 'stdout', '--log-format', 'json'];
    if (tunnel.hostHeader) args.push(`--host-header=${tunnel.hostHeader}`);
    return args;
  },
  env: (tunnel) => ({ NGROK_AUTHTOKEN: tunnel.authtoken }),
  lineReader: () => readNgrokLine,
};

/** One line of ngrok's output: its JSON log, or the `ERROR:` line its command line prints on stderr. */
function readNgrokLine(line: string): AgentLine {
  const cliError = /^ERROR:\s+(.*)$/.exec(line.trim())?.[1];
  if (cliError) return { error: cliError, fatal: true };
  let entry: { lvl?: string; msg?: string; url?: string; err?: string; addr?: string };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return null;
  }
  if (entry.msg === 'started tunnel' && typeof entry.url === 'string') return { url: entry.url };
  // The web interface that serves the agent API (default 127.0.0.1:4040, `web_addr`): no documented log
  // line; when it is not seen the documented default is asked.
  if (entry.msg === 'starting web service' && typeof entry.addr === 'string') {
    return { api: `http://${entry.addr}` };
  }
  if (entry.lvl === 'crit' || entry.lvl === 'eror') {
    return { error: [entry.msg, entry.err].filter(Boolean).join(': '), fatal: entry.lvl === 'crit' };
  }
  return null;
}

/** The address of ngrok's agent API when its log does not name it (ngrok docs, "ngrok Agent API"). */
export const NGROK_DEFAULT_API = 'http://127.0.0.1:4040';

const cloudflared: TunnelProvider = {
  name: 'cloudflared',
  command: 'cloudflared',
  asset: pinned(CLOUDFLARED_ASSETS, CLOUDFLARED_VERSION),
  args(tunnel) {
    const args = ['tunnel', '--no-autoupdate', '--url', tunnel.address];
    const host = tunnel.hostHeader === 'rewrite' ? new URL(tunnel.address).host : tunnel.hostHeader;
    if (host) args.push('--http-host-header', host);
    return args;
  },
  env: () => ({}),
  lineReader() {
    let announced = false;
    return (line) => {
      if (/Your quick Tunnel has been created!/.test(line)) {
        announced = true;
        return null;
      }
      // The URL is the next line of the announcement's box: `… INF |  https://x.trycloudflare.com  |`
      // (cloudflare/cloudflared, cmd/cloudflared/tunnel/quick_tunnel.go).
      const url = announced ? /\|\s+(https?:\/\/\S+)\s+\|/.exec(line)?.[1] : undefined;
      if (url) return { url };
      const logged = /^\S+\s+ERR\s+(.*)$/.exec(line)?.[1];
      if (logged) return { error: logged.trim(), fatal: true };
      // The error cloudflared exits with is printed bare (cloudflare/cloudflared issues 555, 547, 1593).
      if (/^failed to /i.test(line.trim())) return { error: line.trim(), fatal: true };
      return null;
    };
  },
};

/** The provider of `name`. */
export function tunnelProvider(name: TunnelProviderName): TunnelProvider {
  return name === 'cloudflared' ? cloudflared : ngrok;
}

/** Whether the agent may see the job's variable `name`: never a secret (docs/tunnel.md, "How it goes", "Start"). */
export function agentMaySee(provider: TunnelProviderName, name: string): boolean {
  const upper = name.toUpperCase();
  if (AGENT_ENV.has(upper)) return true;
  return provider === 'ngrok' && upper.startsWith('NGROK_');
}

const AGENT_ENV = new Set([
  'PATH',
  'HOME',
  'USERPROFILE',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'WINDIR',
  'APPDATA',
  'LOCALAPPDATA',
  'XDG_CONFIG_HOME',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
]);
