import type { RouteExample } from '@platform/kit/testing';
import type { CoachingReportBody } from '../../src/domain/coaching-report.ts';
import { addDays } from '../../src/domain/coaching-week.ts';
import { writeReport } from '../../src/store/coaching.ts';
import { type Harness, OWNER } from '../harness.ts';

/**
 * One valid request per coaching command: the setting, and feedback on a point of a report of the
 * caller's own (stored directly: the job that writes reports is not among the commands).
 */
export const COACHING_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let weeks = 0;
  const report = (start: string): CoachingReportBody => ({
    week: { start, end: addDays(start, 6) },
    meeting_time: {
      summary: '3 meetings, 1 h 30 min in all; you spoke in 3 of them; 0 ended with a decision.',
      meetings: 3,
      minutes: 90,
      spoke_in: 3,
      series: [
        {
          id: 'series-1',
          title: 'Standup',
          meetings: 3,
          minutes: 90,
          spoke_in: 3,
          decisions: 0,
          reasons: ['no_decisions'],
        },
      ],
    },
    communication: null,
    about_you: { points: [] },
  });
  return {
    'PUT /v1/me/coaching/setting': { body: { data: { enabled: true } }, allowed: OWNER },
    'POST /v1/me/coaching/feedback': {
      allowed: OWNER,
      body: async () => {
        weeks += 1;
        const start = addDays('2020-01-06', 7 * weeks);
        const { id } = await writeReport(h.db, {
          email: OWNER,
          week_start: start,
          report: report(start),
          at: new Date(),
          replace: false,
        });
        return { data: { report_id: id, point_id: 'series-1', useful: true } };
      },
    },
  };
};
