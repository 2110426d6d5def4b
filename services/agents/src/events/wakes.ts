import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { agentRef } from './agents.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/**
 * Events of call secrets, on-demand calls and recorded runs (agent.woken, in agents.ts, is the
 * wake's). Ids, lifetime, run type and reason only: never the secret, its hash, a message or a reply (AGT-340).
 */
export const WAKE_EVENTS = {
  'agent.call_secret_issued': {
    description: 'A one-time call secret was issued for an on-demand agent (any waiting one stops working)',
    payload: Type.Object({ ...agentRef }),
  },
  'agent.called': {
    description: 'An on-demand agent answered a call: its secret was consumed and the run recorded',
    payload: Type.Object({
      ...agentRef,
      run_id: Uuid,
      reason: Type.String({ description: 'on_demand' }),
    }),
  },
  'agent.run_recorded': {
    description: 'The harness recorded a completed wake',
    payload: Type.Object({
      ...agentRef,
      run_id: Uuid,
      inbox_item_id: Nullable(Uuid),
      reason: Type.String({ description: 'comms, dream, harvest, manual or on_demand' }),
      outcome: Type.String({ description: 'completed, failed or max_turns' }),
    }),
  },
} as const satisfies EventSpecs;
