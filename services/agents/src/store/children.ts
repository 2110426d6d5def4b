import type { PageRequest } from '@platform/kit';
import type { AgentRow } from './agents.ts';
import type { Db } from './db.ts';

/** The agents an agent spawned (its direct children), archived ones included, newest first (AGT-113..AGT-115). */
export async function listChildren(
  db: Db,
  parentId: string,
  page: PageRequest,
): Promise<{ items: AgentRow[]; total: number }> {
  const base = db.selectFrom('agents').where('parent_id', '=', parentId);
  const [items, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

/**
 * Every member of a swarm, locked until the transaction ends, in id order (two dismissals of
 * one swarm take the locks in the same order and the second sees the first's result).
 */
export async function lockSwarm(db: Db, swarmId: string): Promise<AgentRow[]> {
  return db.selectFrom('agents').selectAll().where('swarm_id', '=', swarmId).orderBy('id').forNoKeyUpdate().execute();
}
