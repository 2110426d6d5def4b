import type { RouteExample } from '@platform/kit/testing';
import { fid, type Harness, tag, VIEWER } from '../harness.ts';

/**
 * One valid request per command route of swarms and coding agents. Each request gets a fresh
 * parent owned by OWNER with VIEWER as a viewer, so a viewer's call is the 403 case.
 */
export const SWARMS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const parent = async () => {
    const a = await h.agent({ name: `Route check ${tag()}` });
    await h.db
      .insertInto('agent_members')
      .values({ agent_id: a.id, principal_fid: fid(VIEWER), role: 'viewer', added_at: h.now() })
      .execute();
    return a.id;
  };
  const members = () => [{ name: `Scout ${tag()}`, instructions: 'Look around' }];
  return {
    'POST /v1/agents/{id}/swarm': {
      url: async () => `/v1/agents/${await parent()}/swarm`,
      body: () => ({ data: { members: members() } }),
      denied: VIEWER,
    },
    'POST /v1/swarms/{id}/dismiss': {
      url: async () => {
        const s = await h.ok<{ swarm_id: string }>(
          'POST',
          `/v1/agents/${await parent()}/swarm`,
          { members: members() },
          201,
        );
        return `/v1/swarms/${s.swarm_id}/dismiss`;
      },
      body: { data: {} },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/coding-agents': {
      url: async () => `/v1/agents/${await parent()}/coding-agents`,
      body: { data: { repository: 'platform' } },
      denied: VIEWER,
    },
  };
};
