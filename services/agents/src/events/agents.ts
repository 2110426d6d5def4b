import { type EventSpecs, Uuid } from '@platform/kit';
import { type TProperties, Type } from '@sinclair/typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/**
 * What every agent event carries (spec 3, Agents events): ids, lifetime, run type, the generation,
 * who acted; never bodies (instructions, messages, skill markdown: AGT-340).
 */
export const agentRef = {
  agent_id: Uuid,
  parent_id: Nullable(Uuid),
  swarm_id: Nullable(Uuid),
  lifetime: Type.String({ description: 'persistent or ephemeral' }),
  run_type: Type.String({ description: 'always_on or on_demand' }),
  generation: Type.Integer(),
  actor_fid: Type.String(),
};

// Generic in its extra fields, so the emitted payload type keeps them (reason, fields…).
// biome-ignore lint/complexity/noBannedTypes: no extra fields by default
const agentEvent = <M extends TProperties = {}>(description: string, more: M = {} as M) => ({
  description,
  payload: Type.Object({ ...agentRef, ...more }),
});

/** Events of agents' definitions and life cycles. */
export const AGENT_EVENTS = {
  'agent.created': agentEvent('An agent was created (a swarm member or coding agent names its parent)'),
  'agent.updated': agentEvent('An agent was saved (the names of the changed fields)', {
    fields: Type.Array(Type.String()),
  }),
  'agent.deleted': agentEvent('An agent was deleted, and with it its swarm children'),
  'agent.started': agentEvent('An agent was started: its desired state is running', {
    reason: Type.String({ description: 'start, restart, swarm or coding' }),
  }),
  'agent.stopped': agentEvent('An agent was stopped (an ephemeral one completed)', {
    reason: Type.String({ description: 'stop, steps (a run that used its step allowance), delete or dismiss' }),
  }),
  'agent.expired': agentEvent('An ephemeral agent expired: its run finished or its wall clock ran out', {
    reason: Type.String({ description: 'finished or wall_clock' }),
  }),
  'agent.archived': agentEvent('An agent was archived'),
  'agent.restarted': agentEvent('An agent was restarted under a new generation'),
  'agent.woken': agentEvent('A wake was queued for the agent', {
    reason: Type.String({ description: 'comms, dream, harvest or manual' }),
    inbox_item_id: Uuid,
  }),
  'agent.skills_changed': agentEvent("An agent's skills changed (the skill ids)", {
    skill_ids: Type.Array(Uuid),
  }),
  'agent.tools_changed': agentEvent("An agent's tools changed (the tool names)", {
    tools: Type.Array(Type.String()),
  }),
  'swarm.dismissed': {
    description: 'A swarm was dismissed: every member spins down',
    payload: Type.Object({
      swarm_id: Uuid,
      agent_id: Uuid,
      member_ids: Type.Array(Uuid),
      lifetime: Type.String(),
      run_type: Type.String(),
      actor_fid: Type.String(),
    }),
  },
} as const satisfies EventSpecs;
