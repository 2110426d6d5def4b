import type { RouteExample } from '@platform/kit/testing';
import { fid, type Harness, VIEWER } from '../harness.ts';

/** One valid request per life-cycle route; each gets its own agent, shared with VIEWER (who is refused). */
export const LIFECYCLE_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const viewed = async (fields: Record<string, unknown> = {}, as?: { service: string }) => {
    const a = await h.agent(fields, as);
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    return a.id;
  };
  /** A running agent, persistent or (made by an agent, copying its members) ephemeral. */
  const running = async (lifetime: 'persistent' | 'ephemeral') => {
    const id =
      lifetime === 'persistent'
        ? await viewed()
        : await h.agent({ lifetime }, { service: await viewed() }).then((e) => e.id);
    await h.ok('POST', `/v1/agents/${id}/start`, {});
    return id;
  };
  return {
    'POST /v1/agents/{id}/start': { url: async () => `/v1/agents/${await viewed()}/start`, body: {}, denied: VIEWER },
    'POST /v1/agents/{id}/stop': {
      url: async () => `/v1/agents/${await running('persistent')}/stop`,
      body: {},
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/expire': {
      url: async () => `/v1/agents/${await running('ephemeral')}/expire`,
      body: { data: { reason: 'finished' } },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/archive': {
      url: async () => `/v1/agents/${await viewed()}/archive`,
      body: {},
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/restart': {
      url: async () => `/v1/agents/${await running('persistent')}/restart`,
      body: {},
      denied: VIEWER,
    },
  };
};
