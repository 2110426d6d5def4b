import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const decisionsUrl = (projectId: string) => `/v1/projects/${projectId}/decisions`;
const propose = (projectId: string, data: Record<string, unknown>, as = EDITOR, key?: string) =>
  h.call('POST', decisionsUrl(projectId), as, { data }, key);
const approve = (projectId: string, decisionId: string, as = OWNER) =>
  h.call('POST', `${decisionsUrl(projectId)}/${decisionId}/approve`, as, {});
/** The data of the outbox's events of one type, oldest first. */
const eventData = async (type: string) =>
  (await h.events(type)).map((e) => (e.payload as { data: Record<string, unknown> }).data);
const decisionsOf = async (projectId: string) =>
  (await h.call('GET', decisionsUrl(projectId), VIEWER)).data as { id: string; status: string; title: string }[];

describe('decisions', () => {
  it('16 WS-268 an editor proposes a decision (201): it is listed as proposed, title trimmed', async () => {
    const p = await h.team();
    const r = await propose(p.id, { title: '  Ship the beta in March  ', detail: 'Marketing agreed' });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: p.id,
      title: 'Ship the beta in March',
      detail: 'Marketing agreed',
      status: 'proposed',
      proposed_by: fid(EDITOR),
      approved_by: null,
      approved_at: null,
    });
    const listed = await decisionsOf(p.id);
    expect(listed).toEqual([expect.objectContaining({ id: r.data.id, status: 'proposed' })]);
    const events = (await eventData('project.decision_proposed')).filter((e) => e.decisionId === r.data.id);
    expect(events).toEqual([{ projectId: p.id, decisionId: r.data.id, actor: fid(EDITOR) }]);
  });

  it('16 WS-269 an owner approves a proposed decision: it reads approved, with who and when', async () => {
    const p = await h.team();
    const d = (await propose(p.id, { title: 'Use the general workflow' })).data;
    h.setNow('2025-06-17T09:30:00Z');
    const r = await approve(p.id, d.id);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      status: 'approved',
      approved_by: fid(OWNER),
      approved_at: '2025-06-17T09:30:00.000Z',
    });
    const one = await h.call('GET', `${decisionsUrl(p.id)}/${d.id}`, VIEWER);
    expect(one.data).toEqual(r.data);
    h.setNow('2025-06-16T15:00:00Z');
  });

  it('16 WS-269 approving is for owners (an editor 403), once (409 decision_already_approved), on the path project (404)', async () => {
    const p = await h.team();
    const other = await h.team();
    const d = (await propose(p.id, { title: 'Hire a designer' })).data;
    const byEditor = await approve(p.id, d.id, EDITOR);
    expect(byEditor.status).toBe(403);
    expect((await h.call('GET', `${decisionsUrl(p.id)}/${d.id}`, VIEWER)).data.status).toBe('proposed');
    expect((await approve(other.id, d.id)).errors[0].code).toBe('decision_not_found');
    expect((await approve(p.id, d.id)).status).toBe(200);
    const again = await approve(p.id, d.id);
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe('decision_already_approved');
    expect((await eventData('project.decision_approved')).filter((e) => e.decisionId === d.id)).toHaveLength(1);
  });

  it('16 WS-267 GET lists proposed and approved decisions, newest first; status narrows; paged', async () => {
    const p = await h.team();
    h.setNow('2025-06-16T15:00:00Z');
    const first = (await propose(p.id, { title: 'First' })).data;
    h.setNow('2025-06-16T15:01:00Z');
    const second = (await propose(p.id, { title: 'Second' })).data;
    await approve(p.id, first.id);
    h.setNow('2025-06-16T15:00:00Z');
    const r = await h.call('GET', decisionsUrl(p.id), VIEWER);
    expect(r.status).toBe(200);
    expect(r.data.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([
      [second.id, 'proposed'],
      [first.id, 'approved'],
    ]);
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1, pageSize: 50, totalItems: 2 });
    const approved = await h.call('GET', `${decisionsUrl(p.id)}?status=approved`, VIEWER);
    expect(approved.data.map((d: { id: string }) => d.id)).toEqual([first.id]);
    const paged = await h.call('GET', `${decisionsUrl(p.id)}?pagination[pageSize]=1&pagination[page]=2`, VIEWER);
    expect(paged.data.map((d: { id: string }) => d.id)).toEqual([first.id]);
    expect((await h.call('GET', `${decisionsUrl(p.id)}?pagination[pageSize]=201`, VIEWER)).status).toBe(422);
    expect((await h.call('GET', decisionsUrl(p.id), OUTSIDER)).status).toBe(404);
  });

  it('16 WS-270 a decision title is 1 to 200 characters: empty or 201 is 422 invalid_title and nothing is written; 200 is accepted', async () => {
    const p = await h.team();
    const before = await h.count('decisions');
    const outbox = await h.count('outbox');
    for (const title of ['', '   ', 'x'.repeat(201)]) {
      const r = await propose(p.id, { title });
      expect(r.status).toBe(422);
      expect(r.errors[0]).toMatchObject({ code: 'invalid_title', field: 'data/title' });
      expect(r.errors[0].message).toContain('1 to 200 characters');
    }
    expect(await h.count('decisions')).toBe(before);
    expect(await h.count('outbox')).toBe(outbox);
    expect((await propose(p.id, { title: 'x'.repeat(200) })).status).toBe(201);
    expect((await propose(p.id, { title: `  ${'y'.repeat(200)}  ` })).status).toBe(201);
  });

  it('16 WS-268 a retried proposal (same Idempotency-Key) writes one decision and replays the answer', async () => {
    const p = await h.team();
    const key = randomUUID();
    const first = await propose(p.id, { title: 'Retry me' }, EDITOR, key);
    const again = await propose(p.id, { title: 'Retry me' }, EDITOR, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
    expect(await decisionsOf(p.id)).toHaveLength(1);
    expect((await eventData('project.decision_proposed')).filter((e) => e.projectId === p.id)).toHaveLength(1);
  });

  it('16 WS-268 a viewer may not propose (403), nor anyone on an archived project (409); nothing written', async () => {
    const p = await h.team();
    const before = await h.count('decisions');
    expect((await propose(p.id, { title: 'Viewer says' }, VIEWER)).status).toBe(403);
    expect((await propose(p.id, { title: 'Stranger says' }, OUTSIDER)).status).toBe(404);
    await h.call('POST', `/v1/projects/${p.id}/status`, OWNER, { data: { action: 'archive' } });
    const archived = await propose(p.id, { title: 'Too late' });
    expect(archived.status).toBe(409);
    expect(archived.errors[0].code).toBe('project_archived');
    expect(await h.count('decisions')).toBe(before);
  });
});

describe('data sources', () => {
  const url = (projectId: string) => `/v1/projects/${projectId}/data-sources`;
  const connect = (projectId: string, data: Record<string, unknown>, as = EDITOR) =>
    h.call('POST', url(projectId), as, { data });

  it('16 WS-272 an editor connects a data source (201) and GET lists the connected sources (200)', async () => {
    const p = await h.team();
    const r = await connect(p.id, {
      name: ' Budget sheet ',
      kind: 'spreadsheet',
      reference: 'https://sheets.example/b1',
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      project_id: p.id,
      name: 'Budget sheet',
      kind: 'spreadsheet',
      reference: 'https://sheets.example/b1',
      created_by: fid(EDITOR),
    });
    h.setNow('2025-06-16T15:01:00Z');
    const second = await connect(p.id, { name: 'Repo', kind: 'repository', reference: 'github:acme/app' });
    h.setNow('2025-06-16T15:00:00Z');
    const list = await h.call('GET', url(p.id), VIEWER);
    expect(list.status).toBe(200);
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([r.data.id, second.data.id]);
    expect(list.meta.pagination).toMatchObject({ totalItems: 2 });
    const events = (await eventData('project.data_source_connected')).filter((e) => e.projectId === p.id);
    expect(events[0]).toEqual({ projectId: p.id, dataSourceId: r.data.id, kind: 'spreadsheet', actor: fid(EDITOR) });
  });

  it('16 WS-272 bad sources are refused with nothing written: 422 name, kind or reference; 409 the same source twice; 403 a viewer', async () => {
    const p = await h.team();
    const ok = { name: 'Inbox', kind: 'mailbox', reference: 'ops@example.com' };
    expect((await connect(p.id, ok)).status).toBe(201);
    const before = await h.count('data_sources');
    expect((await connect(p.id, { ...ok, name: ' ' })).errors[0].code).toBe('invalid_name');
    expect((await connect(p.id, { ...ok, kind: 'carrier_pigeon' })).errors[0].code).toBe('validation_failed');
    expect((await connect(p.id, { ...ok, reference: 'has spaces inside' })).errors[0].code).toBe('invalid_reference');
    const dup = await connect(p.id, { ...ok, name: 'Same inbox again' });
    expect(dup.status).toBe(409);
    expect(dup.errors[0].code).toBe('data_source_exists');
    expect((await connect(p.id, { ...ok, reference: 'other@example.com' }, VIEWER)).status).toBe(403);
    expect(await h.count('data_sources')).toBe(before);
  });
});
