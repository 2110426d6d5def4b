import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { fail, ok, type Result } from '../errors.ts';
import {
  type Bus,
  type BusInspector,
  type BusMessage,
  type BusTopology,
  type ConsumerInfo,
  consumersOf,
  DEFAULT_ACK_WAIT_MS,
  type Handler,
  type SubscribeOptions,
  topicsOf,
} from './bus.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const NS_PER_MS = 1_000_000;

/**
 * NATS JetStream, its topology declared as data by each publisher (BusTopology): a stream per
 * domain (`<service>.<domain>.>`) and a restricted stream beside it
 * (`restricted.<service>.<domain>.>`), so access to personal data can be granted apart; each
 * subscriber a durable consumer `<domain>_<subscriber>` whose ack wait is its message lock (one
 * minute unless declared). A service that declares no domains keeps one stream for all its
 * subjects (`<service>.>`).
 */
export class NatsBus implements Bus {
  /** Declared consumers by subject filter and name, so subscribe binds to the declared one. */
  private readonly declared = new Map<string, ConsumerInfo>();
  private constructor(
    private readonly nc: NatsConnection,
    private readonly ackWaitMs: number,
  ) {}

  /**
   * Connects and declares the given topologies. `streams` is shorthand for services declaring no
   * domains (one stream each); `ackWaitMs` is the lock of consumers no topology declares.
   */
  static async connect(
    url: string,
    opts: { streams?: string[]; topologies?: BusTopology[]; ackWaitMs?: number } = {},
  ): Promise<NatsBus> {
    // No async traces: the client would otherwise build two Error objects with stacks per request
    // (every JetStream publish is one), a fifth of a publish's cost; a failed publish is reported
    // by its message, which keeps saying what failed.
    const nc = await connect({ servers: url.replace(/^nats:\/\//, ''), name: 'platform', noAsyncTraces: true });
    const bus = new NatsBus(nc, opts.ackWaitMs ?? DEFAULT_ACK_WAIT_MS);
    try {
      for (const service of opts.streams ?? []) await bus.declare({ service });
      for (const t of opts.topologies ?? []) await bus.declare(t);
    } catch (e) {
      await nc.close();
      throw e;
    }
    return bus;
  }

  async declare(topology: BusTopology): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    for (const topic of topicsOf(topology)) {
      try {
        await jsm.streams.info(topic.stream);
      } catch {
        await jsm.streams.add({ name: topic.stream, subjects: topic.subjects }).catch((e: Error) => {
          // Two processes creating the same stream at once: the loser just uses it.
          if (/already in use|exists/i.test(e.message)) return;
          if (/overlap/i.test(e.message)) {
            throw new Error(
              `Bus topic ${topic.stream} (${topic.subjects.join(', ')}) overlaps a stream already on the broker ` +
                `(a stream per service from before domains were declared?): drain and delete that stream, then start again. ${e.message}`,
            );
          }
          throw e;
        });
      }
    }
    for (const c of consumersOf(topology)) {
      const config = {
        durable_name: c.name,
        filter_subject: c.filter,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: c.ackWaitMs * NS_PER_MS,
      };
      const existing = await jsm.consumers.info(c.stream, c.name).catch(() => undefined);
      if (!existing) {
        await jsm.consumers.add(c.stream, config).catch((e: Error) => {
          if (!/already in use|exists/i.test(e.message)) throw e;
        });
      } else if (existing.config.ack_wait !== config.ack_wait) {
        // A changed lock takes effect in place; the consumer keeps its position.
        await jsm.consumers.update(c.stream, c.name, { ack_wait: config.ack_wait });
      }
      this.declared.set(key(c.filter, c.name), c);
    }
  }

  async describe(): Promise<ConsumerInfo[]> {
    const jsm = await jetstreamManager(this.nc);
    const streams = [...new Set([...this.declared.values()].map((c) => c.stream))];
    const out: ConsumerInfo[] = [];
    for (const stream of streams) {
      for await (const c of jsm.consumers.list(stream)) {
        out.push({
          stream,
          name: c.name,
          filter: c.config.filter_subject ?? '',
          ackWaitMs: (c.config.ack_wait ?? 0) / NS_PER_MS,
        });
      }
    }
    return out;
  }

  /**
   * JetStream's stream and consumer info, and one message by sequence read with the stream's
   * direct get (the message API when the stream does not allow direct): no consumer is created,
   * so nothing is delivered or acknowledged.
   */
  inspector(): BusInspector {
    const nc = this.nc;
    return {
      async streams() {
        const jsm = await jetstreamManager(nc);
        const out = [];
        for await (const si of jsm.streams.list()) {
          out.push({
            name: si.config.name,
            subjects: si.config.subjects ?? [],
            messages: si.state.messages,
            bytes: si.state.bytes,
            first_seq: si.state.first_seq,
            last_seq: si.state.last_seq,
            consumer_count: si.state.consumer_count,
          });
        }
        return out.sort((a, b) => a.name.localeCompare(b.name));
      },
      async consumers() {
        const jsm = await jetstreamManager(nc);
        const out = [];
        for await (const si of jsm.streams.list()) {
          for await (const c of jsm.consumers.list(si.config.name)) {
            out.push({
              stream: si.config.name,
              name: c.name,
              filter: c.config.filter_subject ?? '',
              pending: c.num_pending,
              ack_pending: c.num_ack_pending,
              redelivered: c.num_redelivered,
              ack_wait_ms: (c.config.ack_wait ?? 0) / NS_PER_MS,
              active: Boolean(c.push_bound) || (c.num_waiting ?? 0) > 0,
            });
          }
        }
        return out;
      },
      async message(stream, seq) {
        const jsm = await jetstreamManager(nc);
        const info = await jsm.streams.info(stream);
        let m: Awaited<ReturnType<typeof jsm.streams.getMessage>> = null;
        try {
          m = info.config.allow_direct
            ? await jsm.direct.getMessage(stream, { seq })
            : await jsm.streams.getMessage(stream, { seq });
        } catch (e) {
          if (/no message found|not found/i.test((e as Error).message)) return undefined;
          throw e;
        }
        if (!m) return undefined;
        const text = dec.decode(m.data);
        let data: unknown = text;
        try {
          data = JSON.parse(text);
        } catch {}
        return {
          stream,
          seq: m.seq,
          subject: m.subject,
          id: m.header?.get('Nats-Msg-Id') || null,
          time: m.time ? m.time.toISOString() : null,
          data,
        };
      },
    };
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

  /**
   * Subscribes a declared consumer by its name (its stream and filter come from the topology), or
   * an undeclared one on the stream holding `pattern`, created with the default lock. The handler
   * runs while the message is locked: it is acknowledged when the handler returns and
   * negatively acknowledged (redelivered at once) when it throws.
   */
  async subscribe(pattern: string, durable: string, handler: Handler, opts: SubscribeOptions = {}) {
    const jsm = await jetstreamManager(this.nc);
    const streamOfPattern = () => jsm.streams.find(pattern.replace(/\.>$/, '.x').replace(/\*/g, 'x'));
    const declared = this.declared.get(key(pattern, durable));
    const stream = declared ? declared.stream : await streamOfPattern();
    if (!declared) {
      await jsm.consumers
        .add(stream, {
          durable_name: durable,
          filter_subject: pattern,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          ack_wait: this.ackWaitMs * NS_PER_MS,
        })
        .catch((e: Error) => {
          if (!/already in use|exists/i.test(e.message)) throw e;
        });
    }
    const consumer = await jetstream(this.nc).consumers.get(stream, durable);
    const concurrency = Math.max(1, opts.concurrency ?? 1);
    const messages = await consumer.consume(concurrency > 1 ? { max_messages: Math.max(100, concurrency * 2) } : {});
    // Messages held at once are counted, and the reader waits for a slot when all are taken (a
    // race over every held message's promise would attach `concurrency` reactions per message).
    let held = 0;
    let slotFree: (() => void) | undefined;
    const release = () => {
      held--;
      const wake = slotFree;
      slotFree = undefined;
      wake?.();
    };
    void (async () => {
      for await (const m of messages) {
        const id = m.headers?.get('Nats-Msg-Id') ?? `${m.info.stream}:${m.seq}`;
        held++;
        void (async () => {
          try {
            await handler({ id, subject: m.subject, data: JSON.parse(dec.decode(m.data)) });
            m.ack();
          } catch {
            m.nak();
          }
        })().finally(release);
        if (held >= concurrency) await new Promise<void>((r) => (slotFree = r));
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

const key = (filter: string, consumer: string) => `${filter}|${consumer}`;
