import { Command, Envelope, forbidden, schedulerOnly } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import {
  briefDate,
  briefFeedback,
  briefNotFound,
  briefsIncomplete,
  dailyBriefs,
  pasteBrief,
  personEmail,
  speakPassage,
} from '../commands/briefs.ts';
import {
  Brief,
  BriefFeedback,
  BriefFeedbackInput,
  BriefInput,
  BriefJobQuery,
  BriefJobResult,
  BriefQuery,
  SpeechInput,
} from '../schemas/briefs.ts';
import { CallerHeaders } from '../schemas/common.ts';
import { briefOf, briefsOfDay } from '../store/briefs.ts';
import { JOBS_PREFIX, type Routes, route } from './deps.ts';

const tags = ['briefs'];

/** Daily briefs (spec 3, Briefs and coaching; AGT-261..AGT-282). */
export const BRIEF_ROUTES: Routes = [
  route({
    method: 'POST',
    url: `${JOBS_PREFIX}daily-briefs`,
    action: 'RunJobs',
    tags,
    summary: "Write today's brief for each person in BRIEF_RECIPIENTS and store it; no email is sent",
    description:
      'Internal job (scheduler only): X-Platform-Scheduler-Token is required (missing or wrong: 401; another caller: ' +
      '401 or 403). Registered only while SCHEDULER_TOKEN is set. Safe to repeat; no Idempotency-Key. Query: email ' +
      '(one person of BRIEF_RECIPIENTS, else 422 not_a_brief_recipient), date (YYYY-MM-DD, default today in New ' +
      'York), regenerate=true (a new revision superseding the day’s brief). Each brief reads the person’s own ' +
      'workspace data on their behalf (their active projects’ open tasks assigned to them, their unblock queue, ' +
      'the handoffs offered to them, their meetings of the day before) and makes one model call through the ' +
      'broker (a JSON reply, checked in code). A published brief already there, written or pasted, is kept ' +
      'unless regenerate. BRIEF_CONCURRENCY recipients at once. Anyone whose sources or model call failed gets a ' +
      'draft and the job answers 503 briefs_incomplete naming them; its detail carries this same answer as value.',
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
    query: BriefJobQuery,
    response: Envelope(BriefJobResult),
    errors: ['invalid_brief_date', 'not_a_brief_recipient', 'briefs_incomplete'],
    handler: async ({ query, reply, principal }, deps) => {
      const result = await dailyBriefs(
        {
          database: deps.database,
          clock: deps.clock,
          settings: deps.briefs ?? { recipients: [], model: 'auto', concurrency: 1 },
          workspace: deps.workspace,
          broker: deps.broker,
          writtenBy: principal.id,
        },
        query,
      );
      if (result.failed.length > 0) throw briefsIncomplete(result);
      return reply.envelope(result);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/briefs',
    action: 'UseBriefs',
    tags,
    summary: "The caller's brief for a day (default today in New York); others' and drafts with ReadAnyBrief",
    description:
      'Without recipient or all: the caller’s own published brief (404 brief_not_found when there is none). ' +
      'recipient (another person) reads that person’s published brief, all=true every recipient’s published ' +
      'brief of the day as a list (by recipient), drafts=true includes drafts (a draft newer than the published ' +
      'brief is answered instead of it): each needs ReadAnyBrief (platform admins), else 403 ' +
      'read_any_brief_required and nothing read. Never writes.',
    query: BriefQuery,
    response: Envelope(Type.Union([Brief, Type.Array(Brief)])),
    errors: ['brief_not_found', 'brief_person_only', 'read_any_brief_required', 'invalid_brief_date'],
    handler: async ({ query, principal, reply }, deps) => {
      const date = briefDate(deps.clock(), query.date);
      const own = principal.email?.toLowerCase();
      const recipient = query.recipient?.trim().toLowerCase();
      const others = query.all === true || query.drafts === true || (recipient !== undefined && recipient !== own);
      if (others && !deps.can(principal, 'ReadAnyBrief')) {
        throw forbidden(
          'Reading others’ briefs or drafts needs ReadAnyBrief (platform admins)',
          'read_any_brief_required',
        );
      }
      const drafts = query.drafts === true;
      if (query.all === true) return reply.envelope(await briefsOfDay(deps.database.db, date, drafts));
      const brief = await briefOf(deps.database.db, recipient ?? personEmail(principal), date, drafts);
      if (!brief) throw briefNotFound();
      return reply.envelope(brief);
    },
  }),

  route({
    method: 'POST',
    url: '/v1/briefs',
    action: 'WriteBrief',
    tags,
    summary: "Store pasted text as a person's published brief (WriteBrief: platform admins)",
    description:
      'Body {data: {recipient, date?, text}}; date defaults to today in New York. A new revision superseding the ' +
      'day’s brief (and draft); the morning job keeps it unless regenerate=true.',
    body: Command(BriefInput),
    response: Envelope(Brief),
    status: 201,
    errors: ['invalid_brief_date'],
    run: (ctx, { body }) => pasteBrief(ctx, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/briefs/feedback',
    action: 'UseBriefs',
    tags,
    summary: 'Feedback on one brief: wrong_scope, immaterial, already_resolved, missing, ungrounded or useful',
    description:
      'Body {data: {brief_id, kind, note?}}. On the caller’s own brief (any revision), or on any brief for ' +
      'holders of ReadAnyBrief; another person’s brief, a draft of one’s own, or none is 404 and nothing is stored.',
    body: Command(BriefFeedbackInput),
    response: Envelope(BriefFeedback),
    status: 201,
    errors: ['brief_not_found'],
    run: (ctx, { body }, deps) => briefFeedback(ctx, body.data, deps.can(ctx.principal, 'ReadAnyBrief')),
  }),

  route({
    method: 'POST',
    url: '/v1/briefs/speech',
    action: 'UseBriefs',
    tags,
    summary: 'MP3 of a passage of your own stored brief: audio/mpeg bytes, not an envelope',
    description:
      'Body {data: {text}}: a passage of one of the caller’s own published briefs (whitespace runs compared as ' +
      'one space), else 422 passage_not_in_brief and nothing is sent to the broker. The broker’s speech relay ' +
      'reads it (its fixed model and voice, billed to the caller) and its bytes are answered unchanged. Not a ' +
      'command: no Idempotency-Key, nothing stored.',
    command: false,
    schema: { produces: ['audio/mpeg'] },
    body: SpeechInput,
    response: Type.String({ format: 'binary', description: 'The MP3 bytes' }),
    errors: ['brief_person_only', 'passage_not_in_brief', 'broker_not_configured', 'broker_unavailable'],
    handler: async ({ body, principal, reply }, deps) => {
      const audio = await speakPassage(deps.database.db, deps.broker, principal, body.data.text);
      return reply.header('content-type', audio.contentType).send(audio.bytes);
    },
  }),
];
