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

export interface MemberRow {
  principal_fid: string;
  role: 'editor' | 'viewer';
  added_at: Date;
}

/** A top agent's editors and viewers in the order they were added (AGT-118). */
export async function listMembers(db: Db, topId: string): Promise<MemberRow[]> {
  const rows = await db
    .selectFrom('agent_members')
    .select(['principal_fid', 'role', 'added_at'])
    .where('agent_id', '=', topId)
    .orderBy('seq')
    .execute();
  return rows as MemberRow[];
}

/** One principal's membership of a top agent, locked until the command's transaction ends. */
export async function lockMember(db: Db, topId: string, fid: string): Promise<MemberRow | undefined> {
  const row = await db
    .selectFrom('agent_members')
    .select(['principal_fid', 'role', 'added_at'])
    .where('agent_id', '=', topId)
    .where('principal_fid', '=', fid)
    .forUpdate()
    .executeTakeFirst();
  return row as MemberRow | undefined;
}

export async function addMember(db: Db, topId: string, fid: string, role: string, now: Date): Promise<void> {
  await db.insertInto('agent_members').values({ agent_id: topId, principal_fid: fid, role, added_at: now }).execute();
}

/** A new role keeps the member's place in the added order. */
export async function setMemberRole(db: Db, topId: string, fid: string, role: string): Promise<void> {
  await db
    .updateTable('agent_members')
    .set({ role })
    .where('agent_id', '=', topId)
    .where('principal_fid', '=', fid)
    .execute();
}

export async function removeMember(db: Db, topId: string, fid: string): Promise<void> {
  await db.deleteFrom('agent_members').where('agent_id', '=', topId).where('principal_fid', '=', fid).execute();
}
