import { uuidv7 } from '@platform/kit';
import type { Selectable } from 'kysely';
import type { Db, MeetingBotOccurrences } from './db.ts';

/** Meeting-bot occurrences (migration 0016): one Kubernetes Job each, run one after another per series. */

export type OccurrenceState = 'scheduled' | 'created' | 'succeeded' | 'failed';

export interface Occurrence {
  id: string;
  series_id: string;
  occurrence_ref: string;
  starts_at: Date;
  meeting_url: string;
  job_name: string;
  state: OccurrenceState;
  suspended: boolean | null;
  unsuspended_at: Date | null;
  finished_at: Date | null;
  failure_reason: string | null;
}

const toOccurrence = (r: Selectable<MeetingBotOccurrences>): Occurrence => ({
  id: r.id,
  series_id: r.series_id,
  occurrence_ref: r.occurrence_ref,
  starts_at: new Date(r.starts_at),
  meeting_url: r.meeting_url,
  job_name: r.job_name,
  state: r.state as OccurrenceState,
  suspended: r.suspended,
  unsuspended_at: r.unsuspended_at === null ? null : new Date(r.unsuspended_at),
  finished_at: r.finished_at === null ? null : new Date(r.finished_at),
  failure_reason: r.failure_reason,
});

export interface NewOccurrence {
  seriesId: string;
  occurrenceRef: string;
  startsAt: Date;
  meetingUrl: string;
  jobName: string;
}

/** Records an occurrence to run; the same series and reference again returns the stored one. */
export async function insertOccurrence(db: Db, o: NewOccurrence, now: Date): Promise<Occurrence> {
  await db
    .insertInto('meeting_bot_occurrences')
    .values({
      id: uuidv7(now.getTime()),
      series_id: o.seriesId,
      occurrence_ref: o.occurrenceRef,
      starts_at: o.startsAt,
      meeting_url: o.meetingUrl,
      job_name: o.jobName,
      created_at: now,
      updated_at: now,
    })
    .onConflict((c) => c.columns(['series_id', 'occurrence_ref']).doNothing())
    .execute();
  const row = await db
    .selectFrom('meeting_bot_occurrences')
    .selectAll()
    .where('series_id', '=', o.seriesId)
    .where('occurrence_ref', '=', o.occurrenceRef)
    .executeTakeFirstOrThrow();
  return toOccurrence(row);
}

/** Every unfinished occurrence, by series and start (the order the reconciler runs them in). */
export async function openOccurrences(db: Db): Promise<Occurrence[]> {
  const rows = await db
    .selectFrom('meeting_bot_occurrences')
    .selectAll()
    .where('state', 'in', ['scheduled', 'created'])
    .orderBy('series_id')
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  return rows.map(toOccurrence);
}

export async function updateOccurrence(
  db: Db,
  id: string,
  set: Partial<Pick<Occurrence, 'state' | 'suspended' | 'unsuspended_at' | 'finished_at' | 'failure_reason'>>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('meeting_bot_occurrences')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function findOccurrence(db: Db, id: string): Promise<Occurrence | undefined> {
  const row = await db.selectFrom('meeting_bot_occurrences').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toOccurrence(row) : undefined;
}
