/** Turns the measured figures into bench/RESULTS.md: the machine, then every goal against its bound. */
import { goals } from './goals.js';
import type { Results } from './results.js';

export type { Machine, Results } from './results.js';

/** The whole of bench/RESULTS.md: a short header and one table of figures against their bounds. */
export function renderResults(results: Results): string {
  const m = results.machine;
  const L: string[] = ['# Benchmark results', ''];
  L.push(
    `Written by \`npm run ${results.mode === 'full' ? 'bench:full' : 'bench'}\` (${results.mode} mode) on ${results.date} in ${Math.round(results.benchSeconds)} s; ${m.cores} cores (${m.cpuModel}), Node ${m.node}, load average ${m.loadStart.map((x) => x.toFixed(2)).join(' ')} at start. Our action: ${results.action}; official client: npm \`ghost-inspector\` ${results.officialVersion}; service: the local emulator with the service's rate limit on.`,
    '',
  );
  if (results.note) L.push(`> ${results.note}`, '');
  if (results.failures.length || results.stray.length) {
    L.push('**Problems during the run**', '');
    for (const f of results.failures) L.push(`- ${f.split('\n')[0]}`);
    if (results.stray.length)
      L.push(
        `- ${results.stray.length} requests no case accounted for, e.g. ${results.stray.slice(0, 3).join(', ')}`,
      );
    L.push('');
  }
  L.push('| Goal | Measured | Verdict |', '|---|---|---|');
  for (const g of goals(results)) {
    const verdict = g.met ? `met${g.by ? `: ${g.by}` : ''}` : `**missed**: ${g.by}`;
    L.push(`| ${g.goal} | ${g.measured} | ${verdict} |`);
  }
  return `${L.join('\n')}\n`;
}
