import { usingPostgres } from '@platform/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeCounters } from '../src/store/projects.ts';
import { EDITOR, type Harness, harness, OWNER } from './harness.ts';

/**
 * Every task command takes the project's write lock first, so concurrent writes to one project
 * run one at a time. On PGlite (one connection) that is trivially so; with TEST_POSTGRES_URL the
 * requests really run on separate connections at once.
 */
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const url = (p: string, t: string) => `/v1/projects/${p}/items/${t}`;
const ranks = async (projectId: string) =>
  (
    await h.db
      .selectFrom('tasks')
      .select(['id', 'rank'])
      .where('project_id', '=', projectId)
      .orderBy('rank')
      .orderBy('id')
      .execute()
  ).map((r) => ({ id: r.id as string, rank: Number(r.rank) }));

describe(`concurrent writes to one project (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('WS-119 WS-120 many concurrent moves into one gap serialize: ranks stay distinct, all land in the gap, renumbering included', async () => {
    const p = await h.team();
    const bottom = await h.task(p.id);
    const top = await h.task(p.id);
    const movers = [];
    for (let i = 0; i < 24; i++) movers.push(await h.task(p.id));
    // A narrow gap (32 doubles wide: five halvings), so that the moves must renumber.
    await h.db.updateTable('tasks').set({ rank: 1024 }).where('id', '=', top.id).execute();
    await h.db
      .updateTable('tasks')
      .set({ rank: 1024 + 2 ** -37 })
      .where('id', '=', bottom.id)
      .execute();
    const seq = await h.seq(p.id);
    const results = await Promise.all(
      movers.map((t, i) =>
        h.call('POST', `${url(p.id, t.id)}/move`, EDITOR, {
          data: { after_id: top.id, before_id: bottom.id, ...(i % 2 ? { status_id: 'todo' } : {}) },
        }),
      ),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = await ranks(p.id);
    const rs = after.map((x) => x.rank);
    expect(new Set(rs).size).toBe(rs.length);
    // top first, bottom last, every mover between them.
    expect(after[0]?.id).toBe(top.id);
    expect(after.at(-1)?.id).toBe(bottom.id);
    expect(new Set(after.slice(1, -1).map((x) => x.id))).toEqual(new Set(movers.map((m) => m.id)));
    // 24 moves into that gap cannot all fit by halving: at least one renumbering happened.
    const counters = await changeCounters(h.db, p.id);
    expect(counters.renumber_seq).toBeGreaterThan(seq);
    // One change number per move, none shared.
    expect(counters.seq).toBe(seq + movers.length);
  });

  it('WS-105 concurrent content edits of one version: exactly one wins, the others get 409 stale_version', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.call('PATCH', url(p.id, t.id), i % 2 ? OWNER : EDITOR, { data: { version: 1, title: `Edit ${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.errors[0]?.code).toBe('stale_version');
    const versions = await h.db.selectFrom('task_versions').select('version').where('task_id', '=', t.id).execute();
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
    expect((await h.events('project.item_updated')).filter((e) => e.payload.data.itemId === t.id)).toHaveLength(1);
  });

  it('WS-099 WS-550 concurrent archives of one task: one archives it, the others get 409 item_archived, one event', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => h.call('POST', `${url(p.id, t.id)}/archive`, EDITOR, { data: {} })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await h.events('project.item_archived')).filter((e) => e.payload.data.itemId === t.id)).toHaveLength(1);
  });
});
