import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bus, BusMessage } from '../src/bus/bus.ts';
import { MemoryBus } from '../src/bus/memory.ts';
import type { Database } from '../src/db/database.ts';
import { fail, ok, type Result } from '../src/errors.ts';
import { emit, OutboxPublisher } from '../src/outbox.ts';
import { testDatabase } from '../src/testing/database.ts';

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await testDatabase('kit_outbox', [
    { id: '0001_things', up: 'CREATE TABLE things (id serial PRIMARY KEY, name text NOT NULL)' },
  ]);
});
afterAll(async () => database.drop());

const LEASE_MS = 60_000;

/**
 * A bus whose publish never answers until the test says so: `publishing` resolves once a send
 * has started, `answer` settles every send so far (and later ones) with the given result.
 */
function hangingBus() {
  const delivered: BusMessage[] = [];
  let started!: () => void;
  const publishing = new Promise<void>((r) => {
    started = r;
  });
  let answer!: (r: Result<void>) => void;
  const answered = new Promise<Result<void>>((r) => {
    answer = r;
  });
  const bus: Bus = {
    publish: (messages) => {
      started();
      return answered.then((r) => {
        if (r.ok) delivered.push(...messages);
        return r;
      });
    },
    subscribe: async () => async () => {},
    close: async () => {},
  };
  return { bus, publishing, answer, delivered };
}

/** Fails the test instead of hanging it when `p` is stuck behind a lock (the bug of 13.5). */
const within = <T>(p: Promise<T>, what: string, ms = 5_000) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms).unref();
    }),
  ]);

/** A command of some service: a row of its own table and its event, in one transaction. */
const command = (service: string, name: string) =>
  database.db.transaction().execute(async (trx) => {
    await sql`INSERT INTO things (name) VALUES (${name})`.execute(trx);
    await emit(trx, service, [{ type: 'thing.made', data: { name } }]);
  });

const eventIds = async (service: string) =>
  (
    await sql<{ event_id: string }>`SELECT event_id FROM outbox WHERE subject = ${`${service}.thing.made`}
      ORDER BY id`.execute(database.db)
  ).rows.map((r) => r.event_id);

const unsent = async (service: string) =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox
      WHERE subject = ${`${service}.thing.made`} AND published_at IS NULL`.execute(database.db)
  ).rows[0]?.n;

/** Leaves nothing unsent from an earlier test, so each test's publishers see only its rows. */
const drainAll = () => new OutboxPublisher(database.db, new MemoryBus(), { pollMs: 1_000 }).drain();

describe('13.5 the publisher holds no transaction across the bus', () => {
  it('13.5 while the bus hangs, commands writing the outbox and other tables complete, and no outbox row is locked', async () => {
    await drainAll();
    const service = `s${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 3; i++) await command(service, `before ${i}`);
    const hung = hangingBus();
    const publisher = new OutboxPublisher(database.db, hung.bus, { pollMs: 1_000, sendTimeoutMs: 3_600_000 });
    const draining = publisher.drain();
    try {
      await within(hung.publishing, 'the publisher to start sending');
      // The publish is now in flight and will not answer: the same tables still take commands.
      for (let i = 0; i < 3; i++) await within(command(service, `during ${i}`), `command ${i} during the hang`);
      expect((await eventIds(service)).length).toBe(6);
      // No lock on the rows being sent: another transaction may lock them at once.
      const locked = await within(
        database.db.transaction().execute(
          async (trx) =>
            (
              await sql<{ id: number }>`SELECT id FROM outbox WHERE subject = ${`${service}.thing.made`}
                FOR UPDATE NOWAIT`.execute(trx)
            ).rows.length,
        ),
        'locking the rows being sent',
      );
      expect(locked).toBe(6);
    } finally {
      hung.answer(ok(undefined));
      await draining;
    }
    // The drain went on once the bus answered: the rows written during the hang went out too.
    expect(hung.delivered.map((m) => m.id)).toEqual(await eventIds(service));
  });

  it('13.5 a publisher killed mid-send: its rows wait out the lease, then another publisher takes them over and every event is delivered at least once', async () => {
    const service = await freshEvents(5);
    const ids = await eventIds(service);
    const t0 = new Date();
    // The killed publisher: it claimed the rows and never comes back to mark them.
    const dead = hangingBus();
    const killed = new OutboxPublisher(database.db, dead.bus, {
      pollMs: 1_000,
      sendTimeoutMs: 3_600_000,
      leaseMs: LEASE_MS,
      clock: () => t0,
    });
    const killedDrain = killed.drain();
    try {
      await within(dead.publishing, 'the first publisher to start sending');
      const bus = new MemoryBus();
      // Within the lease nobody else sends the rows...
      const early = new OutboxPublisher(database.db, bus, {
        pollMs: 1_000,
        leaseMs: LEASE_MS,
        clock: () => new Date(t0.getTime() + LEASE_MS - 1),
      });
      expect(await within(early.drain(), 'a drain within the lease')).toBe(0);
      expect(await unsent(service)).toBe(5);
      // ...after it, another publisher takes them over.
      const later = new OutboxPublisher(database.db, bus, {
        pollMs: 1_000,
        leaseMs: LEASE_MS,
        clock: () => new Date(t0.getTime() + LEASE_MS + 1),
      });
      expect(await within(later.drain(), 'a drain after the lease')).toBe(5);
      expect(bus.log.map((m) => m.id)).toEqual(ids);
      expect(await unsent(service)).toBe(0);
    } finally {
      // The "dead" publisher's send answers after all: it no longer holds the rows, so it marks none.
      dead.answer(ok(undefined));
    }
    expect(await killedDrain).toBe(0);
    const attempts = await sql<{ attempts: number }>`SELECT attempts FROM outbox
      WHERE subject = ${`${service}.thing.made`}`.execute(database.db);
    expect(attempts.rows.map((r) => r.attempts)).toEqual([1, 1, 1, 1, 1]);
  });

  it('13.5 a failed send records the attempt and releases the claim, so the next poll sends the rows in order', async () => {
    const service = await freshEvents(4);
    const real = new MemoryBus();
    let down = true;
    const flaky: Bus = {
      publish: async (m) => (down ? fail(new Error('broker down'), true) : real.publish(m)),
      subscribe: real.subscribe.bind(real),
      close: real.close.bind(real),
    };
    const t = new Date();
    const publisher = new OutboxPublisher(database.db, flaky, { pollMs: 1_000, clock: () => t });
    expect(await publisher.drain()).toBe(0);
    const rows = await sql<{ attempts: number; last_error: string | null; claimed_until: Date | null }>`
      SELECT attempts, last_error, claimed_until FROM outbox WHERE subject = ${`${service}.thing.made`}`.execute(
      database.db,
    );
    expect(rows.rows.map((r) => [r.attempts, r.last_error, r.claimed_until])).toEqual(
      Array(4).fill([1, 'broker down', null]),
    );
    down = false;
    // Same clock: the claim was released, not left to lapse.
    expect(await publisher.drain()).toBe(4);
    expect(real.log.map((m) => m.id)).toEqual(await eventIds(service));
  });
});

describe('22 the publisher keeps several batches on the bus at once', () => {
  it('22 a send does not wait for the answers to the one before, and the bus still gets the rows in the order they were written', async () => {
    const service = await freshEvents(8);
    const order: string[] = [];
    const answers: (() => void)[] = [];
    let startedTogether = 0;
    const bus: Bus = {
      publish: (messages) => {
        order.push(...messages.map((m) => m.id));
        startedTogether = Math.max(startedTogether, answers.length + 1);
        return new Promise<Result<void>>((resolve) => {
          answers.push(() => resolve(ok(undefined)));
          // The bus answers only once three sends are out (or the last is).
          if (answers.length === 3 || order.length === 8) for (const a of answers.splice(0)) a();
        });
      },
      subscribe: async () => async () => {},
      close: async () => {},
    };
    const publisher = new OutboxPublisher(database.db, bus, { pollMs: 1_000, batch: 2, inFlight: 3 });
    expect(await within(publisher.drain(), 'drain with three batches in flight')).toBe(8);
    expect(startedTogether).toBe(3);
    expect(order).toEqual(await eventIds(service));
    expect(await unsent(service)).toBe(0);
  });
});

/** A bus that answers each publish only when the test says so (`answer(i, result)`, by call order). */
function heldBus() {
  const calls: BusMessage[][] = [];
  const answers: ((r: Result<void>) => void)[] = [];
  const state = { answerAtOnce: false };
  const bus: Bus = {
    publish: (messages) => {
      calls.push(messages);
      if (state.answerAtOnce) return Promise.resolve(ok(undefined));
      return new Promise<Result<void>>((resolve) => answers.push(resolve));
    },
    subscribe: async () => async () => {},
    close: async () => {},
  };
  return { bus, calls, state, answer: (i: number, r: Result<void> = ok(undefined)) => answers[i]?.(r) };
}

const claimedRows = async (service: string) =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox
      WHERE subject = ${`${service}.thing.made`} AND claim_token IS NOT NULL`.execute(database.db)
  ).rows[0]?.n;

/** Waits until `check` holds, trying every few milliseconds; fails the test only when it hangs (5 s). */
async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`${what}: still not so after 5 s`);
}

/** A service of its own with `n` events written by commands, every older row drained first. */
async function freshEvents(n: number): Promise<string> {
  await drainAll();
  const service = `s${randomUUID().slice(0, 8)}`;
  for (let i = 0; i < n; i++) await command(service, `event ${i}`);
  return service;
}

describe('22 the in-flight window of the publisher', () => {
  it('22 no more than inFlight batches are on the bus unanswered: the next one, already claimed, waits for an answer', async () => {
    const service = await freshEvents(8);
    const held = heldBus();
    const publisher = new OutboxPublisher(database.db, held.bus, { pollMs: 1_000, batch: 2, inFlight: 2 });
    const draining = publisher.drain();
    // Two batches out, a third claimed ahead: the window is full, so it is not sent.
    await until(async () => held.calls.length === 2 && (await claimedRows(service)) === 6, 'two sent, one claimed');
    expect(held.calls.length).toBe(2);
    held.answer(0);
    await until(async () => held.calls.length === 3, 'the third sent after an answer');
    for (let i = 1; i < 4; i++) {
      await until(async () => held.calls.length > i, `send ${i + 1}`);
      held.answer(i);
    }
    expect(await within(draining, 'drain')).toBe(8);
    expect(held.calls.flat().map((m) => m.id)).toEqual(await eventIds(service));
  });

  it('22 a batch that fails while later ones are delivered: those are marked, it is released and resent after them', async () => {
    const service = await freshEvents(6);
    const held = heldBus();
    const publisher = new OutboxPublisher(database.db, held.bus, { pollMs: 1_000, batch: 2, inFlight: 3 });
    const draining = publisher.drain();
    await until(async () => held.calls.length === 3, 'three batches out');
    held.answer(1);
    held.answer(2);
    held.answer(0, fail(new Error('broker hiccup'), true));
    expect(await within(draining, 'drain')).toBe(4);
    const ids = await eventIds(service);
    expect(await unsent(service)).toBe(2);
    expect(await claimedRows(service)).toBe(0);
    const last = new MemoryBus();
    expect(await new OutboxPublisher(database.db, last, { pollMs: 1_000 }).drain()).toBe(2);
    // The documented exception to order: the failed batch goes out after those sent behind it.
    expect(last.log.map((m) => m.id)).toEqual(ids.slice(0, 2));
  });

  it('22 stop() ends a running drain after the batches it has on the bus, gives back what it claimed ahead, and a drain after it runs whole', async () => {
    const service = await freshEvents(8);
    const held = heldBus();
    const publisher = new OutboxPublisher(database.db, held.bus, { pollMs: 1_000, batch: 2, inFlight: 1 });
    const draining = publisher.drain();
    await until(async () => held.calls.length === 1 && (await claimedRows(service)) === 4, 'one sent, one claimed');
    const stopping = publisher.stop();
    held.answer(0);
    await within(stopping, 'stop');
    expect(await draining).toBe(2);
    expect(held.calls.length).toBe(1);
    expect(await claimedRows(service)).toBe(0);
    expect(await unsent(service)).toBe(6);
    // A last drain after stop() (as a service's close does) is not cut short.
    held.state.answerAtOnce = true;
    expect(await within(publisher.drain(), 'the last drain')).toBe(6);
    expect(await unsent(service)).toBe(0);
    expect(held.calls.flat().map((m) => m.id)).toEqual(await eventIds(service));
  });
});
