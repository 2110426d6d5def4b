import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type BusMessage,
  type BusTopology,
  consumersOf,
  DEFAULT_ACK_WAIT_MS,
  matches,
  topicsOf,
} from '../src/bus/bus.ts';
import { MemoryBus } from '../src/bus/memory.ts';
import { NatsBus } from '../src/bus/nats.ts';

const natsUrl = process.env.TEST_NATS_URL;
if (process.env.REQUIRE_REAL_INFRA === '1' && !natsUrl) throw new Error('REQUIRE_REAL_INFRA=1 needs TEST_NATS_URL');

const waitFor = async <T>(f: () => T | undefined, what: string, tries = 400): Promise<T> => {
  for (let i = 0; i < tries; i++) {
    const v = f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
};

const topology = (service: string): BusTopology => ({
  service,
  domains: {
    talk: { listener: {}, slow: { ackWaitMs: 300_000 } },
    record: { audit: {} },
  },
  reads: [{ service: `${service}up`, domain: 'knowledge', subscriber: service }],
});

describe('bus topology as data', () => {
  it('19 WS-582 WS-589 a topology names a topic per domain (and a restricted one beside it) and a consumer <domain>_<subscriber> per subscriber, one minute unless declared', () => {
    const t = topology('svc');
    expect(topicsOf(t)).toEqual([
      { stream: 'SVC_TALK', subjects: ['svc.talk.>'] },
      { stream: 'RESTRICTED_SVC_TALK', subjects: ['restricted.svc.talk.>'] },
      { stream: 'SVC_RECORD', subjects: ['svc.record.>'] },
      { stream: 'RESTRICTED_SVC_RECORD', subjects: ['restricted.svc.record.>'] },
      { stream: 'SVCUP_KNOWLEDGE', subjects: ['svcup.knowledge.>'] },
    ]);
    expect(consumersOf(t)).toEqual([
      { stream: 'SVC_TALK', name: 'talk_listener', filter: 'svc.talk.>', ackWaitMs: 60_000 },
      { stream: 'SVC_TALK', name: 'talk_slow', filter: 'svc.talk.>', ackWaitMs: 300_000 },
      { stream: 'SVC_RECORD', name: 'record_audit', filter: 'svc.record.>', ackWaitMs: 60_000 },
      { stream: 'SVCUP_KNOWLEDGE', name: 'knowledge_svc', filter: 'svcup.knowledge.>', ackWaitMs: 60_000 },
    ]);
    expect(DEFAULT_ACK_WAIT_MS).toBe(60_000);
    // A service declaring no domains keeps one topic for everything it publishes.
    expect(topicsOf({ service: 'plain' }).map((x) => x.subjects[0])).toEqual(['plain.>', 'restricted.plain.>']);
    // WS-591: restricted subjects never match a core topic.
    expect(matches('svc.talk.>', 'restricted.svc.talk.said')).toBe(false);
  });

  it('19 WS-582 the in-process bus keeps what a declared consumer has not read yet and redelivers after a failed handler', async () => {
    const bus = new MemoryBus();
    await bus.declare(topology('mem'));
    expect((await bus.describe()).map((c) => [c.name, c.ackWaitMs])).toEqual([
      ['talk_listener', 60_000],
      ['talk_slow', 300_000],
      ['record_audit', 60_000],
      ['knowledge_mem', 60_000],
    ]);
    await bus.publish([{ id: randomUUID(), subject: 'mem.talk.said', data: 1 }]);
    const got: BusMessage[] = [];
    let failures = 0;
    await bus.subscribe('mem.talk.>', 'talk_listener', (m) => {
      if (failures++ === 0) throw new Error('nak');
      got.push(m);
    });
    await waitFor(() => (got.length === 1 ? true : undefined), 'redelivery');
    expect(failures).toBe(2);
    expect(got[0].subject).toBe('mem.talk.said');
    await bus.close();
  });
});

describe.skipIf(!natsUrl)('bus topology on NATS JetStream (TEST_NATS_URL)', () => {
  it('19 WS-582 WS-589 declaring creates the streams and durable consumers with their ack waits; a changed ack wait is updated in place', async () => {
    const service = `k${randomUUID().slice(0, 8)}`;
    const bus = await NatsBus.connect(natsUrl as string, { topologies: [topology(service)] });
    try {
      const found = (await bus.describe()).sort((a, b) => a.name.localeCompare(b.name));
      expect(found).toEqual(
        [
          {
            stream: `${service.toUpperCase()}_RECORD`,
            name: 'record_audit',
            filter: `${service}.record.>`,
            ackWaitMs: 60_000,
          },
          {
            stream: `${service.toUpperCase()}_TALK`,
            name: 'talk_listener',
            filter: `${service}.talk.>`,
            ackWaitMs: 60_000,
          },
          {
            stream: `${service.toUpperCase()}_TALK`,
            name: 'talk_slow',
            filter: `${service}.talk.>`,
            ackWaitMs: 300_000,
          },
          {
            stream: `${service.toUpperCase()}UP_KNOWLEDGE`,
            name: `knowledge_${service}`,
            filter: `${service}up.knowledge.>`,
            ackWaitMs: 60_000,
          },
        ].sort((a, b) => a.name.localeCompare(b.name)),
      );
      const t = topology(service);
      (t.domains as Record<string, Record<string, { ackWaitMs?: number }>>).talk.slow = { ackWaitMs: 120_000 };
      await bus.declare(t);
      expect((await bus.describe()).find((c) => c.name === 'talk_slow')?.ackWaitMs).toBe(120_000);
    } finally {
      await bus.close();
    }
  });

  it('19 WS-589 WS-591 a message published before its subscriber starts is kept; a nak redelivers it; restricted subjects reach no core consumer', async () => {
    const service = `k${randomUUID().slice(0, 8)}`;
    const bus = await NatsBus.connect(natsUrl as string, { topologies: [topology(service)] });
    try {
      const id = randomUUID();
      const pub = await bus.publish([
        { id, subject: `${service}.talk.said`, data: { n: 1 } },
        { id: randomUUID(), subject: `restricted.${service}.talk.said`, data: { n: 1, who: 'personal' } },
      ]);
      expect(pub.ok).toBe(true);
      const got: BusMessage[] = [];
      let attempts = 0;
      const stop = await bus.subscribe(`${service}.talk.>`, 'talk_listener', (m) => {
        if (attempts++ === 0) throw new Error('not yet');
        got.push(m);
      });
      await waitFor(() => (got.length === 1 ? true : undefined), 'redelivery after a nak');
      await new Promise((r) => setTimeout(r, 200));
      expect(attempts).toBe(2);
      expect(got.map((m) => m.id)).toEqual([id]);
      expect(JSON.stringify(got)).not.toContain('personal');
      await stop();
    } finally {
      await bus.close();
    }
  });
  it('19 WS-589 a subscriber may hold several messages at once (concurrency), each acknowledged when its own handler returns', async () => {
    const service = `k${randomUUID().slice(0, 8)}`;
    const bus = await NatsBus.connect(natsUrl as string, { topologies: [topology(service)] });
    try {
      await bus.publish([1, 2, 3].map((n) => ({ id: randomUUID(), subject: `${service}.record.n`, data: { n } })));
      // Each handler waits until all three are held together: possible only with concurrency >= 3.
      let release: () => void = () => {};
      const allHeld = new Promise<void>((r) => {
        release = r;
      });
      let held = 0;
      const done: number[] = [];
      const stop = await bus.subscribe(
        `${service}.record.>`,
        'record_audit',
        async (m) => {
          if (++held === 3) release();
          await allHeld;
          done.push((m.data as { n: number }).n);
        },
        { concurrency: 3 },
      );
      await waitFor(() => (done.length === 3 ? true : undefined), 'three held at once');
      expect(done.sort()).toEqual([1, 2, 3]);
      await stop();
    } finally {
      await bus.close();
    }
  });
  it('22 WS-589 a subscriber never holds more than its concurrency: the next message waits for a free slot', async () => {
    const service = `k${randomUUID().slice(0, 8)}`;
    const bus = await NatsBus.connect(natsUrl as string, { topologies: [topology(service)] });
    try {
      const ns = [1, 2, 3, 4, 5, 6, 7, 8];
      await bus.publish(ns.map((n) => ({ id: randomUUID(), subject: `${service}.record.n`, data: { n } })));
      let held = 0;
      let most = 0;
      const done: number[] = [];
      const stop = await bus.subscribe(
        `${service}.record.>`,
        'record_audit',
        async (m) => {
          most = Math.max(most, ++held);
          await new Promise((r) => setTimeout(r, 20));
          held--;
          done.push((m.data as { n: number }).n);
        },
        { concurrency: 2 },
      );
      await waitFor(() => (done.length === ns.length ? true : undefined), 'every message handled');
      expect(done.sort((a, b) => a - b)).toEqual(ns);
      expect(most).toBe(2);
      await stop();
    } finally {
      await bus.close();
    }
  });
});
