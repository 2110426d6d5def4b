import type { DB, Db } from '../src/store/db.ts';
/**
 * The usage recorder: group commit (each caller waits for the write that carries its row, and
 * rows recorded meanwhile share the next), reads that wait for it, failed writes answered,
 * retried and logged, nothing lost at close without saying so.
 */

import { testDatabase } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG } from '../src/domain/catalog.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { CompletedCall } from '../src/relay/ports.ts';
import { type RecorderLog, UsageRecorder, usageSyncCommit, writeCalls } from '../src/relay/usage-recorder.ts';
import { tag } from './harness.ts';
import { TestBudgets } from './relay-setup.ts';

let database: Awaited<ReturnType<typeof testDatabase<DB>>>;
let db: Db;
beforeAll(async () => {
  database = await testDatabase<DB>('broker', MIGRATIONS);
  db = database.db;
});
afterAll(() => database.drop());

/** Flushes never start on their own: only reads (settled) and close do. */
const NEVER = 3_600_000;
const AT = new Date('2025-06-16T15:00:00Z');
const gpt41 = BUILT_IN_CATALOG.models.find((m) => m.wire_id === 'gpt-4.1');
const mini = BUILT_IN_CATALOG.models.find((m) => m.wire_id === 'gpt-4.1-mini');

let n = 0;
function call(actor: string, cost = 100, decided = false): CompletedCall {
  n += 1;
  const id = `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const c: CompletedCall = {
    usage: {
      id,
      occurred_at: AT,
      actor_fid: actor,
      provider: 'openai',
      provider_kind: 'openai',
      model: decided ? 'gpt-4.1-mini' : 'gpt-4.1',
      requested_model: decided ? 'gpt-4.1' : null,
      request_kind: 'chat',
      input_tokens: 10,
      output_tokens: 5,
      cache_read_tokens: 0,
      cost_micros: cost,
      cache_savings_micros: 0,
      routing_savings_micros: decided ? 50 : 0,
      source: 'relay',
      estimated: false,
    },
  };
  if (decided && gpt41 && mini) {
    c.decision = {
      model: mini,
      substituted: true,
      classifier: null,
      family: 'gpt-4.1',
      tier: 'standard',
      outcome: 'rule',
      rule_id: 'r1',
      grading_cost_micros: 0,
      actor_fid: actor,
      requested_model: 'gpt-4.1',
      savings_micros: 50,
    };
  }
  return c;
}

const usageOf = (actor: string) => db.selectFrom('usage_events').selectAll().where('actor_fid', '=', actor).execute();
const dailyOf = (actor: string) => db.selectFrom('usage_daily').selectAll().where('actor_fid', '=', actor).execute();

class Log implements RecorderLog {
  readonly warns: { obj: object; msg: string }[] = [];
  readonly errors: { obj: object; msg: string }[] = [];
  warn(obj: object, msg: string) {
    this.warns.push({ obj, msg });
  }
  error(obj: object, msg: string) {
    this.errors.push({ obj, msg });
  }
}

describe('the usage recorder', () => {
  it('BRK-121 calls recorded together are written in one transaction once a read asks', async () => {
    const actor = `a-${tag()}`;
    const batches: number[] = [];
    const r = new UsageRecorder(db, new TestBudgets(), {
      flushDelayMs: NEVER,
      write: (d, calls) => {
        batches.push(calls.length);
        return writeCalls(d, calls);
      },
    });
    r.record(call(actor, 100));
    r.record(call(actor, 200));
    r.record(call(actor, 300));
    expect(await usageOf(actor)).toEqual([]);
    await r.settled();
    expect(batches).toEqual([3]);
    expect(await usageOf(actor)).toHaveLength(3);
    const [daily] = await dailyOf(actor);
    expect(daily).toMatchObject({ calls: 3, cost_micros: 600, input_tokens: 30, output_tokens: 15 });
    await r.close();
  });

  it('BRK-089 the budget gate hears of each cost when the call is recorded, before it is written', async () => {
    const actor = `a-${tag()}`;
    const budgets = new TestBudgets();
    const r = new UsageRecorder(db, budgets, { flushDelayMs: NEVER });
    r.record(call(actor, 1234));
    expect(budgets.spends).toEqual([{ fid: actor, micros: 1234 }]);
    expect(await usageOf(actor)).toEqual([]);
    await r.close();
    expect(await usageOf(actor)).toHaveLength(1);
  });

  it('BRK-015 a routed call’s decision row is written with its usage row', async () => {
    const actor = `a-${tag()}`;
    const r = new UsageRecorder(db, new TestBudgets(), { flushDelayMs: NEVER });
    r.record(call(actor, 10, true));
    await r.settled();
    const decisions = await db.selectFrom('routing_decisions').selectAll().where('actor_fid', '=', actor).execute();
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      requested_model: 'gpt-4.1',
      model: 'gpt-4.1-mini',
      savings_micros: 50,
      rule_id: 'r1',
    });
    expect((await usageOf(actor))[0]).toMatchObject({ requested_model: 'gpt-4.1', model: 'gpt-4.1-mini' });
    await r.close();
  });

  it('BRK-121 a failed write is logged and retried: the row lands once, and reads never hang', async () => {
    const actor = `a-${tag()}`;
    const log = new Log();
    let failures = 1;
    const r = new UsageRecorder(db, new TestBudgets(), {
      flushDelayMs: NEVER,
      retryMs: NEVER,
      log: () => log,
      write: (d, calls) => {
        if (failures-- > 0) return Promise.reject(new Error('database went away'));
        return writeCalls(d, calls);
      },
    });
    r.record(call(actor));
    await r.settled();
    expect(log.warns).toHaveLength(1);
    expect(log.warns[0].msg).toBe('usage rows not written; retrying');
    expect(log.warns[0].obj).toMatchObject({ calls: 1, attempt: 1 });
    expect(await usageOf(actor)).toEqual([]);
    // The next read does not wait out the retry pause: it flushes again.
    await r.settled();
    expect(await usageOf(actor)).toHaveLength(1);
    await r.close();
    expect(await usageOf(actor)).toHaveLength(1);
  });

  it('BRK-121 close writes what is queued', async () => {
    const actor = `a-${tag()}`;
    const r = new UsageRecorder(db, new TestBudgets(), { flushDelayMs: NEVER });
    r.record(call(actor));
    r.record(call(actor));
    await r.close();
    expect(await usageOf(actor)).toHaveLength(2);
  });

  it('BRK-121 rows that still cannot be written at close are logged one by one, not dropped silently', async () => {
    const actor = `a-${tag()}`;
    const log = new Log();
    let attempts = 0;
    const r = new UsageRecorder(db, new TestBudgets(), {
      flushDelayMs: NEVER,
      retryMs: NEVER,
      closeAttempts: 2,
      log: () => log,
      write: () => {
        attempts += 1;
        return Promise.reject(new Error('read-only database'));
      },
    });
    const a = call(actor);
    const b = call(actor);
    const committed = Promise.all([r.record(a), r.record(b)]);
    await r.close();
    expect(await committed).toEqual([false, false]);
    expect(attempts).toBe(2);
    expect(log.errors.map((e) => e.msg)).toEqual(['usage row not written at close', 'usage row not written at close']);
    expect(log.errors.map((e) => (e.obj as { usage: { id: string } }).usage.id)).toEqual([a.usage.id, b.usage.id]);
    await r.settled();
  });

  it('13.2 BRK-121 a caller hears once the transaction carrying its row has committed; calls recorded meanwhile share the next', async () => {
    const actor = `a-${tag()}`;
    const batches: number[] = [];
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let started: () => void = () => {};
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const r = new UsageRecorder(db, new TestBudgets(), {
      write: async (d, calls, syncCommit) => {
        batches.push(calls.length);
        if (batches.length === 1) {
          started();
          await gate;
        }
        await writeCalls(d, calls, syncCommit);
      },
    });
    const a = r.record(call(actor));
    // No read asks: the write starts by itself, since a caller waits for it.
    await firstStarted;
    const b = r.record(call(actor));
    const c = r.record(call(actor));
    open();
    expect(await a).toBe(true);
    expect(await Promise.all([b, c])).toEqual([true, true]);
    expect(batches).toEqual([1, 2]);
    expect(await usageOf(actor)).toHaveLength(3);
    await r.close();
  });

  it('13.2 a failed write answers its callers “not committed” and keeps their rows for the retry', async () => {
    const actor = `a-${tag()}`;
    let failures = 1;
    const r = new UsageRecorder(db, new TestBudgets(), {
      retryMs: NEVER,
      log: () => new Log(),
      write: (d, calls, syncCommit) => {
        if (failures-- > 0) return Promise.reject(new Error('database went away'));
        return writeCalls(d, calls, syncCommit);
      },
    });
    expect(await r.record(call(actor))).toBe(false);
    expect(await usageOf(actor)).toEqual([]);
    await r.settled();
    expect(await usageOf(actor)).toHaveLength(1);
    await r.close();
  });

  it('13.2 on PostgreSQL a write may skip waiting for the WAL flush (BROKER_USAGE_SYNC_COMMIT off); on PGlite it never does', async () => {
    expect(usageSyncCommit('postgres', false)).toBe(false);
    expect(usageSyncCommit('postgres', true)).toBe(true);
    expect(usageSyncCommit('pglite', false)).toBe(true);
    const actor = `a-${tag()}`;
    await writeCalls(db, [call(actor)], false);
    expect(await usageOf(actor)).toHaveLength(1);
  });

  it('BRK-121 a full batch is written without waiting for a read', async () => {
    const actor = `a-${tag()}`;
    const written: number[] = [];
    let done: () => void = () => {};
    const wrote = new Promise<void>((resolve) => {
      done = resolve;
    });
    const r = new UsageRecorder(db, new TestBudgets(), {
      flushDelayMs: NEVER,
      batchSize: 2,
      write: async (d, calls) => {
        await writeCalls(d, calls);
        written.push(calls.length);
        done();
      },
    });
    r.record(call(actor));
    r.record(call(actor));
    await wrote;
    expect(written).toEqual([2]);
    expect(await usageOf(actor)).toHaveLength(2);
    await r.close();
  });
});
