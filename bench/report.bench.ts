/**
 * Report rendering benchmark: 2,000 test results (suites of 50, ~10% failing, ~2% flaky) built into the
 * report model and rendered to JUnit XML, the job summary, annotations and results.json.
 * Goal: under 1 s for the renders and under 200 MB peak RSS.
 *
 * Run: node --import tsx bench/report.bench.ts [count]
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { resourceUsage } from 'node:process';

import { renderAnnotations } from '../src/report/annotations.js';
import { renderJUnit } from '../src/report/junit.js';
import { buildReport } from '../src/report/model.js';
import { decideVerdict } from '../src/run/outcome/outcome.js';
import { renderResultsJson } from '../src/report/results-json.js';
import { renderSummary } from '../src/report/summary.js';
import { largeSummary } from '../test/unit/report/fixtures.js';

const count = Number(process.argv[2] ?? 2000);
const policy = { failOnScreenshotCompare: false, failOnTimeout: true, failOnEmpty: false };

const summary = largeSummary(count);
const timings: Array<[string, number, string]> = [];
const cpuAtStart = process.cpuUsage();
function time<T>(label: string, fn: () => T, size: (v: T) => string): T {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = fn();
  const used = process.cpuUsage(cpu);
  timings.push([
    label,
    performance.now() - start,
    `cpu ${((used.user + used.system) / 1000).toFixed(1)} ms, ${size(value)}`,
  ]);
  return value;
}
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MB`;

const total0 = performance.now();
const report = time(
  'buildReport',
  () => buildReport(summary, decideVerdict(summary, policy)),
  (r) => `${r.totals.total} results`,
);
time(
  'renderJUnit',
  () => renderJUnit(report),
  (x) => mb(Buffer.byteLength(x)),
);
time(
  'renderSummary',
  () => renderSummary(report, { junitPath: 'junit.xml' }),
  (x) => mb(Buffer.byteLength(x)),
);
time(
  'renderAnnotations',
  () => renderAnnotations(report),
  (x) => `${x.length} annotations`,
);
time(
  'renderResultsJson',
  () => renderResultsJson(report),
  (x) => mb(Buffer.byteLength(x)),
);
const total = performance.now() - total0;
const totalCpu = process.cpuUsage(cpuAtStart);

for (const [label, ms, size] of timings)
  console.log(`${label.padEnd(18)} ${ms.toFixed(1).padStart(8)} ms  ${size}`);
const peakRss = resourceUsage().maxRSS * 1024;
console.log(
  `${'total'.padEnd(18)} ${total.toFixed(1).padStart(8)} ms  cpu ${((totalCpu.user + totalCpu.system) / 1000).toFixed(1)} ms (goal < 1000 ms)`,
);
console.log(
  `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs: wall times grow with it`,
);
console.log(`${'peak RSS'.padEnd(18)} ${mb(peakRss).padStart(11)}  (goal < 200 MB)`);
