import { uuidv7 } from '@platform/kit';
import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * Notices the internal jobs send (issue 19): each under a key naming the notice and its day or
 * window (job_notices' primary key), so a repeat, or two runs racing, write it once. The in-app
 * notification is written in the same transaction as the key, only by the run that claimed it.
 */

/** Claims the notice's key; false when it was already sent (this run or another). */
export async function claimNotice(
  trx: Db,
  n: { key: string; job: string; recipient: string; subject_id: string | null; sent_on: string },
  now: Date,
): Promise<boolean> {
  const row = await trx
    .insertInto('job_notices')
    .values({
      notice_key: n.key,
      job: n.job,
      recipient: n.recipient,
      subject_id: n.subject_id,
      sent_on: n.sent_on,
      created_at: now,
    })
    .onConflict((oc) => oc.column('notice_key').doNothing())
    .returning('notice_key')
    .executeTakeFirst();
  return row !== undefined;
}

/** An in-app notification of a job: ids (and a count), never the text of what it is about. */
export async function insertJobNotification(
  trx: Db,
  n: { recipient: string; kind: string; project_id: string | null; subject_id: string | null; count?: number },
  now: Date,
) {
  await trx
    .insertInto('notifications')
    .values({ id: uuidv7(now.getTime()), actor: null, count: null, ...n, created_at: now })
    .execute();
}

/** Open unblock requests due on one of `days` (YYYY-MM-DD), not snoozed at `now`: the reminder candidates. */
export async function unblockRequestsDueOn(db: Db, days: readonly string[], now: Date) {
  return db
    .selectFrom('unblock_requests')
    .select(['id', 'project_id', 'recipient', sql<string>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on')])
    .where('status', '=', 'open')
    .where('due_on', 'in', [...days])
    .where((eb) => eb.or([eb('snoozed_until', 'is', null), eb('snoozed_until', '<=', now)]))
    .orderBy('id')
    .execute();
}

/** People with at least one card on their short queue (open requests to them, not snoozed). */
export async function shortQueueHolders(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('unblock_requests')
    .select('recipient')
    .distinct()
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb('snoozed_until', 'is', null), eb('snoozed_until', '<=', now)]))
    .orderBy('recipient')
    .execute();
  return rows.map((r) => r.recipient);
}

/** The request reread and locked at send time: its status, due day, recipient and snooze. */
export async function lockRequestForNotice(trx: Db, id: string) {
  return trx
    .selectFrom('unblock_requests')
    .select([
      'id',
      'project_id',
      'recipient',
      'status',
      'snoozed_until',
      sql<string | null>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on'),
    ])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** How many cards are on the person's short queue at `now`. */
export async function shortQueueCount(trx: Db, recipient: string, now: Date): Promise<number> {
  const r = await trx
    .selectFrom('unblock_requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('recipient', '=', recipient)
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb('snoozed_until', 'is', null), eb('snoozed_until', '<=', now)]))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
