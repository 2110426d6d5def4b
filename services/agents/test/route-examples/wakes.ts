import type { RouteExample } from '@platform/kit/testing';
import { fid, type Harness, VIEWER } from '../harness.ts';

/** One valid request per command route of wakes, runs and call secrets; each on its own agent, which VIEWER may only read. */
export const WAKES_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const viewed = async (fields: Record<string, unknown> = {}) => {
    const a = await h.agent(fields);
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    return a.id;
  };
  return {
    'POST /v1/agents/{id}/run': {
      url: async () => `/v1/agents/${await viewed()}/run`,
      body: { data: { ref: 'route-checks' } },
      denied: VIEWER,
      rules: { replay: 'AGT-184' },
    },
    'POST /v1/agents/{id}/runs': {
      url: async () => `/v1/agents/${await viewed()}/runs`,
      body: {
        data: {
          reason: 'manual',
          started_at: '2026-03-02T11:00:00Z',
          finished_at: '2026-03-02T11:05:00Z',
          outcome: 'completed',
          turns: 2,
        },
      },
      denied: VIEWER,
      rules: { replay: 'AGT-196' },
    },
    'POST /v1/agents/{id}/call-secret': {
      url: async () => `/v1/agents/${await viewed({ run_type: 'on_demand' })}/call-secret`,
      body: {},
      denied: VIEWER,
      shownOnce: ['secret'],
      rules: { replay: 'AGT-187' },
    },
  };
};
