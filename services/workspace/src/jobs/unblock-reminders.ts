import { addDays, nyDate } from '../domain/checkin-schedule.ts';
import type { RouteDeps } from '../routes/deps.ts';
import {
  claimNotice,
  insertJobNotification,
  lockRequestForNotice,
  shortQueueCount,
  shortQueueHolders,
  unblockRequestsDueOn,
} from '../store/job-notices.ts';

export const UNBLOCK_REMINDER_JOB = 'unblock-reminders';
/** The windows a due request is reminded in: the day before it is due, and the day itself. */
export type ReminderWindow = 'due_tomorrow' | 'due_today';
export const NOTICE_KINDS = {
  due_today: 'unblock.due_today',
  due_tomorrow: 'unblock.due_tomorrow',
  daily_count: 'unblock.daily_count',
} as const;

export interface UnblockRemindersResult {
  /** The calendar day of the run (New York). */
  day: string;
  /** Due notices written by this run. */
  reminders: number;
  /** Daily count notices written by this run. */
  counts: number;
  /** Candidates left alone: already sent (a repeat, or a concurrent run), or no longer open at send time. */
  skipped: number;
}

/** A test's look between reading the candidates and sending (to change a request under the run). */
export type BeforeSend = (candidateIds: readonly string[]) => Promise<void>;

/**
 * POST /internal/jobs/unblock-reminders (WS-482…WS-486), once a day:
 * - one in-app notice to the recipient per open request due today or tomorrow (New York calendar,
 *   DECISIONS item 7), per window: the day before (unblock.due_tomorrow) and the day (unblock.due_today);
 * - one count notice a day per person with a card on their short queue (their open requests, not
 *   snoozed): unblock.daily_count with the number;
 * - each request is reread and locked in the notice's transaction: resolved, withdrawn, superseded
 *   (or answered, or snoozed, or no longer due then) sends nothing;
 * - every notice is claimed under its key (request, window and due day; person and day) in the same
 *   transaction: a repeat the same day, or a concurrent run, sends nothing new;
 * - notices carry ids (request, project) and a count, never the question.
 */
export async function unblockReminders(deps: RouteDeps, beforeSend?: BeforeSend): Promise<UnblockRemindersResult> {
  const now = deps.clock();
  const today = nyDate(now);
  const tomorrow = addDays(today, 1);
  const db = deps.database.db;
  const result: UnblockRemindersResult = { day: today, reminders: 0, counts: 0, skipped: 0 };

  const due = await unblockRequestsDueOn(db, [today, tomorrow], now);
  const holders = await shortQueueHolders(db, now);
  await beforeSend?.(due.map((r) => r.id));

  for (const candidate of due) {
    const sent = await db.transaction().execute(async (trx) => {
      const r = await lockRequestForNotice(trx, candidate.id);
      if (r?.status !== 'open' || r.due_on === null) return false;
      if (r.snoozed_until !== null && new Date(r.snoozed_until).getTime() > now.getTime()) return false;
      const window: ReminderWindow | null =
        r.due_on === today ? 'due_today' : r.due_on === tomorrow ? 'due_tomorrow' : null;
      if (!window) return false;
      const claimed = await claimNotice(
        trx,
        {
          key: `unblock:${r.id}:${window}:${r.due_on}`,
          job: UNBLOCK_REMINDER_JOB,
          recipient: r.recipient,
          subject_id: r.id,
          sent_on: today,
        },
        now,
      );
      if (!claimed) return false;
      await insertJobNotification(
        trx,
        { recipient: r.recipient, kind: NOTICE_KINDS[window], project_id: r.project_id, subject_id: r.id },
        now,
      );
      return true;
    });
    if (sent) result.reminders += 1;
    else result.skipped += 1;
  }

  for (const person of holders) {
    const sent = await db.transaction().execute(async (trx) => {
      const n = await shortQueueCount(trx, person, now);
      if (n === 0) return false;
      const claimed = await claimNotice(
        trx,
        {
          key: `unblock-count:${person}:${today}`,
          job: UNBLOCK_REMINDER_JOB,
          recipient: person,
          subject_id: null,
          sent_on: today,
        },
        now,
      );
      if (!claimed) return false;
      await insertJobNotification(
        trx,
        { recipient: person, kind: NOTICE_KINDS.daily_count, project_id: null, subject_id: null, count: n },
        now,
      );
      return true;
    });
    if (sent) result.counts += 1;
    else result.skipped += 1;
  }
  return result;
}
