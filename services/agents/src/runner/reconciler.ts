import type { Database } from '@platform/kit';
import { sql } from 'kysely';
import { wantedWorkload } from '../domain/lifecycle.ts';
import type { DB } from '../store/db.ts';
import type { ObservedWorkload, Runner, Workload } from './port.ts';

/**
 * The reconciler (ARCHITECTURE.md, "runners with reconcilers"): commands only record what should
 * run (desired_state, status, generation); a pass reads the agents whose world may differ, makes
 * the runner hold what they want, and stores what it observed. Level-triggered: a pass looks at
 * records, never at what a command did, so a crash anywhere (after a commit, during an apply) is
 * repaired by the next pass. One replica passes at a time (an advisory lock); runner calls
 * happen outside any transaction.
 */

/** What one pass did: agents applied, removed, failed (with the runner's message), and orphans removed. */
export interface PassReport {
  applied: string[];
  removed: string[];
  failed: { agentId: string; error: string }[];
  orphans: string[];
}

export interface ReconcilerOptions {
  database: Database<DB>;
  runner: Runner;
  /** AGENTS_RECONCILE_MS: a pass at least this often, besides after each commit of a life-cycle command. */
  intervalMs: number;
  clock?: () => Date;
  /** A pass that failed as a whole (the database or the runner's list did not answer). */
  onError?: (error: unknown) => void;
}

/** The columns a pass needs. */
interface ReconcileRow {
  id: string;
  slug: string;
  lifetime: string;
  run_type: string;
  status: string;
  desired_state: string;
  generation: number;
  harness_id: string;
  ttl_at: Date | null;
  observed_generation: number | null;
  observed_state: string | null;
}

const LOCK = 'agents.reconciler';

/**
 * PGlite has one session per process, and an advisory lock is re-entrant within a session: there
 * the lock alone would let two reconcilers of one process in at once, so the process also keeps
 * which databases it is passing on.
 */
const passingPglite = new WeakSet<object>();

/**
 * Runs `work` holding the reconciler's advisory lock (scoped to the service's schema), or answers
 * null at once when another replica holds it. On PostgreSQL the lock is a session lock on a
 * connection kept for the pass, while the pass itself reads, writes and calls the runner on
 * others: no transaction stays open across a runner call.
 */
export async function withReconcileLock<T>(database: Database<DB>, work: () => Promise<T>): Promise<T | null> {
  const key = sql`hashtextextended(current_schema() || ${LOCK}, 0)`;
  if (database.kind === 'pglite') {
    if (passingPglite.has(database.db)) return null;
    passingPglite.add(database.db);
    try {
      const got = await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(${key}) AS got`.execute(database.db);
      if (!got.rows[0]?.got) return null;
      try {
        return await work();
      } finally {
        await sql`SELECT pg_advisory_unlock(${key})`.execute(database.db);
      }
    } finally {
      passingPglite.delete(database.db);
    }
  }
  return database.db.connection().execute(async (conn) => {
    const got = await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(${key}) AS got`.execute(conn);
    if (!got.rows[0]?.got) return null;
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

const sameWorkload = (w: ObservedWorkload, wanted: Workload) =>
  w.kind === wanted.kind && w.generation === wanted.generation;

const messageOf = (e: unknown) => ((e as Error)?.message ?? String(e)).slice(0, 2000);

/** A runner that also keeps things per agent outside its workloads (the kubernetes runner's token Secrets). */
interface KeepsSecrets {
  secretAgentIds(): Promise<Iterable<string>>;
}
const keepsSecrets = (r: Runner): r is Runner & KeepsSecrets =>
  typeof (r as Partial<KeepsSecrets>).secretAgentIds === 'function';

/** Waiters of `settle`: resolved by the end of the first locked pass that began after they asked. */
interface Waiter {
  after: number;
  resolve: () => void;
}

export class Reconciler {
  private timer: NodeJS.Timeout | undefined;
  private looping: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private started = 0;
  private waiters: Waiter[] = [];
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly o: ReconcilerOptions) {}

  private get clock() {
    return this.o.clock ?? (() => new Date());
  }

  /** Passes every intervalMs from now on, and one at once. */
  start() {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.nudge(), this.o.intervalMs);
    this.timer.unref();
    this.nudge();
  }

  /** Asks for a pass soon: one runs now, or right after the one under way (nudges coalesce). */
  nudge() {
    if (this.stopped) return;
    if (this.looping) {
      this.again = true;
      return;
    }
    this.looping = this.loop();
  }

  private async loop() {
    try {
      do {
        this.again = false;
        try {
          await this.pass();
        } catch (e) {
          this.o.onError?.(e);
        }
      } while (this.again && !this.stopped);
    } finally {
      this.looping = null;
    }
  }

  /**
   * Waits, at most `boundMs`, for a pass that begins after this call to end (the start route's
   * "waits one pass"): it resolves either way, the caller reads the agent as it then is.
   */
  settle(boundMs: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter: Waiter = { after: this.started, resolve: () => {} };
      const timer = setTimeout(() => done(), boundMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      };
      waiter.resolve = done;
      this.waiters.push(waiter);
      this.nudge();
    });
  }

  /**
   * One pass now, under the lock: null when another replica (or another pass of this process)
   * holds it. Tests call it directly; the service's passes come from nudge and the interval.
   */
  async pass(): Promise<PassReport | null> {
    const seq = ++this.started;
    const report = await withReconcileLock(this.o.database, () => this.reconcile());
    if (report) {
      for (const w of [...this.waiters]) if (w.after < seq) w.resolve();
    } else if (this.waiters.length > 0 && !this.stopped && !this.retry) {
      // Another replica is passing: try again shortly, so a waiting start sees a pass of its own.
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.nudge();
      }, 100);
      this.retry.unref();
    }
    return report;
  }

  /** No more passes; waits for the one under way and lets every waiter go. */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retry);
    await this.looping;
    for (const w of [...this.waiters]) w.resolve();
  }

  /** The agents whose world may differ from their record (agents_unreconciled), plus every running one, for repair. */
  private async candidates(): Promise<ReconcileRow[]> {
    const cols = sql`id, slug, lifetime, run_type, status, desired_state, generation, harness_id, ttl_at,
      observed_generation, observed_state`;
    const r = await sql<ReconcileRow>`
      SELECT ${cols} FROM agents
        WHERE observed_generation IS DISTINCT FROM generation OR observed_state IS DISTINCT FROM desired_state
      UNION
      SELECT ${cols} FROM agents WHERE desired_state = 'running'`.execute(this.o.database.db);
    return r.rows;
  }

  private async observed(id: string, generation: number, state: string, error: string | null) {
    await this.o.database.db
      .updateTable('agents')
      .set(
        error === null
          ? { observed_generation: generation, observed_state: state, runner_error: null, reconciled_at: this.clock() }
          : { runner_error: error, reconciled_at: this.clock() },
      )
      .where('id', '=', id)
      .execute();
  }

  private async reconcile(): Promise<PassReport> {
    const { runner } = this.o;
    const report: PassReport = { applied: [], removed: [], failed: [], orphans: [] };
    const rows = await this.candidates();
    const present = new Map<string, ObservedWorkload[]>();
    for (const w of await runner.list()) present.set(w.agentId, [...(present.get(w.agentId) ?? []), w]);
    const wantedIds = new Set<string>();

    for (const row of rows) {
      const wanted = wantedWorkload(row);
      const there = present.get(row.id) ?? [];
      const unreconciled = row.observed_generation !== row.generation || row.observed_state !== row.desired_state;
      // A Job runs once per generation: one that finished and left is not run again, while a
      // Deployment that vanished (or one of another generation) is put back.
      const stale = wanted
        ? wanted.kind === 'deployment' && !(there.length === 1 && sameWorkload(there[0] as ObservedWorkload, wanted))
        : there.length > 0;
      if (wanted) wantedIds.add(row.id);
      if (!unreconciled && !stale) continue;
      try {
        if (wanted) await runner.apply(wanted);
        else await runner.remove(row.id);
        (wanted ? report.applied : report.removed).push(row.id);
        await this.observed(row.id, row.generation, row.desired_state, null);
      } catch (e) {
        report.failed.push({ agentId: row.id, error: messageOf(e) });
        await this.observed(row.id, row.generation, row.desired_state, messageOf(e));
      }
    }

    // What runs for an agent that is gone, or that no candidate wants (stopped long ago yet back).
    const orphanIds = new Set([...present.keys()].filter((id) => !wantedIds.has(id) && !rows.some((r) => r.id === id)));
    if (keepsSecrets(runner)) for (const id of await runner.secretAgentIds()) if (!wantedIds.has(id)) orphanIds.add(id);
    for (const id of orphanIds) {
      if (report.removed.includes(id)) continue;
      try {
        await runner.remove(id);
        report.orphans.push(id);
      } catch (e) {
        report.failed.push({ agentId: id, error: messageOf(e) });
      }
    }
    return report;
  }
}
