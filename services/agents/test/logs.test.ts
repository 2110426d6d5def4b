import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR, fid, type Harness, harness, OWNER, STRANGER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

/** An agent with an editor and a viewer (members written straight to the table: members are another area). */
async function sharedAgent() {
  const a = await h.agent();
  await h.db
    .insertInto('agent_members')
    .values([
      { agent_id: a.id, principal_fid: fid(EDITOR), role: 'editor', added_at: h.now() },
      { agent_id: a.id, principal_fid: fid(VIEWER), role: 'viewer', added_at: h.now() },
    ])
    .execute();
  return a;
}

describe('log lines', () => {
  it('18 AGT-025 AGT-315 AGT-317 a line posted with the shared service token sets last_heartbeat_at', async () => {
    const a = await h.agent();
    expect((await h.call('GET', `/v1/agents/${a.id}`)).data.last_heartbeat_at).toBeNull();
    h.setNow('2026-03-02T12:05:00Z');
    const line = await h.ok('POST', `/v1/agents/${a.id}/logs`, { kind: 'started', message: 'harness up' }, 201, {
      service: null,
    });
    expect(line).toMatchObject({ kind: 'started', message: 'harness up', created_at: '2026-03-02T12:05:00.000Z' });
    expect((await h.call('GET', `/v1/agents/${a.id}`)).data.last_heartbeat_at).toBe('2026-03-02T12:05:00.000Z');
    h.setNow('2026-03-02T12:06:00Z');
    await h.ok('POST', `/v1/agents/${a.id}/logs`, { kind: 'heartbeat', message: 'alive' }, 201, { service: a.id });
    expect((await h.call('GET', `/v1/agents/${a.id}`)).data.last_heartbeat_at).toBe('2026-03-02T12:06:00.000Z');
    h.setNow('2026-03-02T12:00:00Z');
  });

  it('18 AGT-055 AGT-056 rows are {kind, message, created_at}, newest first, filtered by kind, in cursor pages', async () => {
    const a = await h.agent();
    const kinds = ['started', 'heartbeat', 'wake', 'error', 'skill', 'info', 'warn'] as const;
    for (const [i, kind] of kinds.entries()) {
      h.setNow(`2026-03-02T13:0${i}:00Z`);
      await h.ok('POST', `/v1/agents/${a.id}/logs`, { kind, message: `line ${i}` }, 201, { service: null });
    }
    h.setNow('2026-03-02T12:00:00Z');
    expect((await h.call('GET', `/v1/agents/${a.id}/logs`, VIEWER)).status).toBe(404);
    const page1 = await h.call('GET', `/v1/agents/${a.id}/logs?limit=4`);
    expect(page1.status).toBe(200);
    expect(page1.data.map((r: { kind: string }) => r.kind)).toEqual(['warn', 'info', 'skill', 'error']);
    for (const r of page1.data) {
      expect(Object.keys(r).sort()).toEqual(['created_at', 'id', 'kind', 'message']);
      expect(kinds).toContain(r.kind);
    }
    const next = page1.body.payload.meta.pagination.nextCursor;
    const page2 = await h.call('GET', `/v1/agents/${a.id}/logs?limit=4&after=${next}`);
    expect(page2.data.map((r: { kind: string }) => r.kind)).toEqual(['wake', 'heartbeat', 'started']);
    expect(page2.body.payload.meta.pagination.nextCursor).toBeNull();
    const errors = await h.call('GET', `/v1/agents/${a.id}/logs?kind=error`);
    expect(errors.data.map((r: { message: string }) => r.message)).toEqual(['line 3']);
  });

  it('18 AGT-056 another kind is 422 and nothing is written', async () => {
    const a = await h.agent();
    const before = await h.state();
    const r = await h.call(
      'POST',
      `/v1/agents/${a.id}/logs`,
      { service: null },
      { data: { kind: 'debug', message: 'x' } },
    );
    expect(r.status).toBe(422);
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', `/v1/agents/${a.id}`)).data.last_heartbeat_at).toBeNull();
  });

  it('18 AGT-057 a skill line keeps the tool name and never the result', async () => {
    const a = await h.agent();
    const withTool = await h.ok(
      'POST',
      `/v1/agents/${a.id}/logs`,
      { kind: 'skill', tool: 'search_documents', message: 'search_documents returned: lease for unit 4B, rent 2400' },
      201,
      { service: a.id },
    );
    expect(withTool.message).toBe('search_documents');
    const cut = await h.ok(
      'POST',
      `/v1/agents/${a.id}/logs`,
      { kind: 'skill', message: 'read_email: Dear tenant, your balance is 310.00' },
      201,
      { service: a.id },
    );
    expect(cut.message).toBe('read_email');
    const rows = (await h.call('GET', `/v1/agents/${a.id}/logs?kind=skill`)).data as { message: string }[];
    expect(rows.map((r) => r.message)).toEqual(['read_email', 'search_documents']);
    for (const r of rows) {
      expect(r.message).not.toMatch(/rent|balance|tenant/);
    }
  });

  it('18 AGT-327 roles: none 404, viewer reads but may not post (403), editor posts', async () => {
    const a = await sharedAgent();
    await h.ok('POST', `/v1/agents/${a.id}/logs`, { kind: 'info', message: 'hello' }, 201, { service: null });
    expect((await h.call('GET', `/v1/agents/${a.id}/logs`, VIEWER)).status).toBe(200);
    expect((await h.call('GET', `/v1/agents/${a.id}/logs`, STRANGER)).status).toBe(404);
    const before = await h.state();
    const viewer = await h.call('POST', `/v1/agents/${a.id}/logs`, VIEWER, { data: { kind: 'info', message: 'x' } });
    expect(viewer.status).toBe(403);
    expect(viewer.body.payload.errors[0].code).toBe('insufficient_role');
    const stranger = await h.call('POST', `/v1/agents/${a.id}/logs`, STRANGER, {
      data: { kind: 'info', message: 'x' },
    });
    expect(stranger.status).toBe(404);
    const missing = await h.call(
      'POST',
      '/v1/agents/01900000-0000-7000-8000-000000000000/logs',
      { service: null },
      {
        data: { kind: 'info', message: 'x' },
      },
    );
    expect(missing.status).toBe(404);
    expect(await h.state()).toEqual(before);
    await h.ok('POST', `/v1/agents/${a.id}/logs`, { kind: 'info', message: 'from an editor' }, 201, EDITOR);
    await h.ok('POST', `/v1/agents/${a.id}/logs`, { kind: 'info', message: 'from the owner' }, 201, OWNER);
  });

  it('18 AGT-003 a log POST without Idempotency-Key is 400 and writes nothing', async () => {
    const a = await h.agent();
    const before = await h.state();
    const r = await h.call(
      'POST',
      `/v1/agents/${a.id}/logs`,
      { service: null },
      { data: { kind: 'info', message: 'x' } },
      null,
    );
    expect(r.status).toBe(400);
    expect(await h.state()).toEqual(before);
  });
});
