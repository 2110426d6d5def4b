import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../src/auth/principal.ts';
import { runCommand } from '../src/command.ts';
import type { Database } from '../src/db/database.ts';
import type { Migration } from '../src/db/migrate.ts';
import { testDatabase, usingPostgres } from '../src/testing/index.ts';

/**
 * The kit's command path (issue 22.1): the Idempotency-Key is recorded by one INSERT at the end of
 * the command's own transaction, the unique index deciding replays and concurrent duplicates; on
 * PostgreSQL that INSERT travels with the COMMIT. These tests hold the guarantees the claim-first
 * path gave: one effect per key, the stored answer replayed, 409 for a reused key, nothing written
 * on a refusal.
 */
const MIGRATIONS: Migration[] = [
  {
    id: '0001_things',
    up: 'CREATE TABLE things (id serial PRIMARY KEY, name text NOT NULL UNIQUE, note text)',
    down: 'DROP TABLE things',
  },
];

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await testDatabase('kit_commands', MIGRATIONS);
});
afterAll(async () => database.drop());

const principal: Principal = { id: 'person-1', kind: 'person', grants: [] };

/** The parts of a request runCommand reads. */
const request = (key: string, body: unknown, url = '/v1/things') =>
  ({
    headers: { 'idempotency-key': key },
    url,
    method: 'POST',
    routeOptions: { url: '/v1/things' },
    params: {},
    query: {},
    body,
  }) as unknown as FastifyRequest;

/** A command that adds a thing by name (unique) and answers with its row. */
const addThing = (key: string, name: string, note: string | null = null) =>
  runCommand({ db: database.db, req: request(key, { name, note }), principal }, async (trx) => {
    const r = await sql<{ id: number; name: string; note: string | null }>`
      INSERT INTO things (name, note) VALUES (${name}, ${note}) RETURNING id, name, note`.execute(trx);
    return { status: 201, data: r.rows[0] };
  });

const count = async (name: string) =>
  Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM things WHERE name = ${name}`.execute(database.db)).rows[0]?.n,
  );
const keyCount = async (key: string) =>
  Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM idempotency_keys WHERE key = ${key}`.execute(database.db))
      .rows[0]?.n,
  );

describe('22.1 commands record their key at the end of their own transaction', () => {
  it('22.1 PLT-012 a retry with the same key replays the stored answer and writes nothing again', async () => {
    const key = randomUUID();
    const name = `thing-${key}`;
    const first = await addThing(key, name);
    const again = await addThing(key, name);
    expect(first).toMatchObject({ status: 201, replayed: false });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await count(name)).toBe(1);
    expect(await keyCount(key)).toBe(1);
  });

  it('22.1 PLT-014 the same key with another body answers 409 idempotency_key_reused and writes nothing', async () => {
    const key = randomUUID();
    await addThing(key, `a-${key}`);
    await expect(addThing(key, `b-${key}`)).rejects.toMatchObject({ status: 409, code: 'idempotency_key_reused' });
    expect(await count(`b-${key}`)).toBe(0);
  });

  it('22.1 a replay whose work now fails (the first run’s row is in its way) still answers from the store', async () => {
    // The second run's INSERT hits the unique name the first run wrote: the work fails, the key is
    // found stored for the same request, and the stored answer is replayed.
    const key = randomUUID();
    const first = await addThing(key, `u-${key}`);
    await expect(addThing(key, `u-${key}`)).resolves.toEqual({ ...first, replayed: true });
  });

  it('22.1 a command that fails stores no key, so the corrected retry runs', async () => {
    const key = randomUUID();
    const taken = `taken-${key}`;
    await addThing(randomUUID(), taken);
    await expect(addThing(key, taken)).rejects.toMatchObject({ code: '23505' });
    expect(await keyCount(key)).toBe(0);
    const fixed = await runCommand({ db: database.db, req: request(key, { name: taken }), principal }, async () => ({
      status: 200,
      data: { ok: true },
    }));
    expect(fixed).toEqual({ status: 200, data: { ok: true }, replayed: false });
  });

  it('22.1 PLT-015 ten concurrent requests with one key make one effect and the same answer', async () => {
    const key = randomUUID();
    const name = `c-${key}`;
    // Each run's work waits a moment inside its transaction, so on PostgreSQL the runs overlap
    // across the pool's connections (PGlite has one connection and runs them in turn).
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        runCommand({ db: database.db, req: request(key, { name }), principal }, async (trx) => {
          await sql`SELECT pg_sleep(0.01)`.execute(trx);
          const r = await sql<{ id: number }>`
            INSERT INTO things (name) VALUES (${name}) ON CONFLICT (name) DO UPDATE SET note = 'x' RETURNING id`.execute(
            trx,
          );
          return { status: 201, data: { id: r.rows[0]?.id } };
        }),
      ),
    );
    expect(await count(name)).toBe(1);
    expect(await keyCount(key)).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.data))).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    // The row the winner wrote is untouched by the losers' rolled-back upserts.
    const note = await sql<{ note: string | null }>`SELECT note FROM things WHERE name = ${name}`.execute(database.db);
    expect(note.rows[0]?.note).toBeNull();
  });

  it('22.1 a stored answer keeps any text exactly (quotes, backslashes, dollar signs, unicode)', async () => {
    const key = randomUUID();
    const note = `it's a \\"test\\" $1 $$ E'x' \\x00 — ünïcødé 🚀 ${'\n'}line`;
    const first = await addThing(key, `t-${key}`, note);
    const again = await addThing(key, `t-${key}`, note);
    expect(first.data?.note).toBe(note);
    expect(again.data?.note).toBe(note);
    expect(again.replayed).toBe(true);
  });

  it.runIf(usingPostgres())(
    '22.1 on PostgreSQL a command costs begin, its work and one message carrying the key with the commit',
    async () => {
      const sent: string[] = [];
      const original = pg.Client.prototype.query;
      // biome-ignore lint/suspicious/noExplicitAny: spying on pg's overloaded query
      (pg.Client.prototype as any).query = function (this: unknown, q: unknown, ...rest: unknown[]) {
        sent.push(typeof q === 'string' ? q : String((q as { text?: string }).text));
        // biome-ignore lint/suspicious/noExplicitAny: forwarding the same arguments
        return (original as any).call(this, q, ...rest);
      };
      try {
        const key = randomUUID();
        await addThing(key, `pg-${key}`);
      } finally {
        pg.Client.prototype.query = original;
      }
      expect(sent).toHaveLength(3);
      expect(sent[0]).toBe('begin');
      expect(sent[1]).toMatch(/^\s*INSERT INTO things/);
      expect(sent[2]).toMatch(/INSERT INTO idempotency_keys[\s\S]*;\s*commit$/);
    },
  );
});
