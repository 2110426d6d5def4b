import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bus, BusMessage } from '../src/bus/bus.ts';
import { MemoryBus } from '../src/bus/memory.ts';
import { NatsBus } from '../src/bus/nats.ts';
import type { Database } from '../src/db/database.ts';
import { fail } from '../src/errors.ts';
import { emit, OutboxPublisher } from '../src/outbox.ts';
import { testDatabase } from '../src/testing/database.ts';

let database: Database & { drop(): Promise<void> };
beforeAll(async () => {
  database = await testDatabase('kit_bus', []);
});
afterAll(async () => database.drop());

const waitFor = async <T>(f: () => T | undefined, what: string, tries = 200): Promise<T> => {
  for (let i = 0; i < tries; i++) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
};

describe('outbox and publisher', () => {
  it('events are published only when their transaction commits; restricted ones to the restricted subject', async () => {
    const bus = new MemoryBus();
    const publisher = new OutboxPublisher(database.db, bus, { pollMs: 1000 });
    const tag = randomUUID();
    await database.db
      .transaction()
      .execute(async (trx) => {
        await emit(trx, 'svc', [{ type: 'thing.rolled_back', data: { tag } }]);
        throw new Error('abort');
      })
      .catch(() => {});
    await database.db.transaction().execute(async (trx) => {
      await emit(trx, 'svc', [
        { type: 'thing.done', data: { tag } },
        { type: 'thing.done', data: { tag, secret: 'personal' }, restricted: true },
      ]);
    });
    expect(await publisher.drain()).toBe(2);
    const mine = bus.log.filter((m) => (m.data as { data: { tag: string } }).data.tag === tag);
    expect(mine.map((m) => m.subject)).toEqual(['svc.thing.done', 'restricted.svc.thing.done']);
    expect(JSON.stringify(mine[0].data)).not.toContain('personal');
  });

  it('a failed publish leaves the rows for the next poll and loses nothing', async () => {
    const real = new MemoryBus();
    let down = true;
    const flaky: Bus = {
      publish: async (m) => (down ? fail(new Error('broker down'), true) : real.publish(m)),
      subscribe: real.subscribe.bind(real),
      close: real.close.bind(real),
    };
    const publisher = new OutboxPublisher(database.db, flaky, { pollMs: 1000 });
    await database.db.transaction().execute((trx) => emit(trx, 'svc', [{ type: 'thing.retry', data: {} }]));
    expect(await publisher.drain()).toBe(0);
    const pending = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`.execute(
      database.db,
    );
    expect(pending.rows[0].n).toBeGreaterThan(0);
    down = false;
    expect(await publisher.drain()).toBeGreaterThan(0);
    expect(real.log.some((m) => m.subject === 'svc.thing.retry')).toBe(true);
  });

  it('the in-process bus redelivers to a subscriber whose handler failed', async () => {
    const bus = new MemoryBus();
    const got: BusMessage[] = [];
    let failOnce = true;
    await bus.subscribe('svc.>', 'sub', (m) => {
      if (failOnce) {
        failOnce = false;
        throw new Error('not yet');
      }
      got.push(m);
    });
    await bus.publish([{ id: randomUUID(), subject: 'svc.a', data: 1 }]);
    await bus.publish([{ id: randomUUID(), subject: 'svc.b', data: 2 }]);
    await waitFor(() => (got.length >= 2 ? true : undefined), 'redelivery');
    expect(got.map((m) => m.subject).sort()).toEqual(['svc.a', 'svc.b']);
  });
});

const natsUrl = process.env.TEST_NATS_URL;
if (process.env.REQUIRE_REAL_INFRA === '1' && !natsUrl) throw new Error('REQUIRE_REAL_INFRA=1 needs TEST_NATS_URL');

describe.skipIf(!natsUrl)('NATS JetStream bus (TEST_NATS_URL)', () => {
  it('publishes through the outbox to a durable consumer, deduplicating a retried publish', async () => {
    const domain = `kit${randomUUID().slice(0, 8)}`;
    const bus = await NatsBus.connect(natsUrl as string, { streams: [domain], ackWaitMs: 2000 });
    try {
      const got: BusMessage[] = [];
      const restricted: BusMessage[] = [];
      const stop = await bus.subscribe(`${domain}.>`, `c_${domain}`, (m) => {
        got.push(m);
      });
      const stopR = await bus.subscribe(`restricted.${domain}.>`, `r_${domain}`, (m) => {
        restricted.push(m);
      });
      await database.db.transaction().execute((trx) =>
        emit(trx, domain, [
          { type: 'thing.done', data: { n: 1 } },
          { type: 'thing.done', data: { n: 1, reason: 'personal' }, restricted: true },
        ]),
      );
      const publisher = new OutboxPublisher(database.db, bus, { pollMs: 1000 });
      await publisher.drain();
      // Publishing the same event id again (a retry after a lost ack) is dropped by JetStream.
      const row = await sql<{ event_id: string; payload: unknown }>`
        SELECT event_id, payload FROM outbox WHERE subject = ${`${domain}.thing.done`}`.execute(database.db);
      await bus.publish([{ id: row.rows[0].event_id, subject: `${domain}.thing.done`, data: row.rows[0].payload }]);
      await waitFor(() => (got.length >= 1 && restricted.length >= 1 ? true : undefined), 'nats delivery');
      await new Promise((r) => setTimeout(r, 300));
      expect(got).toHaveLength(1);
      expect(got[0].subject).toBe(`${domain}.thing.done`);
      expect(JSON.stringify(got[0].data)).not.toContain('personal');
      expect(restricted).toHaveLength(1);
      expect(JSON.stringify(restricted[0].data)).toContain('personal');
      await stop();
      await stopR();
    } finally {
      await bus.close();
    }
  });
});
