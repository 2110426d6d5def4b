import type { Db } from '../store/db.ts';
/**
 * Writes completed calls with group commit: a call's row is queued and its caller waits for the
 * transaction that carries it, or, with a usage journal, only for the call's line in the journal
 * (the relay holds back the end of the reply until then, so a client never has a whole reply
 * whose usage could still be lost; a journaled call the broker did not live to commit is
 * committed at its next start, openUsageJournal). A write starts as soon as
 * none is in flight and takes every queued call (up to batchSize), so under load rows are
 * written in batches: those that arrive during one write share the next. One transaction per
 * batch (usage rows, the daily rollup and the routing decision rows); on an embedded PGlite one
 * per slice of a batch, the event loop getting a turn between slices (sliceRows). A failed
 * write answers its callers "not committed", keeps their rows queued and retries with a growing
 * pause, logging each failure; reads wait for `settled()` so a read right after a reply sees
 * its row.
 */

import { insertCalls, recordedIds } from '../store/call-writes.ts';
import { type DecisionRecord, decisionRecord } from '../store/routing-decisions.ts';
import { type JournalOptions, UsageJournal } from '../store/usage-journal.ts';
import type { BudgetGate, CompletedCall, UsageSink } from './ports.ts';

export interface RecorderLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RecorderOptions {
  /** Calls per transaction at most. */
  batchSize?: number;
  /**
   * How long a queued call waits before a write starts when none is in flight. Without a
   * journal 0 (the default) writes at once, since every queued call has a caller waiting for it.
   * With one nobody waits for the commit, so calls are gathered for JOURNALED_FLUSH_MS and written
   * together (a commit per call would cost every next call its time on an embedded database's
   * thread); reads still flush at once. Tests pass a long one so that only reads and close write.
   */
  flushDelayMs?: number;
  /** The first pause after a failed flush; it doubles up to maxRetryMs. */
  retryMs?: number;
  /** The longest pause between attempts: calls recorded meanwhile wait this long for theirs at most. */
  maxRetryMs?: number;
  /** Flush attempts close() makes before it gives up on the calls left (logging each of them). */
  closeAttempts?: number;
  /** Where failures are logged (resolved when needed: the app's logger exists after the recorder). */
  log?: () => RecorderLog;
  /**
   * false (PostgreSQL): commit without waiting for the WAL flush (writeCalls). Never for an
   * embedded PGlite: its WAL is in this process until a commit writes it.
   */
  syncCommit?: boolean;
  /**
   * The usage journal (openUsageJournal): a call's caller waits for its line there instead of
   * its commit. Without one, for the commit.
   */
  journal?: UsageJournal;
  /** The batch write (tests replace it to make flushes fail). */
  write?: (db: Db, calls: readonly CompletedCall[], syncCommit: boolean) => Promise<void>;
  /**
   * Rows per write, the event loop getting a turn between writes (usageSliceRows: on an embedded
   * PGlite, whose statements run on the relay's own thread). A batch is then written as slices,
   * each its own transaction (its rows, rollup and decisions together), each told to its callers
   * and the journal as it commits. A batch of more than MAX_SLICES slices (the writes falling
   * behind the calls) is cut into MAX_SLICES larger ones, so that the writes catch up. Unset: a
   * batch is one write (PostgreSQL).
   */
  sliceRows?: number;
  /**
   * With sliceRows: how long one slice may hold the thread, in ms (usageSliceMs). Slices then grow
   * past sliceRows (up to STATEMENT_ROWS, one statement) while the recorder's own slices of that
   * many rows are measured to take less: a statement's fixed cost, not its rows', is most of a
   * small slice's time, so fewer, larger slices cost the relay less CPU for the same hold.
   * Unset: every slice is sliceRows rows.
   */
  sliceMs?: number;
  /** The clock slices are timed with, in ms (performance.now by default; tests pass their own). */
  now?: () => number;
  /** How the event loop gets its turn between slices (SLICE_PAUSE by default; tests pass their own). */
  slicePause?: () => Promise<void>;
}

/**
 * Rows per statement: a larger batch is a transaction of such statements. (On an embedded PGlite
 * the recorder writes slices of sliceRows rows instead, each its own transaction, since the
 * statements of one transaction run back to back on the relay's thread.)
 */
const STATEMENT_ROWS = 25;

/**
 * One batch, committed at once: its usage rows with their rollup, and its routing decisions. A
 * batch of one statement's rows is that statement alone (its own transaction: the fewest round
 * trips for the callers waiting on it); a larger one is a transaction of such statements.
 * `syncCommit: false` (PostgreSQL) commits without waiting for the WAL flush: the rows are
 * committed in the server, which a broker crash cannot undo; only a crash of the server itself
 * may lose the last moments of commits (docs/decisions.md, "When a relayed row is written").
 */
export async function writeCalls(db: Db, calls: readonly CompletedCall[], syncCommit = true): Promise<void> {
  const write = (into: Db, slice: readonly CompletedCall[]) =>
    insertCalls(
      into,
      slice.map((c) => c.usage),
      slice.map(decisionRecord).filter((d): d is DecisionRecord => d !== null),
      syncCommit,
    );
  if (calls.length <= STATEMENT_ROWS) {
    await write(db, calls);
    return;
  }
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < calls.length; i += STATEMENT_ROWS) await write(trx, calls.slice(i, i + STATEMENT_ROWS));
  });
}

/**
 * Whether usage writes wait for the WAL flush: always on an embedded PGlite (its WAL stays in
 * this process until a commit writes it out, so a broker crash is a database crash); on
 * PostgreSQL only when asked (BROKER_USAGE_SYNC_COMMIT).
 */
export const usageSyncCommit = (kind: 'pglite' | 'postgres', asked: boolean): boolean => kind !== 'postgres' || asked;

/** How long journaled calls are gathered before their rows are written (they are durable meanwhile). */
export const JOURNALED_FLUSH_MS = 100;

/**
 * Rows per write on an embedded PGlite (see RecorderOptions.sliceRows): a statement of this many
 * rows holds the relay's thread under a millisecond (most of it the statement's own cost, not
 * its rows'), where a gathered batch of a hundred held it for tens and every call behind it
 * waited. Measured against 10 and 20 (docs/decisions.md, "The usage journal").
 */
export const PGLITE_SLICE_ROWS = 5;

/**
 * Slices per batch at most: under a load the slices of sliceRows cannot keep up with (one slice
 * per turn of a busy event loop), they grow instead of letting the queue grow.
 */
export const MAX_SLICES = 20;

/** Slices on an embedded PGlite (its statements block the relay's thread); none on PostgreSQL. */
export const usageSliceRows = (kind: 'pglite' | 'postgres'): number | undefined =>
  kind === 'pglite' ? PGLITE_SLICE_ROWS : undefined;

/**
 * How long a slice may hold the relay's thread on an embedded PGlite (RecorderOptions.sliceMs):
 * what a slice of PGLITE_SLICE_ROWS held it on a quiet machine, so slices grow only where the
 * statement is fast enough for more rows in the same time (issue 22).
 */
export const PGLITE_SLICE_MS = 1;

export const usageSliceMs = (kind: 'pglite' | 'postgres'): number | undefined =>
  kind === 'pglite' ? PGLITE_SLICE_MS : undefined;

/**
 * The pause between slices: a timer, so that the event loop runs a whole turn (timers, I/O, and
 * what they queue) and a relayed call that a slice held up can finish before the next slice.
 */
const SLICE_PAUSE = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Without the app's logger: one JSON line on stderr, errors by their message. */
const line = (obj: object) => JSON.stringify(obj, (_k, v) => (v instanceof Error ? v.message : v));
const consoleLog: RecorderLog = {
  warn: (obj, msg) => console.warn(msg, line(obj)),
  error: (obj, msg) => console.error(msg, line(obj)),
};

/** A queued call and its caller, told once whether the write that carried it committed. */
interface Queued {
  call: CompletedCall;
  done: ((committed: boolean) => void) | undefined;
  /** In the journal: its caller has been answered, and the journal is told when it commits. */
  journaled: boolean;
}

/**
 * Opens the usage journal in `dir` and commits what a previous broker process journaled and did
 * not live to commit (rows already in the database are skipped: it may have died between the
 * commit and the journal's cleanup). Runs before the app serves.
 */
export async function openUsageJournal(
  db: Db,
  dir: string,
  o: JournalOptions = {},
): Promise<{ journal: UsageJournal; replayed: { journaled: number; written: number } }> {
  const { journal, left, finish } = UsageJournal.open(dir, o);
  const BATCH = 500;
  let written = 0;
  for (let i = 0; i < left.length; i += BATCH) {
    const slice = left.slice(i, i + BATCH);
    const known = await recordedIds(
      db,
      slice.map((c) => c.usage.id),
    );
    const missing = slice.filter((c) => !known.has(c.usage.id));
    await writeCalls(db, missing);
    written += missing.length;
  }
  finish();
  return { journal, replayed: { journaled: left.length, written } };
}

export class UsageRecorder implements UsageSink {
  private queue: Queued[] = [];
  /** Queued calls not yet in the journal: appended together once this turn of the event loop ends. */
  private toJournal: Queued[] = [];
  private journalTurn: NodeJS.Immediate | undefined;
  /** Calls ever recorded, and calls whose write has finished, in recording order. */
  private recorded = 0;
  private committed = 0;
  private waiters: { upTo: number; resolve: () => void }[] = [];
  private flushing: Promise<void> | undefined;
  /** The next flush: the batching pause, or the pause after a failure. */
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private failures = 0;
  private closing = false;
  private readonly batchSize: number;
  private readonly flushDelayMs: number;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;
  private readonly closeAttempts: number;
  private readonly syncCommit: boolean;
  private readonly write: (db: Db, calls: readonly CompletedCall[], syncCommit: boolean) => Promise<void>;
  private readonly sliceRows: number | undefined;
  private readonly sliceMs: number | undefined;
  /** Rows per slice now: sliceRows, grown or shrunk within sliceMs by the slices' measured times. */
  private sliceSize: number;
  private readonly now: () => number;
  private readonly slicePause: () => Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly budgets: BudgetGate,
    private readonly o: RecorderOptions = {},
  ) {
    this.batchSize = o.batchSize ?? 500;
    this.flushDelayMs = o.flushDelayMs ?? (o.journal ? JOURNALED_FLUSH_MS : 0);
    this.retryMs = o.retryMs ?? 200;
    this.maxRetryMs = o.maxRetryMs ?? 2_000;
    this.closeAttempts = o.closeAttempts ?? 3;
    this.syncCommit = o.syncCommit ?? true;
    this.write = o.write ?? writeCalls;
    this.sliceRows = o.sliceRows !== undefined && o.sliceRows > 0 ? o.sliceRows : undefined;
    this.sliceMs = this.sliceRows && o.sliceMs !== undefined && o.sliceMs > 0 ? o.sliceMs : undefined;
    this.sliceSize = this.sliceRows ?? 0;
    this.now = o.now ?? (() => performance.now());
    this.slicePause = o.slicePause ?? SLICE_PAUSE;
  }

  /**
   * Queues a completed call. Resolves true once its row is committed, false when the write that
   * carried it failed (the row stays queued for the retry) or close gave up on it.
   */
  record(call: CompletedCall): Promise<boolean> {
    // The gate counts the cost at once, so this replica's next check sees it before the row is written.
    this.budgets.spent(call.usage.actor_fid, call.usage.cost_micros, call.usage.occurred_at);
    let queued: Queued | undefined;
    const committed = new Promise<boolean>((done) => {
      queued = { call, done, journaled: false };
    });
    this.queue.push(queued as Queued);
    if (this.o.journal) {
      // Answered once its line is written (writeJournal): the calls that end in one turn of the
      // event loop share one write(2) instead of one each.
      this.toJournal.push(queued as Queued);
      this.journalTurn ??= setImmediate(() => this.writeJournal());
    }
    this.recorded += 1;
    if (this.queue.length >= this.batchSize) this.flushNow();
    else this.flushLater(this.flushDelayMs);
    return committed;
  }

  /**
   * Resolves once every call recorded so far is committed, or once writing it failed (it stays
   * queued for the retry): a read never hangs on a broken database. Flushes at once.
   */
  settled(): Promise<void> {
    if (this.committed >= this.recorded) return Promise.resolve();
    const upTo = this.recorded;
    const done = new Promise<void>((resolve) => this.waiters.push({ upTo, resolve }));
    this.flushNow();
    return done;
  }

  /**
   * Appends the calls recorded since the last append to the journal, in recording order, and
   * answers their callers (committed as far as they are concerned: the line survives the broker).
   * A journal that cannot be written leaves them to their commit. Runs before any database write,
   * so a write never carries a call whose journaling is still undecided.
   */
  private writeJournal(): void {
    if (this.journalTurn) clearImmediate(this.journalTurn);
    this.journalTurn = undefined;
    const batch = this.toJournal;
    if (batch.length === 0 || !this.o.journal) return;
    this.toJournal = [];
    try {
      this.o.journal.appendAll(batch.map((q) => q.call));
    } catch (e) {
      this.log().error({ err: e }, 'usage journal not written; the reply waits for the commit');
      return;
    }
    for (const q of batch) {
      const done = q.done;
      q.journaled = true;
      q.done = undefined;
      done?.(true);
    }
  }

  /**
   * Flushes what is queued, retrying a few times; calls that still cannot be written are logged
   * one by one (journaled ones stay in the journal for the next start).
   */
  async close(): Promise<void> {
    this.closing = true;
    this.writeJournal();
    for (let attempt = 0; ; attempt++) {
      if (this.flushing) await this.flushing;
      if (this.queue.length === 0) break;
      if (attempt >= this.closeAttempts) {
        const lost = this.queue.splice(0);
        for (const q of lost) {
          const msg = q.journaled ? 'usage row left in the journal at close' : 'usage row not written at close';
          this.log().error({ usage: q.call.usage, decision: q.call.decision }, msg);
          q.done?.(false);
        }
        this.committed = this.recorded;
        break;
      }
      this.flushNow();
    }
    this.cancelTimers();
    this.o.journal?.close();
    this.release(true);
  }

  /** A write after `ms` (0: once this turn of the event loop has queued its calls), unless one is due or running. */
  private flushLater(ms: number) {
    if (this.timer || this.immediate || this.flushing || this.closing) return;
    if (ms === 0) {
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        this.flushNow();
      });
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushNow();
    }, ms);
  }

  private cancelTimers() {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private flushNow() {
    this.cancelTimers();
    if (this.flushing) return;
    this.flushing = (async () => {
      try {
        await this.drain();
      } finally {
        this.flushing = undefined;
        if (this.queue.length > 0) {
          const pause =
            this.failures > 0
              ? Math.min(this.maxRetryMs, this.retryMs * 2 ** (this.failures - 1))
              : this.urgent()
                ? 0
                : this.flushDelayMs;
          this.flushLater(pause);
        }
      }
    })();
  }

  /**
   * Writes batches until the queue is empty (or, with a batching pause, nothing urgent waits) or a
   * write fails. With sliceRows, a batch (what is queued when it starts, up to batchSize) is
   * written a slice at a time, the event loop getting a turn before each slice but the first.
   */
  private async drain(): Promise<void> {
    let first = true;
    while (this.queue.length > 0) {
      const ok = this.sliceRows
        ? await this.writeSliced(Math.min(this.queue.length, this.batchSize), first)
        : await this.writeFirst(this.batchSize);
      first = false;
      if (!ok) return;
      if (this.flushDelayMs > 0 && !this.urgent()) return;
    }
  }

  /**
   * The batch of the first `calls` queued, in slices of sliceSize rows (or of a MAX_SLICES-th of
   * the batch, when larger); false once one fails.
   */
  private async writeSliced(calls: number, first: boolean): Promise<boolean> {
    const least = Math.ceil(calls / MAX_SLICES);
    for (let left = calls; left > 0 && this.queue.length > 0; ) {
      if (!first) await this.slicePause();
      first = false;
      const n = Math.min(left, Math.max(this.sliceSize, least));
      const started = this.now();
      if (!(await this.writeFirst(n))) return false;
      if (this.sliceMs) this.fitSlice(n, this.now() - started);
      left -= n;
    }
    return true;
  }

  /** Writes the first `n` queued calls in one write; false when it failed (they stay queued). */
  private async writeFirst(n: number): Promise<boolean> {
    this.writeJournal();
    const batch = this.queue.slice(0, n);
    try {
      await this.write(
        this.db,
        batch.map((q) => q.call),
        this.syncCommit,
      );
    } catch (e) {
      this.failures += 1;
      this.log().warn(
        { err: e, calls: batch.length, queued: this.queue.length, attempt: this.failures },
        'usage rows not written; retrying',
      );
      // Their callers are answered now (their replies end cut short); the rows wait for the retry.
      for (const q of batch) {
        q.done?.(false);
        q.done = undefined;
      }
      this.release(true);
      return false;
    }
    this.queue.splice(0, batch.length);
    this.committed += batch.length;
    this.o.journal?.committed(batch.filter((q) => q.journaled).length);
    this.failures = 0;
    for (const q of batch) q.done?.(true);
    this.release(false);
    return true;
  }

  /**
   * The rows a slice may take after one of `n` rows held the thread `ms`: as many as fit sliceMs
   * at that pace, growing at most twofold a slice (a slice's time is mostly its statement's fixed
   * cost, so the pace improves with size and the size settles where a slice takes sliceMs),
   * shrinking at once after a slow one; never under sliceRows, never over one statement's rows.
   */
  private fitSlice(n: number, ms: number) {
    const fits = (n * (this.sliceMs as number)) / Math.max(ms, 0.01);
    let next = this.sliceSize;
    if (n >= this.sliceSize) next = Math.min(fits, 2 * this.sliceSize);
    else if (fits < this.sliceSize) next = fits;
    this.sliceSize = Math.max(this.sliceRows as number, Math.min(STATEMENT_ROWS, Math.floor(next)));
  }

  private urgent(): boolean {
    return this.waiters.length > 0 || this.queue.length >= this.batchSize;
  }

  /** Resolves the waiters whose calls are committed (all of them after a failed attempt). */
  private release(all: boolean) {
    if (this.waiters.length === 0) return;
    const keep: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (all || w.upTo <= this.committed) w.resolve();
      else keep.push(w);
    }
    this.waiters = keep;
  }

  private log(): RecorderLog {
    return this.o.log?.() ?? consoleLog;
  }
}
