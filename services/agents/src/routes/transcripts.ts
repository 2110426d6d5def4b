import { Command, decodeCursor, Envelope, encodeCursor, unprocessable } from '@platform/kit';
import { postReview, reviewView } from '../commands/transcripts.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import {
  Progress,
  ProgressQuery,
  REVIEW_PAGE_MAX,
  ReviewInput,
  ReviewPage,
  ReviewPosted,
  ReviewQuery,
} from '../schemas/transcripts.ts';
import { agentFor } from '../store/access.ts';
import { listReviews, type ReviewKey, type ReviewRow, reviewProgress } from '../store/transcripts.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['harness records'];
/** The longest meeting-date window a review list reads (spec 3, Limits). */
const WINDOW_DAYS = 31;
const DAY_MS = 86_400_000;

function keyOf(cursor: string | undefined, field: string): ReviewKey | undefined {
  if (cursor === undefined) return undefined;
  const k = decodeCursor(cursor);
  if (!k || typeof k[0] !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(k[0]) || typeof k[1] !== 'string') {
    throw unprocessable('validation_failed', `${field} is not a cursor this list gave`, `querystring/${field}`);
  }
  if (!/^[0-9a-f-]{36}$/.test(k[1])) {
    throw unprocessable('validation_failed', `${field} is not a cursor this list gave`, `querystring/${field}`);
  }
  return { date: k[0], id: k[1] };
}

const cursorOf = (r: ReviewRow | undefined) => (r ? encodeCursor([r.meeting_date, r.id]) : null);

/** Transcript reviews and their progress (spec 3, /transcript-reviews and /transcript-progress). */
export const TRANSCRIPT_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/transcript-reviews',
    action: 'RunAgents',
    tags,
    summary: 'Record a transcript review; idempotent on (agent, record, source version, sequence)',
    description:
      'Body {data: {record_id, source_version, sequence, meeting_date, summary?, details?}}; sequences number the ' +
      'parts of a record from 0. A repeat of the same (record_id, source_version, sequence), under any ' +
      'Idempotency-Key, stores nothing and answers the stored review unchanged with created false. Needs editor ' +
      '(the harness has it).',
    params: AgentIdParams,
    body: Command(ReviewInput),
    response: Envelope(ReviewPosted),
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params, body }) => postReview(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/transcript-reviews',
    action: 'ReadAgents',
    tags,
    summary: 'Reviews of meetings from `from` to `to` (at most 31 days), newest meeting first, at most five a page',
    description:
      'from and to are meeting dates, both included; a longer window, or to before from, is 422 window_too_long. ' +
      'Bracket pagination: limit 1-5 (default 5; more is 422); meta.pagination.nextCursor goes in `after` for the ' +
      'older page, prevCursor in `before` for the newer one (not both). record_id narrows to one record. Needs viewer.',
    params: AgentIdParams,
    query: ReviewQuery,
    response: ReviewPage,
    errors: ['agent_not_found', 'window_too_long'],
    handler: async (input, deps) => {
      const { params, query } = input;
      const caller = await readCaller(deps, input);
      await agentFor(deps.database.db, caller, params.id, 'viewer');
      const days = (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS + 1;
      if (!(days >= 1 && days <= WINDOW_DAYS)) {
        throw unprocessable(
          'window_too_long',
          `The meeting-date window is ${days} days: from ${query.from} to ${query.to} must span 1 to ${WINDOW_DAYS}`,
          'querystring/to',
        );
      }
      if (query.after && query.before) {
        throw unprocessable('validation_failed', 'Send after or before, not both', 'querystring/before');
      }
      const limit = query.limit ?? REVIEW_PAGE_MAX;
      const after = keyOf(query.after, 'after');
      const before = keyOf(query.before, 'before');
      const { rows, more } = await listReviews(deps.database.db, params.id, {
        from: query.from,
        to: query.to,
        recordId: query.record_id,
        after,
        before,
        limit,
      });
      // A page reached through a cursor has a neighbour on the side it came from.
      const older = before ? rows.length > 0 : more;
      const newer = before ? more : after !== undefined && rows.length > 0;
      return input.reply.envelope(rows.map(reviewView), {
        pagination: {
          mode: 'cursor',
          limit,
          nextCursor: older ? cursorOf(rows[rows.length - 1]) : null,
          prevCursor: newer ? cursorOf(rows[0]) : null,
        },
      });
    },
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/transcript-progress',
    action: 'ReadAgents',
    tags,
    summary: 'How far the reviews of one record and source version go without a gap',
    description:
      'contiguous counts the sequences reviewed from 0 up to the first gap, for exactly this record_id and ' +
      'source_version (reviews of other versions do not count); reviewed_through is the last of them, ' +
      'next_sequence the first missing one. Needs viewer.',
    params: AgentIdParams,
    query: ProgressQuery,
    response: Envelope(Progress),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const { params, query } = input;
      const caller = await readCaller(deps, input);
      await agentFor(deps.database.db, caller, params.id, 'viewer');
      const p = await reviewProgress(deps.database.db, params.id, query.record_id, query.source_version);
      return input.reply.envelope({
        agent_id: params.id,
        record_id: query.record_id,
        source_version: query.source_version,
        contiguous: p.contiguous,
        reviewed_through: p.contiguous > 0 ? p.contiguous - 1 : null,
        next_sequence: p.contiguous,
        reviewed: p.reviewed,
      });
    },
  }),
];
