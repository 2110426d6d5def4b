import { randomUUID } from 'node:crypto';
import {
  type App,
  chain,
  type Database,
  DevPrincipals,
  devFid,
  devHeaderAuthenticator,
  serviceTokenAuthenticator,
} from '@platform/kit';
import { injectJson, outboxEvents, rowCount, testDatabase } from '@platform/kit/testing';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import type { DB } from '../src/store/db.ts';

/** Dev principals of config/dev-principals.json. */
export const CONTROLLER = 'controller@dev.local';
export const SENIOR = 'senior@dev.local';
export const ACCOUNTANT = 'accountant@dev.local';
export const ADMIN = 'admin@dev.local';
export const SUPERADMIN = 'superadmin@dev.local';
/** Accountant grant plus a Super Admin role label that was never verified. */
export const SUPERLABEL = 'superlabel@dev.local';
export const STAFF = 'staff@dev.local';
export const PAYMENTS = 'service:payments';
export const BILLING = 'service:billing';
export const fid = devFid;
/** The shared service token this harness accepts (X-Platform-Service-Token). */
export const SERVICE_TOKEN = 'accounting-test-service-token';
/** A caller: a dev principal's email or id, the service token acting for a person (`{onBehalfOf}`), or nobody. */
export type As = string | { onBehalfOf: string } | null;

/**
 * One accounting app per test file on a fresh database, with a clock the test sets.
 * `call` sends a request as a principal; commands get a fresh Idempotency-Key unless given one.
 */
export async function harness(opts: { now?: string } = {}) {
  const database = await testDatabase<DB>('accounting', MIGRATIONS);
  let now = new Date(opts.now ?? '2025-06-15T12:00:00Z');
  const directory = DevPrincipals.load();
  const app = await buildApp({
    database,
    authenticator: chain(
      serviceTokenAuthenticator({ tokens: [SERVICE_TOKEN], directory }),
      devHeaderAuthenticator(directory),
    ),
    clock: () => now,
    logLevel: 'silent',
  });
  await app.ready();

  const call = async (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    as: As,
    body?: unknown,
    key: string | null = method === 'GET' ? null : randomUUID(),
  ) => {
    const headers: Record<string, string> =
      as === null
        ? {}
        : typeof as === 'string'
          ? { 'x-dev-principal': as }
          : { 'x-platform-service-token': SERVICE_TOKEN, 'x-platform-on-behalf-of': as.onBehalfOf };
    return injectJson(app as App, method, url, { headers, body, key });
  };

  const h = {
    app: app as App,
    database,
    db: database.db,
    call,
    setNow: (iso: string) => {
      now = new Date(iso);
    },
    now: () => now,
    async entity(input: { chart_code?: string; status?: 'active' | 'inactive'; name?: string } = {}) {
      const r = await call('POST', '/v1/legal-entities', CONTROLLER, {
        data: {
          name: input.name ?? `Entity ${randomUUID().slice(0, 8)}`,
          chart_code: input.chart_code ?? 'US',
          status: input.status ?? 'active',
        },
      });
      if (r.status !== 201) throw new Error(`entity: ${JSON.stringify(r.body)}`);
      return r.data as { id: string; chart_code: string };
    },
    async account(input: {
      chart_code?: string;
      code?: string;
      classification?: string;
      is_postable?: boolean;
      parent_code?: string;
      name?: string;
    }) {
      const r = await call('POST', '/v1/accounts', CONTROLLER, {
        data: {
          chart_code: input.chart_code ?? 'US',
          code: input.code ?? randomUUID().slice(0, 8),
          name: input.name ?? 'Account',
          classification: input.classification ?? 'asset',
          is_postable: input.is_postable ?? true,
          ...(input.parent_code ? { parent_code: input.parent_code } : {}),
        },
      });
      if (r.status !== 201) throw new Error(`account: ${JSON.stringify(r.body)}`);
      return r.data as { id: string; code: string; chart_code: string };
    },
    async calendar(entityId: string, timezone = 'UTC', books_start_month = '2025-01-01') {
      const r = await call('POST', `/v1/legal-entities/${entityId}/calendar`, CONTROLLER, {
        data: { timezone, books_start_month },
      });
      if (r.status !== 201) throw new Error(`calendar: ${JSON.stringify(r.body)}`);
      return r.data;
    },
    /** An active entity with a calendar and a cash (asset) and revenue account in its chart. */
    async ledger(
      opts: { chart_code?: string; timezone?: string; books_start_month?: string; calendar?: boolean } = {},
    ) {
      const chart = opts.chart_code ?? `C${randomUUID().slice(0, 6)}`;
      const entity = await h.entity({ chart_code: chart });
      const cash = await h.account({ chart_code: chart, code: '1000', classification: 'asset', name: 'Cash' });
      const revenue = await h.account({ chart_code: chart, code: '4000', classification: 'revenue', name: 'Rent' });
      if (opts.calendar !== false) await h.calendar(entity.id, opts.timezone, opts.books_start_month);
      return { entity, chart, cash, revenue };
    },
    lines(debitAccount: string, creditAccount: string, amount = 1000, extra: Record<string, unknown> = {}) {
      return [
        { account_id: debitAccount, direction: 'debit', amount, ...extra },
        { account_id: creditAccount, direction: 'credit', amount, ...extra },
      ];
    },
    async draft(
      ledger: { entity: { id: string }; cash: { id: string }; revenue: { id: string } },
      opts: {
        as?: string;
        amount?: number;
        transaction_date?: string;
        payment_id?: string;
        lineExtra?: Record<string, unknown>;
      } = {},
    ) {
      const r = await call('POST', '/v1/journal-entries', opts.as ?? ACCOUNTANT, {
        data: {
          legal_entity_id: ledger.entity.id,
          description: 'Rent received',
          transaction_date: opts.transaction_date ?? '2025-06-10',
          lines: h.lines(ledger.cash.id, ledger.revenue.id, opts.amount ?? 1000, opts.lineExtra),
          ...(opts.payment_id ? { payment_id: opts.payment_id } : {}),
        },
      });
      if (r.status !== 201) throw new Error(`draft: ${JSON.stringify(r.body)}`);
      return r.data as { id: string; status: string; post_month?: string; lines: { id: string }[] };
    },
    async posted(
      ledger: { entity: { id: string }; cash: { id: string }; revenue: { id: string } },
      opts: {
        as?: string;
        amount?: number;
        transaction_date?: string;
        payment_id?: string;
        post_month?: string;
        lineExtra?: Record<string, unknown>;
      } = {},
    ) {
      const d = await h.draft(ledger, opts);
      const q = opts.post_month ? `?post_month=${opts.post_month}` : '';
      const r = await call('POST', `/v1/journal-entries/${d.id}/post${q}`, opts.as ?? CONTROLLER, { data: {} });
      if (r.status !== 200) throw new Error(`post: ${JSON.stringify(r.body)}`);
      return r.data as { id: string; post_month: string; status: string };
    },
    async close(entityId: string, as = CONTROLLER) {
      return call('POST', '/v1/periods/close', as, { data: { legal_entity_id: entityId } });
    },
    /** Rows of the outbox, oldest first: what the command committed for publishing. */
    events: (type?: string) => outboxEvents(database.db, type),
    /** Legacy closures, written straight into the table as old data would be. */
    async legacyClosures(entityId: string, months: string[]) {
      for (const m of months) {
        await sql`INSERT INTO period_closures (legal_entity_id, month) VALUES (${entityId}::uuid, ${m}::date)`.execute(
          database.db,
        );
      }
    },
    /** The entity's closed months, ascending, as YYYY-MM-DD. */
    async closedOf(entityId: string) {
      const r = await sql<{ m: string }>`SELECT to_char(month, 'YYYY-MM-DD') AS m FROM period_closures
        WHERE legal_entity_id = ${entityId}::uuid ORDER BY month`.execute(database.db);
      return r.rows.map((x) => x.m);
    },
    count: (table: string) => rowCount(database.db, table),
    /** A fingerprint of everything accounting writes. */
    async state() {
      const tables = [
        'legal_entities',
        'accounts',
        'journal_entries',
        'journal_lines',
        'calendars',
        'period_closures',
        'period_history',
        'deleted_entries',
        'outbox',
        'idempotency_keys',
        'calendar_changes',
      ];
      const out: Record<string, unknown> = {};
      for (const t of tables) out[t] = await h.count(t);
      const cal = await sql`SELECT legal_entity_id, timezone, books_start_month FROM calendars ORDER BY 1`.execute(
        database.db,
      );
      const entries =
        await sql`SELECT id, status, post_month, description, transaction_date FROM journal_entries ORDER BY id`.execute(
          database.db,
        );
      const bal = await sql`SELECT * FROM balances WHERE debit <> 0 OR credit <> 0 ORDER BY 1, 2, 3`.execute(
        database.db,
      );
      return { ...out, cal: cal.rows, entries: entries.rows, bal: bal.rows };
    },
    async close_() {
      await app.close();
      await database.drop();
    },
  };
  return h;
}

export type Harness = Awaited<ReturnType<typeof harness>>;
export type { Database };
