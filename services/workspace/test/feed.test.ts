import type { App } from '@platform/kit';
import { DevPrincipals, devHeaderAuthenticator } from '@platform/kit';
import { injectJson } from '@platform/kit/testing';
import type { TObject } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN as BROKER_SERVICE_TOKEN } from '../../broker/test/harness.ts';
import { type RelayHarness, relayHarness } from '../../broker/test/relay-setup.ts';
import { buildApp } from '../src/app.ts';
import { BrokerModelClient } from '../src/clients/broker.ts';
import { SummaryWriter } from '../src/commands/summaries.ts';
import { activitySourceOf } from '../src/domain/activity.ts';
import { events } from '../src/events.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

const DEFAULT_NOW = '2025-06-16T15:00:00Z';

let h: Harness;
let broker: RelayHarness;
/** The same database served by an app that has the model broker (h.app has none). */
let withModel: App;
let writer: SummaryWriter;

beforeAll(async () => {
  h = await harness({ now: DEFAULT_NOW });
  broker = await relayHarness();
  const model = new BrokerModelClient({ baseUrl: broker.url, serviceToken: BROKER_SERVICE_TOKEN });
  withModel = (await buildApp({
    database: h.database,
    authenticator: devHeaderAuthenticator(DevPrincipals.load()),
    clock: h.now,
    logLevel: 'silent',
    model,
  })) as App;
  await withModel.ready();
  writer = new SummaryWriter(h.db, { model, clock: h.now });
});
afterAll(async () => {
  await withModel.close();
  await broker.close();
  await h.close_();
});

interface Row {
  kind: string;
  subject_id: string | null;
  actor: string;
  position: number;
}
const activity = async (projectId: string, query = '', as = VIEWER) =>
  h.call('GET', `/v1/projects/${projectId}/activity${query}`, as);
const feed = async (projectId: string) => (await activity(projectId)).data as Row[];
const visit = (projectId: string, as = VIEWER) => h.call('POST', `/v1/projects/${projectId}/visit`, as);
const digest = (projectId: string, as = VIEWER) => h.call('GET', `/v1/projects/${projectId}/digest`, as);
const digestWithModel = (projectId: string, as = VIEWER) =>
  injectJson(withModel, 'GET', `/v1/projects/${projectId}/digest`, { headers: { 'x-dev-principal': as } });
const decision = async (projectId: string) => {
  const r = await h.call('POST', `/v1/projects/${projectId}/decisions`, EDITOR, { data: { title: 'Go' } });
  h.expectStatus('decision', r, 201);
  return r.data as { id: string };
};

describe('the activity feed', () => {
  it('16 WS-273 an activity row appears for a task event, a goal event and a decision event, none for a view event', async () => {
    const p = await h.team();
    expect(await feed(p.id)).toEqual([]);
    const task = await h.task(p.id);
    const goal = await h.goal(p.id);
    const d = await decision(p.id);
    const view = await h.call('POST', `/v1/projects/${p.id}/views`, EDITOR, { data: { name: 'Mine', layout: 'list' } });
    h.expectStatus('view', view, 201);
    const rows = await feed(p.id);
    expect(rows.map((r) => [r.kind, r.subject_id, r.actor, r.position])).toEqual([
      ['decision.proposed', d.id, fid(EDITOR), 3],
      ['goal.created', goal.id, fid(OWNER), 2],
      ['item.created', task.id, fid(EDITOR), 1],
    ]);
    // The view's event was published, and wrote no row.
    expect((await h.events('project.view_created')).length).toBeGreaterThan(0);
  });

  it('16 WS-273 GET .../activity answers 200 to any reader, newest first, paged, kind narrows; 404 to a stranger', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    await h.call('POST', `/v1/projects/${p.id}/items/${t.id}/archive`, EDITOR, {});
    await h.task(p.id);
    const r = await activity(p.id, '?pagination[pageSize]=2');
    expect(r.status).toBe(200);
    expect(r.body).toHaveProperty('header');
    expect(r.data.map((x: Row) => x.kind)).toEqual(['item.created', 'item.archived']);
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 2, totalItems: 3, totalPages: 2 });
    expect(Object.keys(r.data[0]).sort()).toEqual(
      ['actor', 'created_at', 'id', 'kind', 'position', 'project_id', 'subject_id'].sort(),
    );
    const archived = await activity(p.id, '?kind=item.archived');
    expect(archived.data.map((x: Row) => x.subject_id)).toEqual([t.id]);
    expect(archived.meta.pagination.totalItems).toBe(1);
    expect((await activity(p.id, '?pagination[pageSize]=201')).status).toBe(422);
    expect((await activity(p.id, '', OUTSIDER)).status).toBe(404);
  });

  it('16 WS-273 WS-558 the rows come from the emit path: one per feed event of a command, in order, in its transaction', async () => {
    const p = await h.team();
    const g = await h.goal(p.id, { lead: fid(VIEWER) });
    // A task created in Done with an assignee emits item_created, item_assigned and item_resolved.
    await h.task(p.id, { status_id: 'done', assignee: fid(VIEWER) });
    await h.checkin(p.id, g.id, { note: 'Fine' }, VIEWER);
    const kinds = (await feed(p.id)).map((r) => r.kind).reverse();
    expect(kinds[0]).toBe('goal.created');
    expect(kinds.slice(1, -1).sort()).toEqual(['item.assigned', 'item.created', 'item.resolved']);
    expect(kinds.at(-1)).toBe('goal.checked_in');
    expect((await feed(p.id)).map((r) => r.position)).toEqual([5, 4, 3, 2, 1]);
    // A refused command writes no row.
    const before = await h.count('activity');
    expect((await h.call('POST', `/v1/projects/${p.id}/items`, VIEWER, { data: { title: 'No' } })).status).toBe(403);
    expect(await h.count('activity')).toBe(before);
  });

  it('16 WS-273 every declared event of a feed source carries projectId, actor and its subject id', () => {
    const fed = Object.entries(events.events).filter(([type]) => activitySourceOf(type));
    expect(fed.map(([type]) => type)).toEqual(
      expect.arrayContaining(['project.item_created', 'project.goal_checked_in', 'project.decision_approved']),
    );
    for (const [type, spec] of fed) {
      const props = Object.keys((spec.payload as TObject).properties);
      const source = activitySourceOf(type);
      expect([type, props]).toEqual([type, expect.arrayContaining(['projectId', 'actor', source?.subject])]);
    }
    for (const type of Object.keys(events.events).filter((t) => t.startsWith('project.view'))) {
      expect(activitySourceOf(type)).toBeUndefined();
    }
  });
});

describe('visits and the digest', () => {
  it('16 WS-274 POST .../visit marks a visit: the next digest counts from this visit', async () => {
    const p = await h.team();
    await h.task(p.id);
    h.setNow('2025-06-16T16:00:00Z');
    const v = await visit(p.id);
    expect(v.status).toBe(200);
    expect(v.data).toEqual({
      project_id: p.id,
      principal: fid(VIEWER),
      visited_at: '2025-06-16T16:00:00.000Z',
      position: 1,
    });
    await h.task(p.id);
    await h.task(p.id);
    const d = await digest(p.id);
    expect(d.status).toBe(200);
    expect(d.data).toMatchObject({
      since: '2025-06-16T16:00:00.000Z',
      since_position: 1,
      position: 3,
      total: 2,
      counts: { 'item.created': 2 },
    });
    h.setNow(DEFAULT_NOW);
  });

  it('16 WS-275 only rows after the previous visit are counted; each person counts from their own visit', async () => {
    const p = await h.team();
    expect((await digest(p.id, EDITOR)).data).toMatchObject({ since: null, since_position: 0, total: 0, counts: {} });
    await visit(p.id, EDITOR);
    await h.task(p.id);
    await visit(p.id, VIEWER);
    await decision(p.id);
    await visit(p.id, EDITOR);
    const g = await h.goal(p.id);
    const mine = await digest(p.id, EDITOR);
    expect(mine.data).toMatchObject({ since_position: 2, total: 1, counts: { 'goal.created': 1 } });
    const theirs = await digest(p.id, VIEWER);
    expect(theirs.data).toMatchObject({
      since_position: 1,
      total: 2,
      counts: { 'decision.proposed': 1, 'goal.created': 1 },
    });
    // Before anyone's first visit the digest counts the whole feed.
    expect((await digest(p.id, OWNER)).data).toMatchObject({ since: null, total: 3 });
    expect(g.id).toBeDefined();
    expect((await visit(p.id, OUTSIDER)).status).toBe(404);
    expect((await h.call('GET', `/v1/projects/${p.id}/digest`, OUTSIDER)).status).toBe(404);
  });

  it('16 WS-276 the digest is cached against the feed position: two reads with no new activity are the same digest; a new row changes it', async () => {
    const p = await h.team();
    await visit(p.id);
    await h.task(p.id);
    const first = await digest(p.id);
    h.setNow('2025-06-16T15:30:00Z');
    const second = await digest(p.id);
    expect(second.data).toEqual(first.data);
    expect(second.data.computed_at).toBe(DEFAULT_NOW.replace('Z', '.000Z'));
    // A view adds no activity, so the digest stays as it was.
    await h.call('POST', `/v1/projects/${p.id}/views`, EDITOR, { data: { name: 'Quiet', layout: 'board' } });
    expect((await digest(p.id)).data).toEqual(first.data);
    await h.task(p.id);
    const third = await digest(p.id);
    expect(third.data).not.toEqual(first.data);
    expect(third.data).toMatchObject({ position: 2, total: 2, computed_at: '2025-06-16T15:30:00.000Z' });
    h.setNow(DEFAULT_NOW);
  });

  it('16 WS-559 the digest counts goal.checked_in rows: its count rises after a check-in', async () => {
    const p = await h.team();
    const g = await h.goal(p.id);
    await visit(p.id);
    const before = (await digest(p.id)).data;
    expect(before.counts['goal.checked_in'] ?? 0).toBe(0);
    await h.checkin(p.id, g.id);
    const after = (await digest(p.id)).data;
    expect(after.counts['goal.checked_in']).toBe(1);
    expect(after.total).toBe(before.total + 1);
  });

  it('16 WS-277 reading the digest makes no model call; its line is written through the broker off the read path', async () => {
    const p = await h.team();
    await visit(p.id);
    await h.task(p.id);
    await decision(p.id);
    const calls = broker.fake.requests.length;
    const read = await digestWithModel(p.id);
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({ total: 2, line: null, degraded: false });
    expect(broker.fake.requests.length).toBe(calls);

    const ran = await writer.run();
    expect(ran.lines).toBeGreaterThanOrEqual(1);
    const sent = broker.fake.requests.slice(calls).find((r) => JSON.stringify(r.json).includes('decision.proposed'));
    expect(sent?.path).toBe('/v1/chat/completions');
    // The relay called the provider for the reader, through the service token.
    const usage = await broker.recordedFor(fid(VIEWER));
    expect(usage.usage.actor_fid).toBe(fid(VIEWER));

    const withLine = broker.fake.requests.length;
    const again = await digestWithModel(p.id);
    expect(again.data.line).toEqual(expect.any(String));
    expect(again.data.line.length).toBeGreaterThan(0);
    expect(again.data).toMatchObject({ total: 2, degraded: false, computed_at: read.data.computed_at });
    expect(broker.fake.requests.length).toBe(withLine);
  });

  it('16 WS-277 without a broker, or with one that fails, the digest answers its counts with no line, degraded', async () => {
    const p = await h.team();
    await visit(p.id);
    await h.task(p.id);
    const unconfigured = await digest(p.id);
    expect(unconfigured.data).toMatchObject({ total: 1, line: null, degraded: true });

    const down = new SummaryWriter(h.db, {
      model: new BrokerModelClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 }),
      clock: h.now,
    });
    expect((await digestWithModel(p.id)).data).toMatchObject({ line: null, degraded: false });
    await down.run();
    expect((await digestWithModel(p.id)).data).toMatchObject({ total: 1, line: null, degraded: true });
  });
});
