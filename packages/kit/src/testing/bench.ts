import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type Database, type KitTables, openDatabase, openPglite } from '../db/database.ts';
import { type Migration, migrate } from '../db/migrate.ts';
import { KIT_MIGRATIONS } from '../kit-migrations.ts';
import { round } from './measure.ts';

/**
 * What every service benchmark shares: the databases it runs on, a server on a free port, the
 * machine it ran on, its table of goals and its results file.
 */

export type BenchKind = 'pglite' | 'postgres';

/** Benchmark knobs from the environment. */
export const benchEnv = {
  num: (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback),
  list: (name: string, fallback: number[]) =>
    process.env[name] ? (process.env[name] as string).split(',').map(Number) : fallback,
};

export interface BenchDatabase<DB extends KitTables = KitTables> {
  database: Database<DB>;
  /** Drops what the bench made: the PGlite instance, or the PostgreSQL schema. */
  drop(): Promise<void>;
}

/**
 * A freshly migrated database for `service`: its own in-memory PGlite, or a fresh schema
 * <service>_bench_<random> on DATABASE_URL (pool as in production).
 */
export async function benchDatabase<DB extends KitTables = KitTables>(
  service: string,
  migrations: Migration[],
  kind: BenchKind,
): Promise<BenchDatabase<DB>> {
  if (kind === 'pglite') {
    const shared = await openPglite('memory://');
    const database = await openDatabase<DB>({ schema: service, pglite: shared });
    await migrate(database.db, [...KIT_MIGRATIONS, ...migrations]);
    return {
      database,
      async drop() {
        await database.close();
        await shared.pg.close();
      },
    };
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  const schema = `${service}_bench_${randomBytes(4).toString('hex')}`;
  const database = await openDatabase<DB>({ schema, url });
  await migrate(database.db, [...KIT_MIGRATIONS, ...migrations]);
  return {
    database,
    async drop() {
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
      await database.close();
    },
  };
}

/** A built app listening on 127.0.0.1 on a free port. */
export async function listenOnFreePort(app: {
  listen(o: { host: string; port: number }): Promise<unknown>;
  server: { address(): unknown };
  close(): Promise<unknown>;
}) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: async () => void (await app.close()) };
}

export const fmt = (x: number, d = 1) =>
  x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

/**
 * One benchmark run: progress lines on stderr, the machine it ran on (a load average above the
 * CPU count is warned about), a table of measures and goals, and the results file.
 */
export class BenchRun {
  private readonly started = performance.now();
  readonly machine = {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    memory_gb: round(totalmem() / 2 ** 30, 1),
    load_avg_1m_at_start: round(loadavg()[0] ?? 0),
    load_avg_1m_at_end: 0,
  };
  private readonly rows: string[][] = [];
  private readonly missed: string[] = [];
  private database = '';

  constructor(private readonly name: string) {
    if (this.machine.load_avg_1m_at_start > this.machine.cpus) {
      this.log(
        `warning: load average ${this.machine.load_avg_1m_at_start} > ${this.machine.cpus} CPUs: other work is running, figures will be noisy`,
      );
    }
  }

  log = (m: string) => console.error(`[${((performance.now() - this.started) / 1000).toFixed(1)} s] ${m}`);

  /** The rows that follow are this database's. */
  section(database: string) {
    this.database = database;
  }

  row = (measure: string, value: string, goal = '', result = '') => {
    this.rows.push([this.database, measure, value, goal, result]);
    this.database = '';
  };

  /** 'met' or 'MISSED'; missed goals are listed at the end (and fail the run with BENCH_STRICT=1). */
  goal = (name: string, ok: boolean) => {
    if (!ok) this.missed.push(name);
    return ok ? 'met' : 'MISSED';
  };

  /** Prints the table, writes bench/results/<name>.json next to the caller's `resultsDir`. */
  finish(resultsDir: URL, results: Record<string, unknown>, subtitle = '') {
    this.machine.load_avg_1m_at_end = round(loadavg()[0] ?? 0);
    const m = this.machine;
    const head = ['database', 'measure', 'value', 'goal', 'result'];
    const widths = head.map((h, i) => Math.max(h.length, ...this.rows.map((r) => (r[i] as string).length)));
    const line = (r: string[]) =>
      r
        .map((c, i) => (i === 2 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
        .join('  ')
        .trimEnd();
    const title = this.name[0]?.toUpperCase() + this.name.slice(1);
    console.log(
      `\n${title} benchmark: ${m.cpus} CPUs (${m.cpu_model}), node ${m.node}${subtitle ? `, ${subtitle}` : ''}, load average ${m.load_avg_1m_at_start} at start, ${m.load_avg_1m_at_end} at end`,
    );
    console.log(line(head));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const r of this.rows) console.log(line(r));

    const dir = fileURLToPath(resultsDir);
    mkdirSync(dir, { recursive: true });
    const file = `${dir.replace(/\/?$/, '/')}${this.name}.json`;
    writeFileSync(
      file,
      `${JSON.stringify({ generated_at: new Date().toISOString(), machine: m, ...results }, null, 2)}\n`,
    );
    console.log(
      `\nwritten ${file} (${round((performance.now() - this.started) / 1000, 0)} s in all; free memory ${round(freemem() / 2 ** 30, 1)} GB)`,
    );
    if (this.missed.length) {
      console.log(`goals missed: ${this.missed.join(', ')}`);
      if (process.env.BENCH_STRICT === '1') process.exitCode = 1;
    }
  }
}
