import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { CoachingReports, Db } from './db.ts';

/**
 * Every statement of weekly coaching (AGT-283..AGT-294). Rows are keyed by the person's email in
 * lower case; every read and write names that email, so nothing here reaches anyone else's.
 */
export type CoachingReportRow = Selectable<CoachingReports>;

/** Whether coaching is on for the person (no row: on). */
export async function coachingEnabled(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('coaching_settings')
    .select('enabled')
    .where('person_email', '=', email)
    .executeTakeFirst();
  return row?.enabled ?? true;
}

/** The emails among `emails` who turned coaching off. */
export async function turnedOff(db: Db, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .selectFrom('coaching_settings')
    .select('person_email')
    .where('person_email', 'in', emails)
    .where('enabled', '=', false)
    .execute();
  return new Set(rows.map((r) => r.person_email));
}

/**
 * Sets the person's switch; off deletes every report and (by cascade, and by person for safety)
 * every feedback of theirs in the same transaction (AGT-291). The setting row is written first:
 * its lock orders this against a report being written (writeReport takes the same row).
 */
export async function setCoaching(db: Db, email: string, enabled: boolean, at: Date) {
  await db
    .insertInto('coaching_settings')
    .values({ person_email: email, enabled, updated_at: at })
    .onConflict((oc) => oc.column('person_email').doUpdateSet({ enabled, updated_at: at }))
    .execute();
  if (!enabled) {
    await db.deleteFrom('coaching_feedback').where('person_email', '=', email).execute();
    await db.deleteFrom('coaching_reports').where('person_email', '=', email).execute();
  }
}

/** The person's latest report (by week). */
export async function latestReport(db: Db, email: string): Promise<CoachingReportRow | undefined> {
  return db
    .selectFrom('coaching_reports')
    .selectAll()
    .where('person_email', '=', email)
    .orderBy('week_start', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The person's report for one week. */
export async function reportOfWeek(db: Db, email: string, weekStart: string): Promise<CoachingReportRow | undefined> {
  return db
    .selectFrom('coaching_reports')
    .selectAll()
    .where('person_email', '=', email)
    .where('week_start', '=', weekStart)
    .executeTakeFirst();
}

/** One report of the person's own by id (another person's reads as none: 404, AGT-293). */
export async function ownReport(db: Db, email: string, id: string): Promise<CoachingReportRow | undefined> {
  return db
    .selectFrom('coaching_reports')
    .selectAll()
    .where('id', '=', id)
    .where('person_email', '=', email)
    .executeTakeFirst();
}

export type WriteOutcome = 'written' | 'kept' | 'off';

/**
 * Stores the person's report for a week in one transaction: the setting row is taken first (an
 * "off" committed meanwhile wins: nothing is written), a report already there is kept unless
 * `replace`, which deletes it (and its feedback) and writes the new one under a new id (AGT-287).
 */
export async function writeReport(
  db: Db,
  row: { email: string; week_start: string; report: unknown; at: Date; replace: boolean },
): Promise<{ outcome: WriteOutcome; id?: string }> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('coaching_settings')
      .values({ person_email: row.email, enabled: true, updated_at: row.at })
      .onConflict((oc) => oc.column('person_email').doNothing())
      .execute();
    const setting = await trx
      .selectFrom('coaching_settings')
      .select('enabled')
      .where('person_email', '=', row.email)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (!setting.enabled) return { outcome: 'off' as const };
    const existing = await reportOfWeek(trx, row.email, row.week_start);
    if (existing && !row.replace) return { outcome: 'kept' as const, id: existing.id };
    if (existing) await trx.deleteFrom('coaching_reports').where('id', '=', existing.id).execute();
    const id = randomUUID();
    await trx
      .insertInto('coaching_reports')
      .values({
        id,
        person_email: row.email,
        week_start: row.week_start,
        report: JSON.stringify(row.report),
        created_at: row.at,
      })
      .execute();
    return { outcome: 'written' as const, id };
  });
}

/** Useful or not on one point of a report (the caller checked it is theirs); a second answer replaces the first. */
export async function recordFeedback(
  db: Db,
  row: { report_id: string; point_id: string; email: string; useful: boolean; at: Date },
) {
  await db
    .insertInto('coaching_feedback')
    .values({
      report_id: row.report_id,
      point_id: row.point_id,
      person_email: row.email,
      useful: row.useful,
      created_at: row.at,
    })
    .onConflict((oc) => oc.columns(['report_id', 'point_id']).doUpdateSet({ useful: row.useful, created_at: row.at }))
    .execute();
}

/** The feedback the person gave on one of their reports, by point. */
export async function feedbackOf(db: Db, email: string, reportId: string) {
  return db
    .selectFrom('coaching_feedback')
    .select(['point_id', 'useful'])
    .where('report_id', '=', reportId)
    .where('person_email', '=', email)
    .orderBy('point_id')
    .execute();
}
