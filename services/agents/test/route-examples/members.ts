import type { RouteExample } from '@platform/kit/testing';
import { fid, type Harness, tag, VIEWER } from '../harness.ts';

/** One valid request per members command route: each on its own agent shared with VIEWER (who is refused). */
export const MEMBERS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const viewedAgent = async () => {
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    return a.id;
  };
  return {
    'PUT /v1/agents/{id}/members/{principal}': {
      url: async () => `/v1/agents/${await viewedAgent()}/members/${fid(`member-${tag()}@agents.test`)}`,
      body: { data: { role: 'viewer' } },
      otherBody: { data: { role: 'editor' } },
      denied: VIEWER,
    },
    'DELETE /v1/agents/{id}/members/{principal}': {
      url: async () => {
        const id = await viewedAgent();
        const who = fid(`member-${tag()}@agents.test`);
        await h.ok('PUT', `/v1/agents/${id}/members/${who}`, { role: 'editor' });
        return `/v1/agents/${id}/members/${who}`;
      },
      denied: VIEWER,
    },
  };
};
