import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Bus, BusMessage } from './bus/bus.ts';
import { publicSubject, restrictedSubject } from './bus/bus.ts';
import { type Db, type KitTables, kitTables } from './db/database.ts';
import { fail } from './errors.ts';
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
   * Batches on the bus at once, awaiting its answers (default 4). They go out in order on one
   * connection; a failed one is resent at the next poll, after those sent behind it.
   */
  inFlight?: number;
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
  /** How often an operator republished the row (0: never). */
  republished: number;
}

/**
 * The bus message id of an outbox row: its event id, and for a row an operator republished the
 * count appended, so the bus does not drop it as the duplicate of its first publish (the
 * envelope inside keeps the event id).
 */
export const outboxMessageId = (row: { event_id: string; republished?: number | null }): string =>
  row.republished ? `${row.event_id}.r${row.republished}` : row.event_id;

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
  /** Set while stop() waits for a running drain: that drain claims no more batches. */
  private cutShort = false;
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
    // The drain under way ends after the batches it has on the bus; a drain called after stop()
    // (a last one at shutdown) runs whole.
    this.cutShort = this.running !== undefined;
    try {
      await this.running;
    } finally {
      this.cutShort = false;
    }
  }

  /**
   * Publish until the outbox has nothing claimable or a send fails; returns how many events went
   * out. Batches go onto the bus in the order they were claimed, on one connection, so each
   * topic's events keep their order; up to `inFlight` sends travel at once (a send does not wait
   * for the bus's answers to the one before), and the database work overlaps them: the next batch
   * is claimed while others travel, and sent batches are marked, in order, as their answers come.
   */
  async drain(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.pipeline().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pipeline(): Promise<number> {
    let total = 0;
    let stopped = false;
    let markError: unknown;
    let marking: Promise<void> = Promise.resolve();
    const travelling = new Set<Promise<void>>();
    const asked = this.opts.inFlight;
    const window = asked !== undefined && Number.isInteger(asked) && asked >= 1 ? asked : 4;
    let claiming = settledLater(this.claim());
    let claimedAhead = false;
    /**
     * One batch onto the bus; its mark (or release) follows, marks in the order of the sends. A
     * batch the bus took is marked even when an earlier batch's mark failed (it was delivered), so
     * only the batch whose mark failed waits out its lease.
     */
    const send = (batch: Batch, previous: Promise<void>) =>
      (async () => {
        const sent = await withTimeout(
          this.bus.publish(batch.messages).catch((e: Error) => fail(e, true)),
          this.opts.sendTimeoutMs ?? 10_000,
        );
        await previous.catch(() => undefined);
        if (!sent.ok) {
          stopped = true;
          // The claim goes back at once (not at its lease's end), so the next poll resends in order.
          await releaseRows(this.db, batch.token, batch.ids, sent.error.message);
          this.opts.onError?.(sent.error);
          return;
        }
        total += await markPublished(this.db, batch.token, batch.ids, this.clock());
        await this.published(batch.messages);
      })().catch((e) => {
        // A mark that failed stops the drain as a synchronous one would: nothing more is sent,
        // and drain rejects with it even when later batches were marked.
        stopped = true;
        markError ??= e;
        throw e;
      });
    try {
      for (;;) {
        let batch = await claiming;
        claiming = settledLater(Promise.resolve(NO_BATCH));
        // A claim made ahead ran before the sends it overlapped ended: rows written since then are
        // looked for once more before the drain counts the outbox empty.
        if (batch.rows.length === 0 && claimedAhead && !stopped && !this.cutShort) {
          await Promise.allSettled(travelling);
          if (!stopped && !this.cutShort) batch = await this.claim();
        }
        claimedAhead = false;
        // stop() ends the drain it finds running here too (the rest waits in the outbox), so a
        // shutdown under a steady stream of commands does not wait for the outbox to empty.
        if (batch.rows.length === 0 || stopped || this.cutShort) {
          if (batch.rows.length) await unclaimRows(this.db, batch.token, batch.ids);
          break;
        }
        claiming = settledLater(this.claim());
        claimedAhead = true;
        marking = settledLater(send(batch, marking));
        const done = marking.then(
          () => undefined,
          () => undefined,
        );
        travelling.add(done);
        void done.then(() => travelling.delete(done));
        if (travelling.size >= window) await Promise.race(travelling);
      }
    } finally {
      // However the loop ended: a batch claimed ahead and not sent goes back at once, and the
      // sends under way are answered and marked (or have failed) before drain answers.
      const ahead = await claiming.catch(() => NO_BATCH);
      if (ahead.rows.length) await unclaimRows(this.db, ahead.token, ahead.ids);
      await Promise.allSettled(travelling);
      await marking;
    }
    if (markError !== undefined) throw markError;
    return total;
  }

  private async claim(): Promise<Batch> {
    const token = randomUUID();
    const rows = await claimRows(this.db, token, this.clock(), this.opts.leaseMs ?? 60_000, this.opts.batch ?? 500);
    return {
      token,
      ids: rows.map((r) => r.id),
      rows,
      messages: rows.map((r) => ({
        id: outboxMessageId(r),
        subject: r.subject,
        data: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
      })),
    };
  }

  private async published(messages: BusMessage[]) {
    if (!this.opts.onPublished) return;
    try {
      await this.opts.onPublished(messages.map((m) => m.data as EventEnvelope));
    } catch (e) {
      this.opts.onError?.(e as Error);
    }
  }
}

interface Batch {
  token: string;
  ids: number[];
  rows: ClaimedRow[];
  messages: BusMessage[];
}

const NO_BATCH: Batch = { token: '', ids: [], rows: [], messages: [] };

/** A promise awaited later: its rejection is handled where it is awaited, not reported at once. */
function settledLater<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
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
    RETURNING id, event_id, subject, payload, republished`.execute(db);
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

/** Gives back a claim that was never sent: no attempt is counted and no error recorded. */
async function unclaimRows<DB extends KitTables>(db: Db<DB>, token: string, ids: number[]) {
  await sql`
    UPDATE outbox SET claimed_until = NULL, claim_token = NULL
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
