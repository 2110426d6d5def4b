import { forbidden, notFound, type Principal, unprocessable } from '@platform/kit';
import type { CoachingReportBody } from '../domain/coaching-report.ts';
import { pointIds } from '../domain/coaching-report.ts';
import type { Coaching, CoachingFeedback, CoachingFeedbackInput, CoachingReport } from '../schemas/coaching.ts';
import {
  type CoachingReportRow,
  coachingEnabled,
  feedbackOf,
  latestReport,
  ownReport,
  recordFeedback,
  setCoaching,
} from '../store/coaching.ts';
import type { Db } from '../store/db.ts';
import type { CommandCtx } from './context.ts';

/** The caller's own email: coaching is a person's own (AGT-294); a caller without one has none. */
export function coachingEmail(principal: Principal): string {
  if (principal.kind !== 'person' || !principal.email) {
    throw forbidden('Coaching is a person’s own: sign in as yourself', 'coaching_person_only');
  }
  return principal.email.trim().toLowerCase();
}

export const reportView = (row: CoachingReportRow, feedback: CoachingReport['feedback']): CoachingReport => {
  const body = row.report as unknown as CoachingReportBody;
  return {
    id: row.id,
    week: body.week,
    created_at: row.created_at.toISOString(),
    meeting_time: body.meeting_time,
    communication: body.communication,
    about_you: body.about_you,
    feedback,
  };
};

/** GET /v1/me/coaching: whether coaching is on for the caller, and their latest report (AGT-289). */
export async function readCoaching(db: Db, principal: Principal): Promise<Coaching> {
  const email = coachingEmail(principal);
  const [enabled, row] = await Promise.all([coachingEnabled(db, email), latestReport(db, email)]);
  return {
    enabled,
    report: row ? reportView(row, await feedbackOf(db, email, row.id)) : null,
  };
}

/** PUT /v1/me/coaching/setting: on or off; off deletes every report and feedback of the caller (AGT-290, AGT-291). */
export async function changeCoaching(ctx: CommandCtx, enabled: boolean): Promise<{ enabled: boolean }> {
  const email = coachingEmail(ctx.principal);
  await setCoaching(ctx.trx, email, enabled, ctx.now);
  return { enabled };
}

/**
 * POST /v1/me/coaching/feedback: useful or not on one point of one of the caller's own reports
 * (AGT-292). Anyone else's report, or one that does not exist, is 404 and nothing is stored
 * (AGT-293); a point the report does not have is 422.
 */
export async function coachingFeedback(ctx: CommandCtx, input: CoachingFeedbackInput): Promise<CoachingFeedback> {
  const email = coachingEmail(ctx.principal);
  const row = await ownReport(ctx.trx, email, input.report_id);
  if (!row) throw notFound('Coaching report', 'coaching_report_not_found');
  if (!pointIds(row.report as unknown as CoachingReportBody).includes(input.point_id)) {
    throw unprocessable('unknown_coaching_point', 'The report has no point with this id', 'body/data/point_id');
  }
  await recordFeedback(ctx.trx, {
    report_id: row.id,
    point_id: input.point_id,
    email,
    useful: input.useful,
    at: ctx.now,
  });
  return { report_id: row.id, point_id: input.point_id, useful: input.useful };
}
