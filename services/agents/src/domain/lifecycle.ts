import { conflict } from '@platform/kit';
import type { Workload } from '../runner/port.ts';
import { EPHEMERAL_TTL_MS } from './agents.ts';

/**
 * The agents' state table (spec 3, Agents service "States") as plain functions: each takes what
 * an agent is now and answers the change a command records, or null when the agent is already
 * there (the command then writes nothing and publishes nothing), or throws the 409 the table gives.
 * A change only ever touches desired_state, status, generation and ttl_at: the world follows
 * through the reconciler (wantedWorkload).
 */

export interface LifeState {
  id: string;
  slug: string;
  lifetime: string;
  run_type: string;
  status: string;
  desired_state: string;
  generation: number;
  harness_id: string;
  ttl_at: Date | null;
}

export type DesiredState = 'stopped' | 'running' | 'completed';
export type Status = 'active' | 'expired' | 'archive';

export interface LifeChange {
  desired_state?: DesiredState;
  status?: Status;
  generation?: number;
  ttl_at?: Date | null;
}

export type ExpireReason = 'finished' | 'wall_clock' | 'steps';
export const EXPIRE_REASONS = ['finished', 'wall_clock', 'steps'] as const;

export const agentExpired = () =>
  conflict('agent_expired', 'The agent expired; restart makes an expired ephemeral agent active again');
export const agentArchived = () => conflict('agent_archived', 'The agent is archived');

const isEphemeral = (a: LifeState) => a.lifetime === 'ephemeral';
const ttlFrom = (now: Date) => new Date(now.getTime() + EPHEMERAL_TTL_MS);

/**
 * start: desired_state running for an agent that is neither expired nor archived (AGT-058,
 * AGT-061, AGT-062). Persistent and ephemeral both start: an ephemeral start is a new run, one
 * Job under a bumped generation (AGT-060), so a stopped (completed) ephemeral agent runs again
 * (AGT-066). Starting what already runs changes nothing.
 */
export function startChange(a: LifeState): LifeChange | null {
  if (a.status === 'archive') throw agentArchived();
  if (a.status === 'expired') throw agentExpired();
  if (a.desired_state === 'running') return null;
  return isEphemeral(a) ? { desired_state: 'running', generation: a.generation + 1 } : { desired_state: 'running' };
}

/**
 * stop: a running persistent agent becomes stopped (AGT-063); a running ephemeral one completes
 * and stays active, so it can start again (AGT-065). What does not run is left as it is.
 */
export function stopChange(a: LifeState): LifeChange | null {
  if (a.desired_state !== 'running') return null;
  return { desired_state: isEphemeral(a) ? 'completed' : 'stopped' };
}

/**
 * expire (from the harness): an ephemeral agent whose run finished or whose wall clock ran out
 * expires, and its run is over (AGT-067, AGT-068); a run that only used its step allowance ends
 * the same way but stays active (AGT-069), so it can be started again. A persistent agent never
 * expires (409 not_ephemeral); an archived one is left alone (409 agent_archived); expiring an
 * expired agent again changes nothing (the harness may repeat itself).
 */
export function expireChange(a: LifeState, reason: ExpireReason): LifeChange | null {
  if (!isEphemeral(a)) throw conflict('not_ephemeral', 'Only an ephemeral agent expires');
  if (a.status === 'archive') throw agentArchived();
  if (a.status === 'expired') return null;
  if (reason === 'steps') return a.desired_state === 'running' ? { desired_state: 'completed' } : null;
  return { status: 'expired', desired_state: 'completed' };
}

/**
 * archive (owner only, checked by the command): status archive and nothing runs (AGT-070,
 * AGT-071). Archiving an archived agent is refused (409 agent_archived); an expired ephemeral
 * agent may be archived (that is how it leaves the default list).
 */
export function archiveChange(a: LifeState): LifeChange {
  if (a.status === 'archive') throw agentArchived();
  return {
    status: 'archive',
    desired_state: a.desired_state === 'running' ? 'stopped' : (a.desired_state as DesiredState),
  };
}

/**
 * restart: a new generation that runs. An archived agent is refused (AGT-072). An ephemeral
 * agent, expired or not, becomes active with a fresh four-hour wall clock and a new Job
 * (AGT-073..AGT-076). A persistent agent's generation is bumped and it runs: always-on, the
 * Deployment's pod is recycled (AGT-077, AGT-078); on-demand, it accepts calls again (no workload).
 */
export function restartChange(a: LifeState, now: Date): LifeChange {
  if (a.status === 'archive') throw agentArchived();
  const bumped: LifeChange = { desired_state: 'running', generation: a.generation + 1 };
  return isEphemeral(a) ? { ...bumped, status: 'active', ttl_at: ttlFrom(now) } : bumped;
}

/**
 * What should run for an agent (ARCHITECTURE.md, "runners with reconcilers"): an always-on
 * persistent agent that runs is a Deployment; an ephemeral agent that runs and is active is one
 * Job for its generation until ttl_at; an on-demand agent never has a workload; anything else
 * (stopped, completed, archived, expired) has none.
 */
export function wantedWorkload(a: LifeState): Workload | null {
  if (a.desired_state !== 'running' || a.status !== 'active' || a.run_type === 'on_demand') return null;
  const base = { agentId: a.id, slug: a.slug, harnessId: a.harness_id, generation: a.generation };
  if (isEphemeral(a)) return { ...base, kind: 'job', ...(a.ttl_at ? { ttlAt: a.ttl_at } : {}) };
  return { ...base, kind: 'deployment' };
}
