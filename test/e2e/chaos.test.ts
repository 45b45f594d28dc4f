/**
 * The seeded chaos suite: the action, many times, against emulators injecting every fault kind at a steady
 * rate (see `chaos.ts`). Every seed runs in-process on virtual time (the action's production waits, no
 * real time spent); the first seeds run again as the bundle, a child process on real time, the way the
 * runner starts it. `CHAOS_RUNS` (default 100) sets how many seeds run in-process, `CHAOS_BUNDLE_RUNS`
 * (default 8: a storm seed outlasts them all) how many of them also run as the bundle, `CHAOS_SEED` the first seed (default 1),
 * `CHAOS_CONCURRENCY` how many runs of a mode go at once (default 12: they mostly wait; the two modes run side by side); `CHAOS_REPORT` names a JSON
 * file that receives the figures (`<name>.bundle.json` those of the bundle runs).
 */
import { writeFileSync } from 'node:fs';
import { describe, it, type ExpectStatic } from 'vitest';
import {
  chaosRun,
  CHAOS_KINDS,
  CHAOS_RATE,
  STORM_RATE,
  totals,
  type ChaosMode,
  type ChaosOutcome,
} from '../support/chaos.js';
import { pool } from '../support/reliability.js';

const RUNS = Number(process.env.CHAOS_RUNS ?? 100);
const BUNDLE_RUNS = Math.min(RUNS, Number(process.env.CHAOS_BUNDLE_RUNS ?? 8));
const FIRST = Number(process.env.CHAOS_SEED ?? 1);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 12);

/** Runs `count` seeds in `mode` and checks the figures every chaos run must meet. */
async function chaos(expect: ExpectStatic, mode: ChaosMode, count: number, report: string | undefined) {
  const started = Date.now();
  const seeds = Array.from({ length: count }, (_, i) => FIRST + i);
  const outcomes: ChaosOutcome[] = await pool(seeds, CONCURRENCY, (seed) => chaosRun(seed, mode));
  const figures = { ...totals(outcomes), mode, wallMs: Date.now() - started, concurrency: CONCURRENCY };
  console.log(`chaos figures: ${JSON.stringify(figures)}`);
  if (report) writeFileSync(report, `${JSON.stringify({ figures, outcomes }, null, 2)}\n`);
  const bad = outcomes
    .filter((o) => o.problems.length > 0)
    .map((o) => `seed ${o.seed}: ${o.problems.join('\n  ')}`);
  expect(bad).toEqual([]);
  expect(figures.wrongVerdicts).toBe(0);
  expect(figures.duplicateTriggers).toBe(0);
  expect(figures.secretLeaks).toBe(0);
  // The suite did break things: faults were injected and some runs met them.
  expect(figures.faultsInjected).toBeGreaterThan(count / 2);
  expect(figures.rightTests).toBeGreaterThan(0);
  return figures;
}

describe.concurrent('chaos: the action under injected faults', () => {
  it(
    `${RUNS} seeded runs in-process on virtual time at a ${CHAOS_RATE * 100} % fault rate (every 10th at ${STORM_RATE * 100} %): right verdicts or labelled infrastructure errors, one trigger per run, no leak, no hang`,
    async ({ expect }) => {
      const figures = await chaos(expect, 'virtual', RUNS, process.env.CHAOS_REPORT);
      if (RUNS >= 50) expect(Object.keys(figures.faults).sort()).toEqual([...CHAOS_KINDS].sort());
    },
    Math.max(120_000, RUNS * 3_000),
  );

  it(
    `the first ${BUNDLE_RUNS} seeds as the bundled action (a child process on real time): the same checks, and the exit code, stderr and no unhandled rejection of a real process`,
    async ({ expect }) => {
      const report = process.env.CHAOS_REPORT?.replace(/(\.json)?$/, '.bundle.json');
      await chaos(expect, 'bundle', BUNDLE_RUNS, report);
    },
    Math.max(120_000, BUNDLE_RUNS * 15_000),
  );
});
