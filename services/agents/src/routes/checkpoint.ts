import { Command, Envelope } from '@platform/kit';
import { checkpointView, writeCheckpoint } from '../commands/checkpoint.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import { Checkpoint, CheckpointInput } from '../schemas/checkpoint.ts';
import { agentFor } from '../store/access.ts';
import { readCheckpoint } from '../store/checkpoint.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['harness records'];

/** The research checkpoint (spec 3, /v1/agents/{id}/research-checkpoint). */
export const CHECKPOINT_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/agents/:id/research-checkpoint',
    action: 'ReadAgents',
    tags,
    summary: 'The current research checkpoint {scan_id, position, version}; version 0 before any write',
    params: AgentIdParams,
    response: Envelope(Checkpoint),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      await agentFor(deps.database.db, caller, input.params.id, 'viewer');
      const row = await readCheckpoint(deps.database.db, input.params.id);
      return input.reply.envelope(checkpointView(input.params.id, row));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/research-checkpoint',
    action: 'RunAgents',
    tags,
    summary: 'Move the research checkpoint: needs Idempotency-Key and the current version',
    description:
      'Body {data: {scan_id, position, version}} where version is the current one (0 before any write); the ' +
      'stored checkpoint gets version + 1. Another version is 409 checkpoint_stale; a position before the stored ' +
      'one within the same scan_id is 409 checkpoint_backward (a new scan_id may start anywhere). Of two writers ' +
      'on one version exactly one succeeds. Needs editor (the harness has it).',
    params: AgentIdParams,
    body: Command(CheckpointInput),
    response: Envelope(Checkpoint),
    errors: ['agent_not_found', 'insufficient_role', 'checkpoint_stale', 'checkpoint_backward'],
    run: (ctx, { params, body }) => writeCheckpoint(ctx, params.id, body.data),
  }),
];
