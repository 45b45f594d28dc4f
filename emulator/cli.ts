/**
 * Command line: `npm run emulator -- [options]` (see USAGE), arguments parsed by Node's `util.parseArgs`.
 * First line printed: `Ghost Inspector emulator listening on http://HOST:PORT/v1`. Stops on SIGINT/SIGTERM.
 * Bad options exit with code 2.
 */
import { parseArgs } from 'node:util';
import type { EmulatorOptions } from './index.js';
import { parseRateLimit } from './limits.js';

const USAGE = `Usage: npm run emulator -- [options]
  --port N          port to listen on (default 4010; 0 picks a free port)
  --host H          host to bind (default 127.0.0.1)
  --api-key KEY     an extra API key seeing every organization (the default seed has demo-api-key)
  --seed FILE       seed JSON file (default: the shipped default seed)
  --time-scale X    multiply simulated durations and limits by X (default 1, e.g. 0.01)
  --executor NAME   simulated (the only one; runs in Chromium are the demo's: npm run demo)
  --faults SPEC     fault injection, e.g. rate=0.1,kinds=500+429+reset-after,seed=42,route=/v1/results/*:503x2
  --rate-limit SPEC the service's rate limit: on (default: burst=300,rate=10 per account, then HTTP 429),
                    off, or burst=N,rate=N,retry-after=S (retry-after adds a Retry-After header)
  --not-found-window MS  a fault: a new result answers "not found" to GET for MS ms x time scale (default 0)
  --verdict-before-timing  a fault: a finished result shows its verdict one read before its timing fields
  --no-webhooks     send no webhooks (default: POST each ended run's result to its webhooks)
  --help            this text`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'api-key': { type: 'string' },
  seed: { type: 'string' },
  'time-scale': { type: 'string' },
  executor: { type: 'string' },
  faults: { type: 'string' },
  'rate-limit': { type: 'string' },
  'not-found-window': { type: 'string' },
  'verdict-before-timing': { type: 'boolean' },
  'no-webhooks': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A number option's value; throws an Error naming the option and the expected form when `ok` refuses it. */
function numberOf(name: string, text: string, ok: (n: number) => boolean, expected: string): number {
  const n = Number(text);
  if (text.trim() === '' || !ok(n)) throw new Error(`--${name} must be ${expected}, got "${text}"`);
  return n;
}

/** Parses the arguments into emulator options; throws an Error naming a bad option. */
function parseCli(argv: string[]): EmulatorOptions & { help?: boolean } {
  const { values: v } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
  const options: EmulatorOptions & { help?: boolean } = { port: 4010, help: v.help };
  if (v.port !== undefined)
    options.port = numberOf('port', v.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, '0..65535');
  if (v.host !== undefined) options.host = v.host;
  if (v['api-key'] !== undefined) options.apiKey = v['api-key'];
  if (v.seed !== undefined) options.seed = v.seed;
  if (v['time-scale'] !== undefined)
    options.timeScale = numberOf('time-scale', v['time-scale'], (n) => n > 0, 'a positive number');
  if (v.executor !== undefined) {
    if (v.executor !== 'simulated')
      throw new Error(
        `--executor must be simulated, got "${v.executor}" (runs in Chromium: npm run demo -- --executor browser)`,
      );
    options.executor = v.executor;
  }
  if (v.faults !== undefined) options.faults = v.faults;
  if (v['rate-limit'] !== undefined) options.rateLimit = parseRateLimit(v['rate-limit']);
  if (v['not-found-window'] !== undefined)
    options.notFoundWindowMs = numberOf(
      'not-found-window',
      v['not-found-window'],
      (n) => n >= 0,
      'a non-negative number of ms',
    );
  if (v['verdict-before-timing']) options.verdictBeforeTiming = true;
  if (v['no-webhooks']) options.webhooks = false;
  return options;
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    // An exit code, not process.exit: the process ends once its writes are done.
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // The emulator loads once the options are good: a usage error or --help answers at once.
  const { startEmulator } = await import('./index.js');
  const emulator = await startEmulator(options);
  process.stdout.write(`Ghost Inspector emulator listening on ${emulator.baseUrl}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`Received ${signal}, stopping.\n`);
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Emulator failed to start: ${(error as Error).message}\n`);
  process.exit(1);
});
