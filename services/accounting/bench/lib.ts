import { randomBytes } from 'node:crypto';
import { chain, type Database, DevPrincipals, devHeaderAuthenticator, uuidv7 } from '@platform/kit';
import {
  type BenchDatabase,
  type BenchKind,
  benchDatabase as kitBenchDatabase,
  listenOnFreePort,
} from '@platform/kit/testing';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB, Db } from '../src/store/db.ts';

/** Shared pieces of the accounting benchmarks: databases, the server, seeding and statistics. */

export type Kind = BenchKind;
export type { BenchDatabase };

/** A freshly migrated accounting database: in-memory PGlite, or a fresh schema on DATABASE_URL. */
export const benchDatabase = (kind: Kind) => kitBenchDatabase<DB>('accounting', MIGRATIONS, kind);

/** The real app (dev header auth, silent log) listening on 127.0.0.1 on a free port. */
export async function startServer(database: Database<DB>) {
  const app = await buildApp({
    database,
    authenticator: chain(devHeaderAuthenticator(DevPrincipals.load())),
    logLevel: 'silent',
  });
  return { app, ...(await listenOnFreePort(app)) };
}

export interface Ledger {
  entityId: string;
  chart: string;
  /** Account ids, postable, in the entity's chart. */
  accounts: string[];
}

/** An active entity with `accounts` postable accounts in a fresh chart, written straight to the tables. */
export async function seedLedger(db: Db, accounts: number): Promise<Ledger> {
  const entityId = uuidv7();
  const chart = `B${randomBytes(3).toString('hex')}`;
  await sql`INSERT INTO legal_entities (id, name, chart_code, status, created_by)
    VALUES (${entityId}, 'Bench entity', ${chart}, 'active', 'bench')`.execute(db);
  const classes = ['asset', 'liability', 'equity', 'revenue', 'expense'];
  const ids: string[] = [];
  for (let i = 0; i < accounts; i++) {
    const id = uuidv7();
    ids.push(id);
    await sql`INSERT INTO accounts (id, chart_code, code, name, classification, is_postable, created_by)
      VALUES (${id}, ${chart}, ${String(1000 + i * 10)}, ${`Account ${i}`}, ${classes[i % classes.length]}, true, 'bench')`.execute(
      db,
    );
  }
  return { entityId, chart, accounts: ids };
}

/** First day of the month `delta` months from `month` (YYYY-MM-01). */
export function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number);
  const t = y * 12 + (m - 1) + delta;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}-01`;
}

export const currentMonth = (now = new Date()) => `${now.toISOString().slice(0, 7)}-01`;

/**
 * Posted entries [from, to) of 4 balanced lines each (debit x, debit y, credit x, credit y) on
 * accounts spread over the chart, post_month spread over `months` months. Ids are ordered, like
 * the service's uuidv7, so index inserts stay local.
 */
export async function seedPosted(
  db: Db,
  seed: string,
  ledger: Ledger,
  startMonth: string,
  months: number,
  from: number,
  to: number,
) {
  const n = ledger.accounts.length;
  await sql`INSERT INTO journal_entries (id, legal_entity_id, description, transaction_date, source, status, post_month,
      created_by, created_at, updated_at, posted_at, posted_by)
    SELECT (${`${seed}-0000-7000-8`} || lpad(to_hex(g), 15, '0'))::uuid, ${ledger.entityId}::uuid, 'Seeded entry',
      (x.m + (g % 28))::date, 'generated', 'posted', x.m, 'bench', now(), now(), now(), 'bench'
    FROM generate_series(${from}::int, ${to - 1}::int) g,
      LATERAL (SELECT (${startMonth}::date + make_interval(months => g % ${months}::int))::date AS m) x`.execute(db);
  await sql`INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount)
    SELECT (${`${seed}-0000-7000-9`} || lpad(to_hex(g * 4 + k - 1), 15, '0'))::uuid,
      (${`${seed}-0000-7000-8`} || lpad(to_hex(g), 15, '0'))::uuid, k,
      (${ledger.accounts}::uuid[])[1 + ((g * 7 + k * 13) % ${n}::int)],
      CASE WHEN k <= 2 THEN 'debit' ELSE 'credit' END,
      CASE WHEN k % 2 = 1 THEN 100 + g % 997 ELSE 50 + g % 113 END
    FROM generate_series(${from}::int, ${to - 1}::int) g CROSS JOIN generate_series(1, 4) k`.execute(db);
}
