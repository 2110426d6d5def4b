import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Pool } from 'undici';
import type { Db } from '../src/store/db.ts';
import { trialTotals } from '../src/store/reports.ts';
import { addMonths, benchDatabase, currentMonth, type Kind, seedLedger, seedPosted, startServer } from './lib.ts';
import { CONTROLLER, median, quantile, round } from './measure.ts';

/**
 * Trial-balance latency at 10 thousand and at 1 million posted lines. Lines are seeded with
 * set-based SQL straight into journal_entries / journal_lines as posted rows; the statement-level
 * triggers keep the balances table right, as they do for any writer.
 */
export interface TrialBalanceOptions {
  sizes: number[];
  accounts: number;
  months: number;
  linesPerEntry: 4;
  /** Lines per INSERT statement when seeding. */
  batchLines: number;
  warmup: number;
  requests: number;
}

export const TRIAL_BALANCE_DEFAULTS: TrialBalanceOptions = {
  sizes: [10_000, 1_000_000],
  accounts: 50,
  months: 24,
  linesPerEntry: 4,
  batchLines: 100_000,
  warmup: 30,
  requests: 100,
};

async function counts(db: Db) {
  const r = await sql<{ lines: number; entries: number; balances: number; ok: boolean }>`SELECT
      (SELECT count(*)::int FROM journal_lines) AS lines,
      (SELECT count(*)::int FROM journal_entries) AS entries,
      (SELECT count(*)::int FROM balances) AS balances,
      (SELECT sum(debit) = sum(credit) FROM balances) AS ok`.execute(db);
  return r.rows[0];
}

export async function trialBalanceBench(
  kind: Kind,
  o: TrialBalanceOptions = TRIAL_BALANCE_DEFAULTS,
  log = (_: string) => {},
) {
  const bench = await benchDatabase(kind);
  try {
    const { database } = bench;
    const db = database.db;
    const ledger = await seedLedger(db, o.accounts);
    const seed = randomBytes(4).toString('hex');
    const startMonth = addMonths(currentMonth(), -o.months);
    const server = await startServer(database);
    const pool = new Pool(server.url, { connections: 1 });
    const path = `/v1/trial-balance?legal_entity_id=${ledger.entityId}`;
    const get = async () => {
      const t0 = performance.now();
      const res = await pool.request({ method: 'GET', path, headers: { 'x-dev-principal': CONTROLLER } });
      const json = (await res.body.json()) as {
        payload: { data: { accounts: unknown[]; totals: { debit: number; credit: number } } };
      };
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`trial balance: ${res.statusCode} ${JSON.stringify(json)}`);
      return { ms, data: json.payload.data };
    };

    const sizes: Record<string, unknown>[] = [];
    let entries = 0;
    let previousLines = 0;
    for (const size of o.sizes) {
      const targetEntries = Math.ceil(size / o.linesPerEntry);
      const batchEntries = Math.max(1, Math.floor(o.batchLines / o.linesPerEntry));
      const t0 = performance.now();
      while (entries < targetEntries) {
        const to = Math.min(targetEntries, entries + batchEntries);
        await seedPosted(db, seed, ledger, startMonth, o.months, entries, to);
        entries = to;
        log(
          `${kind}: seeded ${(entries * o.linesPerEntry).toLocaleString('en-US')} lines (${round((performance.now() - t0) / 1000, 1)} s)`,
        );
      }
      const seedSeconds = (performance.now() - t0) / 1000;
      // As autovacuum would after a bulk load: fresh planner statistics.
      await sql`ANALYZE journal_entries, journal_lines, balances, accounts, legal_entities`.execute(db);
      const c = await counts(db);
      if (!c.ok) throw new Error('balances do not balance');

      for (let i = 0; i < o.warmup; i++) await get();
      const http: number[] = [];
      let body: Awaited<ReturnType<typeof get>>['data'] | undefined;
      for (let i = 0; i < o.requests; i++) {
        const r = await get();
        http.push(r.ms);
        body = r.data;
      }
      // The report's SQL alone, through the same driver.
      const sqlMs: number[] = [];
      for (let i = 0; i < o.warmup + o.requests; i++) {
        const s = performance.now();
        await trialTotals(db, ledger.entityId, null, null);
        if (i >= o.warmup) sqlMs.push(performance.now() - s);
      }
      if (!body || body.totals.debit !== body.totals.credit) throw new Error('trial balance does not balance');
      sizes.push({
        posted_lines: c.lines,
        entries: c.entries,
        balance_rows: c.balances,
        report_accounts: body.accounts.length,
        seed_seconds: round(seedSeconds, 1),
        seed_lines_per_second: Math.round((c.lines - previousLines) / seedSeconds),
        http_ms: { p50: round(median(http)), p95: round(quantile(http, 0.95)), min: round(Math.min(...http)) },
        sql_ms: { p50: round(median(sqlMs)), p95: round(quantile(sqlMs, 0.95)) },
      });
      previousLines = c.lines;
      log(`${kind}: trial balance at ${c.lines.toLocaleString('en-US')} lines: p50 ${round(median(http))} ms`);
    }
    await pool.close();
    await server.close();
    const p50 = (i: number) => (sizes[i].http_ms as { p50: number }).p50;
    return {
      accounts: o.accounts,
      months: o.months,
      lines_per_entry: o.linesPerEntry,
      batch_lines: o.batchLines,
      requests: o.requests,
      warmup: o.warmup,
      sizes,
      ratio_large_to_small: round(p50(sizes.length - 1) / p50(0), 3),
      goal_ratio_max: 2,
    };
  } finally {
    await bench.drop();
  }
}
