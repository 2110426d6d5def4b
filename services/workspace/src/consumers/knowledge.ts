import { type Bus, type BusMessage, consumerName, type EventEnvelope } from '@platform/kit';
import { KNOWLEDGE_QUEUE } from '../bus-topology.ts';
import { auditEntry } from '../domain/audit.ts';
import { evidenceKnowledgeState, insertAuditRow } from '../store/audit.ts';
import type { Db } from '../store/db.ts';

export type KnowledgeOutcome = 'recorded' | 'ignored_gone' | 'ignored_withdrawn' | 'duplicate';

/**
 * Handles one message of the intelligence service's knowledge queue (`intelligence.knowledge.*`:
 * what its knowledge layer derived or withdrew about workspace records; see
 * docs/intelligence-contract.md). The workspace records it in its audit log (domain knowledge),
 * one row per message id. A message naming evidence that is deleted or withdrawn from knowledge is
 * recorded as ignored, so nothing derived from it is taken up after the withdrawal. All of it runs
 * before the message is acknowledged (while its lock is held).
 */
export async function handleKnowledgeMessage(db: Db, m: BusMessage, now: Date): Promise<KnowledgeOutcome> {
  const e = m.data as EventEnvelope;
  if (!e || typeof e.id !== 'string' || typeof e.type !== 'string') {
    throw new Error(`knowledge queue: ${m.subject} is not an event envelope`);
  }
  const data = (e.data && typeof e.data === 'object' ? e.data : {}) as Record<string, unknown>;
  const evidenceId = typeof data.evidenceId === 'string' ? data.evidenceId : undefined;
  const state =
    evidenceId && /^[0-9a-f-]{36}$/i.test(evidenceId) ? await evidenceKnowledgeState(db, evidenceId) : 'open';
  const entry = auditEntry(e, KNOWLEDGE_QUEUE.domain);
  const outcome: KnowledgeOutcome =
    state === 'gone' ? 'ignored_gone' : state === 'withdrawn' ? 'ignored_withdrawn' : 'recorded';
  if (outcome === 'ignored_gone') entry.summary += ' (ignored: the record was deleted)';
  if (outcome === 'ignored_withdrawn') entry.summary += ' (ignored: the record is withdrawn from knowledge)';
  const written = await insertAuditRow(db, entry, now);
  return written ? outcome : 'duplicate';
}

/** Reads the knowledge queue (consumer `knowledge_workspace`). Returns the stop. */
export async function startKnowledgeConsumer(
  bus: Bus,
  db: Db,
  clock: () => Date = () => new Date(),
  onHandled?: (m: BusMessage, outcome: KnowledgeOutcome) => void,
) {
  return bus.subscribe(
    `${KNOWLEDGE_QUEUE.service}.${KNOWLEDGE_QUEUE.domain}.>`,
    consumerName(KNOWLEDGE_QUEUE.domain, KNOWLEDGE_QUEUE.subscriber),
    async (m) => {
      // Handled first: an optional call would skip evaluating its arguments.
      const outcome = await handleKnowledgeMessage(db, m, clock());
      onHandled?.(m, outcome);
    },
  );
}
