import { AppError, type Database, devFid, unprocessable } from '@platform/kit';
import type { BrokerClient } from '../clients/broker.ts';
import type { WorkspaceReader } from '../clients/workspace.ts';
import { communicationPrompt, replyJson } from '../domain/coaching-points.ts';
import {
  buildReport,
  type CoachingReportBody,
  coachMeetings,
  coachPerson,
  planCommunication,
} from '../domain/coaching-report.ts';
import { type CoachingWeek, isCalendarDay, lastWeek, seriesWindowStart, weekOf } from '../domain/coaching-week.ts';
import { reportOfWeek, turnedOff, writeReport } from '../store/coaching.ts';
import type { DB } from '../store/db.ts';

/** People the weekly job works on at once: each waits mostly on workspace and the broker. */
export const COACHING_CONCURRENCY = 4;

/** What the weekly job runs with (COACH_* settings and the two outside systems). */
export interface CoachingSettings {
  /** COACH_RECIPIENTS, lower case. */
  recipients: readonly string[];
  /** COACH_COMMUNICATION_RECIPIENTS, lower case: who gets the communication part (AGT-301). */
  communication: readonly string[];
  /** COACH_MODEL: the broker model of the communication call. */
  model: string;
  /** People worked on at once. */
  concurrency: number;
}

export interface CoachingJobDeps {
  database: Database<DB>;
  clock: () => Date;
  settings: CoachingSettings;
  workspace?: WorkspaceReader;
  broker?: BrokerClient;
}

export interface CoachingJobParams {
  email?: string;
  week?: string;
  regenerate?: boolean;
}

export interface CoachingJobResult {
  week: CoachingWeek;
  /** People whose report was written (or written again with regenerate). */
  written: string[];
  /** People whose report for the week was already there and kept. */
  kept: string[];
  /** People who turned coaching off: nothing read, nothing written (AGT-284). */
  skipped: string[];
  /** People whose report could not be written (the job answers 503, AGT-288). */
  failed: { email: string; reason: string }[];
  /** Reports written by this run with at least one about_you point (AGT-310). */
  about_you: number;
  /** about_you points in the reports written by this run (AGT-310). */
  about_you_points: number;
}

export const coachingIncomplete = (r: CoachingJobResult) =>
  new AppError(
    503,
    'coaching_incomplete',
    `Weekly coaching could not be written for ${r.failed.map((f) => f.email).join(', ')}`,
    [
      {
        code: 'coaching_incomplete',
        message: `Not written: ${r.failed.map((f) => `${f.email} (${f.reason})`).join('; ')}`,
        value: r,
      },
    ],
  );

/** The week the job writes: the one holding `week`, else last week in New York (AGT-283, AGT-286). */
export function jobWeek(now: Date, week: string | undefined): CoachingWeek {
  if (week === undefined) return lastWeek(now);
  if (!isCalendarDay(week)) throw unprocessable('invalid_week', 'week is a date YYYY-MM-DD', 'querystring/week');
  return weekOf(week);
}

type One =
  | { outcome: 'written'; report: CoachingReportBody }
  | { outcome: 'kept' }
  | { outcome: 'off' }
  | { outcome: 'failed'; reason: string };

async function coachOne(deps: CoachingJobDeps, email: string, week: CoachingWeek, regenerate: boolean): Promise<One> {
  const db = deps.database.db;
  // A report already there is kept without reading anything (the write checks again).
  if (!regenerate && (await reportOfWeek(db, email, week.start))) return { outcome: 'kept' };
  if (!deps.workspace) return { outcome: 'failed', reason: 'workspace_not_configured' };
  let meetings: ReturnType<typeof coachMeetings>;
  try {
    // Coaching reads meetings and their lines only: the FID the reader carries is not used by them.
    const ws = await deps.workspace.meetingsWithUtterances(
      { email, id: devFid(email) },
      { from: seriesWindowStart(week), to: week.end },
    );
    meetings = coachMeetings(ws);
  } catch (e) {
    return { outcome: 'failed', reason: e instanceof AppError ? e.code : 'workspace_unavailable' };
  }
  const person = coachPerson(email, meetings);
  let communication: Parameters<typeof buildReport>[3] = null;
  if (deps.settings.communication.includes(email)) {
    const weekMeetings = meetings.filter((m) => m.day >= week.start && m.day <= week.end);
    const plan = planCommunication(person, weekMeetings);
    if (plan.lines.length === 0) {
      // Nothing the person said: no call, no points.
      communication = { plan, reply: null };
    } else {
      if (!deps.broker) return { outcome: 'failed', reason: 'broker_not_configured' };
      try {
        const answer = await deps.broker.chat({
          onBehalfOf: email,
          model: deps.settings.model,
          messages: communicationPrompt(plan.lines),
        });
        communication = { plan, reply: replyJson(answer.content) };
      } catch (e) {
        return { outcome: 'failed', reason: e instanceof AppError ? e.code : 'broker_unavailable' };
      }
    }
  }
  const report = buildReport(person, week, meetings, communication);
  const stored = await writeReport(db, {
    email,
    week_start: week.start,
    report,
    at: deps.clock(),
    replace: regenerate,
  });
  if (stored.outcome === 'written') return { outcome: 'written', report };
  return stored.outcome === 'kept' ? { outcome: 'kept' } : { outcome: 'off' };
}

/**
 * POST /internal/jobs/weekly-coaching: last week's report (or the week holding `week`) for each
 * person of COACH_RECIPIENTS who has not turned coaching off (`email`: only that one), read from
 * their own workspace meetings on their behalf; a report already there is kept unless regenerate.
 * Safe to repeat. Anyone not written makes it 503 coaching_incomplete, carrying the same answer.
 */
export async function weeklyCoaching(deps: CoachingJobDeps, params: CoachingJobParams): Promise<CoachingJobResult> {
  const week = jobWeek(deps.clock(), params.week);
  let people = [...new Set(deps.settings.recipients)];
  if (params.email !== undefined) {
    const email = params.email.trim().toLowerCase();
    if (!people.includes(email)) {
      throw unprocessable('not_a_coaching_recipient', 'email is not one of COACH_RECIPIENTS', 'querystring/email');
    }
    people = [email];
  }
  const off = await turnedOff(deps.database.db, people);
  const result: CoachingJobResult = {
    week,
    written: [],
    kept: [],
    skipped: people.filter((p) => off.has(p)),
    failed: [],
    about_you: 0,
    about_you_points: 0,
  };
  const queue = people.filter((p) => !off.has(p));
  const worker = async () => {
    for (let email = queue.shift(); email !== undefined; email = queue.shift()) {
      let one: One;
      try {
        one = await coachOne(deps, email, week, params.regenerate === true);
      } catch {
        one = { outcome: 'failed', reason: 'not_stored' };
      }
      if (one.outcome === 'written') {
        result.written.push(email);
        const n = one.report.about_you.points.length;
        if (n > 0) result.about_you += 1;
        result.about_you_points += n;
      } else if (one.outcome === 'kept') result.kept.push(email);
      else if (one.outcome === 'off') result.skipped.push(email);
      else result.failed.push({ email, reason: one.reason });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.settings.concurrency) }, worker));
  for (const list of [result.written, result.kept, result.skipped]) list.sort();
  result.failed.sort((a, b) => a.email.localeCompare(b.email));
  return result;
}
