/**
 * Command line: `npm run emulator -- [--port N] [--host H] [--api-key KEY] [--seed FILE] [--time-scale X]
 * [--executor simulated|browser] [--faults SPEC] [--chromium PATH] [--rate-limit off|SPEC]
 * [--not-found-window MS]`.
 * First line printed: `Ghost Inspector emulator listening on http://HOST:PORT/v1`. Stops on SIGINT/SIGTERM.
 */
import { startEmulator, type EmulatorOptions } from './index.js';
import { parseRateLimit } from './limits.js';

const USAGE = `Usage: npm run emulator -- [options]
  --port N          port to listen on (default 4010; 0 picks a free port)
  --host H          host to bind (default 127.0.0.1)
  --api-key KEY     an extra API key seeing every organization (the default seed has demo-api-key)
  --seed FILE       seed JSON file, or 'demo' for the demo shop (default: the shipped default seed;
                    with --executor browser, the demo seed)
  --time-scale X    multiply simulated durations and limits by X (default 1, e.g. 0.01)
  --executor NAME   simulated (default) or browser
  --chromium PATH   browser executor: Chromium executable
  --faults SPEC     fault injection, e.g. rate=0.1,kinds=500+429+reset-after,seed=42,route=/v1/results/*:503x2
  --rate-limit SPEC the service's rate limit: on (default: burst=300,rate=10 per account, then HTTP 429),
                    off, or burst=N,rate=N,retry-after=S (retry-after adds a Retry-After header)
  --not-found-window MS  a new result answers "not found" to GET for MS ms (default 1000; 0 = off)
  --help            this text`;

/** Parses the arguments into emulator options; throws an Error naming a bad option. */
function parseArgs(argv: string[]): EmulatorOptions & { help?: boolean } {
  const options: EmulatorOptions & { help?: boolean } = { port: 4010 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.includes('=') && arg.startsWith('--')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be 0..65535');
        options.port = port;
        break;
      }
      case '--host':
        options.host = value();
        break;
      case '--api-key':
        options.apiKey = value();
        break;
      case '--seed':
        options.seed = value();
        break;
      case '--time-scale': {
        const scale = Number(value());
        if (!(scale > 0)) throw new Error('--time-scale must be a positive number');
        options.timeScale = scale;
        break;
      }
      case '--executor': {
        const name = value();
        if (name !== 'simulated' && name !== 'browser')
          throw new Error('--executor must be simulated or browser');
        options.executor = name;
        break;
      }
      case '--chromium':
        options.browser = { ...options.browser, executablePath: value() };
        break;
      case '--faults':
        options.faults = value();
        break;
      case '--rate-limit':
        options.rateLimit = parseRateLimit(value());
        break;
      case '--not-found-window': {
        const ms = Number(value());
        if (!(ms >= 0)) throw new Error('--not-found-window must be a non-negative number of ms');
        options.notFoundWindowMs = ms;
        break;
      }
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new Error(`Unknown option ${arg}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
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
