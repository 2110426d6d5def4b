import type { Db } from './db.ts';

/** Copies a top agent's editors and viewers, in their order, to a new agent (AGT-103). */
export async function copyMembers(db: Db, fromTopId: string, toId: string, now: Date): Promise<void> {
  const rows = await db
    .selectFrom('agent_members')
    .select(['principal_fid', 'role'])
    .where('agent_id', '=', fromTopId)
    .orderBy('seq')
    .execute();
  if (rows.length === 0) return;
  await db
    .insertInto('agent_members')
    .values(rows.map((r) => ({ agent_id: toId, principal_fid: r.principal_fid, role: r.role, added_at: now })))
    .execute();
}
