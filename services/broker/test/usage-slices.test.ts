/**
 * Issue 13, item 2 (the added p99 on embedded PGlite): a batch of usage rows is written in slices
 * of at most sliceRows rows, each its own transaction, and the event loop gets a turn between
 * two slices, so that relayed calls are served between them instead of waiting behind a whole
 * batch on the relay's thread. Each slice is told to its callers and to the journal as it
 * commits; a broker killed between two slices loses nothing and counts nothing twice once it
 * restarts (the journal's replay skips the rows already committed).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePglite, openDatabase, openPglite, uuidv7 } from '@platform/kit';
import { testDatabase } from '@platform/kit/testing';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/migrations.ts';
import type { BudgetGate, CompletedCall } from '../src/relay/ports.ts';
import {
  MAX_SLICES,
  openUsageJournal,
  PGLITE_SLICE_MS,
  PGLITE_SLICE_ROWS,
  UsageRecorder,
  usageSliceMs,
  usageSliceRows,
  writeCalls,
} from '../src/relay/usage-recorder.ts';
import type { DB, Db } from '../src/store/db.ts';

/** Flushes never start on their own: only reads (settled) and close do. */
const NEVER = 3_600_000;
const noBudget: BudgetGate = { spent: () => {}, check: async () => {} };

const SLICED = 'sliced.person@broker.test';

const call = (n: number, actor = SLICED): CompletedCall => ({
  usage: {
    id: uuidv7(),
    occurred_at: new Date(Date.UTC(2026, 10, 25, 12, 0, 0)),
    actor_fid: actor,
    provider: 'openai',
    provider_kind: 'openai',
    model: 'gpt-4o',
    requested_model: null,
    request_kind: 'chat',
    input_tokens: n,
    output_tokens: 1,
    cache_read_tokens: 0,
    cost_micros: 10,
    cache_savings_micros: 0,
    routing_savings_micros: 0,
    source: 'relay',
    estimated: false,
  },
});

const segments = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.ndjson'));

/** An actor's calls' numbers in the database (a number twice means a row written twice). */
const inputs = async (db: Db, actor = SLICED) =>
  (
    await sql<{ n: number }>`
      SELECT input_tokens AS n FROM usage_events WHERE actor_fid = ${actor} ORDER BY input_tokens`.execute(db)
  ).rows.map((r) => Number(r.n));

/** An actor's daily rollup: it must sum exactly their rows (nothing counted twice or left out). */
const rollup = async (db: Db, actor = SLICED) => {
  const r = await sql<{ calls: string; input: string }>`
    SELECT coalesce(sum(calls), 0) AS calls, coalesce(sum(input_tokens), 0) AS input
    FROM usage_daily WHERE actor_fid = ${actor}`.execute(db);
  return { calls: Number(r.rows[0]?.calls), input: Number(r.rows[0]?.input) };
};

let database: Awaited<ReturnType<typeof testDatabase<DB>>>;
let db: Db;
beforeAll(async () => {
  database = await testDatabase<DB>('broker', MIGRATIONS);
  db = database.db;
});
afterAll(() => database.drop());
let actors = 0;
const nextActor = () => `sliced-${++actors}-${uuidv7()}@broker.test`;

/**
 * A write that notes each slice's size and whether the event loop had a turn (an immediate
 * queued once the previous slice was written has run) before the slice started.
 */
function watchedWrite() {
  const slices: number[] = [];
  const turnBefore: boolean[] = [];
  let turned = true;
  const write = async (db: Db, calls: readonly CompletedCall[], syncCommit: boolean) => {
    turnBefore.push(turned);
    slices.push(calls.length);
    await writeCalls(db, calls, syncCommit);
    turned = false;
    setImmediate(() => {
      turned = true;
    });
  };
  return { slices, turnBefore, write };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-slices-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('13.2 usage rows written in slices', () => {
  it('13.2 BRK-121 on embedded PGlite a batch is written in slices of at most sliceRows rows, the event loop getting a turn between two; none on PostgreSQL', async () => {
    expect(usageSliceRows('pglite')).toBe(PGLITE_SLICE_ROWS);
    expect(usageSliceRows('postgres')).toBeUndefined();
    const actor = nextActor();
    const { journal } = await openUsageJournal(db, dir);
    const w = watchedWrite();
    const recorder = new UsageRecorder(db, noBudget, { journal, flushDelayMs: NEVER, sliceRows: 4, write: w.write });
    for (let n = 1; n <= 10; n++) expect(await recorder.record(call(n, actor))).toBe(true);
    expect(segments(dir)).toHaveLength(1);
    await recorder.settled();
    expect(w.slices).toEqual([4, 4, 2]);
    expect(w.turnBefore).toEqual([true, true, true]);
    // Every row once, and the rollup sums exactly them; the journal's segment goes at close.
    expect(await inputs(db, actor)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await rollup(db, actor)).toEqual({ calls: 10, input: 55 });
    await recorder.close();
    expect(segments(dir)).toEqual([]);
  });

  it('13.2 BRK-121 a caller waiting for its commit hears when its slice commits, before the next slice is written', async () => {
    const actor = nextActor();
    const heard: number[] = [];
    const written: number[][] = [];
    const recorder = new UsageRecorder(db, noBudget, {
      flushDelayMs: NEVER,
      sliceRows: 2,
      write: async (into, calls, syncCommit) => {
        // What the callers had heard when this slice started.
        written.push([...heard]);
        await writeCalls(into, calls, syncCommit);
      },
    });
    const answers = [1, 2, 3, 4, 5].map((n) =>
      recorder.record(call(n, actor)).then((committed) => {
        if (committed) heard.push(n);
        return committed;
      }),
    );
    await recorder.settled();
    expect(await Promise.all(answers)).toEqual([true, true, true, true, true]);
    expect(written).toEqual([[], [1, 2], [1, 2, 3, 4]]);
    expect(await inputs(db, actor)).toEqual([1, 2, 3, 4, 5]);
    await recorder.close();
  });

  it('13.2 BRK-121 a batch of more than MAX_SLICES slices (the writes falling behind) is cut into MAX_SLICES larger ones', async () => {
    const actor = nextActor();
    const w = watchedWrite();
    const recorder = new UsageRecorder(db, noBudget, { flushDelayMs: NEVER, sliceRows: 2, write: w.write });
    const calls = MAX_SLICES * 3 + 1;
    const answers = Array.from({ length: calls }, (_, i) => recorder.record(call(i + 1, actor)));
    await recorder.settled();
    expect(await Promise.all(answers)).toEqual(answers.map(() => true));
    // 61 rows in slices of 4 (61 / 20, rounded up): 15 of 4 and the last 1.
    expect(w.slices).toEqual([...Array.from({ length: 15 }, () => 4), 1]);
    expect(w.turnBefore.every((t) => t)).toBe(true);
    expect(await inputs(db, actor)).toEqual(Array.from({ length: calls }, (_, i) => i + 1));
    await recorder.close();
  });

  it('22 BRK-121 with sliceMs, slices grow while one is timed under it (up to one 25-row statement) and shrink after a slow one; never under sliceRows', async () => {
    expect(usageSliceMs('pglite')).toBe(PGLITE_SLICE_MS);
    expect(usageSliceMs('postgres')).toBeUndefined();
    const actor = nextActor();
    const slices: number[] = [];
    // A clock the write moves: a slice takes 0.2 ms and 0.02 ms a row, or 10 ms while `slow`.
    let clock = 0;
    let slow = false;
    const recorder = new UsageRecorder(db, noBudget, {
      flushDelayMs: NEVER,
      sliceRows: 2,
      sliceMs: 1,
      now: () => clock,
      write: async (into, calls, syncCommit) => {
        slices.push(calls.length);
        await writeCalls(into, calls, syncCommit);
        clock += slow ? 10 : 0.2 + 0.02 * calls.length;
      },
    });
    let n = 0;
    const record = async (count: number) => {
      const answers = Array.from({ length: count }, () => recorder.record(call(++n, actor)));
      await recorder.settled();
      expect(await Promise.all(answers)).toEqual(answers.map(() => true));
    };
    await record(40);
    // 2 rows take 0.24 ms (room for 8, at most twice as many: 4), 4 take 0.28 ms (8), 8 take
    // 0.36 ms (16), 16 take 0.52 ms (30, at most one statement's 25); 10 are left.
    expect(slices).toEqual([2, 4, 8, 16, 10]);
    slices.length = 0;
    await record(30);
    expect(slices).toEqual([25, 5]);
    slices.length = 0;
    slow = true;
    await record(3);
    // Those 3 rows took 10 ms: the next slices are sliceRows again.
    expect(slices).toEqual([3]);
    await record(4);
    expect(slices).toEqual([3, 2, 2]);
    slow = false;
    slices.length = 0;
    await record(7);
    expect(slices).toEqual([2, 4, 1]);
    expect(await inputs(db, actor)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(await rollup(db, actor)).toEqual({ calls: n, input: (n * (n + 1)) / 2 });
    await recorder.close();
  });

  it('13.2 BRK-121 a broker killed between two slices: once it restarts, every journaled call has one row and the rollup sums them', async () => {
    const data = join(dir, 'pglite');
    const journalDir = join(dir, 'broker-usage-journal');
    // Ten journaled calls, written in slices of four: killed at the pause after the first slice.
    const child: ChildProcess = fork(
      fileURLToPath(new URL('./slice-kill-process.ts', import.meta.url)),
      [data, journalDir, '10', '4'],
      { execArgv: ['--conditions=source', '--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const paused = await new Promise<{ committed: number }>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the recorder exited (code ${code}) before its first slice`)));
      child.once('message', (m: { committed: number }) => resolve(m));
    });
    child.kill('SIGKILL');
    await exited;
    expect(paused).toEqual({ committed: 4 });
    expect(segments(journalDir)).toHaveLength(1);

    // The folder opened again: the first slice is in; a restarted broker commits the rest, once.
    const pglite = await openPglite(data);
    try {
      const restarted = (await openDatabase<DB>({ schema: 'broker', pglite })).db;
      expect(await inputs(restarted)).toEqual([1, 2, 3, 4]);
      const { journal, replayed } = await openUsageJournal(restarted, journalDir);
      expect(replayed).toEqual({ journaled: 10, written: 6 });
      expect(await inputs(restarted)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await rollup(restarted)).toEqual({ calls: 10, input: 55 });
      journal.close();
      expect(segments(journalDir)).toEqual([]);
      expect(existsSync(join(journalDir, 'lock'))).toBe(false);
    } finally {
      await closePglite(pglite);
    }
  }, 120_000);
});
