import { Command, Envelope, PageEnvelope, pageMeta, pageRequest, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { consolidate, dropMemory, memoryView, purgeAll, rememberMemory, retier, touch } from '../commands/memories.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import {
  Consolidated,
  ConsolidateInput,
  Memory,
  MemoryInput,
  MemoryParams,
  MemoryQuery,
  MemoryTierInput,
  Purged,
  Touched,
  TouchInput,
} from '../schemas/memories.ts';
import { agentFor } from '../store/access.ts';
import { listMemories } from '../store/memories.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['harness records'];
const PERSON_ONLY =
  'Needs the editor role and a person: a shared service token (the harness, with or without X-Platform-Agent-Id) ' +
  'is 403 service_token_not_allowed.';

/** An agent's memories (spec 3, /v1/agents/{id}/memories and below). */
export const MEMORY_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/agents/:id/memories',
    action: 'ReadAgents',
    tags,
    summary: 'Memories newest first; q matches every word of the content; tier filters',
    description: 'Page mode (pagination[page], pagination[pageSize] up to 200, default 50). Needs viewer.',
    params: AgentIdParams,
    query: MemoryQuery,
    response: PageEnvelope(Memory),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const { params, query } = input;
      const caller = await readCaller(deps, input);
      await agentFor(deps.database.db, caller, params.id, 'viewer');
      const page = pageRequest(query, 50);
      const { rows, total } = await listMemories(deps.database.db, params.id, {
        q: query.q,
        tier: query.tier,
        ...page,
      });
      return input.reply.envelope(rows.map(memoryView), pageMeta(page, total));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/memories',
    action: 'RunAgents',
    tags,
    summary: 'Remember: from the harness source agent, tier archive; from a person source person, tier core',
    description:
      'Body {data: {content, tier?}}. A shared service token (the harness) always stores source agent and tier ' +
      'archive (tier is ignored: pinning is a person’s call); a person with the editor role stores source person ' +
      'and tier core unless they send archive. Needs editor.',
    params: AgentIdParams,
    body: Command(MemoryInput),
    response: Envelope(Memory),
    status: 201,
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params, body }) => rememberMemory(ctx, params.id, body.data),
  }),

  route({
    method: 'DELETE',
    url: '/v1/agents/:id/memories',
    action: 'ManageAgents',
    tags,
    summary: 'Purge every memory of the agent',
    description: `Answers how many were deleted. ${PERSON_ONLY}`,
    params: AgentIdParams,
    response: Envelope(Purged),
    errors: ['agent_not_found', 'insufficient_role', 'service_token_not_allowed'],
    run: (ctx, { params }) => purgeAll(ctx, params.id),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/memories/consolidate',
    action: 'RunAgents',
    tags,
    summary: 'Harness consolidation: one new memory replaces several',
    description:
      'Body {data: {merge: [memory ids], content}}: the memories named in merge are deleted and one memory with ' +
      'content takes their place (merged_count says how many). It is core when any merged memory was core (a pin ' +
      'survives), else archive; it keeps the sum of their recall counts and the latest recall. An id that is not ' +
      'one of the agent’s memories is 422 unknown_memory and nothing changes. Needs editor (the harness has it).',
    params: AgentIdParams,
    body: Command(ConsolidateInput),
    response: Envelope(Consolidated),
    status: 201,
    errors: ['agent_not_found', 'insufficient_role', 'unknown_memory'],
    run: (ctx, { params, body }) => consolidate(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/memories/touch',
    action: 'RunAgents',
    tags,
    summary: 'Recall marks: each named memory’s recall_count goes up by one and last_recalled_at is set',
    description:
      'Body {data: {ids}}. Ids the agent no longer holds (consolidated or dropped meanwhile) are skipped: the answer ' +
      'names those touched. Needs editor (the harness has it).',
    params: AgentIdParams,
    body: Command(TouchInput),
    response: Envelope(Touched),
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params, body }) => touch(ctx, params.id, body.data.ids),
  }),

  route({
    method: 'PATCH',
    url: '/v1/agents/:id/memories/:memoryId',
    action: 'ManageAgents',
    tags,
    summary: 'Pin (tier core) or demote (tier archive) one memory',
    description: `Body {data: {tier}}. ${PERSON_ONLY}`,
    params: MemoryParams,
    body: Command(MemoryTierInput),
    response: Envelope(Memory),
    errors: ['agent_not_found', 'insufficient_role', 'service_token_not_allowed', 'memory_not_found'],
    run: (ctx, { params, body }) => retier(ctx, params.id, params.memoryId, body.data.tier),
  }),

  route({
    method: 'DELETE',
    url: '/v1/agents/:id/memories/:memoryId',
    action: 'ManageAgents',
    tags,
    summary: 'Drop one memory',
    description: PERSON_ONLY,
    params: MemoryParams,
    response: Envelope(Type.Object({ agent_id: Uuid, id: Uuid, deleted: Type.Boolean() })),
    errors: ['agent_not_found', 'insufficient_role', 'service_token_not_allowed', 'memory_not_found'],
    run: (ctx, { params }) => dropMemory(ctx, params.id, params.memoryId),
  }),
];
