import { randomUUID } from 'node:crypto';
import { emit, MemoryBus, OutboxPublisher } from '@platform/kit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_DURABLE, auditOnPublished, startAuditListener } from '../src/audit/listener.ts';
import { auditEntry } from '../src/domain/audit.ts';
import { events } from '../src/events.ts';
import { recordAudit } from '../src/store/audit.ts';
import type { DB } from '../src/store/db.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OWNER, STRANGER, tag, VIEWER } from './harness.ts';

/**
 * The audit log (spec 3, Agents events and GET /v1/audit): one sentence per agents outbox event,
 * written after publication by the publisher's hook and by a bus listener (one row per event id),
 * never by the command; read with filters, leaving out rows about agents the caller cannot read.
 */
let h: Harness;
let bus: MemoryBus;
let publisher: OutboxPublisher<DB>;
let stopListener: () => Promise<void>;
/** The event ids the publisher's hook was handed. */
const hookSaw: string[] = [];
beforeAll(async () => {
  h = await harness();
  bus = new MemoryBus();
  publisher = new OutboxPublisher(h.db, bus, {
    pollMs: 60_000,
    onPublished: (evs) => {
      hookSaw.push(...evs.map((e) => e.id));
      return auditOnPublished(evs, h.db);
    },
  });
  stopListener = await startAuditListener(bus, h.db);
});
afterAll(async () => {
  await stopListener?.();
  await h?.close_();
});

type Row = { id: string; event_type: string; domain: string; actor: string; entity: string; sentence: string };

const auditRows = async () =>
  (await sql<Row & { recorded_by: string }>`SELECT * FROM audit_log ORDER BY occurred_at, id`.execute(h.db)).rows;
const eventIds = async (type: string) => (await h.events(type)).map((e) => e.payload.id as string);
/** Publishes everything in the outbox (the publisher's hook writes the rows) and lets the bus deliver. */
const publish = async () => {
  await publisher.drain();
  await new Promise((r) => setImmediate(r));
};
const list = async (query: string, as: Parameters<Harness['call']>[2] = OWNER) => {
  const r = await h.call('GET', `/v1/audit${query}`, as);
  expect(r.status).toBe(200);
  return { rows: r.data as Row[], total: r.meta.pagination.totalItems as number };
};

describe('the audit log', () => {
  it('18 AGT-346 AGT-344 right after a command commits and before its event is published there is no audit row; publication writes one sentence', async () => {
    await publish();
    const agent = await h.agent({ name: `Audited ${tag()}` });
    const [eventId] = (await h.events('agent.created'))
      .filter((e) => e.payload.data.agent_id === agent.id)
      .map((e) => e.payload.id as string);
    expect((await auditRows()).filter((r) => r.id === eventId)).toEqual([]);
    await publish();
    const rows = (await auditRows()).filter((r) => r.id === eventId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_type: 'agent.created',
      domain: 'agent',
      actor: fid(OWNER),
      entity: `agent:${agent.id}`,
    });
    expect(rows[0]?.sentence).toBe(`${fid(OWNER)} created agent “${agent.name}” (${agent.slug}).`);
  });

  it('18 AGT-345 the publisher and the bus listener write the same row once: each sees the event, one row remains', async () => {
    const skill = await h.ok<{ id: string }>('POST', '/v1/skills', { name: `Once ${tag()}`, markdown: '# x' }, 201);
    await publish();
    const [eventId] = (await h.events('skill.created'))
      .filter((e) => e.payload.data.skill_id === skill.id)
      .map((e) => e.payload.id as string);
    // Both writers had the event: the publisher's hook, and the listener through the bus.
    expect(hookSaw).toContain(eventId);
    const delivered = bus.log.filter((m) => m.id === eventId);
    expect(delivered).toHaveLength(1);
    const rows = (await auditRows()).filter((r) => r.id === eventId);
    expect(rows).toHaveLength(1);
    expect(['publisher', 'listener']).toContain(rows[0]?.recorded_by);
    // Either writer again (a redelivery, a publisher taking over a lapsed claim) leaves the one row.
    const envelope = delivered[0]?.data as Parameters<typeof recordAudit>[1][number];
    expect(await recordAudit(h.db, [envelope], 'listener')).toBe(0);
    expect(await recordAudit(h.db, [envelope], 'publisher')).toBe(0);
    expect((await auditRows()).filter((r) => r.id === eventId)).toHaveLength(1);
  });

  it('18 AGT-345 with the publisher’s hook failing, the bus listener writes the row', async () => {
    const quiet = new MemoryBus();
    const failing = new OutboxPublisher(h.db, quiet, {
      pollMs: 60_000,
      onPublished: () => {
        throw new Error('audit write failed');
      },
      onError: () => {},
    });
    const stop = await startAuditListener(quiet, h.db);
    const skill = await h.ok<{ id: string }>('POST', '/v1/skills', { name: `Listened ${tag()}`, markdown: '# y' }, 201);
    await failing.drain();
    let rows: (Row & { recorded_by: string })[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await new Promise((r) => setImmediate(r));
      rows = (await auditRows()).filter((r) => r.entity === `skill:${skill.id}`);
    }
    await stop();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.recorded_by).toBe('listener');
    expect(AUDIT_DURABLE).toBe('agents-audit');
  });

  it('18 AGT-344 every agents event type gets one sentence naming who acted; events of other services and no agent, swarm or skill type get none', async () => {
    const data = {
      agent_id: randomUUID(),
      parent_id: null,
      swarm_id: randomUUID(),
      skill_id: randomUUID(),
      version_id: randomUUID(),
      number: 2,
      lifetime: 'persistent',
      run_type: 'always_on',
      generation: 3,
      actor_fid: 'fid-actor',
      reason: 'manual',
      fields: ['name'],
      skill_ids: [randomUUID()],
      tools: ['send_email'],
      member_ids: [randomUUID()],
      principal_fid: 'fid-member',
      role: 'viewer',
      outcome: 'completed',
      run_id: randomUUID(),
    };
    const types = Object.keys(events.events);
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) {
      const entry = auditEntry(type, data);
      expect(entry, type).not.toBeNull();
      expect(entry?.sentence, type).toMatch(/^\S.*\.$/);
      expect(entry?.sentence.includes(`recorded ${type}`), type).toBe(false);
    }
    expect(auditEntry('thing.done', data)).toBeNull();
    const before = (await auditRows()).length;
    expect(
      await recordAudit(
        h.db,
        [{ id: randomUUID(), type: 'agent.created', source: 'broker', occurred_at: new Date().toISOString(), data }],
        'listener',
      ),
    ).toBe(0);
    expect((await auditRows()).length).toBe(before);
  });

  it('18 AGT-344 a deleted agent’s event keeps its id in the sentence; member events name the member and the role', async () => {
    const gone = randomUUID();
    await h.db.transaction().execute((trx) =>
      emit(trx as unknown as Parameters<typeof emit>[0], 'agents', [
        {
          type: 'agent.deleted',
          data: {
            agent_id: gone,
            parent_id: null,
            swarm_id: null,
            lifetime: 'persistent',
            run_type: 'always_on',
            generation: 1,
            actor_fid: fid(OWNER),
          },
        },
      ]),
    );
    const agent = await h.agent();
    const put = await h.call('PUT', `/v1/agents/${agent.id}/members/${fid(VIEWER)}`, OWNER, {
      data: { role: 'viewer' },
    });
    expect(put.status).toBe(200);
    await publish();
    const rows = await auditRows();
    expect(rows.find((r) => r.entity === `agent:${gone}`)?.sentence).toBe(`${fid(OWNER)} deleted agent ${gone}.`);
    const added = rows.find((r) => r.event_type === 'agent.member_added' && r.entity === `agent:${agent.id}`);
    expect(added?.sentence).toBe(
      `${fid(OWNER)} gave ${fid(VIEWER)} the viewer role on agent “${agent.name}” (${agent.slug}).`,
    );
  });

  it('18 AGT-252 AGT-253 AGT-254 AGT-255 AGT-256 filters: domain, event type, actor, entity exactly (a partial entity matches nothing), q', async () => {
    const agent = await h.agent({ name: `Filtered ${tag()}` });
    const t = tag();
    const skill = await h.ok<{ id: string }>(
      'POST',
      '/v1/skills',
      { name: `Filter ${t}`, markdown: '# f' },
      201,
      EDITOR,
    );
    await publish();
    const skills = await list('?domain=skill');
    expect(skills.rows.length).toBeGreaterThan(0);
    expect(skills.rows.every((r) => r.domain === 'skill')).toBe(true);
    const created = await list('?event_type=agent.created');
    expect(created.rows.length).toBeGreaterThan(0);
    expect(created.rows.every((r) => r.event_type === 'agent.created')).toBe(true);
    const byEditor = await list(`?actor=${fid(EDITOR)}`);
    expect(byEditor.rows.length).toBeGreaterThan(0);
    expect(byEditor.rows.every((r) => r.actor === fid(EDITOR))).toBe(true);
    const entity = `agent:${agent.id}`;
    const exact = await list(`?entity=${entity}`);
    expect(exact.rows.length).toBeGreaterThan(0);
    expect(exact.rows.every((r) => r.entity === entity)).toBe(true);
    expect((await list(`?entity=${entity.slice(0, -4)}`)).rows).toEqual([]);
    expect((await list(`?entity=${agent.id}`)).rows).toEqual([]);
    const q = await list(`?q=${encodeURIComponent(`Filter ${t}`)}`);
    expect(q.rows.map((r) => r.entity)).toEqual([`skill:${skill.id}`]);
    expect(q.total).toBe(1);
  });

  it('18 AGT-257 AGT-258 AGT-259 rows about agents the caller cannot read are left out of rows and total; skill rows are not; members and admins read theirs', async () => {
    const theirs = await h.agent({ name: `Hidden ${tag()}` }, STRANGER);
    const mine = await h.agent({ name: `Mine ${tag()}` });
    const t = tag();
    const skill = await h.ok<{ id: string }>(
      'POST',
      '/v1/skills',
      { name: `Shared ${t}`, markdown: '# s' },
      201,
      STRANGER,
    );
    await publish();
    const ownerView = await list('?pagination[pageSize]=200');
    expect(ownerView.rows.some((r) => r.entity === `agent:${theirs.id}`)).toBe(false);
    expect(ownerView.rows.some((r) => r.entity === `agent:${mine.id}`)).toBe(true);
    expect(ownerView.rows.some((r) => r.entity === `skill:${skill.id}`)).toBe(true);
    // The total counts exactly the rows shown (one page holds them all), fewer than the log holds.
    expect(ownerView.total).toBe(ownerView.rows.length);
    const hiddenRows = (await auditRows()).filter((r) => r.entity === `agent:${theirs.id}`).length;
    expect(hiddenRows).toBe(1);
    expect((await list('?pagination[pageSize]=200', ADMIN)).total).toBeGreaterThanOrEqual(ownerView.total + hiddenRows);
    expect((await list(`?entity=agent:${theirs.id}`)).total).toBe(0);
    expect((await list(`?entity=skill:${skill.id}`)).total).toBe(1);
    expect((await list(`?entity=agent:${theirs.id}`, STRANGER)).total).toBe(1);
    expect((await list(`?entity=agent:${theirs.id}`, ADMIN)).total).toBe(1);
    const asMember = await h.call('GET', `/v1/audit?entity=agent:${theirs.id}`, {
      headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' },
    });
    expect(asMember.meta.pagination.totalItems).toBe(0);
    await h.call('PUT', `/v1/agents/${theirs.id}/members/${fid(VIEWER)}`, STRANGER, { data: { role: 'viewer' } });
    await publish();
    expect((await list(`?entity=agent:${theirs.id}`, VIEWER)).total).toBe(2);
  });

  it('18 AGT-260 GET /v1/audit/{id} answers a readable row and 404 for one about an agent the caller cannot read', async () => {
    const theirs = await h.agent({}, STRANGER);
    await publish();
    const row = (await auditRows()).find((r) => r.entity === `agent:${theirs.id}`);
    const hidden = await h.call('GET', `/v1/audit/${row?.id}`, OWNER);
    expect([hidden.status, hidden.errors[0].code]).toEqual([404, 'audit_row_not_found']);
    const shown = await h.call('GET', `/v1/audit/${row?.id}`, STRANGER);
    expect(shown.status).toBe(200);
    expect(shown.data).toMatchObject({ id: row?.id, entity: `agent:${theirs.id}`, event_type: 'agent.created' });
    const missing = await h.call('GET', `/v1/audit/${randomUUID()}`, ADMIN);
    expect([missing.status, missing.errors[0].code]).toEqual([404, 'audit_row_not_found']);
    expect(await eventIds('agent.created')).toContain(row?.id);
  });

  it('18 AGT-335 AGT-336 AGT-341 AGT-342 AGT-343 AGT-344 skills and tools saves, and member changes, publish their events, each with one audit sentence', async () => {
    const skill = await h.ok<{ id: string }>('POST', '/v1/skills', { name: `Held ${tag()}`, markdown: '# h' }, 201);
    const agent = await h.agent();
    await h.ok('PUT', `/v1/agents/${agent.id}`, {
      name: agent.name,
      skills: [{ skill_id: skill.id, version_id: null }],
      tools: ['send_email'],
    });
    const principal = fid(EDITOR);
    const member = `/v1/agents/${agent.id}/members/${principal}`;
    expect((await h.call('PUT', member, OWNER, { data: { role: 'viewer' } })).status).toBe(200);
    expect((await h.call('PUT', member, OWNER, { data: { role: 'editor' } })).status).toBe(200);
    expect((await h.call('DELETE', member, OWNER)).status).toBeLessThan(300);
    await publish();
    const about = async (type: string) => (await h.events(type)).filter((e) => e.payload.data.agent_id === agent.id);
    expect((await about('agent.skills_changed'))[0]?.payload.data.skill_ids).toEqual([skill.id]);
    expect((await about('agent.tools_changed'))[0]?.payload.data.tools).toEqual(['send_email']);
    const roles = [];
    for (const type of ['agent.member_added', 'agent.member_role_changed', 'agent.member_removed']) {
      const [e] = await about(type);
      expect(e?.payload.data).toMatchObject({ agent_id: agent.id, principal_fid: principal });
      roles.push(e?.payload.data.role);
    }
    expect(roles).toEqual(['viewer', 'editor', 'editor']);
    const rows = (await auditRows()).filter((r) => r.entity === `agent:${agent.id}`);
    const label = `“${agent.name}” (${agent.slug})`;
    // One clock reading for all: the rows' order is not the point, their sentences are.
    expect(rows.map((r) => r.sentence).sort()).toEqual(
      [
        `${fid(OWNER)} created agent ${label}.`,
        `${fid(OWNER)} saved agent ${label}, changing skills, tools.`,
        `${fid(OWNER)} changed the skills of agent ${label}: now 1 skill.`,
        `${fid(OWNER)} changed the tools of agent ${label}: now send_email.`,
        `${fid(OWNER)} gave ${principal} the viewer role on agent ${label}.`,
        `${fid(OWNER)} made ${principal} editor on agent ${label}.`,
        `${fid(OWNER)} removed ${principal} (editor) from agent ${label}.`,
      ].sort(),
    );
  });
});
