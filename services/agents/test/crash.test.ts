import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePglite, type Database, openDatabase, openPglite } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reconciler } from '../src/runner/reconciler.ts';
import type { DB } from '../src/store/db.ts';
import { type Harness, harness, OWNER } from './harness.ts';
import { MemoryRunner } from './memory-runner.ts';

/**
 * Failures around a life-cycle command's commit: a fault after the outbox insert, inside the
 * transaction, leaves nothing behind; a process killed after the commit but before the runner
 * applied leaves a record the next pass (after a restart on the same data) makes true.
 */

/** A process started, given a command, killed and the data opened again: far more than it needs on a busy machine. */
const KILL_TEST_MS = 180_000;

describe('18 a fault after the outbox insert', () => {
  let h: Harness;
  let fault = false;
  const runner = new MemoryRunner();
  let rec: Reconciler;
  beforeAll(async () => {
    h = await harness({
      app: {
        settle: (ms) => rec.settle(ms),
        onEmit: async (_scope, events) => {
          if (fault && events.some((e) => e.type === 'agent.started')) throw new Error('injected fault after emit');
        },
      },
    });
    rec = new Reconciler({ database: h.database, runner, intervalMs: 600_000 });
  });
  afterAll(async () => {
    await rec?.stop();
    await h.close_();
  });

  it('18 AGT-058 AGT-331 a start failing after its outbox row leaves no state change, no event and no workload', async () => {
    const a = await h.agent();
    const before = await h.state();
    fault = true;
    const r = await h.call('POST', `/v1/agents/${a.id}/start`, OWNER, {});
    fault = false;
    expect(r.status).toBe(500);
    expect(await h.state()).toEqual(before);
    expect((await h.events('agent.started')).filter((e) => e.payload.data.agent_id === a.id)).toEqual([]);
    const row = (await h.call('GET', `/v1/agents/${a.id}`)).data;
    expect(row).toMatchObject({ desired_state: 'stopped', generation: 1 });
    await rec.pass();
    expect(runner.callsFor(a.id).filter((c) => c.startsWith('apply'))).toEqual([]);
    // The same start, retried once the fault is gone, runs.
    expect((await h.call('POST', `/v1/agents/${a.id}/start`, OWNER, {})).data).toMatchObject({
      desired_state: 'running',
      observed_generation: 1,
    });
    expect(runner.running.get(a.id)?.kind).toBe('deployment');
  });
});

/** The agents app in a child process over `where` (PGlite folder or postgres URL) and `schema`. */
function startChild(where: string, schema: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(new URL('./agents-process.ts', import.meta.url)), [where, schema], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the agents process exited (code ${code}) before it listened`)));
    child.once('message', (m: { url: string }) => resolve({ child, url: m.url }));
  });
}

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-dev-principal': OWNER,
      'idempotency-key': randomBytes(8).toString('hex'),
    },
    body: JSON.stringify(body),
  });

describe('18 a crash after the commit', () => {
  it(
    '18 AGT-059 AGT-058 an agents process killed after a start committed but before its workload existed: the next pass on the same data applies it',
    async () => {
      const postgres = process.env.TEST_POSTGRES_URL;
      const schema = postgres ? `agents_kill_${randomBytes(4).toString('hex')}` : 'agents';
      const dir = postgres ? '' : mkdtempSync(join(tmpdir(), 'agents-kill-'));
      const { child, url } = await startChild(postgres ?? dir, schema);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let agentId = '';
      try {
        const created = await post(`${url}/v1/agents`, { data: { name: 'Killed mid start' } });
        expect(created.status).toBe(201);
        agentId = ((await created.json()) as { payload: { data: { id: string } } }).payload.data.id;
        const applying = new Promise<string>((resolve) =>
          child.on('message', (m: { applying?: string }) => m.applying && resolve(m.applying)),
        );
        // The start commits, then waits for the pass, whose apply never finishes: kill it there.
        const start = post(`${url}/v1/agents/${agentId}/start`, {}).catch((e: Error) => e);
        expect(await applying).toBe(agentId);
        child.kill('SIGKILL');
        await exited;
        expect(await start).toBeInstanceOf(Error);
      } finally {
        child.kill('SIGKILL');
        await exited;
      }

      // The same data opened again, as a restarted service would, with a runner that works.
      const pglite = postgres ? undefined : await openPglite(dir);
      let database: Database<DB> | undefined;
      try {
        database = await openDatabase<DB>(postgres ? { schema, url: postgres } : { schema, pglite });
        const read = () =>
          database!.db
            .selectFrom('agents')
            .select(['desired_state', 'generation', 'observed_generation', 'observed_state'])
            .where('id', '=', agentId)
            .executeTakeFirstOrThrow();
        // What the pass after the create saw through: the start was recorded, never applied.
        expect(await read()).toEqual({
          desired_state: 'running',
          generation: 1,
          observed_generation: 1,
          observed_state: 'stopped',
        });
        const runner = new MemoryRunner();
        const report = await new Reconciler({ database, runner, intervalMs: 600_000 }).pass();
        expect(report?.applied).toEqual([agentId]);
        expect(runner.running.get(agentId)).toMatchObject({ kind: 'deployment', generation: 1 });
        expect(await read()).toEqual({
          desired_state: 'running',
          generation: 1,
          observed_generation: 1,
          observed_state: 'running',
        });
      } finally {
        if (postgres && database) await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
        await database?.close();
        if (pglite) await closePglite(pglite);
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    },
    KILL_TEST_MS,
  );
});
