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
  subscribe(pattern: string, durable: string, handler: Handler, opts?: SubscribeOptions): Promise<() => Promise<void>>;
  /**
   * Declares a publisher's topology: its topics (one per domain, and a restricted one beside each)
   * and a durable consumer per subscriber, with its ack wait. Idempotent; a changed ack wait is
   * updated in place. A subscriber then subscribes by its consumer's name.
   */
  declare?(topology: BusTopology): Promise<void>;
  /** The consumers the bus holds for declared topologies, as the broker reports them. */
  describe?(): Promise<ConsumerInfo[]>;
  /** What an operator reads of the bus without consuming anything (the operations console). */
  inspector?(): BusInspector;
  close(): Promise<void>;
}

export interface SubscribeOptions {
  /**
   * How many messages the handler may hold at once (default 1: one after another, in order). More
   * lets a handler batch its work (e.g. one insert for many messages); each message is still
   * acknowledged only when its own handler call returns.
   */
  concurrency?: number;
}

/** The message lock a subscriber holds unless its topology says otherwise: one minute. */
export const DEFAULT_ACK_WAIT_MS = 60_000;

/** One subscriber of a domain; ackWaitMs is its message lock (default one minute). */
export interface SubscriberSpec {
  ackWaitMs?: number;
}

/**
 * A publisher's bus topology as data (the publisher owns it). Subjects are
 * `<service>.<domain>.<event>`; each domain is its own topic, with `restricted.<service>.<domain>.>`
 * beside it for personal data, and each subscriber a durable consumer named `<domain>_<subscriber>`.
 * `domains` absent: the whole service is one topic (`<service>.>`) with no declared subscribers.
 * `reads`: topics of other publishers this service consumes (declared by their publisher; the
 * consumer and, until the publisher declares it, the topic are created here so nothing is lost).
 */
export interface BusTopology {
  service: string;
  domains?: Record<string, Record<string, SubscriberSpec>>;
  reads?: { service: string; domain: string; subscriber: string; ackWaitMs?: number }[];
}

/** A declared durable consumer: its topic (stream), name, subject filter and message lock. */
export interface ConsumerInfo {
  stream: string;
  name: string;
  filter: string;
  ackWaitMs: number;
}

/**
 * An operator's view of a bus (the operations console): counts and single messages, read without
 * a consumer, so a look never takes a message from anyone (a peek never receives).
 */
export interface BusInspector {
  /** JetStream's streams; the in-process bus's one log. */
  streams(): Promise<StreamStats[]>;
  /** Durable consumers and what they still have to take. */
  consumers(): Promise<ConsumerStats[]>;
  /** One stored message by stream and sequence (a direct get), or undefined. */
  message(stream: string, seq: number): Promise<PeekedMessage | undefined>;
}

export interface StreamStats {
  name: string;
  subjects: string[];
  messages: number;
  bytes: number;
  first_seq: number;
  last_seq: number;
  consumer_count: number;
}

export interface ConsumerStats {
  stream: string;
  name: string;
  filter: string;
  /** Messages not yet delivered to it. */
  pending: number;
  /** Delivered and not yet acknowledged. */
  ack_pending: number;
  redelivered: number;
  ack_wait_ms: number;
  /** Whether a subscriber is taking its messages now. */
  active: boolean;
}

export interface PeekedMessage {
  stream: string;
  seq: number;
  subject: string;
  /** The message id the bus deduplicates by (the event id). */
  id: string | null;
  time: string | null;
  data: unknown;
}

/** A topic of a topology: its stream name and subjects. */
export interface TopicInfo {
  stream: string;
  subjects: string[];
}

export const consumerName = (domain: string, subscriber: string) => `${domain}_${subscriber}`;
export const streamName = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase();

/** The topics a topology declares: per domain a core and a restricted one (or one pair for the whole service). */
export function topicsOf(t: BusTopology): TopicInfo[] {
  const domains = t.domains ? Object.keys(t.domains) : [undefined];
  const own = domains.flatMap((d) => topicPair(t.service, d));
  const read = (t.reads ?? []).map((r) => topicPair(r.service, r.domain)[0]);
  return [...own, ...read];
}

const topicPair = (service: string, domain?: string): TopicInfo[] => {
  const base = domain ? `${service}.${domain}` : service;
  const name = domain ? `${service}_${domain}` : service;
  return [
    { stream: streamName(name), subjects: [`${base}.>`] },
    { stream: streamName(`restricted_${name}`), subjects: [`restricted.${base}.>`] },
  ];
};

/** The durable consumers a topology declares, each on its domain's core topic. */
export function consumersOf(t: BusTopology): ConsumerInfo[] {
  const own = Object.entries(t.domains ?? {}).flatMap(([domain, subs]) =>
    Object.entries(subs).map(([sub, spec]) => ({
      stream: streamName(`${t.service}_${domain}`),
      name: consumerName(domain, sub),
      filter: `${t.service}.${domain}.>`,
      ackWaitMs: spec.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
    })),
  );
  const read = (t.reads ?? []).map((r) => ({
    stream: streamName(`${r.service}_${r.domain}`),
    name: consumerName(r.domain, r.subscriber),
    filter: `${r.service}.${r.domain}.>`,
    ackWaitMs: r.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
  }));
  return [...own, ...read];
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
