import { type Bus, type BusMessage, consumerName, type EventEnvelope } from '@platform/kit';
import { AUDITED_DOMAINS, WORKSPACE_TOPOLOGY } from '../bus-topology.ts';
import { type AuditEntry, auditEntry as entryOf } from '../domain/audit.ts';
import { insertAuditRow, insertAuditRows } from '../store/audit.ts';
import type { Db } from '../store/db.ts';

/**
 * Writes the audit row of one event read from `domain`'s topic. It runs while the message is
 * locked and the message is acknowledged only after it returns, so redaction, deletion and
 * knowledge-off events are recorded at once; a redelivery (same event id) writes no second row.
 */
export async function auditMessage(db: Db, m: BusMessage, domain: string, now: Date): Promise<boolean> {
  const e = m.data as EventEnvelope;
  if (!e || typeof e.id !== 'string' || typeof e.type !== 'string') {
    throw new Error(`audit: ${m.subject} is not an event envelope`);
  }
  return insertAuditRow(db, entryOf(e, domain), now);
}

/** Messages an audit consumer holds at once: their rows go in one insert (AUDIT_BATCH at most). */
export const AUDIT_CONCURRENCY = 256;
const AUDIT_BATCH = 200;

/**
 * Gathers the audit rows of the messages a consumer holds and writes them in one statement: each
 * handler call resolves when the insert holding its row has committed (so its message is
 * acknowledged only then) and rejects when it failed (the message is redelivered).
 */
class AuditWriter {
  private pending: { entry: AuditEntry; done: (e?: Error) => void }[] = [];
  private scheduled = false;
  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
  ) {}

  write(entry: AuditEntry): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ entry, done: (e) => (e ? reject(e) : resolve()) });
      if (this.pending.length >= AUDIT_BATCH) void this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush() {
    this.scheduled = false;
    const batch = this.pending.splice(0, AUDIT_BATCH);
    if (batch.length === 0) return;
    if (this.pending.length && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    try {
      await insertAuditRows(
        this.db,
        // One row per event id, even when a redelivery lands in the same batch.
        [...new Map(batch.map((b) => [b.entry.event_id, b.entry])).values()],
        this.clock(),
      );
      for (const b of batch) b.done();
    } catch (e) {
      for (const b of batch) b.done(e as Error);
    }
  }
}

/**
 * The `audit` subscriber of every workspace domain (consumer `<domain>_audit`): one subscription
 * per topic, core subjects only (personal data never reaches the audit log). A message is
 * acknowledged once its row is committed (rows of messages held together go in one insert).
 * Returns the stop.
 */
export async function startAuditConsumers(bus: Bus, db: Db, clock: () => Date = () => new Date()) {
  const writer = new AuditWriter(db, clock);
  const stops: (() => Promise<void>)[] = [];
  for (const domain of AUDITED_DOMAINS) {
    stops.push(
      await bus.subscribe(
        `${WORKSPACE_TOPOLOGY.service}.${domain}.>`,
        consumerName(domain, 'audit'),
        async (m) => {
          const e = m.data as EventEnvelope;
          if (!e || typeof e.id !== 'string' || typeof e.type !== 'string') {
            throw new Error(`audit: ${m.subject} is not an event envelope`);
          }
          await writer.write(entryOf(e, domain));
        },
        { concurrency: AUDIT_CONCURRENCY },
      ),
    );
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
