/** The figures one bench run measured, as bench/run.ts saves them and bench/lib/render.ts reads them. */
import type { LagSample, OverheadSample, ScaleFigure } from './cases.js';
import type { ConcurrencyFigure } from './concurrency.js';
import type { EarlyFigure } from './early.js';
import type { PushSample } from './push.js';
import type { SharedAccountResult } from './shared-account.js';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  os: string;
  loadStart: number[];
  loadEnd: number[];
}

export interface Results {
  mode: 'quick' | 'full';
  date: string;
  benchSeconds: number;
  machine: Machine;
  /** Which bundle of the action was measured (no machine paths). */
  action: string;
  officialVersion: string;
  lag: LagSample[];
  startupMs: number[];
  /** A bare `node -e "fetch(...)"`: process start to its request, ms. */
  bareNodeStartupMs: number[];
  overhead: OverheadSample[];
  scale: ScaleFigure[];
  concurrency: ConcurrencyFigure[];
  /** Early failure and cancel in the app against a long history. */
  early: EarlyFigure[];
  /** Several action processes on one account, per shape, or why a shape did not run (absent in older results). */
  sharedAccount?: SharedAccountResult[];
  /** Lone test runs pushed, with the webhooks lost, and polled (absent in older results). */
  push?: PushSample[];
  failures: string[];
  /** Requests of the log that no case claimed (should be 0). */
  stray: string[];
  /** A line quoted under the title (`--note`), e.g. what was measured and when it will be measured again. */
  note?: string;
}
