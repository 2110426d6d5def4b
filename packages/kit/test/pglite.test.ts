import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { SharedPglite } from '../src/db/pglite-dialect.ts';

let shared: SharedPglite;
beforeAll(async () => {
  const pg = new PGlite();
  await pg.waitReady;
  shared = new SharedPglite(pg);
});
afterAll(async () => shared.pg.close());

describe('shared PGlite', () => {
  it('serves several services, each in its own schema, on one instance', async () => {
    const a = await openDatabase({ schema: 'svc_a', pglite: shared });
    const b = await openDatabase({ schema: 'svc_b', pglite: shared });
    await sql`CREATE TABLE things (name text)`.execute(a.db);
    await sql`CREATE TABLE things (name text)`.execute(b.db);
    await Promise.all([
      sql`INSERT INTO things VALUES ('a')`.execute(a.db),
      sql`INSERT INTO things VALUES ('b')`.execute(b.db),
      a.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO things VALUES ('a2')`.execute(trx);
      }),
    ]);
    const ra = await sql<{ name: string }>`SELECT name FROM things ORDER BY name`.execute(a.db);
    const rb = await sql<{ name: string }>`SELECT name FROM things ORDER BY name`.execute(b.db);
    expect(ra.rows.map((r) => r.name)).toEqual(['a', 'a2']);
    expect(rb.rows.map((r) => r.name)).toEqual(['b']);
  });

  it('refreshes planner statistics (PGlite has no autovacuum)', async () => {
    const a = await openDatabase({ schema: 'svc_stats', pglite: shared });
    await sql`CREATE TABLE rows_ (n int)`.execute(a.db);
    await sql`INSERT INTO rows_ SELECT generate_series(1, 1000)`.execute(a.db);
    await shared.analyze();
    const r = await sql<{ n: number }>`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'rows_'`.execute(a.db);
    expect(r.rows[0].n).toBe(1000);
  });
});
