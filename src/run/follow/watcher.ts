/** The watch loop over one table of the remote results still running (docs/architecture.md). */
import { backoffMs } from '../../api/backoff.js';
import { isApiErrorType, isNotFound, isUnexpectedShape, UNEXPECTED_SHAPE_LIMIT } from '../../api/errors.js';
import { PAGE_SIZE, RATE_LIMIT_PER_SECOND } from '../../api/limits.js';
import type { RunningEntry } from '../../api/types.js';
import { timeoutSignal } from '../../common/clock.js';
import { messageOf } from '../../common/log.js';
import type { EngineContext, RunWatch, WatchTarget } from '../context.js';
import type { Remote } from '../book.js';
import type { Answer } from '../kinds.js';
import { forEachPage, pagesFor } from '../read/paging.js';
import { organizationOf, readOrganization } from './organization.js';
import { pacedHints, PUSH_TICK_MS, type PushListener } from './push.js';

/** Largest back-off between failed polls, ms. */
const POLL_BACKOFF_CAP_MS = 10_000;
/** Shortest wait between two ticks, ms; each tick adds up to `TICK_JITTER_MS` at random. */
export const TICK_MS = 850;
export const TICK_JITTER_MS = 150;
/** A run the list has not shown this long after its trigger is read on its own once, ms. */
const UNSEEN_AFTER_MS = 2_000;
/** A list not answered within this time counts as failed, ms. */
const LIST_TIMEOUT_MS = 3_000;
/** Own reads per tick while the list is failing (or no organization is known). */
const READS_PER_TICK = 3;
/** Each run is read on its own at least this often, ms, or every `SAFETY_PER_RUN_MS` × runs when longer. */
const SAFETY_MIN_MS = 10_000;
const SAFETY_PER_RUN_MS = 2_000;
/** A lone run asks the running list instead of its own read every this many ticks. */
const LONE_LIST_EVERY = 3;
/** The most a busy account slows the tick and the safety reads: ticks of about 1 s become about 4 s at most. */
const BUSY_MAX = 4;
/**
 * A safety read the busy slow-down would put later is due this long before the deadline instead, ms: the
 * slowest tick, then a second for the read to be answered.
 */
const BEFORE_DEADLINE_MS = BUSY_MAX * (TICK_MS + TICK_JITTER_MS) + 1_000;

/** One row of the table: a remote result waited for. */
interface Row {
  remote: Remote;
  triggeredAtMs: number;
  target: WatchTarget<Answer>;
  resolve: (value: Answer | null) => void;
  /** Its own result is read at once from this time (hinted by the list, a back-off's end), ms; else by `safetyDueAtMs`. */
  dueAtMs: number;
  /** Not read before this time (a back-off, or a result not found yet), ms. */
  notBeforeMs: number;
  lastReadAtMs: number;
  /** The list shows it now (since its last own read). */
  shown: boolean;
  /** Read once already because the list never showed it. */
  probed: boolean;
  reading: boolean;
  /** Made due while a read was in flight: that read's answer may be older than what made it due. */
  again: boolean;
  errors: number;
  /** A webhook named it (push.ts). */
  pushed: boolean;
}

type WatchContext = Pick<
  EngineContext,
  'plan' | 'api' | 'clock' | 'emit' | 'stopper' | 'book' | 'waits' | 'deadlineAtMs'
>;

/** Watches every remote result of one engine run (`EngineContext.watcher`). */
export class Watcher implements RunWatch {
  /** One row per remote (the book makes one remote per run): a wait never replaces another. */
  private readonly table = new Map<Remote, Row>();
  private looping = false;
  private listInFlight = false;
  /** The last list failed, or no organization is known: runs are read in turn. */
  private listDown = false;
  private listFailures = 0;
  private listAgainAtMs = -Infinity;
  private organizationId: string | null = null;
  private organizationRead = false;
  /** The most rows the table has held: the safety reads' spacing never shrinks as runs end. */
  private mostRows = 0;
  /** How much other watchers on the account slow the tick and the safety reads (1 to `BUSY_MAX`). */
  private busy = 1;
  private ticks = 0;
  /** Webhooks arrive (docs/architecture.md, "Push"): push's tick while every row is a test run. */
  private pushing: boolean;
  /** Ends the tick's wait at once (push ended: the slow tick's wait is cut short). */
  private wake = new AbortController();

  /** `maxPollErrors`: failed reads in a row before a run is given up; `push`: the webhooks' listener. */
  constructor(
    private readonly ctx: WatchContext,
    private readonly maxPollErrors: number,
    push?: PushListener,
  ) {
    this.pushing = !!push;
    const read = pacedHints(ctx.clock, ctx.stopper.signal, (row: Row) => {
      if (this.table.get(row.remote) !== row) return;
      this.readSoon(row, ctx.clock.now());
      this.readDue();
    });
    push?.onHint((id) => {
      const row = [...this.table.values()].find((r) => r.remote.id === id && r.remote.type === 'test');
      if (!row) return;
      row.pushed = true;
      read(row);
    });
  }

  /** Waits until `remote`'s result is over; null when it could not be had (`onProblem` told) or on a stop. */
  wait<T extends Answer>(remote: Remote, triggeredAtMs: number, target: WatchTarget<T>): Promise<T | null> {
    if (this.ctx.stopper.signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const now = this.ctx.clock.now();
      this.table.set(remote, {
        remote,
        triggeredAtMs,
        target: target as unknown as WatchTarget<Answer>,
        resolve: resolve as (value: Answer | null) => void,
        dueAtMs: Infinity,
        notBeforeMs: -Infinity,
        lastReadAtMs: now,
        shown: false,
        probed: false,
        reading: false,
        again: false,
        errors: 0,
        pushed: false,
      });
      this.mostRows = Math.max(this.mostRows, this.table.size);
      if (!this.looping) void this.loop();
    });
  }

  /**
   * When `row`'s own read is due without a hint, ms: `SAFETY_MIN_MS` (or `SAFETY_PER_RUN_MS` × the most rows)
   * after its last read, stretched by `busy`, but never past `BEFORE_DEADLINE_MS` before the deadline
   * (docs/architecture.md, "A busy account").
   */
  private safetyDueAtMs(row: Row): number {
    const periodMs = Math.max(SAFETY_MIN_MS, SAFETY_PER_RUN_MS * this.mostRows);
    const latestMs = Math.max(row.lastReadAtMs + periodMs, this.ctx.deadlineAtMs - BEFORE_DEADLINE_MS);
    return Math.min(row.lastReadAtMs + this.busy * periodMs, latestMs);
  }

  private async loop(): Promise<void> {
    const { ctx } = this;
    const stop = ctx.stopper.signal;
    this.looping = true;
    try {
      let tickAtMs = ctx.clock.now();
      while (this.table.size > 0 && !stop.aborted) {
        const pollMs = this.busy * (TICK_MS + TICK_JITTER_MS * ctx.clock.random());
        const slow = this.pushing && [...this.table.keys()].every((remote) => remote.type === 'test');
        const untilMs = tickAtMs + (slow ? Math.max(PUSH_TICK_MS, pollMs) : pollMs) - ctx.clock.now();
        await ctx.clock.sleep(untilMs, AbortSignal.any([stop, this.wake.signal]));
        if (stop.aborted || this.table.size === 0) break;
        if (this.wake.signal.aborted) this.wake = new AbortController();
        tickAtMs = ctx.clock.now();
        this.tick();
      }
    } finally {
      this.looping = false;
      if (stop.aborted) {
        for (const row of this.table.values()) row.resolve(null);
        this.table.clear();
      }
    }
  }

  /** One tick: the lone run's read or the list (docs/architecture.md, "One loop, one table"); then the rows due. */
  private tick(): void {
    const rows = [...this.table.values()];
    const listTurn = ++this.ticks % LONE_LIST_EVERY === 0 && !this.listInFlight && !!this.known();
    if (rows.length === 1 && !listTurn) this.readSoon(rows[0], this.ctx.clock.now());
    else {
      if (this.listDown && rows.length > 1) this.readInTurn();
      if (!this.listInFlight) void this.askList();
    }
    this.readDue();
  }

  /** Reads the rows due: hinted ones at once (several of one group from its list), others when their safety read is due. */
  private readDue(): void {
    const now = this.ctx.clock.now();
    const hinted = new Map<string, Row[]>();
    for (const row of this.table.values()) {
      if (row.reading || row.notBeforeMs > now) continue;
      if (row.dueAtMs <= now) {
        const key = row.target.group?.key ?? row.remote.id;
        hinted.set(key, [...(hinted.get(key) ?? []), row]);
      } else if (this.safetyDueAtMs(row) <= now) void this.read(row, true);
    }
    for (const rows of hinted.values()) {
      if (rows.length > 1) void this.readGroup(rows);
      else void this.read(rows[0], false);
    }
  }

  /** Reads rows of one group from its list (their own answers there); a row the list does not show is read alone. */
  private async readGroup(rows: Row[]): Promise<void> {
    const { ctx } = this;
    const left = new Map(rows.map((row) => [row.remote.id, row]));
    const list = rows[0].target.group!.list;
    for (const row of rows) this.startRead(row);
    const visit = (page: Answer[]): boolean => {
      for (const value of page) {
        const row = left.get(value._id);
        if (!row) continue;
        left.delete(row.remote.id);
        this.answered(row, value);
        this.readDone(row);
      }
      return left.size > 0;
    };
    try {
      await forEachPage(
        (paging) => list(paging, { signal: ctx.stopper.signal }),
        visit,
        pagesFor(rows.length),
        Math.ceil(rows.length / PAGE_SIZE),
      );
    } catch {
      // The rows left are read on their own.
    }
    for (const row of left.values()) {
      row.reading = false;
      if (!ctx.stopper.signal.aborted) void this.read(row, false);
    }
  }

  private startRead(row: Row): void {
    row.reading = true;
    row.lastReadAtMs = this.ctx.clock.now();
  }

  /**
   * The row's own answer: over ends it, else it waits in the table for a hint or its safety read. A test run
   * found over with no webhook for it ends push: the step goes back to the 1-s tick.
   */
  private answered(row: Row, value: Answer): void {
    row.errors = 0;
    const over = row.target.isOver(value);
    if (over && this.pushing && row.remote.type === 'test' && !row.pushed) {
      this.pushing = false;
      this.wake.abort();
      const message = `Test result ${row.remote.id} ended without its webhook: polling every second from now on.`;
      this.ctx.emit({ type: 'detail', message });
    }
    if (over) this.end(row, value);
    else row.dueAtMs = Infinity;
  }

  /** A read of `row` is over: made due meanwhile (a webhook, the list), it is read again now, not at a tick. */
  private readDone(row: Row): void {
    row.reading = false;
    if (row.again) {
      row.again = false;
      this.readSoon(row, this.ctx.clock.now());
      if (!this.ctx.stopper.signal.aborted) this.readDue();
    }
  }

  /** Makes a row due now (or when its back-off ends); a row being read is read again after that answer. */
  private readSoon(row: Row, now: number): void {
    if (row.reading) row.again = true;
    row.dueAtMs = Math.min(row.dueAtMs, Math.max(now, row.notBeforeMs));
  }

  /** While the list is failing: the `READS_PER_TICK` rows read longest ago are due now. */
  private readInTurn(): void {
    const now = this.ctx.clock.now();
    const ready = [...this.table.values()].filter((r) => !r.reading && r.notBeforeMs <= now);
    ready.sort((a, b) => a.lastReadAtMs - b.lastReadAtMs);
    for (const row of ready.slice(0, READS_PER_TICK)) row.dueAtMs = now;
  }

  private known(): string | null {
    const { plan, book } = this.ctx;
    return (this.organizationId ??= organizationOf(plan.organizationId, book.handles));
  }

  /** The organization whose list to ask: known, or read once from a suite. */
  private async organization(): Promise<string | null> {
    const { api, book, stopper } = this.ctx;
    if (this.known() || this.organizationRead) return this.organizationId;
    if (!book.handles.some((h) => h.run.suiteId)) return null;
    this.organizationRead = true;
    return (this.organizationId = await readOrganization(api, book.handles, stopper.signal));
  }

  /** Asks the running list (unless backing off or no organization is known); reads the rows it hints at. */
  private async askList(): Promise<void> {
    const { ctx } = this;
    const askedAtMs = ctx.clock.now();
    if (askedAtMs < this.listAgainAtMs) return;
    this.listInFlight = true;
    try {
      const organizationId = await this.organization();
      const answered = organizationId ? await this.ask(organizationId, askedAtMs) : false;
      if (answered !== null) this.listDown = !answered;
      if (answered === false && this.table.size === 1) this.readInTurn();
      if (answered !== null) this.readDue();
    } finally {
      this.listInFlight = false;
    }
  }

  /** Whether the list answered; null when it waited for the budget all along (not sent: not a failure). */
  private async ask(organizationId: string, askedAtMs: number): Promise<boolean | null> {
    const { ctx } = this;
    const answered = new AbortController();
    const late = timeoutSignal(ctx.clock, LIST_TIMEOUT_MS, answered.signal);
    try {
      const signal = AbortSignal.any([ctx.stopper.signal, late]);
      const opts = { signal, lowPriority: true };
      const running = await ctx.api.listOrganizationRunningEntries(organizationId, opts);
      this.listFailures = 0;
      this.mark(running, askedAtMs);
      return true;
    } catch (error) {
      if (ctx.stopper.signal.aborted) return false;
      if (isApiErrorType(error, 'ABORTED') && error.attempts === 0) return null;
      this.listFailures += 1;
      this.listAgainAtMs = ctx.clock.now() + this.backoff(this.listFailures);
      const message = `Running list of the organization failed: ${messageOf(error)}`;
      ctx.emit({ type: 'detail', message });
      return false;
    } finally {
      answered.abort();
    }
  }

  /**
   * Marks the rows the list shows, makes due those that left it or never showed, and sets `busy` from the
   * runs of other watchers it shows (docs/architecture.md, "A busy account").
   */
  private mark(running: RunningEntry[], askedAtMs: number): void {
    const shown = new Set<string>();
    for (const r of running) shown.add(r.suiteResult ?? r._id);
    const mine = new Set([...this.table.keys()].map((remote) => remote.id));
    const others = [...shown].filter((id) => !mine.has(id)).length;
    const watchers = 1 + others / Math.max(1, this.mostRows);
    const meanTickMs = TICK_MS + TICK_JITTER_MS / 2;
    this.busy = Math.min(BUSY_MAX, Math.max(1, (watchers * 1000) / RATE_LIMIT_PER_SECOND / meanTickMs));
    for (const r of running) shown.add(r._id);
    const now = this.ctx.clock.now();
    for (const row of this.table.values()) {
      if (shown.has(row.remote.id)) {
        row.shown = true;
      } else if (row.shown || (!row.probed && askedAtMs - row.triggeredAtMs >= UNSEEN_AFTER_MS)) {
        row.probed = true;
        row.shown = false;
        this.readSoon(row, now);
      }
    }
  }

  /** Reads a row's own result (`lowPriority`: a safety read): over ends it, else it goes back to the table. */
  private async read(row: Row, lowPriority: boolean): Promise<void> {
    const { ctx } = this;
    const stop = ctx.stopper.signal;
    this.startRead(row);
    try {
      this.answered(row, await row.target.get({ signal: stop, lowPriority }));
    } catch (error) {
      if (stop.aborted) return;
      const now = ctx.clock.now();
      if (isNotFound(error) && now - row.triggeredAtMs < ctx.waits.notFoundGraceMs) {
        row.dueAtMs = row.notBeforeMs = now + ctx.waits.notFoundRetryMs;
        return;
      }
      row.errors += 1;
      const { type, id } = row.remote;
      ctx.emit({ type: 'detail', message: `Poll of ${type} result ${id} failed: ${messageOf(error)}` });
      const wrongShape = isUnexpectedShape(error) && row.errors >= UNEXPECTED_SHAPE_LIMIT;
      if (isNotFound(error) || row.errors >= this.maxPollErrors || wrongShape) {
        row.target.onProblem(`Its result could not be read: ${messageOf(error)}`);
        return this.end(row, null);
      }
      row.dueAtMs = row.notBeforeMs = now + this.backoff(row.errors);
    } finally {
      this.readDone(row);
    }
  }

  private end(row: Row, value: Answer | null): void {
    if (this.table.get(row.remote) !== row) return;
    this.table.delete(row.remote);
    if (value) this.ctx.book.release(row.remote);
    row.resolve(value);
  }

  /** The wait after `failures` failures in a row, ms: jittered, doubling from `pollBackoffMs`, capped. */
  private backoff(failures: number): number {
    const baseMs = this.ctx.waits.pollBackoffMs;
    return backoffMs(failures, () => this.ctx.clock.random(), { baseMs, capMs: POLL_BACKOFF_CAP_MS });
  }
}
