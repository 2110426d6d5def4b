import { ok, type Result } from '../errors.ts';
import { type Bus, type BusMessage, type Handler, matches } from './bus.ts';

/**
 * The in-process bus of the embedded platform. Delivery is at least once per durable
 * subscriber: a handler that throws gets the message again on the next delivery round.
 */
export class MemoryBus implements Bus {
  /** Everything published, in order: tests read it as the event feed. */
  readonly log: BusMessage[] = [];
  private readonly subs = new Map<string, { pattern: string; handler: Handler; queue: BusMessage[] }>();
  private readonly seen = new Set<string>();

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
    const existing = this.subs.get(durable);
    this.subs.set(durable, { pattern, handler, queue: existing?.queue ?? [] });
    queueMicrotask(() => void this.deliver());
    return async () => {
      this.subs.delete(durable);
    };
  }

  private delivering = false;
  private async deliver() {
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (const sub of this.subs.values()) {
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
      }
    } finally {
      this.delivering = false;
    }
  }

  async close() {
    this.subs.clear();
  }
}
