import { randomUUID } from 'node:crypto';
import { type Bus, type EventEnvelope, emit, OutboxPublisher } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_TOPOLOGY } from '../src/bus-topology.ts';
import { natsUrl, testBus, waitFor } from './bus-fixture.ts';
import { fakeIntelligenceConsumer } from './fakes/intelligence-consumer.ts';
import { EDITOR, fid, type Harness, harness, OWNER, VIEWER } from './harness.ts';

let h: Harness;
let bus: Bus;
let intelligence: ReturnType<typeof fakeIntelligenceConsumer>;
let stop: () => Promise<void>;
/** Next steps of meeting summaries, as the intelligence service would read them by id. */
const summaries = new Map<string, string[]>();

beforeAll(async () => {
  h = await harness();
  ({ bus } = await testBus());
  await bus.declare?.(WORKSPACE_TOPOLOGY);
  intelligence = fakeIntelligenceConsumer(bus, {
    // Events carry ids only: the consumer reads the fact's text back from the workspace.
    factText: async (projectId, factId) => {
      const r = await h.call('GET', `/v1/projects/${projectId}/decisions/${factId}`, OWNER);
      const d = r.data as { title: string; detail: string };
      return `${d.title}. ${d.detail}`.trim();
    },
    nextSteps: async (id) => summaries.get(id) ?? [],
  });
  stop = await intelligence.start();
});
afterAll(async () => {
  await stop();
  await bus.close();
  await h.close_();
});

const publish = () => new OutboxPublisher(h.db, bus, { pollMs: 1_000 }).drain();
const claimsOf = (f: (c: (typeof intelligence.claims)[number]) => boolean) =>
  intelligence.claims.filter((c) => f(c) && !c.withdrawn);
const factEvents = async (factId: string) =>
  (await h.events())
    .filter((e) => e.event_type.startsWith('fact.'))
    .map((e) => e.payload as unknown as EventEnvelope<{ factId: string }>)
    .filter((e) => e.data.factId === factId)
    .map((e) => e.type);
const decision = async (projectId: string, title: string, detail = '') => {
  const r = await h.call('POST', `/v1/projects/${projectId}/decisions`, EDITOR, { data: { title, detail } });
  expect(r.status).toBe(201);
  return (r.data as { id: string }).id;
};
const approve = (projectId: string, id: string, data?: Record<string, unknown>) =>
  h.call('POST', `/v1/projects/${projectId}/decisions/${id}/approve`, OWNER, data ? { data } : {});

describe(`facts and the intelligence contract (${natsUrl ? 'JetStream' : 'in-process bus'})`, () => {
  it('19 WS-580 an approved decision is a fact: fact.recorded, and an edit fact.updated; the consumer derives its claims from the text and derives them again', async () => {
    const p = await h.team();
    const id = await decision(p.id, 'Ship weekly', 'Releases go out on Tuesdays.');
    expect(await factEvents(id)).toEqual([]);
    expect((await approve(p.id, id)).status).toBe(200);
    const edit = await h.call('PATCH', `/v1/projects/${p.id}/decisions/${id}`, OWNER, {
      data: { detail: 'Releases go out on Thursdays.' },
    });
    expect(edit.status).toBe(200);
    expect(await factEvents(id)).toEqual(['fact.recorded', 'fact.updated']);
    const [updated] = (await h.events('fact.updated')).map((e) => e.payload as unknown as EventEnvelope);
    expect(updated.data).toEqual({
      factId: id,
      projectId: p.id,
      kind: 'decision',
      changedFields: ['detail'],
      actor: fid(OWNER),
    });
    expect(JSON.stringify(updated)).not.toContain('Thursdays');
    await publish();
    await waitFor(
      () => (claimsOf((c) => c.factId === id && c.text.includes('Thursdays')).length ? true : undefined),
      'claims',
    );
    expect(claimsOf((c) => c.factId === id).map((c) => c.text)).toEqual([
      'Ship weekly.',
      'Releases go out on Thursdays.',
    ]);
    // An unchanged edit publishes nothing; editing is for owners.
    const before = (await h.events()).length;
    expect(
      (await h.call('PATCH', `/v1/projects/${p.id}/decisions/${id}`, OWNER, { data: { title: 'Ship weekly' } })).status,
    ).toBe(200);
    expect((await h.events()).length).toBe(before);
    expect(
      (await h.call('PATCH', `/v1/projects/${p.id}/decisions/${id}`, VIEWER, { data: { title: 'X' } })).status,
    ).toBe(403);
  });

  it('19 WS-581 fact.superseded and fact.archived withdraw the derived claims', async () => {
    const p = await h.team();
    const old = await decision(p.id, 'Use Postgres 15');
    await approve(p.id, old);
    const next = await decision(p.id, 'Use Postgres 16');
    const r = await approve(p.id, next, { supersedes: old });
    expect(r.status).toBe(200);
    expect((r.data as { supersedes: string }).supersedes).toBe(old);
    const replaced = await h.call('GET', `/v1/projects/${p.id}/decisions/${old}`, VIEWER);
    expect(replaced.data).toMatchObject({ status: 'superseded', superseded_by: next });
    expect(await factEvents(old)).toEqual(['fact.recorded', 'fact.superseded']);
    const archived = await h.call('POST', `/v1/projects/${p.id}/decisions/${next}/archive`, OWNER, {});
    expect(archived.status).toBe(200);
    expect(await factEvents(next)).toEqual(['fact.recorded', 'fact.archived']);
    await publish();
    await waitFor(
      () =>
        intelligence.atAck.size &&
        claimsOf((c) => c.factId === next).length === 0 &&
        intelligence.claims.some((c) => c.factId === next)
          ? true
          : undefined,
      'withdrawal',
    );
    expect(claimsOf((c) => c.factId === old || c.factId === next)).toEqual([]);
    expect(intelligence.claims.filter((c) => c.factId === old || c.factId === next).length).toBeGreaterThan(0);
    // Closed decisions no longer change; supersedes must name another approved decision.
    expect((await h.call('POST', `/v1/projects/${p.id}/decisions/${next}/archive`, OWNER, {})).errors?.[0].code).toBe(
      'decision_closed',
    );
    const third = await decision(p.id, 'Use Postgres 17');
    const before = await h.state();
    expect((await approve(p.id, third, { supersedes: randomUUID() })).errors?.[0].code).toBe('invalid_supersedes');
    expect((await approve(p.id, third, { supersedes: old })).errors?.[0].code).toBe('invalid_supersedes');
    expect(await h.state()).toEqual(before);
  });

  it('19 WS-575 WS-576 turning a note out of knowledge publishes one evidence.knowledge_changed, and its claims are withdrawn before the message is acknowledged', async () => {
    const note = await h.call('POST', '/v1/notes', EDITOR, { data: { body: 'Budget is 40k.' } });
    expect(note.status).toBe(201);
    const id = (note.data as { id: string }).id;
    intelligence.extracted(id, 'Speaker 1', 'Budget is 40k.');
    const off = await h.call('PATCH', `/v1/notes/${id}`, EDITOR, { data: { contributes_to_knowledge: false } });
    expect(off.status).toBe(200);
    const changed = (await h.events('evidence.knowledge_changed')).filter((e) =>
      JSON.stringify(e.payload).includes(id),
    );
    expect(changed).toHaveLength(1);
    expect(changed[0].subject).toBe('workspace.evidence.knowledge_changed');
    const redacted = randomUUID();
    const deleted = randomUUID();
    intelligence.extracted(redacted, 'Speaker 1', 'a line later redacted');
    intelligence.extracted(deleted, 'Speaker 2', 'a line of a deleted meeting');
    await emit(h.db, 'workspace', [
      {
        type: 'evidence.redaction_recorded',
        data: { evidenceId: redacted, projectId: null, redactionId: randomUUID(), actor: 'u' },
      },
      {
        type: 'evidence.deleted',
        data: { evidenceId: deleted, projectId: null, kind: 'meeting', source: 'zoom', reason: 'no_lines', actor: 'u' },
      },
    ]);
    const ids = (await h.events())
      .map((e) => e.payload as unknown as EventEnvelope<{ evidenceId?: string }>)
      .filter((e) => [id, redacted, deleted].includes(e.data.evidenceId ?? ''))
      .map((e) => e.id);
    await publish();
    await waitFor(() => (ids.every((x) => intelligence.atAck.has(x)) ? true : undefined), 'acks');
    // When each message was acknowledged, its record had no active claim left.
    for (const x of ids) expect(intelligence.atAck.get(x)).toBe(0);
  });

  it('19 WS-577 evidence.speaker_attributed carries what rewrites the authorship of the claims from that speaker', async () => {
    const m = await h.call('POST', '/v1/meetings', EDITOR, { data: { source: 'zoom' } });
    expect(m.status).toBe(201);
    const id = (m.data as { id: string }).id;
    await h.call('POST', `/v1/meetings/${id}/utterances`, EDITOR, {
      data: { lines: [{ speaker: 'Speaker 1', text: 'I will send the deck' }] },
    });
    intelligence.extracted(id, 'Speaker 1', 'I will send the deck');
    intelligence.extracted(id, 'Speaker 2', 'Thanks');
    const person = 'c0ffee00-0000-4000-8000-000000000042';
    const r = await h.call('POST', `/v1/meetings/${id}/speakers/assign`, EDITOR, {
      data: { label: 'Speaker 1', name: 'Dana Ortiz', principal_id: person },
    });
    expect(r.status).toBe(200);
    await publish();
    await waitFor(
      () => (claimsOf((c) => c.evidenceId === id && c.author === person).length ? true : undefined),
      'attribution',
    );
    expect(claimsOf((c) => c.evidenceId === id).map((c) => [c.speaker, c.author])).toEqual([
      ['Speaker 1', person],
      ['Speaker 2', null],
    ]);
  });

  it('19 WS-578 WS-579 evidence.summary_ready turns next steps into commitments for video-call, phone and recorder meetings only', async () => {
    const zoom = randomUUID();
    const manual = randomUUID();
    summaries.set(zoom, ['Dana sends the deck by Friday']);
    summaries.set(manual, ['Someone books a room']);
    await emit(h.db, 'workspace', [
      {
        type: 'evidence.summary_ready',
        data: { evidenceId: zoom, projectId: null, kind: 'meeting', source: 'zoom', actor: 'job' },
      },
      {
        type: 'evidence.summary_ready',
        data: { evidenceId: manual, projectId: null, kind: 'meeting', source: 'manual', actor: 'job' },
      },
    ]);
    const ids = (await h.events('evidence.summary_ready')).map((e) => (e.payload as unknown as EventEnvelope).id);
    await publish();
    await waitFor(() => (ids.every((x) => intelligence.atAck.has(x)) ? true : undefined), 'both handled');
    expect(claimsOf((c) => c.evidenceId === zoom).map((c) => [c.kind, c.text])).toEqual([
      ['commitment', 'Dana sends the deck by Friday'],
    ]);
    expect(claimsOf((c) => c.evidenceId === manual)).toEqual([]);
  });
});
