/**
 * The seeded chaos suite: the bundled action, many times, against emulators injecting every fault kind at
 * a steady rate (see `chaos.ts`). `CHAOS_RUNS` (default 100) sets how many seeds run, `CHAOS_SEED` the
 * first seed (default 1), `CHAOS_CONCURRENCY` how many action processes run at once (default 12: they mostly wait);
 * `CHAOS_REPORT` names a JSON file that receives the figures.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chaosRun, CHAOS_RATE, STORM_RATE, totals, type ChaosOutcome } from '../support/chaos.js';
import { pool } from '../support/reliability.js';

const RUNS = Number(process.env.CHAOS_RUNS ?? 100);
const FIRST = Number(process.env.CHAOS_SEED ?? 1);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 12);

describe('chaos: the bundled action under injected faults', () => {
  it(
    `${RUNS} seeded runs at a ${CHAOS_RATE * 100} % fault rate (every 10th at ${STORM_RATE * 100} %): right verdicts or labelled infrastructure errors, one trigger per run, no leak, no hang`,
    async () => {
      const started = Date.now();
      const seeds = Array.from({ length: RUNS }, (_, i) => FIRST + i);
      const outcomes: ChaosOutcome[] = await pool(seeds, CONCURRENCY, (seed) => chaosRun(seed));
      const figures = { ...totals(outcomes), wallMs: Date.now() - started, concurrency: CONCURRENCY };
      console.log(`chaos figures: ${JSON.stringify(figures)}`);
      if (process.env.CHAOS_REPORT) {
        writeFileSync(process.env.CHAOS_REPORT, `${JSON.stringify({ figures, outcomes }, null, 2)}\n`);
      }
      const bad = outcomes
        .filter((o) => o.problems.length > 0)
        .map((o) => `seed ${o.seed}: ${o.problems.join('\n  ')}`);
      expect(bad).toEqual([]);
      expect(figures.wrongVerdicts).toBe(0);
      expect(figures.duplicateTriggers).toBe(0);
      expect(figures.secretLeaks).toBe(0);
      // The suite did break things: faults of every kind were injected and some runs met them.
      expect(figures.faultsInjected).toBeGreaterThan(RUNS / 2);
      if (RUNS >= 50) expect(Object.keys(figures.faults).length).toBe(10);
      expect(figures.rightTests).toBeGreaterThan(0);
    },
    Math.max(300_000, RUNS * 15_000),
  );
});
