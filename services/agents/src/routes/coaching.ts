import { Command, Envelope, schedulerOnly } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { changeCoaching, coachingFeedback, readCoaching } from '../commands/coaching.ts';
import { coachingIncomplete, weeklyCoaching } from '../commands/coaching-job.ts';
import {
  Coaching,
  CoachingFeedback,
  CoachingFeedbackInput,
  CoachingJobQuery,
  CoachingJobResult,
  CoachingSetting,
  CoachingSettingInput,
} from '../schemas/coaching.ts';
import { CallerHeaders } from '../schemas/common.ts';
import { JOBS_PREFIX, type Routes, route } from './deps.ts';

const tags = ['coaching'];

const OWN =
  'Coaching is the caller’s own: a person signed in as themselves (the shared service token is refused, 403); ' +
  'no route shows anyone else’s report, platform admins included.';

/** Weekly coaching (spec 3, Briefs and coaching; AGT-283..AGT-310). */
export const COACHING_ROUTES: Routes = [
  route({
    method: 'POST',
    url: `${JOBS_PREFIX}weekly-coaching`,
    action: 'RunJobs',
    tags,
    summary: "Write last week's coaching for each person in COACH_RECIPIENTS who has not turned it off",
    description:
      'Internal job (scheduler only): X-Platform-Scheduler-Token is required (missing or wrong: 401; another caller: ' +
      '401 or 403). Registered only while SCHEDULER_TOKEN is set. Safe to repeat; no Idempotency-Key. Query: email ' +
      '(one person of COACH_RECIPIENTS, else 422), week (any date of the week, Monday to Sunday in New York; default ' +
      'last week), regenerate=true (a new report replaces the stored one; without it a stored report is kept). Each ' +
      "report: meeting time counted in code from the person's own workspace meetings, the communication part (one " +
      'model call through the broker for COACH_COMMUNICATION_RECIPIENTS) and about_you. Anyone not written: 503 ' +
      'coaching_incomplete, whose detail carries this same answer as value.',
    command: false,
    emptyBody: true,
    guard: [schedulerOnly],
    schema: {
      headers: Type.Object({
        ...CallerHeaders,
        'x-platform-scheduler-token': Type.Optional(
          Type.String({ description: 'The scheduler’s token (SCHEDULER_TOKEN)' }),
        ),
      }),
    },
    query: CoachingJobQuery,
    response: Envelope(CoachingJobResult),
    errors: ['invalid_week', 'not_a_coaching_recipient', 'coaching_incomplete'],
    handler: async ({ query, reply }, deps) => {
      const result = await weeklyCoaching(
        {
          database: deps.database,
          clock: deps.clock,
          settings: deps.coaching ?? { recipients: [], communication: [], model: 'auto', concurrency: 1 },
          workspace: deps.workspace,
          broker: deps.broker,
        },
        query,
      );
      if (result.failed.length > 0) throw coachingIncomplete(result);
      return reply.envelope(result);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/me/coaching',
    action: 'UseCoaching',
    tags,
    summary: 'Whether coaching is on for the caller, and their latest report',
    description: `Never writes. ${OWN}`,
    response: Envelope(Coaching),
    errors: ['coaching_person_only'],
    handler: async ({ principal, reply }, deps) => reply.envelope(await readCoaching(deps.database.db, principal)),
  }),

  route({
    method: 'PUT',
    url: '/v1/me/coaching/setting',
    action: 'UseCoaching',
    tags,
    summary: 'Turn coaching on or off; off deletes every stored report and feedback of the caller',
    description: `Body {data: {enabled}}. Off also keeps the weekly job from writing for the caller. ${OWN}`,
    body: Command(CoachingSettingInput),
    response: Envelope(CoachingSetting),
    errors: ['coaching_person_only'],
    run: (ctx, { body }) => changeCoaching(ctx, body.data.enabled),
  }),

  route({
    method: 'POST',
    url: '/v1/me/coaching/feedback',
    action: 'UseCoaching',
    tags,
    summary: "Useful or not useful on a point of the caller's own report",
    description:
      'Body {data: {report_id, point_id, useful}}; a second answer on the point replaces the first. Another ' +
      `person's report, or none, is 404 and nothing is stored; a point the report does not have is 422. ${OWN}`,
    body: Command(CoachingFeedbackInput),
    response: Envelope(CoachingFeedback),
    errors: ['coaching_person_only', 'coaching_report_not_found', 'unknown_coaching_point'],
    run: (ctx, { body }) => coachingFeedback(ctx, body.data),
  }),
];
