/**
 * Contract probe: `npm run probe -- --api-key KEY [--base-url URL] [--organization ID] [--write] [--out FILE]
 * [--compare FILE]`.
 *
 * Calls every read endpoint of the Ghost Inspector API (with `--write`, a self-cleaning sequence: create a
 * suite and a test, execute immediately, poll, cancel, export, delete) and writes a report of the shapes
 * seen (field names, JSON types, envelope, HTTP status, media type) with every value redacted. With
 * `--compare FILE`, diffs the saved report against the answers of `--base-url` (e.g. the emulator) and exits
 * 1 when they differ. The API key is read from `--api-key` or `GHOST_INSPECTOR_API_KEY` and never written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { compareReports, runProbe, SERVICE_BASE_URL, type ProbeReport } from './report.js';

export const USAGE = `Usage: npm run probe -- --api-key KEY [options]
  --api-key KEY       API key (or the GHOST_INSPECTOR_API_KEY environment variable); never written anywhere
  --base-url URL      API base URL (default ${SERVICE_BASE_URL}; e.g. http://127.0.0.1:4010/v1 for the emulator)
  --organization ID   organization for the organization reads and --write (default: the first listed)
  --write             also create, run, cancel, export and delete a suite and a test (self-cleaning)
  --out FILE          write the report there (default: probe-report.json; with --compare, nothing unless given)
  --compare FILE      diff a saved report against the answers of --base-url; exit 1 on differences
  --help              this text`;

export interface ProbeArgs {
  apiKey: string;
  baseUrl: string;
  organization?: string;
  write: boolean;
  out?: string;
  compare?: string;
  help?: boolean;
}

/** Parses the command line; throws an Error naming the bad option. */
export function parseProbeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ProbeArgs {
  const args: ProbeArgs = {
    apiKey: env.GHOST_INSPECTOR_API_KEY ?? '',
    baseUrl: SERVICE_BASE_URL,
    write: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] =
      argv[i].startsWith('--') && argv[i].includes('=')
        ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)]
        : [argv[i], undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--api-key') args.apiKey = value();
    else if (flag === '--base-url') args.baseUrl = value();
    else if (flag === '--organization') args.organization = value();
    else if (flag === '--write') args.write = true;
    else if (flag === '--out') args.out = value();
    else if (flag === '--compare') args.compare = value();
    else if (flag === '--help' || flag === '-h') args.help = true;
    else throw new Error(`Unknown option ${flag}`);
  }
  if (!args.help && args.apiKey === '') throw new Error('--api-key is required (or GHOST_INSPECTOR_API_KEY)');
  if (!/^https?:\/\//.test(args.baseUrl))
    throw new Error(`--base-url must be an http(s) URL, got "${args.baseUrl}"`);
  return args;
}

/** Runs the probe as the arguments say; resolves with the exit code (0 ok, 1 differences). */
export async function probeMain(args: ProbeArgs, print: (line: string) => void): Promise<number> {
  if (args.compare) {
    const saved = JSON.parse(readFileSync(args.compare, 'utf8')) as ProbeReport;
    const now = await runProbe({ ...args, write: saved.write });
    if (args.out) writeFileSync(args.out, `${JSON.stringify(now, null, 2)}\n`);
    const differences = compareReports(saved, now);
    if (differences.length === 0) print(`No differences in ${now.calls.length} calls.`);
    for (const line of differences) print(line);
    return differences.length === 0 ? 0 : 1;
  }
  const report = await runProbe(args);
  const out = args.out ?? 'probe-report.json';
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  print(`Wrote the shapes of ${report.calls.length} calls to ${out} (values redacted).`);
  return 0;
}
