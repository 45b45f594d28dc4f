// Loaded into the measured action process with `node --import`: at exit it writes the process's peak
// resident set size (VmHWM, kB, from /proc/self/status) to the file named by BENCH_HWM_FILE. Linux only;
// elsewhere it writes nothing.
import { readFileSync, writeFileSync } from 'node:fs';

const target = process.env.BENCH_HWM_FILE;
if (target) {
  process.on('exit', () => {
    try {
      const match = /VmHWM:\s+(\d+)\s*kB/.exec(readFileSync('/proc/self/status', 'utf8'));
      if (match) writeFileSync(target, match[1]);
    } catch {
      // No /proc: the sampled figure is used instead.
    }
  });
}
