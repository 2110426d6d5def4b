import { type Bus, type BusMessage, MemoryBus, NatsBus, OutboxPublisher } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServiceDatabase, serviceDatabase } from './fixtures/service-db.ts';
import { consoleHarness, type Harness } from './harness.ts';

let svc: ServiceDatabase;
let h: Harness;
beforeAll(async () => {
  svc = await serviceDatabase();
  h = await consoleHarness({ env: svc.consoleEnv, embedded: svc.embedded });
});
afterAll(async () => {
  await h?.close();
  await svc?.close();
});

const P = '/v1/environments/us/core';

async function row(eventId: string) {
  const r = await sql<{ published_at: Date | null; republished: number; attempts: number }>`
    SELECT published_at, republished, attempts FROM outbox WHERE event_id = ${eventId}`.execute(svc.database.db);
  return r.rows[0];
}

async function eventIds() {
  const r = await sql<{ event_id: string }>`SELECT event_id FROM outbox ORDER BY id`.execute(svc.database.db);
  return r.rows.map((x) => x.event_id);
}

const republishUrl = (id: string, service = svc.service) => `${P}/outbox/${service}/events/${id}/republish`;

/** Publishes the outbox to `bus`, republishes the first event as admin, publishes again: the subscriber sees it twice. */
async function republishedTwice(bus: Bus, pattern: string, durable: string) {
  const seen: BusMessage[] = [];
  const stop = await bus.subscribe(pattern, durable, (m) => {
    seen.push(m);
  });
  const publisher = new OutboxPublisher(svc.database.db, bus, { pollMs: 10_000 });
  try {
    await svc.emit([{ type: 'thing.happened', data: { n: Math.random() } }]);
    const id = (await eventIds()).at(-1) as string;
    await publisher.drain();
    await waitFor(() => seen.filter((m) => (m.data as { id: string }).id === id).length === 1);
    expect((await row(id))?.published_at).not.toBeNull();

    const res = await h.app.inject({ method: 'POST', url: republishUrl(id), headers: h.writeHeaders('admin') });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.data).toMatchObject({ event_id: id, published_at: null, republished: 1 });
    expect((await row(id))?.published_at).toBeNull();

    await publisher.drain();
    await waitFor(() => seen.filter((m) => (m.data as { id: string }).id === id).length === 2);
    expect((await row(id))?.published_at).not.toBeNull();
    return seen.filter((m) => (m.data as { id: string }).id === id);
  } finally {
    await stop();
  }
}

async function waitFor(ok: () => boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('21 outbox: counts, events, republish', () => {
  it('21 OPS-045 OPS-002 a viewer reads every service outbox count and its recent events', async () => {
    await svc.emit([
      { type: 'thing.listed', data: { a: 1 } },
      { type: 'thing.listed', data: { a: 2 } },
    ]);
    const counts = await h.app.inject({ method: 'GET', url: `${P}/outbox`, headers: h.headers('viewer') });
    expect(counts.statusCode).toBe(200);
    const mine = counts.json().payload.data.find((c: { service: string }) => c.service === svc.service);
    expect(mine).toMatchObject({ total: 2, pending: 2, published: 0, failing: 0 });
    const events = await h.app.inject({
      method: 'GET',
      url: `${P}/outbox/${svc.service}/events?status=pending&limit=1`,
      headers: h.headers('viewer'),
    });
    expect(events.statusCode).toBe(200);
    const list = events.json().payload.data.events;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ event_type: 'thing.listed', published_at: null, payload: { data: { a: 2 } } });
    const missing = await h.app.inject({ method: 'GET', url: `${P}/outbox/nope/events`, headers: h.headers('viewer') });
    expect(missing.json().payload.errors[0].code).toBe('outbox_not_found');
  });

  it('21 OPS-058 an engineer’s republish is 403 and the row is unchanged; nothing is logged as a write', async () => {
    await svc.emit([{ type: 'thing.kept', data: {} }]);
    const id = (await eventIds()).at(-1) as string;
    await sql`UPDATE outbox SET published_at = now() WHERE event_id = ${id}`.execute(svc.database.db);
    const before = await row(id);
    const writes = h.log.writes().length;
    const res = await h.app.inject({ method: 'POST', url: republishUrl(id), headers: h.writeHeaders('engineer') });
    expect(res.statusCode).toBe(403);
    expect(res.json().payload.errors[0].code).toBe('insufficient_role');
    expect(await row(id)).toEqual(before);
    expect(h.log.writes().length).toBe(writes);
  });

  it('21 OPS-059 OPS-061 an admin’s republish clears published_at and the in-process bus delivers the event again', async () => {
    const bus = new MemoryBus();
    const got = await republishedTwice(bus, `${svc.service}.>`, 'console_test');
    expect(got.map((m) => m.id)).toEqual([got[0]?.id, `${got[0]?.id}.r1`]);
    // The console published nothing itself: every message on the bus came from the publisher.
    const id = (got[0]?.data as { id: string } | undefined)?.id;
    expect(bus.log.filter((m) => (m.data as { id: string }).id === id)).toHaveLength(2);
  });

  it('21 OPS-060 OPS-003 the republish is logged (actor, action, target, why) before the attempt, even when the update then fails', async () => {
    await svc.emit([{ type: 'thing.refused', data: {} }]);
    const id = (await eventIds()).at(-1) as string;
    await sql`UPDATE outbox SET published_at = now() WHERE event_id = ${id}`.execute(svc.database.db);
    // The database refuses the update (a trigger), as a failing write would.
    await sql
      .raw(`CREATE FUNCTION ${svc.service}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused by test'; END $$;
        CREATE TRIGGER refuse BEFORE UPDATE ON ${svc.service}.outbox FOR EACH ROW EXECUTE FUNCTION ${svc.service}.refuse();`)
      .execute(svc.database.db);
    try {
      const before = await row(id);
      const res = await h.app.inject({
        method: 'POST',
        url: republishUrl(id),
        headers: h.writeHeaders('admin'),
        payload: { data: {}, why: { code: 'INC-7', detail: 'consumer missed it' } },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().payload.errors[0].code).toBe('republish_failed');
      expect(await row(id)).toEqual(before);
      const line = h.log.writes().at(-1);
      expect(line).toMatchObject({
        actor: 'admin@ops.test',
        action: 'outbox.republish',
        target: `us/core/${svc.service}/${id}`,
        why: { code: 'INC-7', detail: 'consumer missed it' },
      });
    } finally {
      await sql.raw(`DROP TRIGGER refuse ON ${svc.service}.outbox`).execute(svc.database.db);
    }
    // Without an Idempotency-Key nothing runs and nothing is logged.
    const writes = h.log.writes().length;
    const res = await h.app.inject({
      method: 'POST',
      url: republishUrl(id),
      headers: { ...h.headers('admin'), 'content-type': 'application/json' },
      payload: { data: {} },
    });
    expect(res.statusCode).toBe(400);
    expect(h.log.writes().length).toBe(writes);
  });

  it('21 OPS-004 a replayed key answers the first result without a second republish; an unknown event is 404 after its log line', async () => {
    await svc.emit([{ type: 'thing.replayed', data: {} }]);
    const id = (await eventIds()).at(-1) as string;
    const headers = h.writeHeaders('admin', `replay-${id}`);
    const first = await h.app.inject({ method: 'POST', url: republishUrl(id), headers, payload: { data: {} } });
    const again = await h.app.inject({ method: 'POST', url: republishUrl(id), headers, payload: { data: {} } });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await row(id))?.republished).toBe(1);
    const other = await h.app.inject({
      method: 'POST',
      url: republishUrl(id),
      headers,
      payload: { why: { code: 'x' } },
    });
    expect(other.statusCode).toBe(409);

    const unknown = '0190f0e4-0000-7000-8000-000000000001';
    const res = await h.app.inject({ method: 'POST', url: republishUrl(unknown), headers: h.writeHeaders('admin') });
    expect(res.json().payload.errors[0].code).toBe('event_not_found');
    expect(h.log.writes().at(-1)).toMatchObject({
      action: 'outbox.republish',
      target: `us/core/${svc.service}/${unknown}`,
    });
  });
});

const natsUrl = process.env.TEST_NATS_URL;
if (process.env.REQUIRE_REAL_INFRA === '1' && !natsUrl) throw new Error('REQUIRE_REAL_INFRA=1 needs TEST_NATS_URL');

describe.skipIf(!natsUrl)('21 outbox republish on NATS JetStream (TEST_NATS_URL)', () => {
  it('21 OPS-059 an admin’s republish goes out again on JetStream, inside its duplicate window', async () => {
    const bus = await NatsBus.connect(natsUrl as string, { streams: [svc.service] });
    try {
      const got = await republishedTwice(bus, `${svc.service}.>`, 'console_test');
      expect(got).toHaveLength(2);
      expect(got[1]?.id).toBe(`${got[0]?.id}.r1`);
    } finally {
      const { jetstreamManager } = await import('@nats-io/jetstream');
      const { connect } = await import('@nats-io/transport-node');
      const nc = await connect({ servers: (natsUrl as string).replace(/^nats:\/\//, '') });
      await (await jetstreamManager(nc)).streams.delete(svc.service.toUpperCase()).catch(() => false);
      await nc.close();
      await bus.close();
    }
  });
});
