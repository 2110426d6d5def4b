import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Bus, BusMessage } from './bus/bus.ts';
import { publicSubject, restrictedSubject } from './bus/bus.ts';
import { type Db, type KitTables, kitTables } from './db/database.ts';
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
export async function emit<DB extends KitTables>(
  trx: Db<DB>,
  service: string,
  events: EventInput[],
  now = new Date(),
): Promise<void> {
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
  await kitTables(trx).insertInto('outbox').values(rows).execute();
}

export interface OutboxPublisherOptions {
  pollMs: number;
  batch?: number;
  onError?: (e: Error) => void;
  /** A send not finished within this fails and is retried at the next poll (default 10 s). */
  sendTimeoutMs?: number;
  /**
   * How long a claim keeps other publishers off its rows (default 60 s). Longer than the send
   * timeout, so a live publisher's rows are taken over only when it died or stalled.
   */
  leaseMs?: number;
  /** The publisher's clock for leases and published_at; tests move it instead of sleeping. */
  clock?: () => Date;
  /**
   * Runs after each batch the bus accepted, with the events sent, restricted ones included (e.g. a
   * service's audit log). Its failure goes to onError and holds nothing back: the events count as
   * published, so a consumer that must see every event also subscribes on the bus.
   */
  onPublished?: (events: EventEnvelope[]) => Promise<void> | void;
}

/** One row a publisher claimed, as it goes onto the bus. */
interface ClaimedRow {
  id: number;
  event_id: string;
  subject: string;
  payload: unknown;
}

/**
 * Drains the outbox to the bus. Each batch is claimed with a lease in one short statement (FOR
 * UPDATE SKIP LOCKED, so replicas share the work), published with no transaction open, then
 * marked published if the claim still holds. A slow or dead bus therefore holds no locks; a
 * failed send releases the claim for the next poll; the rows of a publisher that died are taken
 * over when its lease ends (delivery is at least once; the bus drops duplicate event ids).
 */
export class OutboxPublisher<DB extends KitTables = KitTables> {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running: Promise<number> | undefined;
  private readonly clock: () => Date;
  constructor(
    private readonly db: Db<DB>,
    private readonly bus: Bus,
    private readonly opts: OutboxPublisherOptions,
  ) {
    this.clock = opts.clock ?? (() => new Date());
  }

  start() {
    this.stopped = false;
    const tick = async () => {
      await this.drain().catch((e) => this.opts.onError?.(e));
      // stop() may have come while this tick ran: then it must not schedule another.
      if (this.stopped) return;
      this.timer = setTimeout(tick, this.opts.pollMs);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Publish until the outbox has nothing claimable or a send fails; returns how many events went out. */
  async drain(): Promise<number> {
    if (this.running) return this.running;
    this.running = (async () => {
      let total = 0;
      for (;;) {
        const batch = await this.drainBatch();
        total += batch.published;
        if (batch.claimed === 0 || !batch.sent) return total;
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drainBatch(): Promise<{ claimed: number; published: number; sent: boolean }> {
    const token = randomUUID();
    const rows = await claimRows(this.db, token, this.clock(), this.opts.leaseMs ?? 60_000, this.opts.batch ?? 500);
    if (rows.length === 0) return { claimed: 0, published: 0, sent: true };
    const messages: BusMessage[] = rows.map((r) => ({
      id: r.event_id,
      subject: r.subject,
      data: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
    }));
    const ids = rows.map((r) => r.id);
    const sent = await withTimeout(this.bus.publish(messages), this.opts.sendTimeoutMs ?? 10_000);
    if (!sent.ok) {
      await releaseRows(this.db, token, ids, sent.error.message);
      this.opts.onError?.(sent.error);
      return { claimed: rows.length, published: 0, sent: false };
    }
    const published = await markPublished(this.db, token, ids, this.clock());
    if (this.opts.onPublished) {
      try {
        await this.opts.onPublished(messages.map((m) => m.data as EventEnvelope));
      } catch (e) {
        this.opts.onError?.(e as Error);
      }
    }
    return { claimed: rows.length, published, sent: true };
  }
}

/**
 * Claims up to `batch` unsent rows whose claim is absent or lapsed, oldest first. One statement,
 * so its row locks last only as long as it runs.
 */
async function claimRows<DB extends KitTables>(db: Db<DB>, token: string, now: Date, leaseMs: number, batch: number) {
  const until = new Date(now.getTime() + leaseMs);
  const claimed = await sql<ClaimedRow>`
    UPDATE outbox SET claimed_until = ${until}, claim_token = ${token}
    WHERE id IN (
      SELECT id FROM outbox
      WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < ${now})
      ORDER BY id LIMIT ${batch}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, event_id, subject, payload`.execute(db);
  // RETURNING has no order; the bus gets each topic's events in the order they were written.
  return claimed.rows.sort((a, b) => a.id - b.id);
}

/** Marks sent the rows this claim still holds (another publisher may have taken them over). */
async function markPublished<DB extends KitTables>(
  db: Db<DB>,
  token: string,
  ids: number[],
  now: Date,
): Promise<number> {
  const marked = await sql<{ id: number }>`
    UPDATE outbox SET published_at = ${now}, claimed_until = NULL, claim_token = NULL,
      attempts = attempts + 1, last_error = NULL
    WHERE id = ANY(${ids}::bigint[]) AND claim_token = ${token}
    RETURNING id`.execute(db);
  return marked.rows.length;
}

/** Records a failed send and gives the rows back for the next poll rather than waiting out the lease. */
async function releaseRows<DB extends KitTables>(db: Db<DB>, token: string, ids: number[], error: string) {
  await sql`
    UPDATE outbox SET claimed_until = NULL, claim_token = NULL, attempts = attempts + 1, last_error = ${error}
    WHERE id = ANY(${ids}::bigint[]) AND claim_token = ${token}`.execute(db);
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
