import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { App } from '@platform/kit';
import { type BenchKind, BenchRun, benchDatabase, fmt, injectJson, median, round } from '@platform/kit/testing';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { httpBroker } from '../src/clients/broker.ts';
import { httpWorkspace } from '../src/clients/workspace.ts';
import { agentsConfig } from '../src/config.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import { mailDomainOf } from '../src/start.ts';
import type { DB } from '../src/store/db.ts';

/**
 * The daily-briefs bench: POST /internal/jobs/daily-briefs?regenerate=true for BENCH_BRIEFS_RECIPIENTS
 * (200) people whose model call takes BENCH_BRIEFS_PROVIDER_MS (20 ms) at the provider, against the
 * least the job could take at its concurrency (BRIEF_CONCURRENCY as the service reads it,
 * default 8; BENCH_BRIEFS_CONCURRENCY sets it): recipients x provider ms / concurrency. Goal: job time / that <= 1.5.
 *
 * Each person is read through the real workspace client from a fake workspace speaking its wire,
 * and their call goes through the broker's real app and relay to its fake provider; both run in a
 * child process (bench/briefs-peers.ts), so only the agents service shares the bench's event loop.
 * Each round regenerates every brief (a new revision each time); the time is the median of
 * BENCH_BRIEFS_ROUNDS (7) after a warm-up of one brief, one first run for everyone, and
 * regenerate rounds for BENCH_BRIEFS_WARMUP_MS (2000 ms): the rounds of a cold start ran up to
 * 40% slower than the later ones (both processes' code still being compiled).
 *
 * `bench/run.ts` calls `briefsBench({kind, run})`; `npx tsx --conditions=source bench/briefs.ts`
 * (from services/agents) runs it alone (BENCH_BRIEFS_KINDS=pglite,postgres picks), writing
 * bench/results/agents-briefs.json.
 */

export const GOAL_BRIEFS_RATIO_MAX = 1.5;
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const SCHEDULER = 'briefs-bench-scheduler-token';
/** The broker test app's shared service token (its relay takes the person named on its word). */
const BROKER_TOKEN = 'test-service-token';

export interface BriefsBenchOptions {
  kind: BenchKind;
  run: BenchRun;
  recipients?: number;
  providerMs?: number;
  concurrency?: number;
  rounds?: number;
  warmupMs?: number;
}

/** The peers' broker keeps its usage on the bench's kind of database (a fresh schema on DATABASE_URL for postgres). */
function startPeers(providerMs: number, kind: BenchKind) {
  const { TEST_POSTGRES_URL: _, ...env } = process.env;
  const child = fork(fileURLToPath(new URL('./briefs-peers.ts', import.meta.url)), [String(providerMs)], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    env: kind === 'postgres' ? { ...env, TEST_POSTGRES_URL: process.env.DATABASE_URL } : env,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise<{ brokerUrl: string; workspaceUrl: string; stop: () => Promise<void> }>((resolve, reject) => {
    const early = (code: number | null) =>
      reject(new Error(`briefs peers exited (code ${code}) before they were ready`));
    child.once('exit', early);
    child.once('message', (ready: { brokerUrl: string; workspaceUrl: string }) => {
      child.off('exit', early);
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      resolve({
        ...ready,
        stop: async () => {
          child.send('stop');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
          if (child.exitCode === null) child.kill();
        },
      });
    });
  });
}

export async function briefsBench(o: BriefsBenchOptions) {
  const { kind, run } = o;
  const recipients = o.recipients ?? num('BENCH_BRIEFS_RECIPIENTS', 200);
  const providerMs = o.providerMs ?? num('BENCH_BRIEFS_PROVIDER_MS', 20);
  const rounds = o.rounds ?? num('BENCH_BRIEFS_ROUNDS', 7);
  const warmupMs = o.warmupMs ?? num('BENCH_BRIEFS_WARMUP_MS', 2000);
  const people = Array.from({ length: recipients }, (_, i) => `person${String(i).padStart(4, '0')}@briefs.bench`);
  const peers = await startPeers(providerMs, kind);
  const bench = await benchDatabase<DB>('agents', MIGRATIONS, kind);
  const config = agentsConfig({
    SERVICE_TOKEN: 'agents-bench',
    SCHEDULER_TOKEN: SCHEDULER,
    DEV_AUTH: '1',
    LOG_LEVEL: 'silent',
    ...(process.env.BENCH_BRIEFS_CONCURRENCY ? { BRIEF_CONCURRENCY: process.env.BENCH_BRIEFS_CONCURRENCY } : {}),
  });
  // The job's own setting (BRIEF_CONCURRENCY, as start.ts passes it), so the least is the job's.
  const concurrency = o.concurrency ?? config.BRIEF_CONCURRENCY;
  const app = (await buildApp({
    database: bench.database,
    authenticator: agentsAuthenticator(config),
    callers: callerPolicy(config),
    mailDomain: mailDomainOf(config),
    logLevel: 'silent',
    schedulerToken: SCHEDULER,
    broker: httpBroker({ baseUrl: peers.brokerUrl, serviceToken: BROKER_TOKEN, timeoutMs: 30_000 }),
    workspace: httpWorkspace({ baseUrl: peers.workspaceUrl, serviceToken: 'workspace-bench', timeoutMs: 30_000 }),
    briefs: { recipients: people, model: 'gpt-4.1-mini', concurrency },
  })) as App;
  try {
    const cpus: number[] = [];
    const job = async (query: string, expected: number) => {
      const cpu = process.cpuUsage();
      const start = performance.now();
      const r = await injectJson(app, 'POST', `/internal/jobs/daily-briefs?${query}`, {
        headers: { 'x-platform-scheduler-token': SCHEDULER },
      });
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1000);
      const written = (r.data as { written?: string[] } | undefined)?.written?.length;
      if (r.status !== 200 || written !== expected) {
        throw new Error(
          `daily-briefs: ${r.status}, ${written} written of ${expected}: ${JSON.stringify(r.body).slice(0, 500)}`,
        );
      }
      return ms;
    };
    await job(`date=2026-03-04&email=${people[0]}`, 1);
    await job('date=2026-03-05', recipients);
    for (const until = performance.now() + warmupMs; performance.now() < until; ) {
      await job('date=2026-03-05&regenerate=true', recipients);
    }
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const ms = await job('date=2026-03-05&regenerate=true', recipients);
      times.push(ms);
      run.log(
        `${kind} daily briefs round ${r + 1}: ${recipients} briefs in ${fmt(ms, 0)} ms (agents CPU ${fmt(cpus.at(-1) ?? 0, 0)} ms)`,
      );
    }
    const ideal = (recipients * providerMs) / concurrency;
    const ms = median(times);
    const ratio = ms / ideal;
    const ok = ratio <= GOAL_BRIEFS_RATIO_MAX;
    run.row(`daily-briefs job, ${recipients} people, ${providerMs} ms provider (ms)`, fmt(ms, 0));
    run.row(
      `  least at concurrency ${concurrency}: ${recipients} x ${providerMs} / ${concurrency} (ms)`,
      fmt(ideal, 0),
    );
    run.row(
      '  job / least',
      fmt(ratio, 2),
      `<= ${GOAL_BRIEFS_RATIO_MAX}`,
      run.goal('daily briefs against the provider time', ok),
    );
    return {
      knobs: { recipients, provider_ms: providerMs, concurrency, rounds, warmup_ms: warmupMs },
      job_ms: times.map((t) => round(t)),
      // The agents process's own CPU in each round (the peers run in another process).
      agents_cpu_ms: cpus.slice(-rounds).map((t) => round(t)),
      median_ms: round(ms),
      least_ms: round(ideal),
      ratio: round(ratio),
      goal_max: GOAL_BRIEFS_RATIO_MAX,
      met: ok,
    };
  } finally {
    await app.close();
    await bench.drop();
    await peers.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const run = new BenchRun('agents-briefs');
  const results: Record<string, unknown> = {};
  const kinds = (process.env.BENCH_BRIEFS_KINDS?.split(',') ?? [
    'pglite',
    ...(process.env.DATABASE_URL ? ['postgres'] : []),
  ]) as BenchKind[];
  for (const kind of kinds) {
    run.section(kind);
    results[kind] = await briefsBench({ kind, run });
  }
  run.finish(
    new URL('./results/', import.meta.url),
    { goals: { briefs_ratio_max: GOAL_BRIEFS_RATIO_MAX }, ...results },
    'daily briefs',
  );
}
