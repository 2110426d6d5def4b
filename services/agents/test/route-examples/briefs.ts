import type { RouteExample } from '@platform/kit/testing';
import { writeRevisionAlone } from '../../src/store/briefs.ts';
import { ADMIN, type Harness, OWNER, tag } from '../harness.ts';

/**
 * One valid request per briefs command: a paste (platform admins hold WriteBrief; a person without
 * it is the refused caller) and feedback on a brief of the caller's own (stored directly: the job
 * that writes briefs is not among the commands).
 */
export const BRIEFS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let days = 0;
  return {
    'POST /v1/briefs': {
      allowed: ADMIN,
      denied: OWNER,
      body: () => ({ data: { recipient: `person-${tag()}@briefs.test`, date: '2026-01-05', text: 'Pasted brief' } }),
      rules: { forbidden: 'AGT-277' },
    },
    'POST /v1/briefs/feedback': {
      allowed: OWNER,
      body: async () => {
        days += 1;
        const { brief } = await writeRevisionAlone(h.db, {
          recipient: OWNER,
          date: `2020-02-${String(days).padStart(2, '0')}`,
          text: 'A brief to rate',
          status: 'published',
          origin: 'job',
          writtenBy: 'service:scheduler',
          model: null,
          failure: null,
          now: new Date(),
        });
        return { data: { brief_id: brief.id, kind: 'useful' } };
      },
      rules: { replay: 'AGT-280' },
    },
  };
};
