import { Command, Envelope } from '@platform/kit';
import { checkpointView } from '../commands/checkpoint.ts';
import { memoryView } from '../commands/memories.ts';
import { recordWorkspaceConversation } from '../commands/workspace-conversation.ts';
import { memoryModelOf } from '../domain/agents.ts';
import { thoughtsBlock } from '../domain/thoughts.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import { Thoughts, WorkspaceConversation, WorkspaceConversationInput } from '../schemas/thoughts.ts';
import { agentFor } from '../store/access.ts';
import { readCheckpoint } from '../store/checkpoint.ts';
import { coreMemories, recentMemories, recentRuns } from '../store/thoughts.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['harness records'];

/** The thoughts block and the harness's workspace conversation (spec 3, /thoughts, /workspace-conversation). */
export const THOUGHT_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/agents/:id/thoughts',
    action: 'ReadAgents',
    tags,
    summary: 'The assembled thoughts block for the agent’s next cycle',
    description:
      'Assembled from every pinned (core) memory (newest first, up to 50), the 10 archive memories most recently ' +
      'recalled or written, the research checkpoint, and the last 5 runs with their summaries, and the model memory ' +
      'work runs on (memory_model; auto means the agent’s own model); `block` is the same ' +
      'as one text under the headings Core memories, Recent memories, Research checkpoint, Recent runs. Writes ' +
      'nothing (recall marks are the harness’s /memories/touch). Needs viewer.',
    params: AgentIdParams,
    response: Envelope(Thoughts),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const id = input.params.id;
      const caller = await readCaller(deps, input);
      const { agent } = await agentFor(db, caller, id, 'viewer');
      const [core, recent, checkpoint, runs] = await Promise.all([
        coreMemories(db, id),
        recentMemories(db, id),
        readCheckpoint(db, id),
        recentRuns(db, id),
      ]);
      const parts = {
        core: core.map(memoryView),
        recent: recent.map(memoryView),
        checkpoint: checkpointView(id, checkpoint),
        runs: runs.map((r) => ({
          id: r.id,
          reason: r.reason,
          outcome: r.outcome,
          started_at: new Date(r.started_at).toISOString(),
          finished_at: new Date(r.finished_at).toISOString(),
          summary: r.summary,
        })),
      };
      return input.reply.envelope({
        agent_id: id,
        block: thoughtsBlock(parts),
        memory_model: memoryModelOf(agent),
        ...parts,
      });
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/workspace-conversation',
    action: 'RunAgents',
    tags,
    summary: 'Record the workspace conversation the harness opened (workspace_conversation_id)',
    description:
      'Body {data: {conversation_id}}; a later call replaces it (a restarted harness opens another). The answer ' +
      'carries the agent’s contributes_to_knowledge: the harness copies it to the conversation it opened. Needs ' +
      'editor (the harness has it).',
    params: AgentIdParams,
    body: Command(WorkspaceConversationInput),
    response: Envelope(WorkspaceConversation),
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params, body }) => recordWorkspaceConversation(ctx, params.id, body.data.conversation_id),
  }),
];
