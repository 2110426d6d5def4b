import type { ObservedWorkload, Runner, Workload } from '../src/runner/port.ts';

/**
 * A runner that keeps workloads in memory, for reconciler tests: what `apply` made run, every call
 * in order, and a failure to answer with for the next calls when a test sets one.
 */
export class MemoryRunner implements Runner {
  readonly name = 'process' as const;
  readonly running = new Map<string, Workload>();
  readonly calls: string[] = [];
  /** While set, apply and remove throw it (the runner's outage). */
  failure: Error | undefined;

  async apply(w: Workload) {
    this.calls.push(`apply ${w.agentId} ${w.kind} g${w.generation}`);
    if (this.failure) throw this.failure;
    this.running.set(w.agentId, { ...w });
  }

  async remove(agentId: string) {
    this.calls.push(`remove ${agentId}`);
    if (this.failure) throw this.failure;
    this.running.delete(agentId);
  }

  async list(): Promise<ObservedWorkload[]> {
    return [...this.running.values()].map((w) => ({
      agentId: w.agentId,
      kind: w.kind,
      generation: w.generation,
      name: `agent-${w.slug}`,
    }));
  }

  /** Calls that changed something about this agent. */
  callsFor(agentId: string) {
    return this.calls.filter((c) => c.includes(agentId));
  }
}
