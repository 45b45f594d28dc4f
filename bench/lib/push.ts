/**
 * Push beside poll (docs/architecture.md, "Push"): lone test runs of our action, a process each, with push
 * reachable (`notify: push`, `notify-url` a free loopback port: the emulator posts each ended test run's
 * webhook there, as the service does), with push on but every webhook lost (a second emulator that sends
 * none, as a service that cannot reach the runner: the safety net sends the step back to the 1-s tick),
 * and polled (`notify: poll`). Each round runs the three a third of the run apart, each on an account of its
 * own, with the same jittered duration. Measures lag (finish → results.json written) and requests per run (its own and its
 * share of its account's running list), as the lag lanes do (`actionLagRun`).
 */
import { createServer } from 'node:net';
import { startEmulator } from '../../emulator/index.js';
import { actionLagRun, type CasePlan, type Context, type LagSample } from './cases.js';
import { jittered } from './jitter.js';
import { passingScenario, SeedBuilder } from './seed.js';

const PUSH_MODES = ['push', 'lost', 'poll'] as const;
export type PushMode = (typeof PUSH_MODES)[number];

/** One lone test run of one mode. */
export interface PushSample extends LagSample {
  mode: PushMode;
}

const box = (mode: PushMode) => `push-${mode}-box`;
const testId = (mode: PushMode, round: number) => `push-${mode}-t${String(round).padStart(2, '0')}`;
const accountOf = (mode: PushMode) => `push-${mode}`;
/** The run duration of a round, the same for every mode, ms. */
const durationMs = (plan: CasePlan, round: number) => jittered(plan.push.durationS * 1000, `push-r${round}`);

/** Adds the suites and tests of `modes` to `seed`: a box suite per mode and a fresh test per round. */
function seedModes(seed: SeedBuilder, plan: CasePlan, modes: readonly PushMode[]): void {
  for (const mode of modes) {
    seed.suite({ account: accountOf(mode), id: box(mode), tests: 0, runDurationMs: 1000 });
    for (let r = 1; r <= plan.push.rounds; r++) seed.test(box(mode), testId(mode, r), durationMs(plan, r));
  }
}

/** Seeds the modes the bench's own emulator serves (push reachable and poll). */
export function seedPush(seed: SeedBuilder, plan: CasePlan): void {
  seedModes(seed, plan, ['push', 'poll']);
}

/** A port on 127.0.0.1 that nothing listens on now (bound, read, released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Inputs of a mode: push (reachable or lost) at a free loopback port, or poll. */
async function notifyInputs(mode: PushMode): Promise<Record<string, string>> {
  if (mode === 'poll') return { notify: 'poll' };
  return { notify: 'push', 'notify-url': `http://127.0.0.1:${await freePort()}` };
}

/** Runs the rounds (the three modes at once in each); the lost mode on an emulator of its own. */
export async function runPush(ctx: Context, plan: CasePlan): Promise<PushSample[]> {
  const seed = new SeedBuilder();
  seedModes(seed, plan, ['lost']);
  const lost = await startEmulator({ seed: seed.build(), timeScale: 1, quiet: true, webhooks: false });
  const contexts: Record<PushMode, Context> = {
    push: ctx,
    poll: ctx,
    lost: { ...ctx, emulator: lost, claimed: new Set() },
  };
  const samples: PushSample[] = [];
  try {
    for (let r = 1; r <= plan.push.rounds; r++) {
      // Started a third of the run apart, so that no finish meets another process's start or finish.
      const round = PUSH_MODES.map(async (mode, i) => {
        await new Promise((resolve) => setTimeout(resolve, (i * durationMs(plan, r)) / PUSH_MODES.length));
        const c = contexts[mode];
        c.emulator.setScenario(testId(mode, r), passingScenario(durationMs(plan, r)));
        const measured = await actionLagRun(c, {
          kind: 'test',
          id: testId(mode, r),
          account: accountOf(mode),
          durationS: plan.push.durationS,
          history: false,
          inputs: await notifyInputs(mode),
        });
        if (measured) samples.push({ ...measured.sample, mode });
      });
      await Promise.all(round);
      ctx.log(`  push: round ${r}/${plan.push.rounds} done`);
    }
  } finally {
    await lost.close();
  }
  return samples;
}
