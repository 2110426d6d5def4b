import { randomUUID } from 'node:crypto';
import { KIT_MIGRATIONS, migrate, rollback } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/migrations.ts';
import { CONTROLLER, type Harness, harness, PAYMENTS } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** Everything the service's database runs, in order: the kit's tables first. */
const ALL = [...KIT_MIGRATIONS, ...MIGRATIONS];

const applied = async () =>
  (await sql<{ id: string }>`SELECT id FROM schema_migrations ORDER BY id`.execute(h.db)).rows.map((r) => r.id);

const columnExists = async (table: string, column: string) =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${column}`.execute(h.db)
  ).rows[0].n > 0;

const tableExists = async (table: string) =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = ${table}`.execute(h.db)
  ).rows[0].n > 0;

/** Runs rollback and returns what it threw (or undefined when it succeeded). */
async function tryRollback(toId: string) {
  try {
    return { rolled: await rollback(h.db, ALL, toId), error: undefined };
  } catch (e) {
    return { rolled: undefined, error: e as Error };
  }
}

const everyId = ALL.map((m) => m.id).sort();

describe('down migrations refuse while their data exists', () => {
  it('the service ships a down migration for 0002, 0003 and 0004, and the database starts fully migrated', async () => {
    expect(await applied()).toEqual(everyId);
    for (const id of ['0002_payment_links', '0003_deletion_audit', '0004_books_start_event']) {
      expect(MIGRATIONS.find((m) => m.id === id)?.down, id).toBeTruthy();
    }
  });

  it('ACC-244 the books-start event type migration refuses to roll back while such events exist, and rolls back once they are gone', async () => {
    const l = await h.ledger();
    const r = await h.call('POST', `/v1/legal-entities/${l.entity.id}/calendar/books-start`, CONTROLLER, {
      data: { books_start_month: '2025-03-01' },
      why: { detail: 'Books actually started in March' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const countEvents = async () =>
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM calendar_changes WHERE event_type = 'books_start_changed'`.execute(h.db)
      ).rows[0].n;
    expect(await countEvents()).toBe(1);

    const refused = await tryRollback('0003_deletion_audit');
    expect(refused.error?.message).toMatch(/books-start event type/);
    expect(await countEvents()).toBe(1);
    expect(await applied()).toEqual(everyId);

    // Once the events are gone the same rollback succeeds, and the event type is no longer accepted.
    await sql`DELETE FROM calendar_changes WHERE event_type = 'books_start_changed'`.execute(h.db);
    const done = await tryRollback('0003_deletion_audit');
    expect(done.error).toBeUndefined();
    expect(done.rolled).toEqual(['0005_balances_lock_order', '0004_books_start_event']);
    expect(await applied()).not.toContain('0004_books_start_event');
    await expect(
      sql`INSERT INTO calendar_changes (legal_entity_id, event_type, new_value, actor_fid)
        VALUES (${l.entity.id}, 'books_start_changed', '2025-03-01', 'x')`.execute(h.db),
    ).rejects.toThrow();

    expect(await migrate(h.db, ALL)).toEqual(['0004_books_start_event', '0005_balances_lock_order']);
    expect(await applied()).toEqual(everyId);
  });

  it('ACC-242 the deletion audit migration refuses to roll back while deletion records exist, and rolls back once they are gone', async () => {
    const l = await h.ledger();
    const p = await h.posted(l);
    const d = await h.call('DELETE', `/v1/journal-entries/${p.id}`, CONTROLLER, { data: { reason: 'Mistake' } });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(await h.count('deleted_entries')).toBe(1);

    // Rolling back to 0002 runs 0005's and 0004's downs first, then 0003's, which refuses: the whole rollback is undone.
    const refused = await tryRollback('0002_payment_links');
    expect(refused.error?.message).toMatch(/deletion audit records/);
    expect(await h.count('deleted_entries')).toBe(1);
    const snap = await h.call('GET', `/v1/deleted-journal-entries/${p.id}`, CONTROLLER);
    expect(snap.status).toBe(200);
    expect(snap.data.reason).toBe('Mistake');
    expect(await applied()).toEqual(everyId);

    await sql`DELETE FROM deleted_entries`.execute(h.db);
    const done = await tryRollback('0002_payment_links');
    expect(done.error).toBeUndefined();
    expect(done.rolled).toEqual(['0005_balances_lock_order', '0004_books_start_event', '0003_deletion_audit']);
    expect(await tableExists('deleted_entries')).toBe(false);

    expect(await migrate(h.db, ALL)).toEqual([
      '0003_deletion_audit',
      '0004_books_start_event',
      '0005_balances_lock_order',
    ]);
    expect(await tableExists('deleted_entries')).toBe(true);
  });

  it('ACC-243 the payment journal links migration refuses to roll back while links exist, and rolls back once they are gone', async () => {
    const l = await h.ledger();
    const pid = randomUUID();
    const e = await h.posted(l, { as: PAYMENTS, payment_id: pid });
    const linked = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM journal_entries WHERE payment_id = ${pid}`.execute(h.db))
        .rows[0].n;
    expect(await linked()).toBe(1);

    const refused = await tryRollback('0001_ledger');
    expect(refused.error?.message).toMatch(/payment journal links/);
    expect(await linked()).toBe(1);
    const read = await h.call('GET', `/v1/journal-entries/${e.id}`, CONTROLLER);
    expect(read.data.payment_id).toBe(pid);
    expect(await applied()).toEqual(everyId);

    await sql`UPDATE journal_entries SET payment_id = NULL WHERE payment_id IS NOT NULL`.execute(h.db);
    const done = await tryRollback('0001_ledger');
    expect(done.error).toBeUndefined();
    expect(done.rolled).toEqual([
      '0005_balances_lock_order',
      '0004_books_start_event',
      '0003_deletion_audit',
      '0002_payment_links',
    ]);
    expect(await columnExists('journal_entries', 'payment_id')).toBe(false);

    expect(await migrate(h.db, ALL)).toEqual([
      '0002_payment_links',
      '0003_deletion_audit',
      '0004_books_start_event',
      '0005_balances_lock_order',
    ]);
    expect(await columnExists('journal_entries', 'payment_id')).toBe(true);
    expect(await applied()).toEqual(everyId);
  });
});
