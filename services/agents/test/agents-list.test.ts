import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childOf } from './agents-fixtures.ts';
import { ADMIN, type AgentData, EDITOR, fid, type Harness, harness, OWNER, STRANGER, VIEWER } from './harness.ts';

let h: Harness;
const P1 = randomUUID();
const P2 = randomUUID();
let plain: AgentData;
let inP1: AgentData;
let inP2: AgentData;
let archived: AgentData;
let expiredEphemeral: AgentData;
let shared: AgentData;
let strangers: AgentData;
let olderMember: { id: string };
let newerMember: { id: string };
let archivedMember: { id: string };

type Row = { id: string } & Record<string, unknown>;
const list = async (query = '', as: Parameters<Harness['call']>[2] = OWNER) => {
  const r = await h.call('GET', `/v1/agents${query}`, as);
  if (r.status !== 200) throw new Error(`GET /v1/agents${query}: ${r.status} ${JSON.stringify(r.body)}`);
  return { rows: r.data as Row[], body: r.body };
};
const ids = (rows: Row[]) => rows.map((r) => r.id);

beforeAll(async () => {
  h = await harness();
  plain = await h.agent({ name: 'Plain Listing Agent' });
  h.setNow('2026-03-02T12:01:00Z');
  inP1 = await h.agent({ name: 'Leasing Helper', project_id: P1 });
  h.setNow('2026-03-02T12:02:00Z');
  inP2 = await h.agent({ name: 'Ops Bot', project_id: P2, instructions: 'Watch the boiler telemetry nightly' });
  archived = await h.agent({ name: 'Old Archived Agent' });
  await h.db.updateTable('agents').set({ status: 'archive' }).where('id', '=', archived.id).execute();
  expiredEphemeral = await h.agent({ name: 'Spawned Scratch', lifetime: 'ephemeral' }, { service: plain.id });
  await h.db.updateTable('agents').set({ status: 'expired' }).where('id', '=', expiredEphemeral.id).execute();
  olderMember = await childOf(h, plain, { created_at: new Date('2026-03-02T13:00:00Z') });
  newerMember = await childOf(h, plain, { created_at: new Date('2026-03-02T14:00:00Z') });
  archivedMember = await childOf(h, plain, { status: 'archive', created_at: new Date('2026-03-02T15:00:00Z') });
  strangers = await h.agent({ name: 'Somebody Elses Agent', project_id: P1 }, STRANGER);
  shared = await h.agent({ name: 'Shared With Viewer' }, STRANGER);
  await h.ok('PUT', `/v1/agents/${shared.id}/members/${fid(VIEWER)}`, { role: 'viewer' }, 200, STRANGER);
  await h.ok('PUT', `/v1/agents/${shared.id}/members/${fid(OWNER)}`, { role: 'editor' }, 200, STRANGER);
});
afterAll(async () => h.close_());

describe('the agent list', () => {
  it('18 AGT-083 AGT-084 AGT-085 AGT-099 AGT-002 by default: top-level agents not archived, expired ephemeral ones included, only the caller’s, with page meta', async () => {
    const { rows, body } = await list();
    const got = ids(rows);
    expect(got).toEqual(expect.arrayContaining([plain.id, inP1.id, inP2.id, expiredEphemeral.id, shared.id]));
    for (const absent of [archived.id, olderMember.id, newerMember.id, archivedMember.id, strangers.id]) {
      expect(got).not.toContain(absent);
    }
    expect(rows.every((r) => r.parent_id === null && r.status !== 'archive')).toBe(true);
    expect(body.payload.meta.pagination).toEqual({
      mode: 'page',
      page: 1,
      pageSize: 50,
      totalItems: got.length,
      totalPages: 1,
    });
    const roles = Object.fromEntries(rows.map((r) => [r.id, r.caller_role]));
    expect(roles[plain.id]).toBe('owner');
    expect(roles[shared.id]).toBe('editor');
  });

  it('18 AGT-002 pages are newest first and carry the totals', async () => {
    const all = ids((await list()).rows);
    const p1 = await list('?pagination[page]=1&pagination[pageSize]=2');
    const p2 = await list('?pagination[page]=2&pagination[pageSize]=2');
    expect([...ids(p1.rows), ...ids(p2.rows)]).toEqual(all.slice(0, 4));
    expect(p2.body.payload.meta.pagination).toMatchObject({ page: 2, pageSize: 2, totalItems: all.length });
    const beyond = await list('?pagination[page]=99&pagination[pageSize]=2');
    expect(beyond.rows).toEqual([]);
    expect(beyond.body.payload.meta.pagination.totalItems).toBe(all.length);
  });

  it('18 AGT-086 lifetime=persistent lists persistent agents only', async () => {
    const { rows } = await list('?lifetime=persistent');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.lifetime === 'persistent')).toBe(true);
    expect(ids(rows)).not.toContain(expiredEphemeral.id);
    expect(ids(rows)).toContain(plain.id);
  });

  it('18 AGT-087 AGT-088 lifetime=ephemeral lists swarm members that are not archived, newest first', async () => {
    const { rows } = await list('?lifetime=ephemeral');
    expect(ids(rows)).toEqual([newerMember.id, olderMember.id]);
    expect(rows.every((r) => r.child_kind === 'swarm' && r.status !== 'archive')).toBe(true);
    expect(rows.every((r) => r.caller_role === 'owner')).toBe(true);
  });

  it('18 AGT-089 status=archive lists archived top-level agents', async () => {
    const { rows } = await list('?status=archive');
    expect(ids(rows)).toEqual([archived.id]);
    expect(rows.every((r) => r.status === 'archive' && r.parent_id === null)).toBe(true);
  });

  it('18 AGT-090 desired_state filters the list', async () => {
    await h.db.updateTable('agents').set({ desired_state: 'running' }).where('id', '=', inP2.id).execute();
    const running = await list('?desired_state=running');
    expect(ids(running.rows)).toEqual([inP2.id]);
    const stopped = await list('?desired_state=stopped');
    expect(stopped.rows.every((r) => r.desired_state === 'stopped')).toBe(true);
    expect(ids(stopped.rows)).not.toContain(inP2.id);
    await h.db.updateTable('agents').set({ desired_state: 'stopped' }).where('id', '=', inP2.id).execute();
  });

  it('18 AGT-091 AGT-092 AGT-093 AGT-094 q matches name, slug, address and instructions, any case', async () => {
    expect(ids((await list('?q=leasing%20HELPER')).rows)).toEqual([inP1.id]);
    expect(ids((await list(`?q=${inP1.slug}`)).rows)).toEqual([inP1.id]);
    const byAddress = await list(`?q=${encodeURIComponent(`${inP2.slug}@agents.dev`)}`);
    expect(ids(byAddress.rows)).toEqual([inP2.id]);
    expect(ids((await list('?q=boiler%20telemetry')).rows)).toEqual([inP2.id]);
    expect((await list('?q=%25')).rows).toEqual([]);
  });

  it('18 AGT-095 AGT-096 q matches the owner and the creator, by FID or by their email', async () => {
    const byOwnerFid = ids((await list(`?q=${fid(STRANGER)}`)).rows);
    expect(byOwnerFid).toContain(shared.id);
    expect(byOwnerFid).not.toContain(plain.id);
    const byOwnerEmail = ids((await list(`?q=${encodeURIComponent(STRANGER)}`)).rows);
    expect(byOwnerEmail).toEqual([shared.id]);
    const byCreator = ids((await list(`?q=${encodeURIComponent(`agent:${plain.id}`)}`)).rows);
    expect(byCreator).toEqual([expiredEphemeral.id]);
    const byCreatorEmail = ids((await list(`?q=${encodeURIComponent(OWNER)}`)).rows);
    expect(byCreatorEmail).toEqual(expect.arrayContaining([plain.id, inP1.id, inP2.id]));
  });

  it('18 AGT-097 AGT-098 project_id takes a comma list and is matched alongside q', async () => {
    expect(ids((await list(`?project_id=${P1},${P2}`)).rows).sort()).toEqual([inP1.id, inP2.id].sort());
    expect(ids((await list(`?project_id=${P1}`)).rows)).toEqual([inP1.id]);
    expect(ids((await list(`?project_id=${P1},${P2}&q=ops`)).rows)).toEqual([inP2.id]);
    expect((await list(`?project_id=${P1}&q=ops`)).rows).toEqual([]);
    expect((await h.call('GET', '/v1/agents?project_id=not-a-uuid', OWNER)).status).toBe(422);
  });

  it('18 AGT-099 a viewer lists what is shared with them and nothing else', async () => {
    const { rows } = await list('', VIEWER);
    expect(ids(rows)).toEqual([shared.id]);
    expect(rows[0]?.caller_role).toBe('viewer');
    expect((await list('', EDITOR)).rows).toEqual([]);
  });

  it('18 AGT-100 AGT-101 an admin lists every agent, and only their own with X-Platform-As-Member: true', async () => {
    const all = ids((await list('', ADMIN)).rows);
    expect(all).toEqual(expect.arrayContaining([plain.id, strangers.id, shared.id]));
    const rows = (await list('', ADMIN)).rows;
    expect(rows.find((r) => r.id === plain.id)?.caller_role).toBeNull();
    const mine = await list('', { headers: { 'x-dev-principal': ADMIN, 'x-platform-as-member': 'true' } });
    expect(mine.rows).toEqual([]);
  });

  it('18 AGT-316 AGT-317 with X-Platform-Agent-Id the list is the agent owner’s; the service token alone lists every agent', async () => {
    const asAgent = ids((await list('', { service: plain.id })).rows);
    expect(asAgent).toContain(inP1.id);
    expect(asAgent).not.toContain(strangers.id);
    const service = await list('', { service: null });
    expect(ids(service.rows)).toEqual(expect.arrayContaining([plain.id, strangers.id]));
    expect(service.rows.every((r) => r.caller_role === 'editor')).toBe(true);
  });
});
