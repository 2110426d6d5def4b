/**
 * Issue 13, item 2: a broker killed under load loses no usage of a reply a client received. A
 * real broker process (test/broker-process.ts) relays 16 concurrent clients' calls to the fake
 * provider, plain and streamed, until enough replies have arrived; then it is killed with
 * SIGKILL, and its database (the same PGlite folder, or the same PostgreSQL schema) must hold a
 * usage row for every call whose whole reply a client received.
 *
 * Each call asks the fake to report its own number as its input tokens, which is how its row is
 * found. A reply counts as received when the client holds all of it: a plain body that parses
 * as a whole, a stream that carried its final event.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePglite, type Database, openDatabase, openPglite } from '@platform/kit';
import { sql } from 'kysely';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../src/store/db.ts';
import { type FakeProvider, startFakeProvider } from './fakes/providers.ts';

const PROVIDER_KEY = 'kill-test-provider-key';
const CLIENTS = 16;
/** Replies received before the kill, and the bounds on the load whatever happens. */
const RECEIVED_BEFORE_KILL = 400;
const MAX_CALLS = 5_000;
const MAX_LOAD_MS = 8_000;

type Kind = 'chat' | 'chat-stream' | 'messages-stream' | 'responses-stream';
const KINDS: Kind[] = ['chat', 'chat-stream', 'messages-stream', 'responses-stream'];

/** Each kind's relay path and body for call `n` (its number comes back as the input tokens). */
function callOf(kind: Kind, n: number): { path: string; body: object } {
  const fake = { usage: { input_tokens: n, output_tokens: 3 }, ...(kind === 'chat' ? {} : { delay_ms: 1 }) };
  const messages = [{ role: 'user', content: `call ${n}` }];
  switch (kind) {
    case 'chat':
      return { path: '/v1/relay/chat/completions', body: { model: 'gpt-4o', messages, fake } };
    case 'chat-stream':
      return {
        path: '/v1/relay/chat/completions',
        body: { model: 'gpt-4o', messages, stream: true, stream_options: { include_usage: true }, fake },
      };
    case 'messages-stream':
      return {
        path: '/v1/relay/messages',
        body: { model: 'claude-haiku-4-5', max_tokens: 64, messages, stream: true, fake },
      };
    case 'responses-stream':
      return { path: '/v1/relay/responses', body: { model: 'gpt-4o', input: `call ${n}`, stream: true, fake } };
  }
}

/** Whether the bytes a client holds are the whole reply of `kind`. */
function whole(kind: Kind, text: string): boolean {
  switch (kind) {
    case 'chat':
      try {
        return typeof JSON.parse(text).id === 'string';
      } catch {
        return false;
      }
    case 'chat-stream':
      return text.includes('\ndata: [DONE]');
    case 'messages-stream':
      return text.includes('\nevent: message_stop');
    case 'responses-stream':
      return text.includes('\nevent: response.completed');
  }
}

/** A broker process listening in front of the fake, on `where` (a PGlite folder or a postgres URL). */
function startBroker(fakeBase: string, where: string, schema: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(
    fileURLToPath(new URL('./broker-process.ts', import.meta.url)),
    [fakeBase, PROVIDER_KEY, where, schema],
    {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the broker exited (code ${code}) before it listened`)));
    child.once('message', (m: { url: string }) => resolve({ child, url: m.url }));
  });
}

interface Load {
  calls: number;
  received: number[];
}

/**
 * CLIENTS loops of calls, kinds in turn, each call numbered; once RECEIVED_BEFORE_KILL replies
 * have arrived (or the bounds run out) the broker is killed while the loops go on, and they stop
 * at their next failure.
 */
async function loadThenKill(url: string, child: ChildProcess): Promise<Load> {
  const pool = new Pool(url, { connections: CLIENTS, pipelining: 1 });
  const received: number[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let next = 0;
  let killed = false;
  const started = performance.now();
  const kill = () => {
    if (killed) return;
    killed = true;
    child.kill('SIGKILL');
  };
  const client = async () => {
    while (!killed && next < MAX_CALLS) {
      const n = ++next;
      const kind = KINDS[n % KINDS.length] as Kind;
      const { path, body } = callOf(kind, n);
      let text = '';
      try {
        const res = await pool.request({
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', 'x-dev-principal': 'killed.broker@broker.test' },
          body: JSON.stringify(body),
        });
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${await res.body.text()}`);
        for await (const chunk of res.body as AsyncIterable<Buffer>) text += chunk.toString('utf8');
      } catch (e) {
        // Killed mid-call: whatever arrived before the kill is judged like any reply.
        if (!killed) throw e;
      }
      if (whole(kind, text)) received.push(n);
      if (received.length >= RECEIVED_BEFORE_KILL || performance.now() - started > MAX_LOAD_MS) kill();
    }
  };
  try {
    await Promise.all(Array.from({ length: CLIENTS }, client));
  } finally {
    kill();
    await exited;
    await pool.destroy();
  }
  return { calls: next, received };
}

/** The numbers of the calls that have a usage row (their input tokens). */
async function rowNumbers(database: Database<DB>): Promise<Set<number>> {
  const r = await sql<{ input_tokens: number }>`SELECT input_tokens FROM usage_events`.execute(database.db);
  return new Set(r.rows.map((x) => Number(x.input_tokens)));
}

function expectEveryReceivedRecorded(load: Load, rows: Set<number>) {
  const missing = load.received.filter((n) => !rows.has(n));
  // The figures, in the message when it fails.
  expect(
    { missing: missing.length, of: load.received.length },
    `${load.calls} calls made, ${load.received.length} replies received, ${rows.size} usage rows`,
  ).toEqual({ missing: 0, of: load.received.length });
  expect(load.received.length).toBeGreaterThan(0);
}

describe('13.2 a broker killed under load', () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider({ key: PROVIDER_KEY, record: false });
  });
  afterAll(() => fake.close());

  it('13.2 BRK-121 on a PGlite folder: every call whose reply a client received has its usage row after SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'broker-kill-'));
    try {
      const { child, url } = await startBroker(fake.baseUrl, dir, 'broker');
      const load = await loadThenKill(url, child);
      // The folder opened again, as a restarted broker would.
      const pglite = await openPglite(dir);
      try {
        const database = await openDatabase<DB>({ schema: 'broker', pglite });
        expectEveryReceivedRecorded(load, await rowNumbers(database));
      } finally {
        await closePglite(pglite);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const url = process.env.TEST_POSTGRES_URL;
  it.skipIf(!url)(
    '13.2 BRK-121 on PostgreSQL: every call whose reply a client received has its usage row after SIGKILL',
    async () => {
      const schema = `broker_k${randomBytes(4).toString('hex')}`;
      const { child, url: broker } = await startBroker(fake.baseUrl, url as string, schema);
      const load = await loadThenKill(broker, child);
      const database = await openDatabase<DB>({ schema, url });
      try {
        expectEveryReceivedRecorded(load, await rowNumbers(database));
      } finally {
        await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
        await database.close();
      }
    },
  );
});
