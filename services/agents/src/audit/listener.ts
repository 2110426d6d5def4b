import { type Bus, type EventEnvelope, subscribeEvents } from '@platform/kit';
import { recordAudit } from '../store/audit.ts';
import type { Db } from '../store/db.ts';

/** The durable name of the audit log's bus subscription (one per deployment: replicas share it). */
export const AUDIT_DURABLE = 'agents-audit';

/**
 * The outbox publisher's side of the audit log (startRuntime's onPublished): the rows of each batch
 * the bus accepted. A failure here is reported by the publisher; the bus listener writes the row.
 */
export const auditOnPublished = async (events: EventEnvelope[], db: Db) => {
  await recordAudit(db, events, 'publisher');
};

/**
 * The bus listener's side: every agents event as it arrives. The row is keyed by the event id, so an
 * event the publisher already recorded leaves it as it is (AGT-345); a failed write throws, and the
 * bus delivers the event again.
 */
export const startAuditListener = (bus: Bus, db: Db) =>
  subscribeEvents(bus, 'agents', AUDIT_DURABLE, async (event) => {
    await recordAudit(db, [event], 'listener');
  });
