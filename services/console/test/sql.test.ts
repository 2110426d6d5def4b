import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServiceDatabase, serviceDatabase } from './fixtures/service-db.ts';
import { consoleHarness, type Harness } from './harness.ts';

let svc: ServiceDatabase;
let h: Harness;
/** On PostgreSQL, the SQL browser's role: LOGIN and pg_read_all_data, nothing else. */
let browserRole: string | undefined;
const marker = `/tmp/console-sql-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  svc = await serviceDatabase('csql');
  const db = svc.database.db;
  await sql.raw(`CREATE TABLE ${svc.service}.things (id serial PRIMARY KEY, v int NOT NULL)`).execute(db);
  await sql.raw(`INSERT INTO ${svc.service}.things (v) SELECT g FROM generate_series(1, 12) g`).execute(db);
  let env: Record<string, string | undefined> = { ...svc.consoleEnv, CONSOLE_SQL_ROW_CAP: '10' };
  const url = process.env.TEST_POSTGRES_URL;
  if (url) {
    browserRole = `console_browser_${randomBytes(4).toString('hex')}`;
    await sql.raw(`CREATE ROLE ${browserRole} LOGIN; GRANT pg_read_all_data TO ${browserRole}`).execute(db);
    const u = new URL(url);
    u.username = browserRole;
    u.password = '';
    env = { ...env, US_CORE_SQL_BROWSER_URL: u.toString() };
  }
  h = await consoleHarness({ env, embedded: svc.embedded });
});
afterAll(async () => {
  await h?.close();
  if (browserRole) await sql.raw(`DROP ROLE ${browserRole}`).execute(svc.database.db);
  await svc?.close();
});

const P = '/v1/environments/us/core';

const run = (text: string, who: 'viewer' | 'admin' = 'viewer') =>
  h.app.inject({ method: 'POST', url: `${P}/sql`, headers: h.headers(who), payload: { data: { sql: text } } });

/** Everything a write could touch: the table's rows and the sequence's position. */
async function state() {
  const rows = await sql
    .raw<{ id: number; v: number }>(`SELECT id, v FROM ${svc.service}.things ORDER BY id`)
    .execute(svc.database.db);
  const seq = await sql
    .raw<{ last_value: string }>(`SELECT last_value::text FROM ${svc.service}.things_id_seq`)
    .execute(svc.database.db);
  const tables = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = ${svc.service}`.execute(
    svc.database.db,
  );
  return { rows: rows.rows, seq: seq.rows[0]?.last_value, tables: tables.rows[0]?.n };
}

describe('21 SQL browser', () => {
  it('21 OPS-046 a viewer reads: columns, rows as arrays, capped at the row cap', async () => {
    const res = await run(`SELECT id, v, v AS v FROM ${svc.service}.things ORDER BY id`);
    expect(res.statusCode).toBe(200);
    const data = res.json().payload.data;
    expect(data.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'v', 'v']);
    expect(data.rows).toHaveLength(10);
    expect(data.rows[0]).toEqual([1, 1, 1]);
    expect(data).toMatchObject({ truncated: true, row_cap: 10 });
    const show = await run('SHOW default_transaction_read_only');
    expect(show.json().payload.data.rows).toEqual([['on']]);
  });

  const writes: [string, string][] = [
    ['INSERT', `INSERT INTO ${'{s}'}.things (v) VALUES (100)`],
    ['UPDATE', `UPDATE {s}.things SET v = v + 1`],
    ['DELETE', `DELETE FROM {s}.things`],
    ['DDL', `DROP TABLE {s}.things`],
    ['DDL create', `CREATE TABLE {s}.other (a int)`],
    ['data-modifying WITH', `WITH d AS (DELETE FROM {s}.things RETURNING *) SELECT count(*) FROM d`],
    ['two statements', `SELECT 1; DROP TABLE {s}.things`],
    ['SET TRANSACTION READ WRITE first', `SET TRANSACTION READ WRITE; INSERT INTO {s}.things (v) VALUES (1)`],
    ['SET TRANSACTION READ WRITE alone', `SET TRANSACTION READ WRITE`],
    ['COMMIT first', `COMMIT; INSERT INTO {s}.things (v) VALUES (1)`],
    ['COPY TO PROGRAM', `COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`],
    ['nextval()', `SELECT nextval('{s}.things_id_seq')`],
  ];

  it('21 OPS-047 every write is a 4xx with a code and changes no row: INSERT, UPDATE, DELETE, DDL, WITH DELETE, SELECT 1; DROP, SET TRANSACTION READ WRITE; INSERT, COMMIT; INSERT, COPY TO PROGRAM, nextval()', async () => {
    const before = await state();
    const answers: Record<string, string> = {};
    for (const [name, text] of writes) {
      for (const who of ['viewer', 'admin'] as const) {
        const res = await run(text.replaceAll('{s}', svc.service), who);
        const code = res.json().payload.errors?.[0]?.code;
        answers[`${name} (${who})`] = `${res.statusCode} ${code}`;
        expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, name).toBeLessThan(500);
        expect(code, name).toMatch(/^sql_/);
        expect(await state(), name).toEqual(before);
      }
    }
    expect(existsSync(marker)).toBe(false);
    expect(answers['two statements (viewer)']).toBe('422 sql_multiple_statements');
    expect(answers['INSERT (viewer)']).toMatch(/^422 sql_(read_only|not_permitted)$/);
  });

  it('21 OPS-047 the browser leaves nothing behind: the next statement still reads, and the services still write', async () => {
    await run('COMMIT');
    await run(`SET search_path TO nowhere`);
    const res = await run(`SELECT count(*)::int FROM ${svc.service}.things`);
    expect(res.json().payload.data.rows).toEqual([[12]]);
    await svc.emit([{ type: 'thing.after', data: {} }]);
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox`.execute(svc.database.db);
    expect(n.rows[0]?.n).toBe(1);
  });
});

describe.skipIf(!process.env.TEST_POSTGRES_URL)('21 SQL browser on PostgreSQL as a superuser', () => {
  it('21 OPS-047 without a read-only role the browser refuses to run at all (501 sql_browser_not_configured)', async () => {
    const su = await consoleHarness({ env: { US_CORE_DATABASE_URL: process.env.TEST_POSTGRES_URL } });
    try {
      const res = await su.app.inject({
        method: 'POST',
        url: `${P}/sql`,
        headers: su.headers('admin'),
        payload: { data: { sql: `COPY (SELECT 1) TO PROGRAM 'touch ${marker}'` } },
      });
      expect(res.statusCode).toBe(501);
      expect(res.json().payload.errors[0].code).toBe('sql_browser_not_configured');
      expect(existsSync(marker)).toBe(false);
    } finally {
      await su.close();
    }
  });
});
