/**
 * Writes completed calls off the reply's path: calls are queued and flushed in batches (every
 * flushDelayMs, or at once when a batch is full or a read asks), one transaction per batch (usage rows, the daily rollup and the routing decision rows). A failed
 * flush keeps its calls queued and retries with a growing pause, logging each failure; reads
 * wait for `settled()` so a read right after a reply sees its row.
 */
import type { Db } from '@platform/kit';
import { type DecisionRecord, decisionRecord, insertDecisions } from '../store/routing-decisions.ts';
import { insertUsage } from '../store/usage-writes.ts';
import type { BudgetGate, CompletedCall, UsageSink } from './ports.ts';

export interface RecorderLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RecorderOptions {
  /** Calls per transaction; a full batch is written at once. */
  batchSize?: number;
  /** How long a call may wait for others to share its transaction (reads flush at once). */
  flushDelayMs?: number;
  /** The first pause after a failed flush; it doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Flush attempts close() makes before it gives up on the calls left (logging each of them). */
  closeAttempts?: number;
  /** Where failures are logged (resolved when needed: the app's logger exists after the recorder). */
  log?: () => RecorderLog;
  /** The batch write (tests replace it to make flushes fail). */
  write?: (db: Db, calls: readonly CompletedCall[]) => Promise<void>;
}

/**
 * Rows per statement. Embedded PGlite runs each statement on the relay's own thread, so a
 * statement of a whole batch would hold every relayed call behind it for tens of milliseconds;
 * small statements let the event loop serve calls between them.
 */
const STATEMENT_ROWS = 25;

/** One batch in one transaction: its usage rows with their rollup, and its routing decisions. */
export async function writeCalls(db: Db, calls: readonly CompletedCall[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < calls.length; i += STATEMENT_ROWS) {
      const slice = calls.slice(i, i + STATEMENT_ROWS);
      await insertUsage(
        trx,
        slice.map((c) => c.usage),
      );
      await insertDecisions(
        trx,
        slice.map(decisionRecord).filter((d): d is DecisionRecord => d !== null),
      );
    }
  });
}

/** Without the app's logger: one JSON line on stderr, errors by their message. */
const line = (obj: object) => JSON.stringify(obj, (_k, v) => (v instanceof Error ? v.message : v));
const consoleLog: RecorderLog = {
  warn: (obj, msg) => console.warn(msg, line(obj)),
  error: (obj, msg) => console.error(msg, line(obj)),
};

export class UsageRecorder implements UsageSink {
  private queue: CompletedCall[] = [];
  /** Calls ever recorded, and calls whose write has finished, in recording order. */
  private recorded = 0;
  private committed = 0;
  private waiters: { upTo: number; resolve: () => void }[] = [];
  private flushing: Promise<void> | undefined;
  /** The next flush: the batching pause, or the pause after a failure. */
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closing = false;
  private readonly batchSize: number;
  private readonly flushDelayMs: number;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;
  private readonly closeAttempts: number;
  private readonly write: (db: Db, calls: readonly CompletedCall[]) => Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly budgets: BudgetGate,
    private readonly o: RecorderOptions = {},
  ) {
    this.batchSize = o.batchSize ?? 500;
    this.flushDelayMs = o.flushDelayMs ?? 100;
    this.retryMs = o.retryMs ?? 200;
    this.maxRetryMs = o.maxRetryMs ?? 10_000;
    this.closeAttempts = o.closeAttempts ?? 3;
    this.write = o.write ?? writeCalls;
  }

  record(call: CompletedCall): void {
    // The gate counts the cost at once, so this replica's next check sees it before the row is written.
    this.budgets.spent(call.usage.actor_fid, call.usage.cost_micros, call.usage.occurred_at);
    this.queue.push(call);
    this.recorded += 1;
    if (this.queue.length >= this.batchSize) this.flushNow();
    else this.flushLater(this.flushDelayMs);
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

  /** Flushes what is queued, retrying a few times; calls that still cannot be written are logged one by one. */
  async close(): Promise<void> {
    this.closing = true;
    for (let attempt = 0; ; attempt++) {
      if (this.flushing) await this.flushing;
      if (this.queue.length === 0) break;
      if (attempt >= this.closeAttempts) {
        const lost = this.queue.splice(0);
        for (const c of lost) {
          this.log().error({ usage: c.usage, decision: c.decision }, 'usage row not written at close');
        }
        this.committed = this.recorded;
        break;
      }
      this.flushNow();
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.release(true);
  }

  private flushLater(ms: number) {
    if (this.timer || this.flushing || this.closing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushNow();
    }, ms);
  }

  private flushNow() {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
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

  /** Writes batches until the queue is empty or a write fails. */
  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.batchSize);
      try {
        await this.write(this.db, batch);
      } catch (e) {
        this.failures += 1;
        this.log().warn(
          { err: e, calls: batch.length, queued: this.queue.length, attempt: this.failures },
          'usage rows not written; retrying',
        );
        this.release(true);
        return;
      }
      this.queue.splice(0, batch.length);
      this.committed += batch.length;
      this.failures = 0;
      this.release(false);
      // Calls that arrived during the write wait for the batching pause unless a read waits for
      // them or a batch is full: under load, writing them at once would take a transaction for
      // every few calls.
      if (!this.urgent()) return;
    }
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
