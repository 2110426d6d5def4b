import { isOverBudget, monthKey, monthOf, overBudget } from '../domain/budgets.ts';
import { gateFigures } from '../store/budgets.ts';
import type { Db } from '../store/db.ts';
import { isServiceIdentityEmail } from '../tokens.ts';
import type { Actor, BudgetGate } from './ports.ts';

interface Cached {
  /** The UTC month the figures are for: a new month starts from nothing. */
  month: string;
  spendMicros: number;
  limitCents: number;
  /** When they were read, on the gate's own clock. */
  readAt: number;
}

/** Past this many cached actors the cache starts afresh. */
const MAX_CACHED = 50_000;

/**
 * Budget enforcement on every relayed call (spec 3: over budget is 402 before any upstream call).
 * Each actor's month spend and effective limit are read once and trusted for `cacheMs` (0: read
 * on every check); calls this replica records are added at once, and this replica's budget writes
 * drop the figures they change. Other replicas' spend shows after at most `cacheMs`.
 */
export class Budgets implements BudgetGate {
  private readonly cache = new Map<string, Cached>();
  /** Reads under way, shared by concurrent checks of one actor. */
  private readonly reading = new Map<string, Promise<Cached>>();
  /** Bumped by every invalidation: a read that started before it is not cached. */
  private epoch = 0;

  constructor(
    readonly db: Db,
    readonly cacheMs = 2_000,
    /** A monotonic clock in milliseconds for the cache's age (tests pass their own). */
    private readonly ticks: () => number = () => performance.now(),
  ) {}

  async check(actor: Actor, now: Date): Promise<void> {
    const service = isServiceIdentityEmail(actor.email);
    const figures = await this.figures(actor.fid, now, service);
    if (isOverBudget(figures.spendMicros, figures.limitCents)) throw overBudget(figures.limitCents, service);
  }

  spent(actorFid: string, costMicros: number, now: Date): void {
    const cached = this.cache.get(actorFid);
    if (cached && cached.month === monthKey(now)) cached.spendMicros += costMicros;
  }

  /** Drops one actor's figures (their override changed), or everyone's (the default changed). */
  invalidate(fid?: string): void {
    this.epoch += 1;
    if (fid === undefined) {
      this.cache.clear();
      this.reading.clear();
    } else {
      this.cache.delete(fid);
      this.reading.delete(fid);
    }
  }

  /** `service`: the actor is a service credential's identity, whose default is the service default. */
  private async figures(fid: string, now: Date, service: boolean): Promise<Cached> {
    const key = monthKey(now);
    const cached = this.cache.get(fid);
    if (cached && cached.month === key && this.ticks() - cached.readAt < this.cacheMs) return cached;
    const pending = this.reading.get(fid);
    if (pending) {
      const shared = await pending;
      if (shared.month === key) return shared;
    }
    const month = monthOf(now);
    const epoch = this.epoch;
    const read = gateFigures(this.db, fid, month, service).then(
      (f): Cached => ({ month: month.month, ...f, readAt: this.ticks() }),
    );
    if (this.cacheMs > 0) this.reading.set(fid, read);
    try {
      const fresh = await read;
      if (this.cacheMs > 0 && epoch === this.epoch) {
        if (this.cache.size >= MAX_CACHED) this.cache.clear();
        this.cache.set(fid, fresh);
      }
      return fresh;
    } finally {
      if (this.reading.get(fid) === read) this.reading.delete(fid);
    }
  }
}
