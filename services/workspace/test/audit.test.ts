import { randomUUID } from 'node:crypto';
import { type Bus, type BusMessage, type EventEnvelope, emit, OutboxPublisher, uuidv7 } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_TOPOLOGY } from '../src/bus-topology.ts';
import { auditMessage } from '../src/consumers/audit.ts';
import { startConsumers } from '../src/consumers/index.ts';
import { countAuditRows } from '../src/store/audit.ts';
import { natsUrl, testBus, waitFor } from './bus-fixture.ts';
import { ADMIN, EDITOR, type Harness, harness, OUTSIDER, OWNER } from './harness.ts';

let h: Harness;
let bus: Bus;
let stopConsumers: () => Promise<void>;
/** Messages whose handler returned (the moment the bus acknowledges), with the audit row count then. */
const acked: { id: string; rowsAtAck: number }[] = [];
/** Lost acknowledgements to simulate: the handler ran, then the message comes again. */
const loseAckOf = new Set<string>();

/** The bus under the consumers: records each acknowledgement, and can lose one (the message comes again). */
function observed(inner: Bus): Bus {
  return {
    ...inner,
    publish: (m) => inner.publish(m),
    subscribe: (pattern, durable, handler, opts) =>
      inner.subscribe(
        pattern,
        durable,
        async (m: BusMessage) => {
          await handler(m);
          acked.push({ id: m.id, rowsAtAck: await countAuditRows(h.db, [m.id]) });
          if (loseAckOf.delete(m.id)) throw new Error('the acknowledgement was lost');
        },
        opts,
      ),
    declare: inner.declare && ((t) => inner.declare?.(t) as Promise<void>),
    describe: inner.describe && (() => inner.describe?.() as ReturnType<NonNullable<Bus['describe']>>),
    close: () => inner.close(),
  };
}

beforeAll(async () => {
  h = await harness();
  const made = await testBus();
  bus = observed(made.bus);
  await bus.declare?.(WORKSPACE_TOPOLOGY);
  stopConsumers = await startConsumers(bus, h.db, h.now);
});
afterAll(async () => {
  await stopConsumers();
  await bus.close();
  await h.close_();
});

const publish = () => new OutboxPublisher(h.db, bus, { pollMs: 1_000 }).drain();
/** The ids of the outbox events on core topics (what audit reads). */
const coreEventIds = async () =>
  (await h.events()).filter((e) => !e.restricted).map((e) => (e.payload as unknown as EventEnvelope).id);
const auditRows = async (ids: string[]) => countAuditRows(h.db, ids);
const untilAudited = (ids: string[]) =>
  waitFor(async () => ((await auditRows(ids)) === ids.length ? true : undefined), 'audit rows');

describe(`audit (${natsUrl ? 'JetStream' : 'in-process bus'})`, () => {
  it('19 WS-472 the audit subscriber writes one human-readable row for each event published, on every domain', async () => {
    const before = new Set(await coreEventIds());
    const p = await h.team();
    const task = await h.task(p.id);
    const evidenceId = randomUUID();
    await emit(h.db, 'workspace', [
      {
        type: 'evidence.knowledge_changed',
        data: { evidenceId, projectId: p.id, contributesToKnowledge: false, actor: 'u-1' },
      },
      {
        type: 'file.registered',
        data: { uploadId: 'up-1', documentId: 'doc-1', projectId: null, purpose: 'file', actor: 'u-1' },
      },
    ]);
    await publish();
    const ids = (await coreEventIds()).filter((id) => !before.has(id));
    expect(ids.length).toBeGreaterThanOrEqual(4);
    await untilAudited(ids);
    expect(await auditRows(ids)).toBe(ids.length);
    const r = await h.call('GET', `/v1/audit?project_id=${p.id}&type=project.item_created`, ADMIN);
    expect(r.status).toBe(200);
    const rows = r.data as { summary: string; domain: string; event_id: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0].domain).toBe('project');
    expect(rows[0].summary).toMatch(/^Project item created by \S+: project [0-9a-f-]{36}, /);
    expect(rows[0].summary).toContain(`item ${task.id}`);
    expect(rows[0].summary).toContain(`project ${p.id}`);
    const files = await h.call('GET', '/v1/audit?domain=file', ADMIN);
    expect((files.data as { summary: string }[]).some((x) => x.summary.includes('File registered by u-1'))).toBe(true);
  });

  it('19 WS-472 a redelivered event (its acknowledgement lost) writes no second row', async () => {
    const p = await h.project();
    const [created] = (await h.events('project.created')).filter(
      (e) => (e.payload as unknown as EventEnvelope<{ projectId: string }>).data.projectId === p.id,
    );
    const id = (created.payload as unknown as EventEnvelope).id;
    loseAckOf.add(id);
    await publish();
    await waitFor(() => (acked.filter((a) => a.id === id).length >= 2 ? true : undefined), 'the redelivery');
    expect(await auditRows([id])).toBe(1);
    // The handler itself, given the same message again, writes nothing either.
    const again = await auditMessage(h.db, { id, subject: created.subject, data: created.payload }, 'project', h.now());
    expect(again).toBe(false);
    expect(await auditRows([id])).toBe(1);
  });

  it('19 WS-576 redaction, deletion and knowledge-off events are recorded while the message is held, before it is acknowledged', async () => {
    const evidenceId = randomUUID();
    const base = { evidenceId, projectId: null, actor: 'u-2' };
    await emit(h.db, 'workspace', [
      { type: 'evidence.redaction_recorded', data: { ...base, redactionId: randomUUID() } },
      { type: 'evidence.deleted', data: { ...base, kind: 'meeting', source: 'zoom', reason: 'no_lines' } },
      { type: 'evidence.knowledge_changed', data: { ...base, contributesToKnowledge: false } },
    ]);
    const ids = (await h.events())
      .filter((e) => JSON.stringify(e.payload).includes(evidenceId))
      .map((e) => (e.payload as unknown as EventEnvelope).id);
    expect(ids).toHaveLength(3);
    await publish();
    await waitFor(() => (ids.every((id) => acked.some((a) => a.id === id)) ? true : undefined), 'acks');
    for (const id of ids) expect(acked.find((a) => a.id === id)?.rowsAtAck).toBe(1);
  });

  it('19 WS-590 a message of the intelligence knowledge queue is read and recorded; one naming deleted evidence is recorded as ignored', async () => {
    const msg = (evidenceId: string) => {
      const id = uuidv7();
      const envelope: EventEnvelope = {
        id,
        type: 'knowledge.claims_derived',
        source: 'intelligence',
        occurred_at: new Date().toISOString(),
        data: { evidenceId, claimIds: ['c-1', 'c-2'] },
      };
      return { id, subject: 'intelligence.knowledge.claims_derived', data: envelope };
    };
    const gone = msg(randomUUID());

    expect((await bus.publish([gone])).ok).toBe(true);
    await untilAudited([gone.id]);
    const r = await h.call('GET', '/v1/audit?domain=knowledge', ADMIN);
    const row = (r.data as { event_id: string; summary: string; source: string }[]).find((x) => x.event_id === gone.id);
    expect(row?.source).toBe('intelligence');
    expect(row?.summary).toContain('Knowledge claims derived');
    expect(row?.summary).toContain('(ignored: the record was deleted)');
    // A message about a record still in knowledge is recorded as is; one withdrawn from it, ignored.
    const note = await h.call('POST', '/v1/notes', EDITOR, { data: { body: 'Kept in knowledge' } });
    const open = msg((note.data as { id: string }).id);
    const off = await h.call('POST', '/v1/notes', EDITOR, { data: { body: 'Out of knowledge' } });
    const offId = (off.data as { id: string }).id;
    await h.call('PATCH', `/v1/notes/${offId}`, EDITOR, { data: { contributes_to_knowledge: false } });
    const withdrawn = msg(offId);
    expect((await bus.publish([open, withdrawn])).ok).toBe(true);
    await untilAudited([open.id, withdrawn.id]);
    const rows = (await h.call('GET', '/v1/audit?domain=knowledge', ADMIN)).data as {
      event_id: string;
      summary: string;
    }[];
    const summaryOf = (id: string) => rows.find((x) => x.event_id === id)?.summary ?? '';
    expect(summaryOf(open.id)).not.toContain('ignored');
    expect(summaryOf(withdrawn.id)).toContain('(ignored: the record is withdrawn from knowledge)');
  });
});

describe('GET /v1/audit', () => {
  it('19 WS-470 a platform admin reads the audit rows, newest first, cursor paged and filtered', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    await h.project();
    await h.project();
    await publish();
    await untilAudited(await coreEventIds());
    const first = await h.call('GET', '/v1/audit?limit=2', ADMIN);
    expect(first.status).toBe(200);
    const page1 = first.data as { id: string; occurred_at: string }[];
    expect(page1).toHaveLength(2);
    expect(Number(page1[0].id)).toBeGreaterThan(Number(page1[1].id));
    const next = (first.meta as { pagination: { nextCursor: string } }).pagination.nextCursor;
    expect(next).toBeTruthy();
    const second = await h.call('GET', `/v1/audit?limit=2&after=${next}`, ADMIN);
    const page2 = second.data as { id: string }[];
    expect(Number(page2[0].id)).toBeLessThan(Number(page1[1].id));
    const recent = await h.call('GET', `/v1/audit?since=${encodeURIComponent(since)}&domain=project`, ADMIN);
    expect(recent.status).toBe(200);
    expect((recent.data as { domain: string }[]).every((x) => x.domain === 'project')).toBe(true);
    const bad = await h.call('GET', '/v1/audit?after=not-a-cursor', ADMIN);
    expect(bad.status).toBe(422);
  });

  it('19 WS-471 anyone but a platform admin is refused with 403, project owners included', async () => {
    for (const who of [OWNER, EDITOR, OUTSIDER]) {
      const r = await h.call('GET', '/v1/audit', who);
      expect(r.status).toBe(403);
    }
  });
});
