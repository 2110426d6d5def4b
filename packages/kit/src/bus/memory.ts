import { ok, type Result } from '../errors.ts';
import {
  type Bus,
  type BusInspector,
  type BusMessage,
  type BusTopology,
  type ConsumerInfo,
  consumersOf,
  type Handler,
  matches,
} from './bus.ts';

interface Subscription {
  pattern: string;
  handler?: Handler;
  queue: BusMessage[];
}

/**
 * The in-process bus of the embedded platform. Delivery is at least once per durable
 * subscriber: a handler that throws gets the message again on the next delivery round. A declared
 * consumer (declare) keeps what is published from the moment it is declared, as JetStream does,
 * so a subscriber starting later misses nothing.
 */
export class MemoryBus implements Bus {
  /** Everything published, in order: tests read it as the event feed. */
  readonly log: BusMessage[] = [];
  /** Subscriptions by subject filter and durable name (two publishers may both name `project_audit`). */
  private readonly subs = new Map<string, Subscription>();
  private readonly consumers = new Map<string, ConsumerInfo>();
  private readonly seen = new Set<string>();

  async declare(topology: BusTopology): Promise<void> {
    for (const c of consumersOf(topology)) {
      const k = key(c.filter, c.name);
      this.consumers.set(k, c);
      if (!this.subs.has(k)) this.subs.set(k, { pattern: c.filter, queue: [] });
    }
  }

  async describe(): Promise<ConsumerInfo[]> {
    return [...this.consumers.values()];
  }

  /** The in-process bus as one stream (its log, in publish order) and its subscriptions as consumers. */
  inspector(): BusInspector {
    const stream = MEMORY_STREAM;
    return {
      streams: async () => [
        {
          name: stream,
          subjects: ['>'],
          messages: this.log.length,
          bytes: this.log.reduce((n, m) => n + Buffer.byteLength(JSON.stringify(m.data ?? null)), 0),
          first_seq: this.log.length ? 1 : 0,
          last_seq: this.log.length,
          consumer_count: this.subs.size,
        },
      ],
      consumers: async () =>
        [...this.subs.entries()].map(([k, sub]) => ({
          stream,
          name: k.slice(k.indexOf('|') + 1),
          filter: sub.pattern,
          pending: sub.queue.length,
          ack_pending: 0,
          redelivered: 0,
          ack_wait_ms: this.consumers.get(k)?.ackWaitMs ?? 0,
          active: Boolean(sub.handler),
        })),
      message: async (name, seq) => {
        const m = name === stream && Number.isInteger(seq) && seq >= 1 ? this.log[seq - 1] : undefined;
        return m && { stream, seq, subject: m.subject, id: m.id, time: null, data: m.data };
      },
    };
  }

  async publish(messages: BusMessage[]): Promise<Result<void>> {
    for (const m of messages) {
      // Deduplicate a retried publish by event id, as JetStream does with Nats-Msg-Id.
      if (this.seen.has(m.id)) continue;
      this.seen.add(m.id);
      this.log.push(m);
      for (const sub of this.subs.values()) if (matches(sub.pattern, m.subject)) sub.queue.push(m);
    }
    queueMicrotask(() => void this.deliver());
    return ok(undefined);
  }

  async subscribe(pattern: string, durable: string, handler: Handler) {
    const k = key(pattern, durable);
    const existing = this.subs.get(k);
    this.subs.set(k, { pattern, handler, queue: existing?.queue ?? [] });
    queueMicrotask(() => void this.deliver());
    return async () => {
      // A declared consumer outlives its subscriber (it keeps collecting); others go.
      if (this.consumers.has(k)) this.subs.set(k, { pattern, queue: this.subs.get(k)?.queue ?? [] });
      else this.subs.delete(k);
    };
  }

  private delivering = false;
  private again = false;
  private async deliver() {
    if (this.delivering) {
      this.again = true;
      return;
    }
    this.delivering = true;
    try {
      do {
        this.again = false;
        for (const sub of this.subs.values()) {
          if (!sub.handler) continue;
          const failed: BusMessage[] = [];
          while (sub.queue.length) {
            const m = sub.queue.shift() as BusMessage;
            try {
              await sub.handler(m);
            } catch {
              failed.push(m);
            }
          }
          sub.queue.push(...failed);
          // A failed message is like a nak: delivered again shortly, not only at the next publish.
          if (failed.length) this.retryLater();
        }
      } while (this.again);
    } finally {
      this.delivering = false;
    }
  }

  private retryTimer: NodeJS.Timeout | undefined;
  private retryLater() {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.deliver();
    }, REDELIVERY_MS);
    this.retryTimer.unref();
  }

  async close() {
    clearTimeout(this.retryTimer);
    this.subs.clear();
  }
}

/** The in-process bus's one stream, as its inspector names it. */
export const MEMORY_STREAM = 'IN_PROCESS';

/** How soon a message whose handler failed comes again. */
const REDELIVERY_MS = 20;

const key = (filter: string, durable: string) => `${filter}|${durable}`;
