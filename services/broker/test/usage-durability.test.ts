/**
 * Issue 13, item 2: a broker killed under load loses no usage of a reply a client received. A
 * real broker process (test/broker-process.ts) relays 16 concurrent clients' calls to the fake
 * provider, plain and streamed, until enough replies have arrived; then it is killed with
 * SIGKILL, and its database (the same PGlite folder, or the same PostgreSQL schema) must hold a
 * usage row for every call whose whole reply a client received.
 *
 * With the usage journal (BROKER_USAGE_JOURNAL, the default of a started broker) a reply's end
 * waits only for its call's line in the journal, so the killed broker is started again on the
 * same data and journal (which commits what it journaled before it listens) and killed again;
 * then every received call has exactly one row, and the daily rollup sums exactly the rows.
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
/** A broker process started (twice with the journal), loaded and killed: far more than it needs on a busy machine. */
const TEST_MS = 180_000;

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
function startBroker(
  fakeBase: string,
  where: string,
  schema: string,
  journal = '',
): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(
    fileURLToPath(new URL('./broker-process.ts', import.meta.url)),
    [fakeBase, PROVIDER_KEY, where, schema, journal],
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

/** A broker started again on the same data and journal (it replays the journal before it listens), then killed. */
async function restartAndKill(fakeBase: string, where: string, schema: string, journal: string) {
  const { child } = await startBroker(fakeBase, where, schema, journal);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

/** Rows written once each, and a rollup that sums exactly the rows (a replay wrote nothing twice). */
async function expectNoRowTwice(database: Database<DB>) {
  const r = await sql<{ rows: string; ids: string; calls: string; rolled: string }>`
    SELECT (SELECT count(*) FROM usage_events) AS rows,
           (SELECT count(DISTINCT input_tokens) FROM usage_events) AS ids,
           (SELECT coalesce(sum(calls), 0) FROM usage_daily) AS calls,
           (SELECT coalesce(sum(input_tokens), 0) FROM usage_daily) AS rolled`.execute(database.db);
  const sums = await sql<{ input: string }>`SELECT coalesce(sum(input_tokens), 0) AS input FROM usage_events`.execute(
    database.db,
  );
  const x = r.rows[0] as { rows: string; ids: string; calls: string; rolled: string };
  expect({ ids: Number(x.ids), calls: Number(x.calls), rolled: Number(x.rolled) }).toEqual({
    ids: Number(x.rows),
    calls: Number(x.rows),
    rolled: Number(sums.rows[0]?.input),
  });
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

  it(
    '13.2 BRK-121 on a PGlite folder: every call whose reply a client received has its usage row after SIGKILL',
    async () => {
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
    },
    TEST_MS,
  );

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
    TEST_MS,
  );

  it(
    '13.2 BRK-121 with the usage journal on a PGlite folder: every received call has one row once the broker restarts',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'broker-kill-journal-'));
      const journal = join(dir, 'broker-usage-journal');
      try {
        const { child, url } = await startBroker(fake.baseUrl, dir, 'broker', journal);
        const load = await loadThenKill(url, child);
        await restartAndKill(fake.baseUrl, dir, 'broker', journal);
        const pglite = await openPglite(dir);
        try {
          const database = await openDatabase<DB>({ schema: 'broker', pglite });
          expectEveryReceivedRecorded(load, await rowNumbers(database));
          await expectNoRowTwice(database);
        } finally {
          await closePglite(pglite);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    TEST_MS,
  );

  it.skipIf(!url)(
    '13.2 BRK-121 with the usage journal on PostgreSQL: every received call has one row once the broker restarts',
    async () => {
      const schema = `broker_j${randomBytes(4).toString('hex')}`;
      const dir = mkdtempSync(join(tmpdir(), 'broker-kill-journal-'));
      try {
        const { child, url: broker } = await startBroker(fake.baseUrl, url as string, schema, dir);
        const load = await loadThenKill(broker, child);
        await restartAndKill(fake.baseUrl, url as string, schema, dir);
        const database = await openDatabase<DB>({ schema, url });
        try {
          expectEveryReceivedRecorded(load, await rowNumbers(database));
          await expectNoRowTwice(database);
        } finally {
          await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(database.db);
          await database.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    TEST_MS,
  );
});
