import { sql } from 'kysely';
import type { Db } from './db.ts';

/** goal-checkin-chat's reads and its windows (issue 19). */

export interface ChatCandidate {
  goal_id: string;
  title: string;
  project_id: string;
  project_name: string;
  lead: string;
  weekday: number;
  created_at: Date;
  last_checkin_at: Date | null;
  /** Whether the lead is a member of the project. */
  lead_is_member: boolean;
}

/** Open goals on active projects, with what their check-in state is computed from. */
export async function openGoalsOnActiveProjects(db: Db): Promise<ChatCandidate[]> {
  const rows = await db
    .selectFrom('goals as g')
    .innerJoin('projects as p', 'p.id', 'g.project_id')
    .leftJoin('project_members as m', (j) =>
      j.onRef('m.project_id', '=', 'g.project_id').onRef('m.principal_id', '=', 'g.lead'),
    )
    .select([
      'g.id as goal_id',
      'g.title',
      'g.project_id',
      'p.name as project_name',
      'g.lead',
      'p.checkin_weekday as weekday',
      'g.created_at',
      sql<Date | null>`(SELECT max(c.created_at) FROM goal_checkins c WHERE c.goal_id = g.id)`.as('last_checkin_at'),
      sql<boolean>`(m.principal_id IS NOT NULL)`.as('lead_is_member'),
    ])
    .where('p.status', '=', 'active')
    .where('g.status', 'in', ['on_track', 'at_risk', 'off_track'])
    .orderBy('g.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    weekday: Number(r.weekday),
    created_at: new Date(r.created_at),
    last_checkin_at: r.last_checkin_at === null ? null : new Date(r.last_checkin_at),
  }));
}

export async function windowRecorded(db: Db, goalId: string, state: string, day: string): Promise<boolean> {
  const r = await db
    .selectFrom('goal_checkin_messages')
    .select('goal_id')
    .where('goal_id', '=', goalId)
    .where('state', '=', state)
    .where('checkin_day', '=', day)
    .executeTakeFirst();
  return r !== undefined;
}

/** Records the window after the send (a concurrent run that also sent keeps the first row). */
export async function recordWindow(
  db: Db,
  w: {
    goal_id: string;
    state: 'due' | 'overdue';
    checkin_day: string;
    project_id: string;
    lead: string;
    chat_user: string;
    chat_channel: string;
    chat_ts: string;
  },
  now: Date,
) {
  await db
    .insertInto('goal_checkin_messages')
    .values({ ...w, sent_at: now })
    .onConflict((oc) => oc.columns(['goal_id', 'state', 'checkin_day']).doNothing())
    .execute();
}

export async function goalWindows(db: Db, goalId: string) {
  return db
    .selectFrom('goal_checkin_messages')
    .select(['state', sql<string>`to_char(checkin_day, 'YYYY-MM-DD')`.as('checkin_day'), 'sent_at'])
    .where('goal_id', '=', goalId)
    .orderBy('sent_at')
    .execute();
}
