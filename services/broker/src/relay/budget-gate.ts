import type { Db } from '@platform/kit';
import type { Actor, BudgetGate } from './ports.ts';

/** Budget enforcement (owned by the budgets area). */
export class Budgets implements BudgetGate {
  constructor(
    readonly db: Db,
    readonly cacheMs: number,
  ) {}

  async check(_actor: Actor, _now: Date): Promise<void> {}

  spent(_actorFid: string, _costMicros: number, _now: Date): void {}
}
