/** Entry of `npm run probe`: see cli.ts for the options. */
import { parseProbeArgs, probeMain, USAGE, type ProbeArgs } from './cli.js';

let args: ProbeArgs;
try {
  args = parseProbeArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
} else {
  probeMain(args, (line) => process.stdout.write(`${line}\n`)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`Probe failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
