import { randomUUID } from 'node:crypto';
import type { RouteExample } from '@platform/kit/testing';
import { fid, type Harness, VIEWER } from '../harness.ts';

/**
 * One valid request per command route of the harness records (logs, memories, transcript reviews,
 * research checkpoint, action sources, workspace conversation): each on a fresh agent shared with
 * VIEWER, who is refused (403 insufficient_role).
 */
export const RECORDS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const viewedAgent = async () => {
    const a = await h.agent();
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    return a.id;
  };
  const memory = async (agentId: string, content: string) =>
    (await h.ok<{ id: string }>('POST', `/v1/agents/${agentId}/memories`, { content }, 201)).id;
  /** An agent with one memory: the URL of that memory. */
  const memoryUrl = async () => {
    const id = await viewedAgent();
    return `/v1/agents/${id}/memories/${await memory(id, 'route check')}`;
  };
  // The consolidation's ids come from the agent its URL made (the checks resolve the URL, then the body).
  let toMerge: string[] = [];
  return {
    'POST /v1/agents/{id}/logs': {
      url: async () => `/v1/agents/${await viewedAgent()}/logs`,
      body: { data: { kind: 'info', message: 'route check' } },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/memories': {
      url: async () => `/v1/agents/${await viewedAgent()}/memories`,
      body: { data: { content: 'route check' } },
      denied: VIEWER,
    },
    'DELETE /v1/agents/{id}/memories': {
      url: async () => {
        const id = await viewedAgent();
        await memory(id, 'to purge');
        return `/v1/agents/${id}/memories`;
      },
      denied: VIEWER,
    },
    'PATCH /v1/agents/{id}/memories/{memoryId}': {
      url: memoryUrl,
      body: { data: { tier: 'archive' } },
      otherBody: { data: { tier: 'core' } },
      denied: VIEWER,
    },
    'DELETE /v1/agents/{id}/memories/{memoryId}': { url: memoryUrl, denied: VIEWER },
    'POST /v1/agents/{id}/memories/consolidate': {
      url: async () => {
        const id = await viewedAgent();
        toMerge = [await memory(id, 'one'), await memory(id, 'two')];
        return `/v1/agents/${id}/memories/consolidate`;
      },
      body: () => ({ data: { merge: toMerge, content: 'one and two' } }),
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/memories/touch': {
      url: async () => `/v1/agents/${await viewedAgent()}/memories/touch`,
      body: { data: { ids: [randomUUID()] } },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/transcript-reviews': {
      url: async () => `/v1/agents/${await viewedAgent()}/transcript-reviews`,
      body: { data: { record_id: 'rec-1', source_version: 'v1', sequence: 0, meeting_date: '2026-02-10' } },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/research-checkpoint': {
      url: async () => `/v1/agents/${await viewedAgent()}/research-checkpoint`,
      body: { data: { scan_id: 'scan-1', position: 3, version: 0 } },
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/action-sources': {
      url: async () => `/v1/agents/${await viewedAgent()}/action-sources`,
      body: () => ({ data: { action: 'send_email', message: `See ${randomUUID()}` } }),
      denied: VIEWER,
    },
    'POST /v1/agents/{id}/workspace-conversation': {
      url: async () => `/v1/agents/${await viewedAgent()}/workspace-conversation`,
      body: { data: { conversation_id: 'conv-route-check' } },
      denied: VIEWER,
    },
  };
};
