import type { Selectable } from 'kysely';
import type { Db, ResearchCheckpoints } from './db.ts';

export type CheckpointRow = Selectable<ResearchCheckpoints>;

export async function readCheckpoint(db: Db, agentId: string): Promise<CheckpointRow | undefined> {
  return db.selectFrom('research_checkpoints').selectAll().where('agent_id', '=', agentId).executeTakeFirst();
}

/**
 * The write of version `expected` + 1, only if the stored version is still `expected` and the
 * position does not move back within the same scan: one conditional statement, so of two writers
 * on one version exactly one matches (the other waits on the row, then finds it changed). The
 * first write (expected 0) is an insert that a concurrent first write makes conflict.
 */
export async function advanceCheckpoint(
  db: Db,
  agentId: string,
  next: { scan_id: string; position: number; expected: number; at: Date },
): Promise<CheckpointRow | undefined> {
  if (next.expected === 0) {
    return db
      .insertInto('research_checkpoints')
      .values({ agent_id: agentId, scan_id: next.scan_id, position: next.position, version: 1, updated_at: next.at })
      .onConflict((oc) => oc.column('agent_id').doNothing())
      .returningAll()
      .executeTakeFirst();
  }
  return db
    .updateTable('research_checkpoints')
    .set({ scan_id: next.scan_id, position: next.position, version: next.expected + 1, updated_at: next.at })
    .where('agent_id', '=', agentId)
    .where('version', '=', next.expected)
    .where((eb) => eb.or([eb('scan_id', '<>', next.scan_id), eb('position', '<=', next.position)]))
    .returningAll()
    .executeTakeFirst();
}
