/**
 * The tunnel agents behind one interface: pinned download, arguments, and what their log lines say
 * (docs/tunnel.md, "What the action relies on", lists each behaviour with its source).
 */
import path from 'node:path';
import type { TunnelInputs, TunnelProviderName } from '../inputs/schema.js';

/** What a log line says that the action uses (`fatal`: the agent will not open the tunnel). */
type AgentLine = { url: string } | { api: string } | { error: string; fatal: boolean } | null;

export interface AgentAsset {
  url: string;
  /** The name of the file at `url` (its last path segment): the file the pin is the SHA-256 of. */
  file: string;
  kind: 'tgz' | 'zip' | 'binary';
  /** The pinned version, also the tool-cache version the download is kept under. */
  version: string;
  /** The SHA-256 of the file at `url` as downloaded (the archive, not what it holds), lower-case hex. */
  sha256: string;
  /** The public record `sha256` was taken from. */
  source: string;
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

/**
 * One pinned download: its URL, the SHA-256 of the file at that URL exactly as served, and the public record
 * that digest was taken from (docs/tunnel.md, "Pinned downloads"). A platform without a confirmed digest has
 * no entry: the step then asks for the agent to be installed in an earlier step, never runs it unchecked.
 */
interface Pin {
  url: string;
  sha256: string;
  source: string;
}

/** Pinned downloads by `<platform>-<arch>`. */
type Pins = Readonly<Record<string, Pin>>;

/** The kind of download a file name says: `.tgz`, `.zip`, else the executable itself. */
function kindOf(file: string): AgentAsset['kind'] {
  return file.endsWith('.zip') ? 'zip' : file.endsWith('.tgz') ? 'tgz' : 'binary';
}

function pinned(pins: Pins, version: string): TunnelProvider['asset'] {
  return (platform, arch) => {
    const pin = pins[`${platform}-${arch}`];
    if (!pin) return null;
    const file = path.posix.basename(new URL(pin.url).pathname);
    return { ...pin, file, kind: kindOf(file), version };
  };
}

const NGROK_VERSION = '3.39.9';
/** ngrok's own record: its release bot's commit "update to version 3.39.9" (2026-07-01) in ngrok/docker-ngrok. */
const NGROK_RELEASE_BOT = 'ngrok/docker-ngrok releases.json, written by ngrok-release-bot for 3.39.9';
/** Every file is the `.zip` ngrok serves for that platform; each digest is of the `.zip`. */
const NGROK_PINS: Pins = {
  'linux-x64': {
    url: 'https://bin.ngrok.com/a/cghgUWiCADZ/ngrok-v3-3.39.9-linux-amd64.zip',
    sha256: '7f51243ef837f22b971daff05978430598da038294a02994c1dbb7291b35a309',
    source: NGROK_RELEASE_BOT,
  },
  'linux-arm64': {
    url: 'https://bin.ngrok.com/a/kSxkCtcCe62/ngrok-v3-3.39.9-linux-arm64.zip',
    sha256: 'a5db1a260b5e8b058c0842e5bf9269c6471a75522426b22c55550620741dc30b',
    source: NGROK_RELEASE_BOT,
  },
  'darwin-x64': {
    url: 'https://bin.ngrok.com/a/a91tNmWZz4U/ngrok-v3-3.39.9-darwin-amd64.zip',
    sha256: '94f5ee996cda6cec8b179c5dab816c790a640232844cd65dd9e5f830ea528f8e',
    source: 'Homebrew/homebrew-cask Casks/n/ngrok.rb, version 3.39.9 (sha256 of the zip)',
  },
  'darwin-arm64': {
    url: 'https://bin.ngrok.com/a/6pfVfGALLzX/ngrok-v3-3.39.9-darwin-arm64.zip',
    sha256: '840a06680a0a68cdf295012bd5244d645a4d4235c451c0354293ac24db096e8c',
    source: 'Homebrew/homebrew-cask Casks/n/ngrok.rb, version 3.39.9 (sha256 of the zip)',
  },
  'win32-x64': {
    url: 'https://bin.ngrok.com/a/m9v4MphCUjA/ngrok-v3-3.39.9-windows-amd64.zip',
    sha256: '12f99dc3b2145ab1503602434e00fd38199a5545dc051dd86ba526c11ab97db1',
    source: 'Chocolatey community package ngrok 3.39.9, chocolateyinstall.ps1 (checksum64 of url64bit)',
  },
};

const CLOUDFLARED_VERSION = '2026.9.3';
const CLOUDFLARED_BASE = `https://github.com/cloudflare/cloudflared/releases/download/${CLOUDFLARED_VERSION}`;
/** The release's own record: its notes' "SHA256 Checksums", which for these files are of the file itself. */
const CLOUDFLARED_NOTES = `"SHA256 Checksums" of github.com/cloudflare/cloudflared/releases/tag/${CLOUDFLARED_VERSION}, equal to GitHub's asset digest`;
/**
 * GitHub's asset digest of the `.tgz`. The release notes' value for a macOS `.tgz` is the SHA-256 of the
 * executable inside it (cloudflare/cloudflared issues 1004 and 1648), never what is downloaded.
 */
const CLOUDFLARED_ASSET_DIGEST = `GitHub's asset digest of the .tgz in release ${CLOUDFLARED_VERSION} (not the release notes' value, which is of the executable inside)`;
const CLOUDFLARED_PINS: Pins = {
  'linux-x64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-linux-amd64`,
    sha256: '77e26d8d900e0b8469f416239d14b5f296525fdf79fee6f511ef55609e3fbac2',
    source: CLOUDFLARED_NOTES,
  },
  'linux-arm64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-linux-arm64`,
    sha256: 'aaeb2d7d0da3614634c7e03ab13487a1522c2e79165ed2929cfe23d5e95b326d',
    source: CLOUDFLARED_NOTES,
  },
  'darwin-x64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-darwin-amd64.tgz`,
    sha256: 'd1155d0837487f261183b15c1eab6c4ebcad9dc49b94675f1524c3564cea3977',
    source: CLOUDFLARED_ASSET_DIGEST,
  },
  'darwin-arm64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-darwin-arm64.tgz`,
    sha256: '587c2cfb1c230fe36c7fa7727da78be459dae028cabe8c001291999350f07095',
    source: CLOUDFLARED_ASSET_DIGEST,
  },
  'win32-x64': {
    url: `${CLOUDFLARED_BASE}/cloudflared-windows-amd64.exe`,
    sha256: 'f096265ec2fcbe9bb6e2d64268db167ced3fcbb83d894bdb9e2fcdb26f2ea7e2',
    source: CLOUDFLARED_NOTES,
  },
};

const ngrok: TunnelProvider = {
  name: 'ngrok',
  command: 'ngrok',
  asset: pinned(NGROK_PINS, NGROK_VERSION),
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
  asset: pinned(CLOUDFLARED_PINS, CLOUDFLARED_VERSION),
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

/** Whether the agent may see the job's variable `name`: never a secret (docs/tunnel.md, "Start"). */
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
