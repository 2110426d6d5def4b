import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, type ClientRequest, type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Production basics (issue 13.7, 13.8) on a real process: the accounting service from its sources
 * (tsx with the "source" condition, so no build is needed), on a throwaway PGlite folder, or on a
 * throwaway database of TEST_POSTGRES_URL's server when it is set.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const CONTROLLER = 'controller@dev.local';

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase = async () => {};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'production-'));
  const admin = process.env.TEST_POSTGRES_URL;
  if (!admin) return;
  const name = `production_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
});
afterAll(async () => {
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const baseEnv = () => ({
  ...process.env,
  PLATFORM_DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  DEV_AUTH: '1',
  PORT_ACCOUNTING: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
});

interface Run {
  child: ChildProcess;
  out: () => string;
  /** Resolves once the output so far satisfies `test`; rejects if the process ends first. */
  waitFor(test: (out: string) => boolean): Promise<string>;
  exited: Promise<number | null>;
}

/** Runs one of accounting's entries (src/main.ts, src/migrate.ts) as its own node process. */
function run(entry: string, env: Record<string, string> = {}): Run {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', `services/accounting/src/${entry}`],
    { cwd: root, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const waiting = new Set<() => void>();
  const printed = (d: Buffer) => {
    out += d;
    for (const w of [...waiting]) w();
  };
  child.stdout?.on('data', printed);
  child.stderr?.on('data', printed);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (test: (out: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (test(out)) {
          waiting.delete(check);
          resolve(out);
        }
      };
      waiting.add(check);
      check();
      exited.then(() => {
        waiting.delete(check);
        if (!test(out)) reject(new Error(`exited before expected output:\n${out}`));
      });
    });
  return { child, out: () => out, waitFor, exited };
}

const listening = async (r: Run) => {
  const out = await r.waitFor((o) => /accounting listening on http:\/\/\S+/.test(o));
  return /accounting listening on (http:\/\/[^\s]+)/.exec(out)?.[1] as string;
};

/** The service's JSON log lines with this message. */
const logLines = (out: string, msg: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(msg))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('13.7 the migrate entry', () => {
  it('13.7 applies the migrations and exits 0; a server with MIGRATE_ON_START=0 starts on the migrated schema and refuses one behind', async () => {
    // Behind: nothing applied yet, and told not to migrate.
    const behind = run('main.ts', { MIGRATE_ON_START: '0' });
    expect(await behind.exited).toBe(2);
    expect(behind.out()).toMatch(/schema misses \d+ migration\(s\) \(kit:0001_kit, .*0001_ledger/);

    const first = run('migrate.ts');
    expect(await first.exited, first.out()).toBe(0);
    expect(first.out()).toMatch(/accounting: applied \d+ migration\(s\): kit:0001_kit, .*0001_ledger/);
    const again = run('migrate.ts');
    expect(await again.exited, again.out()).toBe(0);
    expect(again.out()).toContain('accounting: schema up to date, no migration to apply');

    const server = run('main.ts', { MIGRATE_ON_START: '0' });
    const url = await listening(server);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 240_000);
});

/** A command whose body is held back: the server has its headers (100 Continue), not its body. */
function heldCommand(url: string, agent: Agent, name: string) {
  const body = JSON.stringify({ data: { name, chart_code: 'US', status: 'active' } });
  const req: ClientRequest = request(`${url}/v1/legal-entities`, {
    method: 'POST',
    agent,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-dev-principal': CONTROLLER,
      'idempotency-key': randomBytes(12).toString('hex'),
      expect: '100-continue',
    },
  });
  const continued = new Promise<void>((resolve) => req.once('continue', resolve));
  const answered = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    req.once('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
    });
    req.once('error', reject);
  });
  req.flushHeaders();
  return { continued, answered, send: () => req.end(body) };
}

/** Whether a new connection is refused, asked until it is (the listener closes just after the stop begins). */
async function refused(url: string): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if ((await connectOnce(url)) === 'ECONNREFUSED') return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

const connectOnce = (url: string) =>
  new Promise<string>((resolve) => {
    const u = new URL(url);
    const s = connect(Number(u.port), u.hostname);
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });

describe('13.8 graceful shutdown', () => {
  it('13.8 requests in flight when SIGTERM arrives all complete with their normal status; new connections are refused; exit 0', async () => {
    const IN_FLIGHT = 20;
    const server = run('main.ts', { SHUTDOWN_GRACE_MS: '60000' });
    const url = await listening(server);
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

    // A kept-alive connection left idle (its own agent, so no command reuses it): the stop closes
    // it rather than wait for its keep-alive timeout.
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const idleSocket = await new Promise<import('node:net').Socket>((resolve, reject) => {
      const r = request(`${url}/healthz`, { agent: idleAgent }, (res) => {
        res.resume();
        res.on('end', () => resolve(r.socket as import('node:net').Socket));
      });
      r.once('error', reject);
      r.end();
    });
    const idleClosed = new Promise<void>((resolve) => idleSocket.once('close', () => resolve()));

    // Every command is in flight: its headers are in (the server answered 100 Continue), its body is not.
    const names = Array.from({ length: IN_FLIGHT }, (_, i) => `Shutdown ${i} ${randomBytes(3).toString('hex')}`);
    const held = names.map((n) => heldCommand(url, agent, n));
    await Promise.all(held.map((h) => h.continued));

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const stopping = await server.waitFor((o) => logLines(o, 'stopping: no new connections').length > 0);
    const line = logLines(stopping, 'stopping: no new connections')[0] as { inFlight: number; graceMs: number };
    expect(line.inFlight).toBe(IN_FLIGHT);
    expect(line.graceMs).toBe(60_000);
    expect(await refused(url)).toBe(true);
    await idleClosed;

    // Now the bodies: every command runs (and commits) while the service stops.
    for (const h of held) h.send();
    const answers = await Promise.all(held.map((h) => h.answered));
    expect(
      answers.map((a) => a.status),
      answers[0]?.body,
    ).toEqual(names.map(() => 201));
    expect(answers.every((a) => a.connection === 'close')).toBe(true);
    const code = await server.exited;
    const stoppedMs = Math.round(performance.now() - signalled);
    expect(code, server.out()).toBe(0);
    agent.destroy();
    idleAgent.destroy();
    console.log(
      `13.8 figures (${databaseUrl ? 'PostgreSQL' : 'PGlite'}): ${line.inFlight} requests in flight at SIGTERM, all 201; ` +
        `SIGTERM to exit ${stoppedMs} ms (grace 60000 ms)`,
    );

    // The writes are there after a restart.
    const again = run('main.ts');
    const url2 = await listening(again);
    for (const [i, a] of answers.entries()) {
      const id = (JSON.parse(a.body) as { payload: { data: { id: string } } }).payload.data.id;
      const read = await fetch(`${url2}/v1/legal-entities/${id}`, { headers: { 'x-dev-principal': CONTROLLER } });
      expect(read.status).toBe(200);
      expect(((await read.json()) as { payload: { data: { name: string } } }).payload.data.name).toBe(names[i]);
    }
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 240_000);

  it('13.8 a request still in flight when the grace runs out is cut off; the rest still closes and the process exits 1', async () => {
    const server = run('main.ts', { SHUTDOWN_GRACE_MS: '300' });
    const url = await listening(server);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Its body never comes.
    const stuck = heldCommand(url, agent, `Cut ${randomBytes(3).toString('hex')}`);
    const outcome = stuck.answered.then(
      (a) => `answered ${a.status}`,
      (e: NodeJS.ErrnoException) => e.code ?? 'error',
    );
    await stuck.continued;
    server.child.kill('SIGTERM');
    expect(await server.exited, server.out()).toBe(1);
    expect(server.out()).toContain(
      'SIGTERM: stopped, but 1 request(s) still in flight after the 300 ms shutdown grace',
    );
    expect(await outcome).toBe('ECONNRESET');
    agent.destroy();
  }, 240_000);
});
