import type { Bus } from '@platform/kit';
import type { Db } from '../store/db.ts';
import { startAuditConsumers } from './audit.ts';
import { startKnowledgeConsumer } from './knowledge.ts';

/**
 * The workspace's own subscribers: audit on every domain, and the intelligence knowledge queue.
 * Started after the topology is declared (startRuntime); the returned stop ends both.
 */
export async function startConsumers(bus: Bus, db: Db, clock: () => Date = () => new Date()) {
  const stopAudit = await startAuditConsumers(bus, db, clock);
  const stopKnowledge = await startKnowledgeConsumer(bus, db, clock);
  return async () => {
    await stopAudit();
    await stopKnowledge();
  };
}
