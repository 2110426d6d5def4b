import { type Bus, type BusMessage, consumerName, type EventEnvelope } from '@platform/kit';
import { AUDITED_DOMAINS, WORKSPACE_TOPOLOGY } from '../bus-topology.ts';
import { auditEntry } from '../domain/audit.ts';
import { insertAuditRow } from '../store/audit.ts';
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
  return insertAuditRow(db, auditEntry(e, domain), now);
}

/**
 * The `audit` subscriber of every workspace domain (consumer `<domain>_audit`): one subscription
 * per topic, core subjects only (personal data never reaches the audit log). Returns the stop.
 */
export async function startAuditConsumers(bus: Bus, db: Db, clock: () => Date = () => new Date()) {
  const stops: (() => Promise<void>)[] = [];
  for (const domain of AUDITED_DOMAINS) {
    stops.push(
      await bus.subscribe(`${WORKSPACE_TOPOLOGY.service}.${domain}.>`, consumerName(domain, 'audit'), async (m) => {
        await auditMessage(db, m, domain, clock());
      }),
    );
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
