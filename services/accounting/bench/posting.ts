import { randomBytes, randomUUID } from 'node:crypto';
import { uuidv7 } from '@platform/kit';
import { type KyselyPlugin, sql } from 'kysely';
import { Pool } from 'undici';
import type { Db } from '../src/store/db.ts';
import { httpPostingLoad, httpPostingLoadInWorker, type LoadOptions } from './http-load.ts';
import {
  addMonths,
  benchDatabase,
  currentMonth,
  type Kind,
  type Ledger,
  seedLedger,
  seedPosted,
  startServer,
} from './lib.ts';
import { CONTROLLER, closedLoop, median, quantile, round } from './measure.ts';

/**
 * Posted entries per second: the service over HTTP (create + post, 16 keep-alive clients) against
 * the raw SQL of the same writes through the same driver (16 workers), on one database.
 */
export interface PostingOptions {
  clients: number;
  warmupMs: number;
  count: number;
  /** Sequential create+post pairs timed with per-query instrumentation. */
  profileCount: number;
  inlineClient: boolean;
}

export const POSTING_DEFAULTS: PostingOptions = {
  clients: 16,
  warmupMs: 3000,
  count: 2000,
  profileCount: 200,
  inlineClient: process.env.BENCH_CLIENT === 'inline',
};

const summary = (r: {
  count: number;
  seconds: number;
  perSecond: number;
  latenciesMs: number[];
  cpuMsPerOp: number;
}) => ({
  entries: r.count,
  seconds: round(r.seconds, 3),
  entries_per_second: round(r.perSecond, 1),
  node_cpu_ms_per_entry: round(r.cpuMsPerOp),
  latency_ms: {
    p50: round(median(r.latenciesMs)),
    p95: round(quantile(r.latenciesMs, 0.95)),
    p99: round(quantile(r.latenciesMs, 0.99)),
  },
});

/** The writes the service makes for create + post, as plain SQL in two transactions. */
/** The idempotency record a command stores in its transaction (the same columns the kit writes). */
const idempotencyRecord = (key: string, path: string, response: unknown) => sql`INSERT INTO idempotency_keys
    (key, request_hash, method, path, principal_id, status, response)
  VALUES (${key}, ${'0'.repeat(64)}, 'POST', ${path}, ${CONTROLLER}, 200, ${JSON.stringify(response)})`;

async function rawPostedEntry(
  db: Db,
  ledger: Ledger,
  date: string,
  month: string,
  amount: number,
  withRecords = false,
) {
  const [a, b, c] = ledger.accounts;
  const id = uuidv7();
  await db.transaction().execute(async (trx) => {
    const now = new Date();
    await sql`INSERT INTO journal_entries (id, legal_entity_id, description, transaction_date, source, status,
        payment_id, reversal_of, created_by, created_at, updated_at)
      VALUES (${id}, ${ledger.entityId}, 'Bench rent and fee', ${date}, 'manual', 'draft', NULL, NULL, ${CONTROLLER}, ${now}, ${now})`.execute(
      trx,
    );
    await sql`INSERT INTO journal_lines (id, entry_id, line_no, account_id, direction, amount) VALUES
      (${uuidv7()}, ${id}, 1, ${a}, 'debit', ${amount - 100}),
      (${uuidv7()}, ${id}, 2, ${b}, 'debit', 100),
      (${uuidv7()}, ${id}, 3, ${c}, 'credit', ${amount})`.execute(trx);
    if (withRecords) await idempotencyRecord(uuidv7(), '/v1/journal-entries', { id }).execute(trx);
  });
  await db.transaction().execute(async (trx) => {
    const now = new Date();
    await sql`UPDATE journal_entries SET status = 'posted', post_month = ${month}, posted_by = ${CONTROLLER},
        posted_at = ${now}, updated_at = ${now}
      WHERE id = ${id} AND status = 'draft'`.execute(trx);
    if (withRecords) await idempotencyRecord(uuidv7(), `/v1/journal-entries/${id}/post`, { id }).execute(trx);
  });
}

/** Counts and times every statement Kysely runs (BEGIN/COMMIT are not seen by plugins). */
function queryTimer() {
  const started = new Map<unknown, number>();
  const stats = { queries: 0, ms: 0 };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      started.set(args.queryId, performance.now());
      return args.node;
    },
    async transformResult(args) {
      const t = started.get(args.queryId);
      if (t !== undefined) {
        stats.queries++;
        stats.ms += performance.now() - t;
        started.delete(args.queryId);
      }
      return args.result;
    },
  };
  return { plugin, stats };
}

/**
 * Where the time of one create + post goes, one request at a time: wall time seen by the client,
 * of which time inside SQL statements (as Kysely sees it), and the statement count.
 */
async function profileHttp(kind: Kind, count: number) {
  const bench = await benchDatabase(kind);
  try {
    const timer = queryTimer();
    const database = { ...bench.database, db: bench.database.db.withPlugin(timer.plugin) };
    const ledger = await seedLedger(bench.database.db, 3);
    await prepare(bench.database.db, ledger);
    const server = await startServer(database);
    const pool = new Pool(server.url, { connections: 1 });
    const [a, b, c] = ledger.accounts;
    const date = new Date().toISOString().slice(0, 10);
    const phases = { create: [] as number[], post: [] as number[] };
    const sqlMs = { create: [] as number[], post: [] as number[] };
    const queries = { create: [] as number[], post: [] as number[] };
    const send = async (phase: 'create' | 'post', path: string, body: unknown) => {
      const q0 = timer.stats.queries;
      const m0 = timer.stats.ms;
      const t0 = performance.now();
      const res = await pool.request({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'x-dev-principal': CONTROLLER, 'idempotency-key': randomUUID() },
        body: JSON.stringify(body),
      });
      const json = (await res.body.json()) as { payload: { data: { id: string } } };
      phases[phase].push(performance.now() - t0);
      sqlMs[phase].push(timer.stats.ms - m0);
      queries[phase].push(timer.stats.queries - q0);
      if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(json)}`);
      return json.payload.data;
    };
    const one = async (i: number) => {
      const amount = 1000 + i;
      const e = await send('create', '/v1/journal-entries', {
        data: {
          legal_entity_id: ledger.entityId,
          description: 'Bench rent and fee',
          transaction_date: date,
          lines: [
            { account_id: a, direction: 'debit', amount: amount - 100 },
            { account_id: b, direction: 'debit', amount: 100 },
            { account_id: c, direction: 'credit', amount },
          ],
        },
      });
      await send('post', `/v1/journal-entries/${e.id}/post`, { data: {} });
    };
    for (let i = 0; i < 50; i++) await one(i);
    for (const k of ['create', 'post'] as const) {
      phases[k].length = 0;
      sqlMs[k].length = 0;
      queries[k].length = 0;
    }
    for (let i = 0; i < count; i++) await one(i);
    await analyze(bench.database.db);
    // The raw writes, one at a time, timed the same way.
    const rawMs: number[] = [];
    const rawSqlMs: number[] = [];
    const rawQueries: number[] = [];
    const month = currentMonth();
    for (let i = 0; i < 50 + count; i++) {
      const q0 = timer.stats.queries;
      const m0 = timer.stats.ms;
      const t0 = performance.now();
      await rawPostedEntry(database.db, ledger, date, month, 1000 + i);
      if (i >= 50) {
        rawMs.push(performance.now() - t0);
        rawSqlMs.push(timer.stats.ms - m0);
        rawQueries.push(timer.stats.queries - q0);
      }
    }
    await pool.close();
    await server.close();
    const row = (k: 'create' | 'post') => ({
      wall_ms_p50: round(median(phases[k])),
      sql_ms_p50: round(median(sqlMs[k])),
      statements: median(queries[k]),
    });
    return {
      entries: count,
      create: row('create'),
      post: row('post'),
      raw: { wall_ms_p50: round(median(rawMs)), sql_ms_p50: round(median(rawSqlMs)), statements: median(rawQueries) },
      note: 'statements and sql_ms count what Kysely runs; BEGIN/COMMIT (2 transactions per entry, both ways) are not included',
    };
  } finally {
    await bench.drop();
  }
}

/**
 * The ledger the posting runs on: its entity, 3 accounts and a calendar, beside a history of
 * `HISTORY_LINES` posted lines of another entity, then ANALYZE. A ledger is rarely empty, and
 * PGlite has no autovacuum: a plan cached while the tables were empty (the lines-insert balance
 * trigger joins journal_entries) would scan journal_entries on every posting from then on, and
 * postings would slow down as the run goes (measured: 2.7 to 8.6 ms per lines insert over 6,000
 * entries). With history and fresh statistics the plans are the steady-state ones.
 */
export const HISTORY_LINES = 20_000;

async function prepare(db: Db, ledger: Ledger) {
  await configureCalendar(db, ledger);
  const history = await seedLedger(db, 50);
  await seedPosted(
    db,
    randomBytes(4).toString('hex'),
    history,
    addMonths(currentMonth(), -24),
    24,
    0,
    HISTORY_LINES / 4,
  );
  await analyze(db);
}

const analyze = (db: Db) => sql`ANALYZE journal_entries, journal_lines, balances`.execute(db);

async function configureCalendar(db: Db, ledger: Ledger) {
  await sql`INSERT INTO calendars (legal_entity_id, timezone, books_start_month, configured_by)
    VALUES (${ledger.entityId}, 'UTC', ${addMonths(currentMonth(), -12)}, 'bench')`.execute(db);
}

export async function postingBench(kind: Kind, o: PostingOptions = POSTING_DEFAULTS, log = (_: string) => {}) {
  const bench = await benchDatabase(kind);
  let result: Record<string, unknown>;
  try {
    const { database } = bench;
    const ledger = await seedLedger(database.db, 3);
    await prepare(database.db, ledger);
    const server = await startServer(database);
    const date = new Date().toISOString().slice(0, 10);
    const load: LoadOptions = {
      url: server.url,
      ledger,
      clients: o.clients,
      warmupMs: o.warmupMs,
      count: o.count,
      transactionDate: date,
    };
    log(
      `${kind}: HTTP create+post, ${o.clients} clients (${o.inlineClient ? 'client on the server thread' : 'client in a worker thread'})`,
    );
    const http = o.inlineClient ? await httpPostingLoad(load) : await httpPostingLoadInWorker(load);
    await server.close();

    await analyze(database.db);
    log(`${kind}: raw SQL of the same writes, ${o.clients} workers`);
    const month = currentMonth();
    let n = 0;
    const raw = await closedLoop(o.clients, o.warmupMs, o.count, () =>
      rawPostedEntry(database.db, ledger, date, month, 1000 + (n++ % 900)),
    );
    await analyze(database.db);
    log(`${kind}: raw SQL of the same writes plus the two idempotency records, ${o.clients} workers`);
    const rawWithRecords = await closedLoop(o.clients, o.warmupMs, o.count, () =>
      rawPostedEntry(database.db, ledger, date, month, 1000 + (n++ % 900), true),
    );

    // The triggers kept balances equal to the posted lines.
    const check = await sql<{ lines: number; bal: number; drafts: number }>`SELECT
        (SELECT coalesce(sum(amount), 0)::int8 FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
          WHERE e.status = 'posted' AND l.direction = 'debit') AS lines,
        (SELECT coalesce(sum(debit), 0)::int8 FROM balances) AS bal,
        (SELECT count(*)::int FROM journal_entries WHERE status = 'draft') AS drafts`.execute(database.db);
    const c = check.rows[0];
    if (Number(c.lines) !== Number(c.bal) || c.drafts !== 0)
      throw new Error(`balances check failed: ${JSON.stringify(c)}`);

    result = {
      clients: o.clients,
      warmup_ms: o.warmupMs,
      client_thread: o.inlineClient ? 'server thread' : 'worker thread',
      history_lines: HISTORY_LINES,
      http: summary(http),
      raw: summary(raw),
      raw_with_idempotency_records: summary(rawWithRecords),
      ratio_http_to_raw: round(http.perSecond / raw.perSecond, 3),
      ratio_http_to_raw_with_idempotency_records: round(http.perSecond / rawWithRecords.perSecond, 3),
      goal_ratio_min: 0.5,
    };
  } finally {
    await bench.drop();
  }
  if (o.profileCount > 0) {
    log(`${kind}: profile, ${o.profileCount} sequential create+post with statement timing`);
    result.profile_sequential = await profileHttp(kind, o.profileCount);
  }
  return result;
}
