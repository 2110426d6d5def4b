import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribeEvents } from '../src/bus/bus.ts';
import { MemoryBus } from '../src/bus/memory.ts';
import type { Database } from '../src/db/database.ts';
import { fail } from '../src/errors.ts';
import { type EventEnvelope, emit, OutboxPublisher } from '../src/outbox.ts';
import { startRuntime } from '../src/service.ts';
import { testDatabase } from '../src/testing/database.ts';

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await testDatabase('kit_publish_hook', []);
});
afterAll(async () => database.drop());

const write = (service: string, types: string[]) =>
  database.db.transaction().execute((trx) =>
    emit(
      trx,
      service,
      types.map((type) => ({ type, data: { type } })),
    ),
  );

/** Leaves nothing unsent from an earlier test. */
const drainAll = () => new OutboxPublisher(database.db, new MemoryBus(), { pollMs: 1_000 }).drain();

describe('the publisher’s onPublished hook and subscribeEvents', () => {
  it('onPublished gets the envelopes of each batch the bus accepted, in outbox order, and nothing of a failed send', async () => {
    await drainAll();
    await write('hook', ['thing.a', 'thing.b']);
    const seen: EventEnvelope[][] = [];
    const failing = new OutboxPublisher(
      database.db,
      {
        publish: async () => fail(new Error('down'), true),
        subscribe: async () => async () => {},
        close: async () => {},
      },
      { pollMs: 1_000, onPublished: (events) => void seen.push(events) },
    );
    expect(await failing.drain()).toBe(0);
    expect(seen).toEqual([]);
    const publisher = new OutboxPublisher(database.db, new MemoryBus(), {
      pollMs: 1_000,
      onPublished: (events) => void seen.push(events),
    });
    expect(await publisher.drain()).toBe(2);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.map((e) => [e.type, e.source, e.data])).toEqual([
      ['thing.a', 'hook', { type: 'thing.a' }],
      ['thing.b', 'hook', { type: 'thing.b' }],
    ]);
    expect(seen[0]?.every((e) => typeof e.id === 'string' && typeof e.occurred_at === 'string')).toBe(true);
  });

  it('a failing onPublished is reported and holds nothing back: the events stay published', async () => {
    await drainAll();
    await write('hook', ['thing.c']);
    const errors: string[] = [];
    const publisher = new OutboxPublisher(database.db, new MemoryBus(), {
      pollMs: 1_000,
      onPublished: () => {
        throw new Error('audit store down');
      },
      onError: (e) => errors.push(e.message),
    });
    expect(await publisher.drain()).toBe(1);
    expect(errors).toEqual(['audit store down']);
    expect(await publisher.drain()).toBe(0);
  });

  it('subscribeEvents hands one service’s public events to the handler as envelopes, again after a throw', async () => {
    await drainAll();
    const bus = new MemoryBus();
    const got: EventEnvelope[] = [];
    let failures = 1;
    await subscribeEvents(bus, 'hooked', 'hooked-audit', (e) => {
      if (failures-- > 0) throw new Error('not yet');
      got.push(e);
    });
    await database.db.transaction().execute((trx) =>
      emit(trx, 'hooked', [
        { type: 'thing.public', data: { n: 1 } },
        { type: 'thing.personal', data: { n: 2 }, restricted: true },
      ]),
    );
    await write('other', ['thing.elsewhere']);
    await new OutboxPublisher(database.db, bus, { pollMs: 1_000 }).drain();
    // The in-process bus redelivers a failed message on its next delivery round.
    await bus.publish([]);
    await new Promise((r) => setImmediate(r));
    expect(got.map((e) => [e.type, e.source, e.data])).toEqual([['thing.public', 'hooked', { n: 1 }]]);
  });

  it('startRuntime hands its publisher’s batches to onPublished with the service’s database', async () => {
    const seen: { types: string[]; same: boolean }[] = [];
    const runtime = await startRuntime({
      service: 'kit_runtime_hook',
      migrations: [],
      dataDir: 'memory://',
      outboxPollMs: 10,
      bus: new MemoryBus(),
      onPublished: (events, db) => {
        seen.push({ types: events.map((e) => e.type), same: db === runtime.database.db });
      },
    });
    try {
      await runtime.database.db
        .transaction()
        .execute((trx) => emit(trx, 'kit_runtime_hook', [{ type: 'thing.x', data: {} }]));
      await runtime.publisher.drain();
      expect(seen.flatMap((s) => s.types)).toEqual(['thing.x']);
      expect(seen.every((s) => s.same)).toBe(true);
    } finally {
      await runtime.close();
    }
  });
});
