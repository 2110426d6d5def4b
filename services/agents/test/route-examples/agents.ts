import type { RouteExample } from '@platform/kit/testing';
import { fid, type Harness, tag, VIEWER } from '../harness.ts';

/** One valid request per command route of agents (create, save, delete). */
export const AGENTS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  // Each request gets its own agent, shared with VIEWER so that a viewer's refusal is shown.
  const viewedAgent = async () => {
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    return a.id;
  };
  return {
    'POST /v1/agents': {
      body: () => ({ data: { name: `Route check ${tag()}` } }),
    },
    'PUT /v1/agents/{id}': {
      url: async () => `/v1/agents/${await viewedAgent()}`,
      body: () => ({ data: { name: `Saved ${tag()}` } }),
      denied: VIEWER,
    },
    'DELETE /v1/agents/{id}': {
      url: async () => `/v1/agents/${await viewedAgent()}`,
      denied: VIEWER,
    },
  };
};
