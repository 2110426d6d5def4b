import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { fail, ok, type Result } from '../errors.ts';
import type { Bus, BusMessage, Handler } from './bus.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * NATS JetStream: a stream per domain (`<service>.>`), and a separate stream for the service's
 * restricted subjects (`restricted.<service>.>`), so access to personal data can be granted
 * apart. Each subscriber is a durable consumer whose ack wait is the message lock.
 */
export class NatsBus implements Bus {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly ackWaitMs: number,
  ) {}

  static async connect(url: string, opts: { streams: string[]; ackWaitMs?: number }): Promise<NatsBus> {
    const nc = await connect({ servers: url.replace(/^nats:\/\//, ''), name: 'platform' });
    const jsm = await jetstreamManager(nc);
    for (const domain of opts.streams) {
      for (const [name, subjects] of [
        [streamName(domain), [`${domain}.>`]],
        [streamName(`restricted_${domain}`), [`restricted.${domain}.>`]],
      ] as const) {
        try {
          await jsm.streams.info(name);
        } catch {
          await jsm.streams.add({ name, subjects: [...subjects] }).catch((e: Error) => {
            // Two processes creating the same stream at once: the loser just uses it.
            if (!/already in use|exists/i.test(e.message)) throw e;
          });
        }
      }
    }
    return new NatsBus(nc, opts.ackWaitMs ?? 30_000);
  }

  async publish(messages: BusMessage[]): Promise<Result<void>> {
    try {
      const js = jetstream(this.nc, { timeout: 10_000 });
      await Promise.all(
        messages.map((m) => js.publish(m.subject, enc.encode(JSON.stringify(m.data)), { msgID: m.id })),
      );
      return ok(undefined);
    } catch (e) {
      return fail(e, true);
    }
  }

  async subscribe(pattern: string, durable: string, handler: Handler) {
    const jsm = await jetstreamManager(this.nc);
    const stream = await jsm.streams.find(pattern.replace(/\.>$/, '.x'));
    await jsm.consumers
      .add(stream, {
        durable_name: durable,
        filter_subject: pattern,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: this.ackWaitMs * 1_000_000,
      })
      .catch((e: Error) => {
        if (!/already in use|exists/i.test(e.message)) throw e;
      });
    const consumer = await jetstream(this.nc).consumers.get(stream, durable);
    const messages = await consumer.consume();
    void (async () => {
      for await (const m of messages) {
        const id = m.headers?.get('Nats-Msg-Id') ?? `${m.info.stream}:${m.seq}`;
        try {
          await handler({ id, subject: m.subject, data: JSON.parse(dec.decode(m.data)) });
          m.ack();
        } catch {
          m.nak();
        }
      }
    })();
    return async () => {
      await messages.close();
    };
  }

  async close() {
    await this.nc.drain();
  }
}

const streamName = (domain: string) => domain.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase();
