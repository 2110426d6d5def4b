import type { Db } from '@platform/kit';
import { insertUsage } from '../store/usage-writes.ts';
import type { BudgetGate, CompletedCall, UsageSink } from './ports.ts';

/** Writes each completed call's usage row (owned by the relay area; batching to come). */
export class UsageRecorder implements UsageSink {
  private pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly budgets: BudgetGate,
  ) {}

  record(call: CompletedCall): void {
    this.budgets.spent(call.usage.actor_fid, call.usage.cost_micros, call.usage.occurred_at);
    const p = insertUsage(this.db, [call.usage]).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.settled();
  }
}
