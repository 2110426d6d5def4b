import { sql } from 'kysely';
import type { Db, KitTables } from './db/database.ts';

export interface RetentionOptions {
  /** Idempotency records older than this are deleted (IDEMPOTENCY_RETENTION_HOURS). */
  idempotencyHours: number;
  /** Published outbox rows older than this are deleted (OUTBOX_RETENTION_HOURS). */
  outboxHours: number;
  /** Time between runs (default 5 minutes). */
  intervalMs?: number;
  /** Rows per delete statement (default 500). */
  batch?: number;
  clock?: () => Date;
  onError?: (e: Error) => void;
  /** Called after each run with what it deleted. */
  onRun?: (run: RetentionRun) => void;
}

export interface RetentionRun {
  idempotencyKeys: number;
  outbox: number;
  /** Delete statements run, each its own short transaction. */
  batches: number;
}

const HOUR_MS = 3_600_000;

/**
 * Keeps the kit's tables from only growing: deletes idempotency records and published outbox
 * rows older than their retention. Each batch is one statement (its own short transaction) that
 * skips rows somebody holds, so commands never wait for it; an unsent outbox row is never deleted.
 */
export class RetentionJob<DB extends KitTables = KitTables> {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<RetentionRun> | undefined;
  private readonly clock: () => Date;
  constructor(
    private readonly db: Db<DB>,
    private readonly opts: RetentionOptions,
  ) {
    this.clock = opts.clock ?? (() => new Date());
  }

  start() {
    this.stopped = false;
    const tick = async () => {
      await this.run()
        .then((r) => this.opts.onRun?.(r))
        .catch((e) => this.opts.onError?.(e));
      // stop() may have come while this tick ran: then it must not schedule another.
      if (this.stopped) return;
      this.timer = setTimeout(tick, this.opts.intervalMs ?? 300_000);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => {});
  }

  /** Delete everything past retention now, batch by batch. */
  async run(): Promise<RetentionRun> {
    if (this.running) return this.running;
    this.running = this.deleteAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async deleteAll(): Promise<RetentionRun> {
    const now = this.clock().getTime();
    const batch = this.opts.batch ?? 500;
    const run: RetentionRun = { idempotencyKeys: 0, outbox: 0, batches: 0 };
    const keysBefore = new Date(now - this.opts.idempotencyHours * HOUR_MS);
    const outboxBefore = new Date(now - this.opts.outboxHours * HOUR_MS);
    for (;;) {
      const n = await deleteIdempotencyKeys(this.db, keysBefore, batch);
      run.idempotencyKeys += n;
      run.batches++;
      if (n < batch) break;
    }
    for (;;) {
      const n = await deletePublishedOutbox(this.db, outboxBefore, batch);
      run.outbox += n;
      run.batches++;
      if (n < batch) break;
    }
    return run;
  }
}

async function deleteIdempotencyKeys<DB extends KitTables>(db: Db<DB>, before: Date, batch: number): Promise<number> {
  const r = await sql<{ n: number }>`
    WITH gone AS (
      DELETE FROM idempotency_keys WHERE key IN (
        SELECT key FROM idempotency_keys WHERE created_at < ${before}
        LIMIT ${batch} FOR UPDATE SKIP LOCKED)
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`.execute(db);
  return r.rows[0]?.n ?? 0;
}

async function deletePublishedOutbox<DB extends KitTables>(db: Db<DB>, before: Date, batch: number): Promise<number> {
  const r = await sql<{ n: number }>`
    WITH gone AS (
      DELETE FROM outbox WHERE id IN (
        SELECT id FROM outbox WHERE published_at IS NOT NULL AND published_at < ${before}
        LIMIT ${batch} FOR UPDATE SKIP LOCKED)
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`.execute(db);
  return r.rows[0]?.n ?? 0;
}
