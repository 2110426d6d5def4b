import { isoOrThrow, type PageRequest } from '@platform/kit';
import { type Selectable, sql } from 'kysely';
import type { Checkin } from '../schemas/goals.ts';
import type { Db, GoalCheckins } from './db.ts';

const CHECKIN_COLUMNS = [
  'id',
  'goal_id',
  'project_id',
  'status_before',
  'status',
  'note',
  'author',
  'created_at',
] as const;

const toCheckin = (r: Pick<Selectable<GoalCheckins>, (typeof CHECKIN_COLUMNS)[number]>): Checkin => ({
  id: r.id,
  goal_id: r.goal_id,
  project_id: r.project_id,
  status_before: r.status_before as Checkin['status_before'],
  status: r.status as Checkin['status'],
  note: r.note,
  author: r.author,
  created_at: isoOrThrow(r.created_at),
});

export type NewCheckin = Omit<Checkin, 'created_at'>;

/** Check-ins are permanent: this is the only write; the database refuses UPDATE and DELETE. */
export async function insertCheckin(trx: Db, c: NewCheckin, now: Date): Promise<Checkin> {
  const row = await trx
    .insertInto('goal_checkins')
    .values({ ...c, created_at: now })
    .returning(CHECKIN_COLUMNS)
    .executeTakeFirstOrThrow();
  return toCheckin(row);
}

export async function hasCheckins(db: Db, goalId: string): Promise<boolean> {
  const row = await db
    .selectFrom('goal_checkins')
    .select('id')
    .where('goal_id', '=', goalId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A page of the goal's check-ins, newest first (created_at, then id, descending), and how many there are. */
export async function listCheckins(
  db: Db,
  goalId: string,
  page: PageRequest,
): Promise<{ items: Checkin[]; total: number }> {
  const rows = await db
    .selectFrom('goal_checkins')
    .select(CHECKIN_COLUMNS)
    .where('goal_id', '=', goalId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM goal_checkins WHERE goal_id = ${goalId}`.execute(db);
  return { items: rows.map(toCheckin), total: Number(total.rows[0]?.n ?? 0) };
}
