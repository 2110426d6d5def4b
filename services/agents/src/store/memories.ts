import { type Insertable, type Selectable, sql } from 'kysely';
import type { AgentMemories, Db } from './db.ts';

export type MemoryRow = Selectable<AgentMemories>;

export async function insertMemory(db: Db, row: Insertable<AgentMemories>): Promise<MemoryRow> {
  return db.insertInto('agent_memories').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Each word of q, anywhere in the content, any case (LIKE's wildcards escaped). */
const words = (q: string) =>
  q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);

/** A page of an agent's memories newest first, and how many match. */
export async function listMemories(
  db: Db,
  agentId: string,
  opts: { q?: string; tier?: string; page: number; pageSize: number },
): Promise<{ rows: MemoryRow[]; total: number }> {
  let base = db.selectFrom('agent_memories').where('agent_id', '=', agentId);
  if (opts.tier) base = base.where('tier', '=', opts.tier);
  for (const w of opts.q ? words(opts.q) : []) base = base.where('content', 'ilike', w);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function purgeMemories(db: Db, agentId: string): Promise<number> {
  const r = await db.deleteFrom('agent_memories').where('agent_id', '=', agentId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function setTier(db: Db, agentId: string, id: string, tier: string, now: Date) {
  return db
    .updateTable('agent_memories')
    .set({ tier, updated_at: now })
    .where('agent_id', '=', agentId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteMemory(db: Db, agentId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('agent_memories')
    .where('agent_id', '=', agentId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** The agent's memories among ids, locked until the command ends (a consolidation replaces them). */
export async function lockMemories(db: Db, agentId: string, ids: string[]): Promise<MemoryRow[]> {
  return db
    .selectFrom('agent_memories')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('id', 'in', ids)
    .forUpdate()
    .execute();
}

export async function deleteMemories(db: Db, agentId: string, ids: string[]): Promise<void> {
  await db.deleteFrom('agent_memories').where('agent_id', '=', agentId).where('id', 'in', ids).execute();
}

/** Recall marks: the count goes up by one and last_recalled_at is now, for those of ids the agent holds. */
export async function touchMemories(db: Db, agentId: string, ids: string[], now: Date): Promise<string[]> {
  const rows = await db
    .updateTable('agent_memories')
    .set({ recall_count: sql`recall_count + 1`, last_recalled_at: now })
    .where('agent_id', '=', agentId)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
