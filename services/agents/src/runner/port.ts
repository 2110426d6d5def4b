/**
 * The runner port (ARCHITECTURE.md, "runners with reconcilers"): what the reconciler asks of
 * wherever agents run. Every call is idempotent and level-triggered: `apply` makes the world hold
 * exactly this workload for the agent (creating, or replacing one of another generation or kind),
 * `remove` leaves nothing of the agent, `list` says what is there. No call happens inside a
 * database transaction.
 */
export type WorkloadKind = 'deployment' | 'job';

export interface Workload {
  agentId: string;
  slug: string;
  /** The harness the workload runs (its image under kubernetes, its program under process). */
  harnessId: string;
  /** The agent's generation: a Deployment's pod template carries it (a bump rolls the pod); one Job per generation. */
  generation: number;
  /** Always-on persistent agents: deployment; ephemeral agents: job. */
  kind: WorkloadKind;
  /** Jobs only: the agent's ttl_at; the Job's activeDeadlineSeconds runs until it. */
  ttlAt?: Date;
}

export interface ObservedWorkload {
  agentId: string;
  kind: WorkloadKind;
  generation: number;
  /** The object's or process's name, for logs and errors. */
  name: string;
}

export interface Runner {
  /** Which adapter this is (AGENTS_RUNNER). */
  readonly name: 'kubernetes' | 'process';
  apply(workload: Workload): Promise<void>;
  remove(agentId: string): Promise<void>;
  list(): Promise<ObservedWorkload[]>;
  /** Stops what the runner itself owns (the process adapter reaps its children); kubernetes leaves the cluster as it is. */
  close?(): Promise<void>;
}
