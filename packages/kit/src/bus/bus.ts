import type { Result } from '../errors.ts';
import type { EventEnvelope } from '../outbox.ts';

/** One event as it travels on the bus. */
export interface BusMessage {
  /** The event's id; brokers use it to drop duplicates of a retried publish. */
  id: string;
  subject: string;
  data: unknown;
}

export type Handler = (msg: BusMessage) => Promise<void> | void;

/**
 * The bus: in-process for the embedded platform, NATS JetStream when distributed. Subjects are
 * `<service>.<event_type>`; personal data goes only to `restricted.<service>.<event_type>`.
 */
export interface Bus {
  /** Publish a batch for one service; all or nothing from the caller's view. */
  publish(messages: BusMessage[]): Promise<Result<void>>;
  /**
   * A durable subscription: `pattern` may end in `>` (everything below). A handler that throws
   * leaves the message unacknowledged, so it comes again.
   */
  subscribe(pattern: string, durable: string, handler: Handler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const restrictedSubject = (service: string, type: string) => `restricted.${service}.${type}`;
export const publicSubject = (service: string, type: string) => `${service}.${type}`;

export function matches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * A durable subscription to every public event of one service, handed over as the envelope the
 * outbox wrote. A handler that throws gets the event again (at least once).
 */
export const subscribeEvents = (
  bus: Bus,
  service: string,
  durable: string,
  handler: (event: EventEnvelope) => Promise<void> | void,
) => bus.subscribe(`${service}.>`, durable, (m) => handler(m.data as EventEnvelope));
