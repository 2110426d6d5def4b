import { randomUUID } from 'node:crypto';
import { type Bus, type BusMessage, type BusTopology, emit, NatsBus, OutboxPublisher, uuidv7 } from '@platform/kit';
import { median, round } from '@platform/kit/testing';
import { sql } from 'kysely';
import { WORKSPACE_TOPOLOGY } from '../src/bus-topology.ts';
import { startAuditConsumers } from '../src/consumers/audit.ts';
import type { Db } from '../src/store/db.ts';

/**
 * Audit benchmark (issue 19): events written to the outbox, published by the outbox publisher on
 * NATS JetStream, read by the `<domain>_audit` consumers and written as audit rows, against
 * publishing the same events with the NATS client alone (JetStream publish, acknowledged).
 * Throughput ratio, outbox to audit row over the bare publish (goal >= 0.5). Skipped, saying so,
 * when no NATS server answers at BENCH_NATS_URL / TEST_NATS_URL / BUS_URL (default
 * nats://127.0.0.1:4222). Each run uses its own topics (subjects prefixed with a run tag), so a
 * shared broker's real workspace topics are left alone.
 */
export const GOAL_AUDIT_RATIO_MIN = 0.5;

export interface AuditBenchOptions {
  /** Events per round (BENCH_AUDIT_EVENTS, 5000). */
  events: number;
  rounds: number;
}
type Row = (measure: string, value: string, goal?: string, result?: string) => void;
type Goal = (name: string, ok: boolean) => string;

/** The workspace's subjects under a run tag: `workspace.x` travels as `<tag>workspace.x`. */
function namespaced(inner: NatsBus, tag: string): Bus {
  const out = (s: string) => s.replace(/^(restricted\.)?([a-z]+)\./, `$1${tag}$2.`);
  const back = (s: string) => s.replace(new RegExp(`^(restricted\\.)?${tag}`), '$1');
  return {
    publish: (messages) => inner.publish(messages.map((m) => ({ ...m, subject: out(m.subject) }))),
    subscribe: (pattern, durable, handler, opts) =>
      inner.subscribe(out(pattern), durable, (m) => handler({ ...m, subject: back(m.subject) }), opts),
    declare: (t: BusTopology) =>
      inner.declare({
        ...t,
        service: `${tag}${t.service}`,
        reads: t.reads?.map((r) => ({ ...r, service: `${tag}${r.service}` })),
      }),
    close: () => inner.close(),
  };
}

/** A task edit as the workspace publishes it: ids, a version and field names. */
const itemUpdated = (projectId: string) => ({
  type: 'project.item_updated',
  data: {
    projectId,
    itemId: uuidv7(),
    actor: randomUUID(),
    version: 2,
    changedFields: ['title', 'description'],
    evidenceChanged: false,
  },
});

const auditRowsSince = async (db: Db, since: number) =>
  Number((await sql<{ n: string }>`SELECT count(*) AS n FROM audit_log WHERE id > ${since}`.execute(db)).rows[0]?.n);
const lastAuditId = async (db: Db) =>
  Number((await sql<{ m: string | null }>`SELECT max(id) AS m FROM audit_log`.execute(db)).rows[0]?.m ?? 0);

export async function benchAudit(db: Db, o: AuditBenchOptions, out: { row: Row; goal: Goal }) {
  const url = process.env.BENCH_NATS_URL || process.env.TEST_NATS_URL || process.env.BUS_URL || 'nats://127.0.0.1:4222';
  let inner: NatsBus;
  try {
    inner = await NatsBus.connect(url);
  } catch (e) {
    const why = `skipped: no NATS JetStream at ${url} (${(e as Error).message}); set BENCH_NATS_URL to run it`;
    out.row('outbox -> audit row on JetStream', why);
    return { skipped: why };
  }
  const tag = `b${randomUUID().slice(0, 8)}`;
  const bus = namespaced(inner, tag);
  let stopAudit: (() => Promise<void>) | undefined;
  try {
    await bus.declare?.(WORKSPACE_TOPOLOGY);
    // The bare side: the same messages on a topic of their own, published with the NATS client.
    await inner.declare({ service: `${tag}raw` });
    stopAudit = await startAuditConsumers(bus, db);
    const publisher = new OutboxPublisher(db, bus, { pollMs: 60_000 });
    const projectId = randomUUID();
    const ratios: number[] = [];
    const ws: number[] = [];
    const raw: number[] = [];
    for (let round_ = 0; round_ < o.rounds; round_++) {
      // Workspace: the outbox rows first (as commands commit them), then publish to audit rows.
      for (let i = 0; i < o.events; i += 500) {
        const batch = Array.from({ length: Math.min(500, o.events - i) }, () => itemUpdated(projectId));
        await emit(db, 'workspace', batch);
      }
      // Statistics, as a live outbox has them (autovacuum's analyze): without them the planner
      // sorts every unsent row for each claim instead of reading the unsent index in order.
      await sql`ANALYZE outbox`.execute(db);
      const since = await lastAuditId(db);
      const t0 = performance.now();
      await publisher.drain();
      // Polled on the newest id (one index probe) while rows arrive, then counted once: a count every
      // few milliseconds would compete with the audit writer for the same database.
      while ((await lastAuditId(db)) - since < o.events || (await auditRowsSince(db, since)) < o.events) {
        await new Promise((r) => setTimeout(r, 2));
      }
      const wsSeconds = (performance.now() - t0) / 1000;
      // Bare: the same envelopes, published in the outbox's batch size, each acknowledged by JetStream.
      const messages: BusMessage[] = Array.from({ length: o.events }, () => {
        const id = uuidv7();
        const e = itemUpdated(projectId);
        return {
          id,
          subject: `${tag}raw.project.item_updated`,
          data: { id, type: e.type, source: 'workspace', occurred_at: new Date().toISOString(), data: e.data },
        };
      });
      const t1 = performance.now();
      for (let i = 0; i < messages.length; i += 500) {
        const sent = await inner.publish(messages.slice(i, i + 500));
        if (!sent.ok) throw sent.error;
      }
      const rawSeconds = (performance.now() - t1) / 1000;
      ws.push(o.events / wsSeconds);
      raw.push(o.events / rawSeconds);
      ratios.push(rawSeconds / wsSeconds);
    }
    const ratio = median(ratios);
    out.row(`outbox -> audit row on JetStream, ${o.events} events`, `${round(median(ws), 0)} /s`);
    out.row('NATS client publish of the same events', `${round(median(raw), 0)} /s`);
    out.row(
      '  ratio outbox-to-audit / bare publish',
      `${round(ratio)}`,
      `>= ${GOAL_AUDIT_RATIO_MIN}`,
      out.goal('audit keeps up with publishing', ratio >= GOAL_AUDIT_RATIO_MIN),
    );
    return {
      nats_url: url,
      events: o.events,
      rounds: o.rounds,
      outbox_to_audit_per_second: round(median(ws), 0),
      nats_publish_per_second: round(median(raw), 0),
      ratio: round(ratio),
    };
  } finally {
    await stopAudit?.();
    await bus.close();
  }
}
