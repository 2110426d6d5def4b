import type { Insertable, Selectable } from 'kysely';
import type { AgentRole } from '../domain/access.ts';
import type { Agents, Db } from './db.ts';

export type AgentRow = Selectable<Agents>;
export type NewAgent = Insertable<Agents>;

export async function findAgent(db: Db, id: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findAgentBySlug(db: Db, slug: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** The agent a command changes, locked until its transaction ends: one change at a time per agent. */
export async function lockAgent(db: Db, id: string): Promise<AgentRow | undefined> {
  return db.selectFrom('agents').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

/** The owner of an agent's top agent (for a top-level agent, its own). */
export async function topOwner(db: Db, agent: Pick<AgentRow, 'id' | 'top_id' | 'owner_fid'>): Promise<string> {
  if (agent.top_id === agent.id) return agent.owner_fid;
  const top = await db.selectFrom('agents').select('owner_fid').where('id', '=', agent.top_id).executeTakeFirst();
  return top?.owner_fid ?? agent.owner_fid;
}

/** A principal's editor or viewer membership of a top agent, or null. */
export async function memberRole(db: Db, topId: string, fid: string | null): Promise<AgentRole | null> {
  if (fid === null) return null;
  const row = await db
    .selectFrom('agent_members')
    .select('role')
    .where('agent_id', '=', topId)
    .where('principal_fid', '=', fid)
    .executeTakeFirst();
  return (row?.role as AgentRole | undefined) ?? null;
}

/** Whether another agent holds this slug. */
export async function slugTaken(db: Db, slug: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('agents').select('id').where('slug', '=', slug);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The first free slug of base, base-2, base-3… (a proposed slug never collides; AGT-013, AGT-014). */
export async function freeSlug(db: Db, base: string): Promise<string> {
  const rows = await db
    .selectFrom('agents')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const s = `${base.slice(0, 58)}-${n}`;
    if (!taken.has(s)) return s;
  }
}

export async function insertAgent(db: Db, row: NewAgent): Promise<void> {
  await db.insertInto('agents').values(row).execute();
}
