/**
 * Issue 13, item 2: the usage journal. A reply's end waits for its call's line in the journal,
 * not for its commit; the journal's segments go once their calls are committed; a broker started
 * on a journal commits what it holds, once, before it serves; one folder, one live broker.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closePglite, KIT_MIGRATIONS, migrate, openDatabase, openPglite, uuidv7 } from '@platform/kit';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/migrations.ts';
import type { BudgetGate, CompletedCall } from '../src/relay/ports.ts';
import { openUsageJournal, UsageRecorder, writeCalls } from '../src/relay/usage-recorder.ts';
import type { DB } from '../src/store/db.ts';
import { JournalLockedError, UsageJournal } from '../src/store/usage-journal.ts';

const call = (n: number): CompletedCall => ({
  usage: {
    id: uuidv7(),
    occurred_at: new Date(Date.UTC(2026, 10, 25, 12, 0, n % 60)),
    actor_fid: 'journal.person@broker.test',
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
const noBudget: BudgetGate = { spent: () => {}, check: async () => {} };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'usage-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function database() {
  const pglite = await openPglite('memory://');
  const db = await openDatabase<DB>({ schema: 'broker', pglite });
  await migrate(db.db, [...KIT_MIGRATIONS, ...MIGRATIONS]);
  return { db: db.db, close: () => closePglite(pglite) };
}

const inputs = async (db: Awaited<ReturnType<typeof database>>['db']) =>
  (await sql<{ n: number }>`SELECT input_tokens AS n FROM usage_events ORDER BY input_tokens`.execute(db)).rows.map(
    (r) => Number(r.n),
  );

describe('13.2 the usage journal', () => {
  it('13.2 BRK-121 a journaled call is answered before its commit, and its segment goes once committed', async () => {
    const d = await database();
    try {
      const { journal } = await openUsageJournal(d.db, dir, { segmentCalls: 2 });
      let writes = 0;
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const recorder = new UsageRecorder(d.db, noBudget, {
        journal,
        write: async (db, calls, sync) => {
          writes += 1;
          await gate;
          await writeCalls(db, calls, sync);
        },
      });
      // Answered at once: the database write has not finished (it waits on the gate).
      expect(await Promise.all([1, 2, 3].map((n) => recorder.record(call(n))))).toEqual([true, true, true]);
      expect(await inputs(d.db)).toEqual([]);
      expect(segments(dir)).toHaveLength(2);
      release();
      await recorder.settled();
      expect(writes).toBeGreaterThan(0);
      expect(await inputs(d.db)).toEqual([1, 2, 3]);
      // The full first segment is gone; the one being written stays until close.
      expect(segments(dir)).toHaveLength(1);
      await recorder.close();
      expect(segments(dir)).toEqual([]);
      expect(existsSync(join(dir, 'lock'))).toBe(false);
    } finally {
      await d.close();
    }
  });

  it('22 BRK-121 the calls ending in one turn of the event loop share one journal write, each answered once it returned, before any commit', async () => {
    const d = await database();
    try {
      const { journal } = await openUsageJournal(d.db, dir);
      const appends: number[] = [];
      const appendAll = journal.appendAll.bind(journal);
      journal.appendAll = (calls) => {
        appends.push(calls.length);
        appendAll(calls);
      };
      let writes = 0;
      const recorder = new UsageRecorder(d.db, noBudget, {
        journal,
        flushDelayMs: 3_600_000,
        write: async (db, calls, sync) => {
          writes += 1;
          await writeCalls(db, calls, sync);
        },
      });
      const answered: number[] = [];
      const first = [1, 2, 3, 4, 5].map((n) => recorder.record(call(n)).then((ok) => ok && answered.push(n)));
      // Nothing is answered within the turn that recorded the calls: their lines are not written yet.
      await Promise.resolve();
      expect(answered).toEqual([]);
      await Promise.all(first);
      expect(answered).toEqual([1, 2, 3, 4, 5]);
      expect(appends).toEqual([5]);
      const lines = readFileSync(join(dir, segments(dir)[0] as string), 'utf8')
        .trim()
        .split('\n');
      expect(lines.map((l) => (JSON.parse(l) as CompletedCall).usage.input_tokens)).toEqual([1, 2, 3, 4, 5]);
      expect(await recorder.record(call(6))).toBe(true);
      expect(appends).toEqual([5, 1]);
      expect(writes).toBe(0);
      expect(await inputs(d.db)).toEqual([]);

      // A journal that cannot be written leaves its calls to their commit.
      journal.appendAll = () => {
        throw new Error('disk full');
      };
      let committed = false;
      const late = recorder.record(call(7)).then((ok) => {
        committed = ok;
      });
      await new Promise((r) => setImmediate(r));
      expect(committed).toBe(false);
      await recorder.settled();
      await late;
      expect(committed).toBe(true);
      expect(await inputs(d.db)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      journal.appendAll = appendAll;
      await recorder.close();
      expect(segments(dir)).toEqual([]);
    } finally {
      await d.close();
    }
  });

  it('13.2 BRK-121 a broker started on a journal commits what was not committed, once, and skips a torn last line', async () => {
    const d = await database();
    try {
      // A broker that journaled 1..4, committed 1 and 2, then died (its lock names a dead pid).
      const first = UsageJournal.open(dir).journal;
      const calls = [1, 2, 3, 4].map(call);
      for (const c of calls) first.append(c);
      await writeCalls(d.db, calls.slice(0, 2));
      // Its segment stays (the journal was told of no commit); its lock names a pid no process has.
      first.close();
      writeFileSync(join(dir, 'lock'), '999999999');
      const seg = segments(dir)[0] as string;
      writeFileSync(join(dir, seg), '{"usage":{"id":"torn', { flag: 'a' });

      const { journal, replayed } = await openUsageJournal(d.db, dir);
      expect(replayed).toEqual({ journaled: 4, written: 2 });
      expect(await inputs(d.db)).toEqual([1, 2, 3, 4]);
      const daily = await sql<{ calls: number }>`SELECT sum(calls) AS calls FROM usage_daily`.execute(d.db);
      expect(Number(daily.rows[0]?.calls)).toBe(4);
      expect(segments(dir)).toEqual([]);
      journal.close();
    } finally {
      await d.close();
    }
  });

  it('13.2 a journal folder held by a live broker is refused, in this process or another', () => {
    const held = UsageJournal.open(dir).journal;
    try {
      expect(() => UsageJournal.open(dir)).toThrow(JournalLockedError);
    } finally {
      held.close();
    }
    writeFileSync(join(dir, 'lock'), String(process.ppid));
    expect(() => UsageJournal.open(dir)).toThrow(JournalLockedError);
    // Once that process is gone (a pid no process has), the folder is taken over.
    writeFileSync(join(dir, 'lock'), '999999999');
    UsageJournal.open(dir).journal.close();
  });
});
