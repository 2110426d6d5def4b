import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN as BROKER_SERVICE_TOKEN } from '../../broker/test/harness.ts';
import { type RelayHarness, relayHarness } from '../../broker/test/relay-setup.ts';
import { BrokerModelClient } from '../src/clients/broker.ts';
import { SummaryWriter } from '../src/commands/summaries.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
let broker: RelayHarness;
let writer: SummaryWriter;
beforeAll(async () => {
  h = await harness();
  broker = await relayHarness();
  writer = new SummaryWriter(h.db, {
    model: new BrokerModelClient({ baseUrl: broker.url, serviceToken: BROKER_SERVICE_TOKEN }),
    clock: h.now,
  });
});
afterAll(async () => {
  await broker.close();
  await h.close_();
});

const pack = (projectId: string, as = VIEWER) => h.call('GET', `/v1/projects/${projectId}/pack`, as);

describe('the context pack', () => {
  it('16 WS-280 GET .../pack returns the context pack (200): goals, decisions, data sources, task counts, a summary', async () => {
    const p = await h.team({ description: 'A pack test', instructions: 'Be brief' });
    const g = await h.goal(p.id, { title: 'Launch' });
    await h.checkin(p.id, g.id, { status: 'at_risk', note: 'Late' });
    await h.task(p.id);
    await h.task(p.id, { status_id: 'done' });
    const d = await h.call('POST', `/v1/projects/${p.id}/decisions`, EDITOR, { data: { title: 'Weekly demos' } });
    await h.call('POST', `/v1/projects/${p.id}/decisions/${d.data.id}/approve`, OWNER, {});
    await h.call('POST', `/v1/projects/${p.id}/decisions`, EDITOR, { data: { title: 'Still open' } });
    await h.call('POST', `/v1/projects/${p.id}/data-sources`, EDITOR, {
      data: { name: 'Specs', kind: 'document', reference: 'https://docs.example/specs' },
    });

    // Before the first build the content is read now; the pack is stale and has no summary.
    const before = await pack(p.id);
    expect(before.status).toBe(200);
    expect(before.data).toMatchObject({ project_id: p.id, stale: true, built_at: null, summary: null, degraded: true });

    const calls = broker.fake.requests.length;
    h.setNow('2025-06-16T16:00:00Z');
    await writer.run();
    h.setNow('2025-06-16T15:00:00Z');
    expect(broker.fake.requests.length).toBeGreaterThan(calls);
    const r = await pack(p.id);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      project_id: p.id,
      stale: false,
      built_at: '2025-06-16T16:00:00.000Z',
      degraded: false,
      content: {
        project: { id: p.id, description: 'A pack test', instructions: 'Be brief' },
        goals: [{ id: g.id, title: 'Launch', status: 'at_risk', lead: fid(OWNER), last_checkin_status: 'at_risk' }],
        decisions: [{ id: d.data.id, title: 'Weekly demos' }],
        proposed_decisions: 1,
        data_sources: [{ name: 'Specs', kind: 'document', reference: 'https://docs.example/specs' }],
        tasks: { open: 1, by_category: { backlog: 1, completed: 1 } },
      },
    });
    expect(r.data.summary).toEqual(expect.any(String));
    expect(r.data.summary.length).toBeGreaterThan(0);
    // The summary was asked for through the broker with the pack's own content.
    expect(broker.fake.requests.slice(calls).some((q) => JSON.stringify(q.json).includes('Weekly demos'))).toBe(true);
    // Reading the pack makes no model call.
    const after = broker.fake.requests.length;
    await pack(p.id);
    expect(broker.fake.requests.length).toBe(after);
    expect((await pack(p.id, OUTSIDER)).status).toBe(404);
  });

  it('16 WS-560 a check-in marks the context pack stale: the pack reads stale until it is built again', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    await writer.run();
    expect((await pack(p.id)).data.stale).toBe(false);
    await h.checkin(p.id, g.id, { status: 'off_track', note: 'Blocked' });
    const stale = await pack(p.id);
    expect(stale.data.stale).toBe(true);
    expect(stale.data.content.goals[0].last_checkin_status).toBeNull();
    await writer.run();
    const fresh = await pack(p.id);
    expect(fresh.data).toMatchObject({ stale: false, content: { goals: [{ last_checkin_status: 'off_track' }] } });
  });

  it('16 WS-280 with the broker down the pack is still built from the tables, without a summary (degraded)', async () => {
    const p = await h.team();
    await h.task(p.id);
    const down = new SummaryWriter(h.db, {
      model: new BrokerModelClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 }),
      clock: h.now,
    });
    await down.run();
    expect((await pack(p.id)).data).toMatchObject({
      stale: false,
      summary: null,
      degraded: true,
      content: { tasks: { open: 1 } },
    });
    // Without any broker, the same.
    const none = new SummaryWriter(h.db, { clock: h.now });
    await h.task(p.id);
    await none.run();
    expect((await pack(p.id)).data).toMatchObject({
      stale: false,
      summary: null,
      degraded: true,
      content: { tasks: { open: 2 } },
    });
  });
});
