/**
 * Runs that end long before their history says: an early failure (the test fails at step 1 after about 2 s)
 * and a run cancelled in the app (a third party cancels it through the API a few seconds in), each for a
 * single test whose earlier result took `earlyHistoryS.test` (65 s) and a 3-test suite whose earlier result
 * took `earlyHistoryS.suite` (10 min). Both clients at once, each on an account of its own per run.
 *
 * The history is made, not waited for: each suite and test runs once (0.5 s) through the third party's key,
 * then the emulator's stored result is given the history's duration (creation date moved back, execution
 * time set), which is what a client reads from the results list.
 *
 * Time to notice: from the emulator's finish record (the failure, or the cancel) to the client knowing
 * (ours: results.json written; official: its promise resolved). The official client waits for `passing`,
 * which a cancelled result never gets: it is given `OFFICIAL_CANCEL_WAIT_MS`, then its worker is closed.
 */
import type { FinishRecord } from '../../emulator/index.js';
import {
  actionLagRun,
  CLIENTS,
  fail,
  finishes,
  officialLagRun,
  requestsFor,
  tag,
  type CasePlan,
  type ClientName,
  type Context,
  type RunKind,
} from './cases.js';
import { jittered } from './jitter.js';
import { OfficialClient } from './official.js';
import { account, APP_KEY, passingScenario, type SeedBuilder } from './seed.js';

export type EarlyCase = 'early failure' | 'cancelled in the app';

export interface EarlyFigure {
  case: EarlyCase;
  client: ClientName;
  kind: RunKind;
  /** Duration of the earlier result, s. */
  historyS: number;
  /** The run's own duration until it failed or was cancelled, ms. */
  runMs: number;
  /** ms from the finish record to the client knowing; NaN when it did not within its wait. */
  noticedMs: number;
  requests: number;
  /** Ours: its requests by kind (the running list by its share). */
  kinds?: Record<string, number>;
  /** Why there is no time, when there is none. */
  note?: string;
}

/** How long the official client is given to notice a cancelled run (it polls every 5 s), ms. */
export const OFFICIAL_CANCEL_WAIT_MS = 12_000;
/** How long our process is given (from its start) before it is stopped as not having noticed, ms. */
export const OURS_WAIT_MS = 30_000;
const TESTS_PER_SUITE = 3;
const CANCEL_RUN_MS = 60_000;
const HISTORY_RUN_MS = 500;

const short = (c: EarlyCase) => (c === 'early failure' ? 'early' : 'cancel');
const targetId = (c: EarlyCase, client: ClientName, kind: RunKind) =>
  `${short(c)}-${tag(client)}-${kind === 'suite' ? 's' : 't'}`;
const accountOf = (c: EarlyCase, client: ClientName, kind: RunKind) =>
  `${short(c)}-${tag(client)}-${kind === 'suite' ? 's' : 't'}`;
const CASES: EarlyCase[] = ['early failure', 'cancelled in the app'];
const KINDS: RunKind[] = ['test', 'suite'];

/** Test ids of a target: the suite's tests, or the test alone (in a suite `<id>-box`). */
function testIdsOf(c: EarlyCase, client: ClientName, kind: RunKind): string[] {
  const id = targetId(c, client, kind);
  return kind === 'suite' ? Array.from({ length: TESTS_PER_SUITE }, (_, i) => `${id}-t${i + 1}`) : [id];
}

/** Adds the case's suites, tests and accounts to the seed. */
export function seedEarly(seed: SeedBuilder): void {
  for (const c of CASES) {
    for (const client of CLIENTS) {
      for (const kind of KINDS) {
        const id = targetId(c, client, kind);
        const acc = accountOf(c, client, kind);
        if (kind === 'suite') {
          seed.suite({ account: acc, id, tests: TESTS_PER_SUITE, runDurationMs: HISTORY_RUN_MS });
        } else {
          seed.suite({ account: acc, id: `${id}-box`, tests: 0, runDurationMs: HISTORY_RUN_MS });
          seed.test(`${id}-box`, id, HISTORY_RUN_MS);
        }
      }
    }
  }
}

async function post(ctx: Context, path: string): Promise<void> {
  const res = await fetch(`${ctx.emulator.baseUrl}${path}?apiKey=${APP_KEY}&immediate=1`, { method: 'POST' });
  await res.arrayBuffer();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for the finish record of a run of `id` created since `since` (polling the emulator, in-process). */
async function finishOf(ctx: Context, kind: RunKind, id: string, since: number): Promise<FinishRecord> {
  for (let i = 0; i < 400; i++) {
    const x = finishes(ctx, kind, id, since)[0];
    if (x) return x;
    await sleep(25);
  }
  throw new Error(`no finish record for ${kind} ${id}`);
}

/** Gives a finished result (and a suite result's test results) the duration `ms`: its creation moved back. */
function stretch(ctx: Context, record: FinishRecord, ms: number): void {
  const created = new Date(record.finishedAt - ms).toISOString();
  const store = ctx.emulator.store;
  const results =
    record.kind === 'suite-result'
      ? [...store.results.values()].filter(
          (r) => store.resultMeta.get(r._id)?.suiteResultId === record.resultId,
        )
      : [store.results.get(record.resultId)];
  for (const r of results) {
    if (!r) continue;
    r.dateCreated = created;
    r.dateExecutionStarted = created;
    r.executionTime = ms;
  }
  const sr = record.kind === 'suite-result' ? store.suiteResults.get(record.resultId) : undefined;
  if (sr) {
    sr.dateCreated = created;
    sr.dateExecutionStarted = created;
    sr.executionTime = ms;
  }
}

/** Runs every target once through the third party's key and stretches the result to its history. */
async function makeHistory(ctx: Context, plan: CasePlan): Promise<void> {
  const since = Date.now();
  const jobs = CASES.flatMap((c) =>
    CLIENTS.flatMap((client) =>
      KINDS.map(async (kind) => {
        const id = targetId(c, client, kind);
        await post(ctx, `/${kind === 'suite' ? 'suites' : 'tests'}/${id}/execute/`);
        const record = await finishOf(ctx, kind, id, since);
        stretch(ctx, record, plan.earlyHistoryS[kind] * 1000);
        requestsFor(ctx, since, {
          [kind === 'suite' ? 'suites' : 'tests']: [id],
          results: [record.resultId],
        });
      }),
    ),
  );
  await Promise.all(jobs);
}

/** Cancels the run of `id` created since `since`, `afterMs` after its creation, through the API (third party). */
async function cancelLater(ctx: Context, kind: RunKind, id: string, since: number, afterMs: number) {
  const store = ctx.emulator.store;
  for (let i = 0; i < 800; i++) {
    const sr = [...store.suiteResults.values()].find(
      (x) => x.suite._id === id && Date.parse(x.dateCreated) >= since - 1000,
    );
    const tr = [...store.results.values()].find(
      (x) =>
        x.test?._id === id &&
        store.resultMeta.get(x._id)?.suiteResultId === null &&
        Date.parse(x.dateCreated) >= since - 1000,
    );
    const found = kind === 'suite' ? sr : tr;
    if (found) {
      await sleep(Math.max(0, Date.parse(found.dateCreated) + afterMs - Date.now()));
      const path = `/${kind === 'suite' ? 'suite-results' : 'results'}/${found._id}/cancel/`;
      await post(ctx, path);
      for (const q of ctx.emulator.requests()) if (q.path.includes(path.slice(0, -1))) ctx.claimed.add(q.seq);
      return;
    }
    await sleep(25);
  }
  fail(ctx, `cancel of ${kind} ${id}`, 'its run never appeared');
}

async function ours(ctx: Context, plan: CasePlan, c: EarlyCase, kind: RunKind): Promise<EarlyFigure | null> {
  const id = targetId(c, 'action', kind);
  let cancel: Promise<void> = Promise.resolve();
  const x = await actionLagRun(ctx, {
    kind,
    id,
    account: accountOf(c, 'action', kind),
    durationS: 0,
    history: true,
    failing: true,
    killAfterMs: OURS_WAIT_MS,
    onSpawn: (at) => {
      if (c === 'cancelled in the app') cancel = cancelLater(ctx, kind, id, at, cancelAfterMs(id));
    },
  });
  await cancel;
  if (!x) return null;
  return {
    case: c,
    client: 'action',
    kind,
    historyS: plan.earlyHistoryS[kind],
    runMs: x.sample.runMs,
    noticedMs: x.sample.lagMs,
    requests: x.sample.requests,
    ...(x.sample.kinds ? { kinds: x.sample.kinds } : {}),
    ...(x.run.killed
      ? { note: `not noticed within ${OURS_WAIT_MS / 1000} s of its start (process stopped then)` }
      : {}),
  };
}

const cancelAfterMs = (id: string) => jittered(4000, `cancel-${id}`);

async function official(
  ctx: Context,
  plan: CasePlan,
  c: EarlyCase,
  kind: RunKind,
): Promise<EarlyFigure | null> {
  const id = targetId(c, 'official', kind);
  const key = account(accountOf(c, 'official', kind)).key;
  if (c === 'early failure') {
    const x = await officialLagRun(ctx, kind, id, accountOf(c, 'official', kind), 0, true, false);
    return x
      ? {
          case: c,
          client: 'official',
          kind,
          historyS: plan.earlyHistoryS[kind],
          runMs: x.runMs,
          noticedMs: x.lagMs,
          requests: x.requests,
        }
      : null;
  }
  // Cancelled: a worker of its own, closed when the wait is over (the client would poll for ever).
  const client = await OfficialClient.start(ctx.emulator.origin);
  const since = Date.now();
  try {
    const cancel = cancelLater(ctx, kind, id, since, cancelAfterMs(id));
    const run = client.run(kind, id, key);
    await cancel;
    const record = await finishOf(ctx, kind, id, since);
    const outcome = await Promise.race([
      run,
      sleep(Math.max(0, record.finishedAt + OFFICIAL_CANCEL_WAIT_MS - Date.now())).then(() => null),
    ]);
    const requests = requestsFor(ctx, since, {
      [kind === 'suite' ? 'suites' : 'tests']: [id],
      results: [record.resultId],
    });
    const figure: EarlyFigure = {
      case: c,
      client: 'official',
      kind,
      historyS: plan.earlyHistoryS[kind],
      runMs: record.finishedAt - record.createdAt,
      noticedMs: outcome && !outcome.error ? outcome.knownAt - record.finishedAt : NaN,
      requests: requests.length,
    };
    if (!outcome)
      figure.note = `not noticed ${OFFICIAL_CANCEL_WAIT_MS / 1000} s after the cancel (it waits for \`passing\`, which stays null)`;
    else if (outcome.error) figure.note = `ended with an error: ${outcome.error}`;
    return figure;
  } finally {
    client.close();
  }
}

/** Both cases, both kinds, both clients: all eight runs at once after the histories are made. */
export async function runEarly(ctx: Context, plan: CasePlan): Promise<EarlyFigure[]> {
  await makeHistory(ctx, plan);
  ctx.log('  early failure and cancel in the app: histories made');
  for (const c of CASES) {
    for (const client of CLIENTS) {
      for (const kind of KINDS) {
        for (const [i, testId] of testIdsOf(c, client, kind).entries()) {
          const ms = jittered(c === 'early failure' ? 2000 : CANCEL_RUN_MS, `${short(c)}-${kind}-t${i + 1}`);
          ctx.emulator.setScenario(
            testId,
            c === 'early failure'
              ? { outcome: 'fail', failingStep: 0, stepDurationsMs: ms, runDurationMs: ms }
              : passingScenario(ms),
          );
        }
      }
    }
  }
  const jobs = CASES.flatMap((c) =>
    KINDS.flatMap((kind) => [ours(ctx, plan, c, kind), official(ctx, plan, c, kind)]),
  );
  const out = (await Promise.all(jobs)).filter((x): x is EarlyFigure => x !== null);
  ctx.log('  early failure and cancel in the app: done');
  return out;
}
