import type { Insertable, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { AgentInbox, Db } from './db.ts';

export type InboxRow = Selectable<AgentInbox>;

/**
 * Queues a wake unless the same one is already there: a wake with the same wake_key (ever), or
 * without a key one of the same reason still waiting. Concurrent inserts of one wake meet on the
 * unique indexes: one row goes in, the others insert nothing (ON CONFLICT DO NOTHING waits for
 * the first to commit). Returns the row and whether this call inserted it.
 */
export async function queueWake(db: Db, row: Insertable<AgentInbox>): Promise<{ item: InboxRow; queued: boolean }> {
  // Two tries: the waiting wake we collided with may be drained between the insert and the read.
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await db
      .insertInto('agent_inbox')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { item: inserted, queued: true };
    const existing = await sameWake(db, row);
    if (existing) return { item: existing, queued: false };
  }
  throw new Error('A wake collided with another that then vanished twice');
}

function sameWake(db: Db, row: Insertable<AgentInbox>) {
  let q = db.selectFrom('agent_inbox').selectAll().where('agent_id', '=', row.agent_id);
  q =
    row.wake_key != null
      ? q.where('wake_key', '=', row.wake_key)
      : q.where('reason', '=', row.reason).where('wake_key', 'is', null).where('drained_at', 'is', null);
  return q.executeTakeFirst();
}

/**
 * The drain's claim: hands out the agent's oldest waiting wakes and marks them drained, in one
 * statement. FOR UPDATE SKIP LOCKED lets two drains run at once without ever sharing an item: a
 * row one claims is skipped by the other, and a row already drained no longer matches.
 */
export async function drainInbox(db: Db, agentId: string, limit: number, now: Date): Promise<InboxRow[]> {
  const r = await sql<InboxRow>`
    UPDATE agent_inbox SET drained_at = ${now}
    WHERE id IN (
      SELECT id FROM agent_inbox
      WHERE agent_id = ${agentId} AND drained_at IS NULL
      ORDER BY seq
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return [...r.rows].sort((a, b) => Number(a.seq) - Number(b.seq));
}

export async function findInboxItem(db: Db, agentId: string, id: string): Promise<InboxRow | undefined> {
  return db
    .selectFrom('agent_inbox')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** An inbox row as the routes show it. */
export const inboxView = (r: InboxRow) => ({
  id: r.id,
  agent_id: r.agent_id,
  reason: r.reason as 'comms' | 'dream' | 'harvest' | 'manual',
  ref: r.ref,
  queued_at: new Date(r.queued_at).toISOString(),
  drained_at: r.drained_at === null ? null : new Date(r.drained_at).toISOString(),
});
