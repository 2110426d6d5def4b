import { Envelope, unprocessable } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { MY_MEETINGS, MyMeeting, MyMeetingsQuery } from '../schemas/my-meetings.ts';
import { listMyMeetings } from '../store/my-meetings.ts';
import { type Routes, route } from './deps.ts';

const DAY_MS = 86_400_000;

/** from..to as New York days, both included: from not after to, at most MY_MEETINGS.maxDays days. */
function checkRange(from: string, to: string): void {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (!(days >= 1)) throw unprocessable('invalid_meeting_range', 'from must not be after to', 'querystring/from');
  if (days > MY_MEETINGS.maxDays) {
    throw unprocessable('invalid_meeting_range', `The range is at most ${MY_MEETINGS.maxDays} days`, 'querystring');
  }
}

/**
 * The caller's own meetings in a range of days (issue 20): what the agents service reads on a
 * person's behalf for their daily brief and weekly coaching. Spec 2 lists no such route.
 */
export const myMeetingRoutes: Routes = [
  route({
    method: 'GET',
    url: '/v1/me/meetings',
    action: 'use',
    tags: ['notes and meetings'],
    summary: "The caller's meetings, threads and recordings opened on New York days from..to, oldest first",
    description:
      'Records the caller can read (author, or a member of the filed project) and took part in: author, a ' +
      'participant named by their email, or a speaker assigned to them or written as their email. from and to ' +
      `are YYYY-MM-DD, both included, at most ${MY_MEETINGS.maxDays} days (422 invalid_meeting_range); at most ` +
      `${MY_MEETINGS.maxRows} rows. Platform admins read only their own too. Writes nothing.`,
    query: MyMeetingsQuery,
    response: Envelope(Type.Array(MyMeeting)),
    errors: ['invalid_meeting_range'],
    handler: async ({ query, principal, reply }, deps) => {
      checkRange(query.from, query.to);
      const rows = await listMyMeetings(deps.database.db, {
        principalId: principal.id,
        email: principal.email?.toLowerCase() ?? null,
        from: query.from,
        to: query.to,
        limit: MY_MEETINGS.maxRows,
      });
      return reply.envelope(rows);
    },
  }),
];
