import { AppError, Envelope, schedulerOnly } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { expireGrants } from '../jobs/expire-grants.ts';
import { expireSessions } from '../jobs/expire-sessions.ts';
import { flowToolsSync } from '../jobs/flow-tools-sync.ts';
import { goalCheckinChat } from '../jobs/goal-checkin-chat.ts';
import { meetingSummaries } from '../jobs/meeting-summaries.ts';
import { personContextRefresh } from '../jobs/person-context-refresh.ts';
import { unblockReminders } from '../jobs/unblock-reminders.ts';
import type { Routes } from './deps.ts';
import { route } from './deps.ts';
import type { JobSettings } from './jobs-deps.ts';

const tags = ['internal jobs'];
export const JOBS_PREFIX = '/internal/jobs/';

const JOB_DOC =
  'Internal job (scheduler only): X-Platform-Scheduler-Token is required (missing or wrong: 401, and the job does not run; ' +
  'another signed-in caller: 403). Registered only while SCHEDULER_TOKEN is set. Safe to repeat; no Idempotency-Key. ';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const ExpireSessionsResult = Type.Object({ expired: Count('Sessions that read expired from now on') });
export const ExpireGrantsResult = Type.Object({ expired: Count('Break-glass grants that read expired from now on') });
export const UnblockRemindersResult = Type.Object({
  day: Type.String({ description: 'The day of the run, YYYY-MM-DD in New York' }),
  reminders: Count('Due notices sent (due today or tomorrow, one per request and window)'),
  counts: Count('Daily count notices sent (one per person with a card on the short queue)'),
  skipped: Count('Candidates that got nothing: already sent today, or no longer open at send time'),
});
export const PersonContextQuery = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal('changed'), Type.Literal('nightly')], {
        description:
          'changed (default, half-hourly): only changed sources; nightly: the 90-day window reread, stale assignments retired',
      }),
    ),
  },
  { additionalProperties: false },
);
export const PersonContextResult = Type.Object({
  mode: Type.Union([Type.Literal('changed'), Type.Literal('nightly')]),
  roster: Type.Union([Type.Literal('read'), Type.Literal('unavailable')], {
    description:
      'unavailable: the intelligence service could not give the roster (it is down); known people are still tried',
  }),
  roster_error: Type.Optional(Type.String()),
  people_added: Count('People the roster added'),
  refreshed: Count('People refreshed'),
  skipped_personalization_off: Count('People who turned personalization off: nothing read for them'),
  failed: Count('People whose sources could not be read'),
  sources_read: Count('Sources reread'),
  assignments_retired: Count('Assignments retired (nightly)'),
});
export const MeetingSummariesResult = Type.Object({
  written: Count('Summaries written (at most five a run)'),
  failed: Count('Summaries that failed (tried again next run)'),
  deferred: Count('Meetings left for the next run because four minutes had passed'),
});
export const GoalCheckinChatResult = Type.Object({
  sent: Count('Messages sent'),
  skipped: Count('Leads not on the project, without a chat account, or already messaged in the window'),
  failed: Count('Sends that failed (no window recorded: the next run tries again)'),
});
export const FlowToolsResult = Type.Object({
  organization: Type.String(),
  repositories: Count('Repositories read (every one of the organization)'),
});

const jobsOf = (deps: { jobs?: JobSettings }): JobSettings => {
  // Unreachable: the routes are registered only with the settings (jobRouteOn).
  if (!deps.jobs) throw new Error('internal jobs are not configured');
  return deps.jobs;
};

const job = (
  url: string,
  summary: string,
  description: string,
  response: ReturnType<typeof Envelope>,
  errors: ('summaries_failed' | 'flow_tools_not_configured' | 'code_host_unavailable')[] = [],
) => ({
  method: 'POST' as const,
  url: `${JOBS_PREFIX}${url}`,
  action: 'run_jobs' as const,
  tags,
  summary,
  description: JOB_DOC + description,
  command: false,
  emptyBody: true,
  guard: [schedulerOnly],
  response,
  errors,
});

export const jobRoutes: Routes = [
  route({
    ...job(
      'expire-sessions',
      'Expire conversation agent sessions (every 15 minutes)',
      'Active agent sessions without a heartbeat for 30 minutes read expired (status expired, ended_at set) and no longer show ' +
        'who is in the conversation; each publishes conversation.session_ended with the scheduler as actor.',
      Envelope(ExpireSessionsResult),
    ),
    handler: async (input, deps) => input.reply.envelope(await expireSessions(deps)),
  }),
  route({
    ...job(
      'expire-grants',
      'Expire time-boxed platform-admin memberships (break-glass)',
      'Break-glass grants (break_glass_grants) whose expires_at has passed read expired and give no platform-admin reads. ' +
        'Independent of expire-sessions: it runs and succeeds even when the session sweep failed.',
      Envelope(ExpireGrantsResult),
    ),
    handler: async (input, deps) => input.reply.envelope(await expireGrants(deps)),
  }),
  route({
    ...job(
      'unblock-reminders',
      'In-app reminders of unblock requests due today or tomorrow, and a daily count per person (once a day)',
      'One notice (unblock.due_tomorrow, unblock.due_today) per open request due today or tomorrow (New York) per window, to its ' +
        'recipient; one unblock.daily_count notice a day per person with open, unsnoozed requests to answer (the short queue), with ' +
        'the number. Each request is reread and locked before its notice: resolved, withdrawn, superseded, answered or snoozed ones ' +
        'get none. Each notice is keyed by request, window and day (person and day for counts): a repeat the same day, or two runs ' +
        'at once, send each notice once. Notices carry the request and project ids, never the question.',
      Envelope(UnblockRemindersResult),
    ),
    handler: async (input, deps) => input.reply.envelope(await unblockReminders(deps, jobsOf(deps).beforeReminders)),
  }),
  route({
    ...job(
      'person-context-refresh',
      'Refresh the people roster and known people (half-hourly: changed sources; nightly: the 90-day window)',
      'Reads the roster from the intelligence service (new people become known), then per known person with personalization on: ' +
        'mode=changed rereads only sources updated since last read; mode=nightly rereads every source of the last 90 days and ' +
        'retires assignments it no longer shows. People who turned personalization off are skipped. When the roster cannot be ' +
        'read the answer says roster: unavailable (200).',
      Envelope(PersonContextResult),
    ),
    query: PersonContextQuery,
    handler: async (input, deps) =>
      input.reply.envelope(await personContextRefresh(deps, jobsOf(deps).peopleContext, input.query.mode ?? 'changed')),
  }),
  route({
    ...job(
      'meeting-summaries',
      'Write meeting summaries (every two minutes; summarizer release)',
      'Registered only on the summarizer release (SUMMARIZER_RELEASE). Up to five meetings or recordings with a transcript and ' +
        'no summary, each written through the model broker and saved with evidence.summary_ready; no summary is started after ' +
        'four minutes. 502 summaries_failed when every summary tried failed (each is tried again next run).',
      Envelope(MeetingSummariesResult),
      ['summaries_failed'],
    ),
    handler: async (input, deps) => {
      const r = await meetingSummaries(deps);
      if (r.failed > 0 && r.written === 0) {
        throw new AppError(502, 'summaries_failed', `Every summary of the run failed (${r.failed})`);
      }
      return input.reply.envelope(r);
    },
  }),
  route({
    ...job(
      'goal-checkin-chat',
      'Message the leads of due or overdue goals in the chat system (13:00 UTC weekdays; question-messaging release)',
      '404 until the question-messaging release (QUESTION_MESSAGING_RELEASE). One Slack direct message per goal and window (the ' +
        'check-in state, due or overdue, and its due day: at most two a week per goal) to the lead of every due or overdue open ' +
        'goal on an active project. Skipped: leads not on the project, without a chat account, already messaged in the window. ' +
        'The window is recorded after the send: a failed send records none and the next run tries again. Stops starting goals ' +
        'after fifteen minutes. Two runs at once are not refused. Answers {sent, skipped, failed}.',
      Envelope(GoalCheckinChatResult),
    ),
    handler: async (input, deps) => {
      const j = jobsOf(deps);
      return input.reply.envelope(await goalCheckinChat(deps, { slack: j.slack, people: j.people }));
    },
  }),
  route({
    ...job(
      'flow-tools-sync',
      'Read every repository of the configured GitHub organization (manual; never scheduled)',
      'Lists every repository of FLOW_TOOLS_GITHUB_ORG (every page) and records each. 503 flow_tools_not_configured without ' +
        'the organization or GitHub; 502 code_host_unavailable when GitHub fails (nothing recorded).',
      Envelope(FlowToolsResult),
      ['flow_tools_not_configured', 'code_host_unavailable'],
    ),
    handler: async (input, deps) => {
      const j = jobsOf(deps);
      if (!j.github || !j.flowToolsOrg) {
        throw new AppError(
          503,
          'flow_tools_not_configured',
          'No GitHub organization is configured (FLOW_TOOLS_GITHUB_ORG)',
        );
      }
      const r = await flowToolsSync(deps, j.github, j.flowToolsOrg);
      if (!r.ok)
        throw new AppError(502, 'code_host_unavailable', `GitHub answered ${r.status} ${r.code}: ${r.message}`);
      return input.reply.envelope(r.data);
    },
  }),
];

/** Whether a declared route is served: job routes only with the scheduler token, and each release's only when on. */
export function jobRouteOn(url: string, jobs: JobSettings | undefined): boolean {
  if (!url.startsWith(JOBS_PREFIX)) return true;
  if (!jobs) return false;
  if (url === `${JOBS_PREFIX}meeting-summaries`) return jobs.summarizer;
  if (url === `${JOBS_PREFIX}goal-checkin-chat`) return jobs.questionMessaging;
  return true;
}
