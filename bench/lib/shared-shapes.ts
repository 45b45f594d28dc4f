/** The shapes of the bench's "several processes on one account" case (shared-account.ts). */

/** One action process of a shape: its suites (of 3 tests) and its single tests, all run at once. */
export interface SharedProcess {
  suites: number;
  tests: number;
}

/** Processes on one account, their runs lasting from `durationS[0]` to `durationS[1]` s (seeded, spread). */
export interface SharedShape {
  key: 'pairs' | 'singles' | 'beside';
  label: string;
  processes: SharedProcess[];
  durationS: [number, number];
}

/**
 * The shapes of the case: `n` processes (quick and full: 30) of one suite and one test, `n` one-test
 * processes, both with runs of `durationS`; a one-suite process beside a `beside`-suite one, runs of
 * `besideDurationS`.
 */
export function sharedShapes(
  n: number,
  durationS: [number, number],
  beside: number,
  besideDurationS: [number, number],
): SharedShape[] {
  return [
    {
      key: 'pairs',
      label: `${n} processes of one suite and one test`,
      processes: Array.from({ length: n }, () => ({ suites: 1, tests: 1 })),
      durationS,
    },
    {
      key: 'singles',
      label: `${n} one-test processes`,
      processes: Array.from({ length: n }, () => ({ suites: 0, tests: 1 })),
      durationS,
    },
    {
      key: 'beside',
      label: `a one-suite process beside a ${beside}-suite process`,
      processes: [
        { suites: 1, tests: 0 },
        { suites: beside, tests: 0 },
      ],
      durationS: besideDurationS,
    },
  ];
}
