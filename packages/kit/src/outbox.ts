import { sql } from 'kysely';
import type { Bus, BusMessage } from './bus/bus.ts';
import { publicSubject, restrictedSubject } from './bus/bus.ts';
import type { Db } from './db/database.ts';
import { uuidv7 } from './ids.ts';

/** What every event carries around its data. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  source: string;
  occurred_at: string;
  data: T;
}

export interface EventInput {
  type: string;
  data: unknown;
  /** Personal data: published only to the service's restricted subject. */
  restricted?: boolean;
}

/**
 * Write events into the outbox inside the caller's transaction: they are published if and only
 * if the change that caused them commits.
 */
export async function emit(trx: Db, service: string, events: EventInput[], now = new Date()): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => {
    const id = uuidv7(now.getTime());
    const envelope: EventEnvelope = { id, type: e.type, source: service, occurred_at: now.toISOString(), data: e.data };
    return {
      event_id: id,
      subject: e.restricted ? restrictedSubject(service, e.type) : publicSubject(service, e.type),
      event_type: e.type,
      restricted: e.restricted ?? false,
      payload: JSON.stringify(envelope),
      occurred_at: now,
    };
  });
  await trx.insertInto('outbox').values(rows).execute();
}

/**
 * Drains the outbox to the bus. Rows are claimed with FOR UPDATE SKIP LOCKED, so replicas share
 * the work without sending a row twice; a failed send leaves the rows for the next poll.
 */
export class OutboxPublisher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  constructor(
    private readonly db: Db,
    private readonly bus: Bus,
    private readonly opts: {
      pollMs: number;
      batch?: number;
      onError?: (e: Error) => void;
      /** A send not finished within this fails and is retried at the next poll (default 10 s). */
      sendTimeoutMs?: number;
    },
  ) {}

  start() {
    const tick = async () => {
      await this.drain().catch((e) => this.opts.onError?.(e));
      this.timer = setTimeout(tick, this.opts.pollMs);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  async stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Publish until the outbox is empty; returns how many events went out. */
  async drain(): Promise<number> {
    if (this.running) return this.running;
    this.running = (async () => {
      let total = 0;
      for (;;) {
        const n = await this.drainBatch();
        total += n;
        if (n === 0) return total;
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drainBatch(): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await sql<{ id: number; event_id: string; subject: string; payload: unknown }>`
        SELECT id, event_id, subject, payload FROM outbox
        WHERE published_at IS NULL ORDER BY id LIMIT ${this.opts.batch ?? 500}
        FOR UPDATE SKIP LOCKED`.execute(trx);
      if (rows.rows.length === 0) return 0;
      const messages: BusMessage[] = rows.rows.map((r) => ({
        id: r.event_id,
        subject: r.subject,
        data: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
      }));
      const ids = rows.rows.map((r) => r.id);
      const sent = await withTimeout(this.bus.publish(messages), this.opts.sendTimeoutMs ?? 10_000);
      if (!sent.ok) {
        await sql`UPDATE outbox SET attempts = attempts + 1, last_error = ${sent.error.message}
          WHERE id = ANY(${ids}::bigint[])`.execute(trx);
        this.opts.onError?.(sent.error);
        return 0;
      }
      await sql`UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL
        WHERE id = ANY(${ids}::bigint[])`.execute(trx);
      return ids.length;
    });
  }
}

async function withTimeout<T>(p: Promise<import('./errors.ts').Result<T>>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<import('./errors.ts').Result<T>>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, error: new Error(`bus publish timed out after ${ms} ms`), retryable: true }),
      ms,
    );
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
