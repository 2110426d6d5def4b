import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const exportOf = (projectId: string, as = EDITOR, headers: Record<string, string> = {}) =>
  h.call(
    'GET',
    `/v1/projects/${projectId}/export`,
    as === null ? null : { headers: { 'x-dev-principal': as, ...headers } },
  );

type Rows = Record<string, Record<string, unknown>[]>;

describe('export', () => {
  it('16 WS-278 GET .../export returns everything the project holds to an editor (200): one JSON document, table by table', async () => {
    const p = await h.team({ description: 'Exported' });
    const g = await h.goal(p.id, { lead: fid(EDITOR) });
    const t = await h.task(p.id, { goal_id: g.id });
    await h.call('PATCH', `/v1/projects/${p.id}/items/${t.id}`, EDITOR, {
      data: { version: 1, body: 'Second version' },
    });
    await h.checkin(p.id, g.id, { note: 'On it' }, EDITOR);
    const d = await h.call('POST', `/v1/projects/${p.id}/decisions`, EDITOR, { data: { title: 'Export it all' } });
    const s = await h.call('POST', `/v1/projects/${p.id}/data-sources`, EDITOR, {
      data: { name: 'Drive', kind: 'folder', reference: 'drive:folder/1' },
    });
    await h.call('POST', `/v1/projects/${p.id}/visit`, EDITOR, {});
    const other = await h.team();
    await h.task(other.id);

    h.setNow('2025-06-18T08:00:00Z');
    const r = await exportOf(p.id);
    h.setNow('2025-06-16T15:00:00Z');
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({
      format: 'workspace.project_export.v1',
      exported_at: '2025-06-18T08:00:00.000Z',
      project: { id: p.id, name: p.name, description: 'Exported' },
    });
    const tables = r.data.tables as Rows;
    const ids = (table: string) => (tables[table] ?? []).map((row) => row.id);
    expect(ids('tasks')).toContain(t.id);
    expect(ids('goals')).toEqual([g.id]);
    expect(ids('decisions')).toEqual([d.data.id]);
    expect(ids('data_sources')).toEqual([s.data.id]);
    expect(tables.goal_checkins?.map((c) => c.note)).toEqual(['On it']);
    // Child rows reached through their parent: both versions of the task, with their text.
    const versions = (tables.task_versions ?? []).filter((v) => v.task_id === t.id);
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
    expect(versions.map((v) => v.body)).toContain('Second version');
    expect((tables.project_members ?? []).map((m) => m.principal_id).sort()).toEqual(
      [fid(OWNER), fid(EDITOR), fid(VIEWER)].sort(),
    );
    expect((tables.saved_views ?? []).length).toBeGreaterThan(0);
    expect((tables.activity ?? []).map((a) => a.kind)).toEqual(
      expect.arrayContaining(['goal.created', 'item.created', 'goal.checked_in', 'decision.proposed']),
    );
    // Every row is this project's; per-person state and what is derived stay out.
    for (const [table, rows] of Object.entries(tables)) {
      for (const row of rows) if ('project_id' in row) expect([table, row.project_id]).toEqual([table, p.id]);
    }
    for (const left of ['project_visits', 'digests', 'notifications', 'context_packs', 'activity_heads', 'outbox']) {
      expect(tables).not.toHaveProperty(left);
    }
    // The other project's task is not in it.
    expect(JSON.stringify(r.data)).not.toContain(other.id);
  });

  it('16 WS-279 export is for editors only: 403 for a viewer, 404 for a stranger, 200 for an owner and a platform admin', async () => {
    const p = await h.team();
    const viewer = await exportOf(p.id, VIEWER);
    expect(viewer.status).toBe(403);
    expect(viewer.errors[0].code).toBe('forbidden');
    expect((await exportOf(p.id, OUTSIDER)).status).toBe(404);
    expect((await exportOf(p.id, OWNER)).status).toBe(200);
    expect((await exportOf(p.id, ADMIN)).status).toBe(200);
    expect((await exportOf(p.id, ADMIN, { 'x-platform-as-member': 'true' })).status).toBe(404);
    expect((await h.call('GET', `/v1/projects/${p.id}/export`, null)).status).toBe(401);
  });
});
