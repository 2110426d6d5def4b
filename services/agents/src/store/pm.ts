import { sql } from 'kysely';
import type { CacheKind, WriteTool } from '../domain/pm-tools.ts';
import type { Db } from './db.ts';

/**
 * All SQL of the property-management tools: the shared cache of tool answers, the day counters of
 * the write tools and their first results (migration 0007).
 */

/** A cached answer fetched after `since`, with when it was fetched, or undefined. */
export async function cached<T>(
  db: Db,
  kind: CacheKind,
  key: string,
  since: Date,
): Promise<{ value: T; fetchedAt: Date } | undefined> {
  const row = await db
    .selectFrom('pm_cache')
    .select(['value', 'fetched_at'])
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('fetched_at', '>', since)
    .executeTakeFirst();
  return row && { value: row.value as T, fetchedAt: new Date(row.fetched_at) };
}

export async function storeCached(db: Db, kind: CacheKind, key: string, value: unknown, at: Date) {
  const json = JSON.stringify(value);
  await db
    .insertInto('pm_cache')
    .values({ kind, key, value: json, fetched_at: at })
    .onConflict((oc) => oc.columns(['kind', 'key']).doUpdateSet({ value: json, fetched_at: at }))
    .execute();
}

export interface DayKey {
  agentId: string;
  tool: WriteTool;
  /** The New York calendar day, YYYY-MM-DD. */
  day: string;
}

/** The day's first result for this subject, if there is one. */
export async function firstResult<T>(db: Db, k: DayKey, subject: string): Promise<T | undefined> {
  const row = await db
    .selectFrom('pm_tool_results')
    .select('result')
    .where('agent_id', '=', k.agentId)
    .where('tool', '=', k.tool)
    .where('day', '=', k.day)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.result as T | undefined;
}

/** How many calls of the tool did their work that day (a read without a lock: a fast refusal only). */
export async function callsOn(db: Db, k: DayKey): Promise<number> {
  const row = await db
    .selectFrom('pm_tool_days')
    .select('calls')
    .where('agent_id', '=', k.agentId)
    .where('tool', '=', k.tool)
    .where('day', '=', k.day)
    .executeTakeFirst();
  return row?.calls ?? 0;
}

/**
 * The day's counter row, created when absent, locked until the transaction ends: the day's calls
 * of this tool by this agent go one at a time from here, so the count read is the count.
 */
export async function lockDay(trx: Db, k: DayKey): Promise<number> {
  const r = await sql<{ calls: number }>`
    INSERT INTO pm_tool_days (agent_id, tool, day, calls) VALUES (${k.agentId}, ${k.tool}, ${k.day}, 0)
    ON CONFLICT (agent_id, tool, day) DO UPDATE SET calls = pm_tool_days.calls
    RETURNING calls`.execute(trx);
  return r.rows[0]?.calls ?? 0;
}

/** Counts the call and keeps its result as the day's first for the subject (under lockDay's lock). */
export async function recordResult(trx: Db, k: DayKey, subject: string, result: unknown, at: Date) {
  await trx
    .insertInto('pm_tool_results')
    .values({
      agent_id: k.agentId,
      tool: k.tool,
      day: k.day,
      subject,
      result: JSON.stringify(result),
      created_at: at,
    })
    .execute();
  await trx
    .updateTable('pm_tool_days')
    .set((eb) => ({ calls: eb('calls', '+', 1) }))
    .where('agent_id', '=', k.agentId)
    .where('tool', '=', k.tool)
    .where('day', '=', k.day)
    .execute();
}
