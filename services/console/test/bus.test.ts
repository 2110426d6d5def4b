import { randomBytes } from 'node:crypto';
import { type Bus, MEMORY_STREAM, MemoryBus, NatsBus, streamName } from '@platform/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleHarness, type Harness } from './harness.ts';

const P = '/v1/environments/us/core';

/** A service's topology with one domain and one durable subscriber that is not reading now. */
const topologyOf = (service: string) => ({ service, domains: { things: { audit: {} } } });

const events = (service: string) =>
  [1, 2].map((n) => ({
    id: `0190f0e4-0000-7000-8000-00000000000${n}`,
    subject: `${service}.things.happened`,
    data: { id: `e${n}`, type: 'things.happened', data: { n } },
  }));

/** GET P/bus, then a peek of sequence 1, then GET P/bus again: the peek moved nothing. */
async function peekMovesNothing(h: Harness, stream: string) {
  const view = async () => {
    const res = await h.app.inject({ method: 'GET', url: `${P}/bus`, headers: h.headers('viewer') });
    expect(res.statusCode).toBe(200);
    const data = res.json().payload.data;
    return {
      kind: data.kind as string,
      stream: data.streams.find((s: { name: string }) => s.name === stream),
      consumer: data.consumers.find(
        (c: { stream: string; name: string }) => c.stream === stream && c.name === 'things_audit',
      ),
    };
  };
  const before = await view();
  expect(before.stream).toMatchObject({ messages: 2, last_seq: before.stream.first_seq + 1 });
  expect(before.consumer).toMatchObject({ pending: 2, ack_pending: 0 });
  const seq = before.stream.first_seq as number;
  const peek = await h.app.inject({
    method: 'GET',
    url: `${P}/bus/${stream}/messages/${seq}`,
    headers: h.headers('viewer'),
  });
  expect(peek.statusCode).toBe(200);
  expect(peek.json().payload.data).toMatchObject({ seq, data: { data: { n: 1 } }, id: events('x')[0]?.id });
  const after = await view();
  expect(after.stream).toEqual(before.stream);
  expect(after.consumer).toEqual(before.consumer);
  const missing = await h.app.inject({
    method: 'GET',
    url: `${P}/bus/${stream}/messages/${seq + 99}`,
    headers: h.headers('viewer'),
  });
  expect(missing.json().payload.errors[0].code).toBe('message_not_found');
  return before.kind;
}

describe('21 bus: stats and peeks', () => {
  let h: Harness | undefined;
  afterAll(() => h?.close());

  it('21 OPS-048 OPS-049 in-process bus: a viewer reads its log and subscriptions through the kit inspector; a peek never receives', async () => {
    const bus: Bus = new MemoryBus();
    await bus.declare?.(topologyOf('svcmem'));
    await bus.publish(events('svcmem'));
    h = await consoleHarness({ embedded: { bus } });
    expect(await peekMovesNothing(h, MEMORY_STREAM)).toBe('in-process');
  });

  it('21 OPS-009 a subscription without a bus answers 501 bus_not_configured', async () => {
    const eu = await consoleHarness();
    try {
      const res = await eu.app.inject({
        method: 'GET',
        url: '/v1/environments/eu/core/bus',
        headers: eu.headers('viewer'),
      });
      expect(res.statusCode).toBe(501);
      expect(res.json().payload.errors[0].code).toBe('bus_not_configured');
    } finally {
      await eu.close();
    }
  });
});

const natsUrl = process.env.TEST_NATS_URL;
if (process.env.REQUIRE_REAL_INFRA === '1' && !natsUrl) throw new Error('REQUIRE_REAL_INFRA=1 needs TEST_NATS_URL');

describe.skipIf(!natsUrl)('21 bus on NATS JetStream (TEST_NATS_URL)', () => {
  it('21 OPS-048 OPS-049 JetStream stream and consumer info; a direct get leaves the message and the consumer’s pending count as they were', async () => {
    const service = `cbus${randomBytes(4).toString('hex')}`;
    const bus = await NatsBus.connect(natsUrl as string, { topologies: [topologyOf(service)] });
    const h = await consoleHarness({ env: { US_CORE_BUS_URL: natsUrl } });
    const stream = streamName(`${service}_things`);
    try {
      const sent = await bus.publish(events(service));
      expect(sent.ok).toBe(true);
      expect(await peekMovesNothing(h, stream)).toBe('jetstream');
      const unknown = await h.app.inject({
        method: 'GET',
        url: `${P}/bus/NO_SUCH_${stream}/messages/1`,
        headers: h.headers('viewer'),
      });
      expect(unknown.json().payload.errors[0].code).toBe('stream_not_found');
    } finally {
      await h.close();
      const { jetstreamManager } = await import('@nats-io/jetstream');
      const { connect } = await import('@nats-io/transport-node');
      const nc = await connect({ servers: (natsUrl as string).replace(/^nats:\/\//, '') });
      const jsm = await jetstreamManager(nc);
      for (const s of [stream, streamName(`restricted_${service}_things`)])
        await jsm.streams.delete(s).catch(() => false);
      await nc.close();
      await bus.close();
    }
  });
});
