import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLER, type Harness, harness } from './harness.ts';

/**
 * Races between commands on one entity. On PGlite requests interleave at await points only; with
 * TEST_POSTGRES_URL they run truly side by side on separate connections. Every assertion is an
 * invariant that holds for any interleaving, so nothing here depends on timing.
 */
let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2025-06-15T12:00:00Z' });
});
afterAll(async () => h.close_());

type Res = Awaited<ReturnType<Harness['call']>>;
const outcome = (r: Res) => (r.status < 300 ? String(r.status) : `${r.status} ${r.errors?.[0]?.code}`);

const post = (id: string, month?: string) =>
  h.call('POST', `/v1/journal-entries/${id}/post${month ? `?post_month=${month}` : ''}`, CONTROLLER, { data: {} });
const reverse = (id: string) => h.call('POST', `/v1/journal-entries/${id}/reverse`, CONTROLLER, { data: {} });
const remove = (id: string) =>
  h.call('DELETE', `/v1/journal-entries/${id}`, CONTROLLER, { data: { reason: 'Entered twice' } });
const correctStart = (entityId: string, books_start_month: string) =>
  h.call('POST', `/v1/legal-entities/${entityId}/calendar/books-start`, CONTROLLER, {
    data: { books_start_month },
    why: { detail: 'Books start later' },
  });

async function postedEntries(entityId: string) {
  const r = await sql<{
    id: string;
    post_month: string;
  }>`SELECT id::text AS id, to_char(post_month, 'YYYY-MM-DD') AS post_month
    FROM journal_entries WHERE legal_entity_id = ${entityId}::uuid AND status = 'posted' ORDER BY id`.execute(h.db);
  return r.rows;
}

async function monthSnapshot(entityId: string, month: string) {
  const entries = (await postedEntries(entityId)).filter((e) => e.post_month === month).map((e) => e.id);
  const bal = await sql<{ account_id: string; debit: string; credit: string }>`SELECT account_id::text AS account_id,
      debit::text AS debit, credit::text AS credit FROM balances
    WHERE legal_entity_id = ${entityId}::uuid AND month = ${month}::date ORDER BY account_id`.execute(h.db);
  return { entries, balances: bal.rows };
}

async function booksStart(entityId: string) {
  return (await h.call('GET', `/v1/period-calendar/current?legal_entity_id=${entityId}`, CONTROLLER)).data
    .books_start_month as string;
}

/** Puts `inner` in the middle of `list`, so it starts while earlier requests are in flight. */
const middle = <T>(list: T[], inner: T) => [...list.slice(0, list.length >> 1), inner, ...list.slice(list.length >> 1)];

describe('locks', () => {
  it('ACC-190 a books-start correction racing postings never leaves a posted entry before the new start', async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const l = await h.ledger({ books_start_month: '2025-01-01' });
      const drafts: { id: string }[] = [];
      for (let i = 0; i < 6; i++) drafts.push(await h.draft(l, { transaction_date: '2025-06-02' }));
      const posts = drafts.map((d) => () => post(d.id, '2025-02-01'));
      const tasks = middle<() => Promise<Res>>(posts, () => correctStart(l.entity.id, '2025-03-01'));
      const results = await Promise.all(tasks.map((t) => t()));
      const correction = results[tasks.length >> 1];
      const postResults = results.filter((_, i) => i !== tasks.length >> 1);

      expect(['200', '422 books_start_excludes_postings']).toContain(outcome(correction));
      for (const r of postResults) expect(['200', '422 period_out_of_range']).toContain(outcome(r));

      const start = await booksStart(l.entity.id);
      const posted = await postedEntries(l.entity.id);
      for (const e of posted) expect(e.post_month >= start, `${e.post_month} before ${start}`).toBe(true);
      expect(posted).toHaveLength(postResults.filter((r) => r.status === 200).length);
      if (correction.status === 200) {
        expect(start).toBe('2025-03-01');
        expect(posted).toEqual([]);
        seen.add('correction first');
      } else {
        // Some posting came first; the start never moved, so every posting went through.
        expect(start).toBe('2025-01-01');
        expect(postResults.every((r) => r.status === 200)).toBe(true);
        seen.add('posting first');
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('ACC-191 concurrent post, reverse and delete of one entry end in a state some serial order produces', async () => {
    type Op = 'post' | 'reverse' | 'delete';
    const ops: Op[] = ['post', 'reverse', 'delete'];
    const NF = '404 journal_entry_not_found';
    /** The outcomes and end state of running the three commands one after another in `order`. */
    const serial = (order: Op[]) => {
      let exists = true;
      let posted = false;
      let reversed = false;
      const out: Record<string, string> = {};
      for (const op of order) {
        if (!exists) out[op] = NF;
        else if (op === 'post') {
          if (posted) out[op] = '409 entry_already_posted';
          else {
            posted = true;
            out[op] = '200';
          }
        } else if (op === 'reverse') {
          if (!posted) out[op] = '409 entry_not_posted';
          else if (reversed) out[op] = '409 entry_already_reversed';
          else {
            reversed = true;
            out[op] = '201';
          }
        } else if (reversed) out[op] = '409 entry_has_reversal';
        else {
          exists = false;
          out[op] = '200';
        }
      }
      return JSON.stringify({
        post: out.post,
        reverse: out.reverse,
        delete: out.delete,
        end: exists ? (posted ? 'posted' : 'draft') : 'gone',
        reversal: reversed,
      });
    };
    const permutations = (xs: Op[]): Op[][] =>
      xs.length <= 1
        ? [xs]
        : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
    const allowed = new Set(permutations(ops).map(serial));

    for (let round = 0; round < 6; round++) {
      const l = await h.ledger();
      const d = await h.draft(l);
      // Vary which command is sent first.
      const order = permutations(ops)[round % 6];
      const run = { post: () => post(d.id), reverse: () => reverse(d.id), delete: () => remove(d.id) };
      const results = await Promise.all(order.map((op) => run[op]()));
      const got: Record<string, string> = {};
      order.forEach((op, i) => {
        got[op] = outcome(results[i]);
      });
      const read = await h.call('GET', `/v1/journal-entries/${d.id}`, CONTROLLER);
      const reversals = await sql<{
        id: string;
      }>`SELECT id FROM journal_entries WHERE reversal_of = ${d.id}::uuid`.execute(h.db);
      const end = read.status === 404 ? 'gone' : read.data.status;
      const state = JSON.stringify({
        post: got.post,
        reverse: got.reverse,
        delete: got.delete,
        end,
        reversal: reversals.rows.length > 0,
      });
      expect([...allowed], `round ${round}: ${state}`).toContain(state);
      // Never a reversal of a deleted entry.
      if (end === 'gone') expect(reversals.rows).toEqual([]);
    }
  });

  it('ACC-192 postings and deletions racing a close of the same month never change the month after the close committed', async () => {
    for (let round = 0; round < 4; round++) {
      const l = await h.ledger({ books_start_month: '2025-05-01' });
      const toPost: { id: string }[] = [];
      for (let i = 0; i < 8; i++) toPost.push(await h.draft(l, { transaction_date: '2025-05-20' }));
      const toDelete: { id: string }[] = [];
      for (let i = 0; i < 4; i++)
        toDelete.push(await h.posted(l, { transaction_date: '2025-05-21', post_month: '2025-05-01' }));

      let atClose: Awaited<ReturnType<typeof monthSnapshot>> | undefined;
      type Task = { kind: 'post' | 'delete' | 'close'; id: string; run: () => Promise<Res> };
      const work: Task[] = [];
      toPost.forEach((d, i) => {
        work.push({ kind: 'post', id: d.id, run: () => post(d.id, '2025-05-01') });
        if (i < toDelete.length) work.push({ kind: 'delete', id: toDelete[i].id, run: () => remove(toDelete[i].id) });
      });
      const tasks = middle<Task>(work, {
        kind: 'close',
        id: l.entity.id,
        run: async () => {
          const r = await h.close(l.entity.id);
          // Right after the close committed: what May holds must never change again.
          atClose = await monthSnapshot(l.entity.id, '2025-05-01');
          return r;
        },
      });
      const results = await Promise.all(tasks.map((t) => t.run()));
      const final = await monthSnapshot(l.entity.id, '2025-05-01');
      expect(final).toEqual(atClose);

      for (const [i, t] of tasks.entries()) {
        const r = results[i];
        const read = await h.call('GET', `/v1/journal-entries/${t.id}`, CONTROLLER);
        if (t.kind === 'close') {
          expect(r.status).toBe(200);
          expect(r.data.closed_month).toBe('2025-05-01');
        } else if (t.kind === 'post') {
          expect(['200', '403 post_month_not_allowed']).toContain(outcome(r));
          if (r.status === 200) {
            expect(read.data).toMatchObject({ status: 'posted', post_month: '2025-05-01' });
            expect(final.entries).toContain(t.id);
          } else expect(read.data.status).toBe('draft');
        } else {
          expect(['200', '409 period_closed']).toContain(outcome(r));
          expect(read.status).toBe(r.status === 200 ? 404 : 200);
          expect(final.entries.includes(t.id)).toBe(r.status !== 200);
        }
      }
    }
  });

  it('ACC-192 concurrent posting and closing of the same month never leave a posting in a month closed before it', async () => {
    for (let round = 0; round < 3; round++) {
      const l = await h.ledger({ books_start_month: '2025-04-01' });
      // April is closed first; May is the soft-closed month the controller posts into while it closes.
      expect((await h.close(l.entity.id)).status).toBe(200);
      const drafts: { id: string }[] = [];
      for (let i = 0; i < 10; i++) drafts.push(await h.draft(l, { transaction_date: '2025-05-02' }));
      let atClose: Awaited<ReturnType<typeof monthSnapshot>> | undefined;
      const tasks = middle<() => Promise<Res>>(
        drafts.map((d) => () => post(d.id, '2025-05-01')),
        async () => {
          const r = await h.close(l.entity.id);
          atClose = await monthSnapshot(l.entity.id, '2025-05-01');
          return r;
        },
      );
      const results = await Promise.all(tasks.map((t) => t()));
      const closeResult = results[tasks.length >> 1];
      expect(closeResult.status).toBe(200);
      expect(closeResult.data.closed_month).toBe('2025-05-01');
      const posts = results.filter((_, i) => i !== tasks.length >> 1);
      const succeeded = drafts
        .filter((_, i) => posts[i].status === 200)
        .map((d) => d.id)
        .sort();
      for (const r of posts) expect(['200', '403 post_month_not_allowed']).toContain(outcome(r));
      // Every posting in May committed before the close: they are exactly what May held when it closed.
      const final = await monthSnapshot(l.entity.id, '2025-05-01');
      expect(final).toEqual(atClose);
      expect([...final.entries].sort()).toEqual(succeeded);
    }
  });

  it('ACC-192 concurrent closes of one entity close consecutive months, each once', async () => {
    const l = await h.ledger({ books_start_month: '2025-01-01' });
    const results = await Promise.all(Array.from({ length: 7 }, () => h.close(l.entity.id)));
    const ok = results
      .filter((r) => r.status === 200)
      .map((r) => r.data.closed_month)
      .sort();
    expect(ok).toEqual(['2025-01-01', '2025-02-01', '2025-03-01', '2025-04-01', '2025-05-01']);
    for (const r of results.filter((x) => x.status !== 200)) expect(outcome(r)).toBe('409 current_period_not_closable');
    const hist = await h.call('GET', `/v1/periods/history?legal_entity_id=${l.entity.id}`, CONTROLLER);
    expect(hist.data).toHaveLength(5);
  });
});

describe('idempotency under concurrency', () => {
  it('PLT-012 PLT-013 concurrent same-key commands produce one effect: one account, the same response for all', async () => {
    const key = randomUUID();
    const chart = `K${randomUUID().slice(0, 6)}`;
    const body = {
      data: { chart_code: chart, code: '1100', name: 'Petty cash', classification: 'asset', is_postable: true },
    };
    const before = await h.count('accounts');
    const eventsBefore = (await h.events('account.created')).length;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => h.call('POST', '/v1/accounts', CONTROLLER, body, key)),
    );
    for (const r of results) {
      expect(r.status).toBe(201);
      expect(r.data).toEqual(results[0].data);
    }
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await h.count('accounts')).toBe(before + 1);
    const rows = await sql<{ id: string }>`SELECT id::text AS id FROM accounts WHERE chart_code = ${chart}`.execute(
      h.db,
    );
    expect(rows.rows).toEqual([{ id: results[0].data.id }]);
    expect((await h.events('account.created')).length).toBe(eventsBefore + 1);
  });
});

describe.skipIf(!process.env.TEST_POSTGRES_URL)(
  'a post that waited for a draft edit judges the edited lines (PostgreSQL)',
  () => {
    it('ACC-064 ACC-191 posting after a concurrent edit that unbalanced the draft is refused', async () => {
      const l = await h.ledger();
      const d = await h.draft(l);
      let posted: Promise<{ status: number; errors?: { code: string }[] }> | undefined;
      await h.db.transaction().execute(async (trx) => {
        // The edit: hold the entry's row lock and unbalance its lines, uncommitted.
        await sql`SELECT id FROM journal_entries WHERE id = ${d.id} FOR UPDATE`.execute(trx);
        await sql`UPDATE journal_lines SET amount = amount + 1 WHERE entry_id = ${d.id} AND direction = 'debit'`.execute(
          trx,
        );
        posted = h.call('POST', `/v1/journal-entries/${d.id}/post`, CONTROLLER, { data: {} });
        // Wait (without a timer) until the post is blocked on the row lock.
        for (let i = 0; i < 400; i++) {
          const waiting = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`.execute(
            h.db,
          );
          if (waiting.rows[0].n > 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
      });
      const r = await (posted as NonNullable<typeof posted>);
      expect(r.status).toBe(422);
      expect(r.errors?.[0].code).toBe('unbalanced_entry');
    });
  },
);

describe.skipIf(!process.env.TEST_POSTGRES_URL)('account-use changes wait for postings in flight (PostgreSQL)', () => {
  it('ACC-030 ACC-191 a postability change waits for a posting that holds its entity, then applies', async () => {
    const l = await h.ledger();
    let changed: Promise<{ status: number }> | undefined;
    await h.db.transaction().execute(async (trx) => {
      // A posting in flight holds its entity's shared lock.
      await sql`SELECT pg_advisory_xact_lock_shared(hashtextextended('accounting:entity:' || ${l.entity.id}::uuid::text, 0))`.execute(
        trx,
      );
      changed = h.call('POST', `/v1/accounts/${l.cash.id}/postability`, CONTROLLER, { data: { is_postable: false } });
      let waited = false;
      for (let i = 0; i < 400 && !waited; i++) {
        const w = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = 'advisory'`.execute(h.db);
        waited = w.rows[0].n > 0;
        if (!waited) await new Promise((r) => setTimeout(r, 10));
      }
      expect(waited).toBe(true);
      const still = await sql<{ p: boolean }>`SELECT is_postable AS p FROM accounts WHERE id = ${l.cash.id}`.execute(
        h.db,
      );
      expect(still.rows[0].p).toBe(true);
    });
    expect((await (changed as NonNullable<typeof changed>)).status).toBe(200);
    const after = await sql<{ p: boolean }>`SELECT is_postable AS p FROM accounts WHERE id = ${l.cash.id}`.execute(
      h.db,
    );
    expect(after.rows[0].p).toBe(false);
  });
});
