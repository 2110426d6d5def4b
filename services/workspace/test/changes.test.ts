import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../src/schemas/tasks.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const changes = async (projectId: string, since?: string | number, as = VIEWER) => {
  const r = await h.call('GET', `/v1/projects/${projectId}/changes${since === undefined ? '' : `?since=${since}`}`, as);
  h.expectStatus('changes', r, 200);
  return r.data as { seq: number; items: Task[]; structure_changed: boolean; reset: boolean };
};

const ok = async (r: Promise<{ status: number; body: unknown; data?: unknown }>, what: string) => {
  const res = await r;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.data as never;
};

/** The writes of this file, each one command. */
const w = {
  edit: (p: string, t: Task, title: string) =>
    ok(h.call('PATCH', `/v1/projects/${p}/items/${t.id}`, EDITOR, { data: { title, version: t.version } }), 'edit'),
  status: (p: string, t: Task, status_id: string) =>
    ok(h.call('PATCH', `/v1/projects/${p}/items/${t.id}`, EDITOR, { data: { status_id } }), 'status'),
  move: (p: string, t: Task, to: { after_id?: string; before_id?: string; status_id?: string }) =>
    ok(h.call('POST', `/v1/projects/${p}/items/${t.id}/move`, EDITOR, { data: to }), 'move'),
  archive: (p: string, t: Task) =>
    ok(h.call('POST', `/v1/projects/${p}/items/${t.id}/archive`, EDITOR, { data: {} }), 'archive'),
  unarchive: (p: string, t: Task) =>
    ok(h.call('POST', `/v1/projects/${p}/items/${t.id}/unarchive`, EDITOR, { data: {} }), 'unarchive'),
  goal: (p: string) =>
    ok(h.call('POST', `/v1/projects/${p}/goals`, OWNER, { data: { title: 'Ship it', lead: fid(OWNER) } }), 'goal'),
  checkin: (p: string, g: string) =>
    ok(
      h.call('POST', `/v1/projects/${p}/goals/${g}/checkins`, OWNER, { data: { status: 'at_risk', note: 'Slipping' } }),
      'checkin',
    ),
  view: (p: string, name: string) =>
    ok(h.call('POST', `/v1/projects/${p}/views`, EDITOR, { data: { name, layout: 'list' } }), 'view'),
  viewEdit: (p: string, v: { id: string; version: number }, name: string) =>
    ok(h.call('PATCH', `/v1/projects/${p}/views/${v.id}`, EDITOR, { data: { name, version: v.version } }), 'viewEdit'),
  settings: (p: string, checkin_weekday: number) =>
    ok(h.call('PATCH', `/v1/projects/${p}`, OWNER, { data: { checkin_weekday } }), 'settings'),
};

/** Every task of the project, archived included, top first: a fresh full read. */
async function fullRead(projectId: string): Promise<Task[]> {
  const out: Task[] = [];
  for (let page = 1; ; page++) {
    const r = await h.call(
      'GET',
      `/v1/projects/${projectId}/items?archived=all&pagination[pageSize]=500&pagination[page]=${page}`,
      VIEWER,
    );
    h.expectStatus('items', r, 200);
    out.push(...r.data);
    if (page >= r.meta.pagination.totalPages) return out;
  }
}

describe('change following: access and since', () => {
  it('WS-156 any reader, a viewer included, may follow changes', async () => {
    const p = await h.team();
    expect((await h.call('GET', `/v1/projects/${p.id}/changes`, VIEWER)).status).toBe(200);
  });

  it('WS-157 without sign-in it is 401', async () => {
    const p = await h.team();
    expect((await h.call('GET', `/v1/projects/${p.id}/changes`, null)).status).toBe(401);
  });

  it('WS-158 a project the caller cannot read is 404', async () => {
    const p = await h.team();
    expect((await h.call('GET', `/v1/projects/${p.id}/changes`, OUTSIDER)).status).toBe(404);
  });

  it('WS-159 since that is not a whole number is 422', async () => {
    const p = await h.team();
    for (const since of ['abc', '1.5', '-1', '1e3', '', '%20']) {
      const r = await h.call('GET', `/v1/projects/${p.id}/changes?since=${since}`, VIEWER);
      expect(r.status, since).toBe(422);
    }
  });

  it('WS-160 since too large for a 64-bit counter is 422; the largest 64-bit value is accepted', async () => {
    const p = await h.team();
    for (const since of ['9223372036854775808', '18446744073709551616', '99999999999999999999999']) {
      const r = await h.call('GET', `/v1/projects/${p.id}/changes?since=${since}`, VIEWER);
      expect(r.status, since).toBe(422);
      expect(r.errors[0].code === 'invalid_since' || r.errors[0].code === 'validation_failed').toBe(true);
    }
    expect((await changes(p.id, '9223372036854775807')).reset).toBe(true);
  });
});

describe('change following: what it answers', () => {
  it('WS-161 WS-162 seq is the number taken by the last write; without since items is empty', async () => {
    const p = await h.team();
    const before = await changes(p.id);
    await h.task(p.id);
    const after = await changes(p.id);
    expect(after.seq).toBe(before.seq + 1);
    expect(after.seq).toBe(await h.seq(p.id));
    expect(after.items).toEqual([]);
    expect(after.reset).toBe(false);
  });

  it('WS-163 WS-166 each task changed after since appears once, ordered by change number (its latest change)', async () => {
    const p = await h.team();
    const a = await h.task(p.id);
    const b = await h.task(p.id);
    const c = await h.task(p.id);
    const { seq } = await changes(p.id);
    const a2: Task = await w.edit(p.id, a, 'A once');
    await w.edit(p.id, b, 'B once');
    await w.edit(p.id, a2, 'A twice');
    const r = await changes(p.id, seq);
    expect(r.items.map((t) => t.id)).toEqual([b.id, a.id]);
    expect(r.items.find((t) => t.id === c.id)).toBeUndefined();
    expect(r.items[1].title).toBe('A twice');
    expect(r.seq).toBe(seq + 3);
  });

  it('WS-164 WS-165 an archived task appears, in the shape of GET items', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const { seq } = await changes(p.id);
    await w.archive(p.id, t);
    const r = await changes(p.id, seq);
    expect(r.items).toHaveLength(1);
    const listed = (await h.call('GET', `/v1/projects/${p.id}/items?archived=true`, VIEWER)).data as Task[];
    expect(r.items[0]).toEqual(listed.find((x) => x.id === t.id));
    expect(r.items[0].archived).toBe(true);
  });

  it('WS-167 WS-168 WS-171 500 changed tasks are listed; 501 mean reset with no items', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const { seq } = await changes(p.id);
    // 500 tasks changed after seq, each taking its own number, as 500 writes would leave them.
    await sql`INSERT INTO tasks (id, project_id, type, title, status_id, category, status_changed_at, rank, created_by,
        created_at, updated_at, change_seq)
      SELECT gen_random_uuid(), ${p.id}, 'task', 'Bulk ' || i, 'todo', 'unstarted', now(), 100000 + i * 1024, 'bulk',
        now(), now(), ${seq} + i
      FROM generate_series(1, 500) AS i`.execute(h.db);
    await sql`UPDATE projects SET change_seq = ${seq} + 500 WHERE id = ${p.id}`.execute(h.db);
    const five = await changes(p.id, seq);
    expect(five.items).toHaveLength(500);
    expect(five.reset).toBe(false);
    await w.edit(p.id, t, 'One more');
    const six = await changes(p.id, seq);
    expect(six.reset).toBe(true);
    expect(six.items).toEqual([]);
    expect(six.seq).toBe(seq + 501);
  });

  it('WS-169 structure_changed is true after a goal, check-in, view or settings write, false after task writes only', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const s0 = (await changes(p.id)).seq;
    await w.edit(p.id, t, 'Only tasks');
    expect((await changes(p.id, s0)).structure_changed).toBe(false);
    const writes: (() => Promise<unknown>)[] = [
      () => w.goal(p.id),
      async () => {
        const g = (await w.goal(p.id)) as { id: string };
        const s = (await changes(p.id)).seq;
        await w.checkin(p.id, g.id);
        return s;
      },
      () => w.view(p.id, `View ${Math.random()}`),
      () => w.settings(p.id, 3),
    ];
    for (const write of writes) {
      const s = (await changes(p.id)).seq;
      const returned = await write();
      const since = typeof returned === 'number' ? returned : s;
      const r = await changes(p.id, since);
      expect(r.structure_changed).toBe(true);
      expect(r.items).toEqual([]);
    }
  });

  it('WS-170 reset is true when task positions were renumbered after since', async () => {
    const p = await h.team();
    const lower = await h.task(p.id);
    const upper = await h.task(p.id);
    const movers: Task[] = [];
    for (let i = 0; i < 64; i++) movers.push(await h.task(p.id));
    const { seq } = await changes(p.id);
    // Each move goes between upper and the task moved before it, halving the gap until a move
    // finds no room and renumbers the project.
    let below = lower;
    let renumberedAt = -1;
    for (const [i, mover] of movers.entries()) {
      const s = (await changes(p.id)).seq;
      await w.move(p.id, mover, { after_id: upper.id, before_id: below.id });
      below = mover;
      if ((await changes(p.id, s)).reset) {
        renumberedAt = i;
        break;
      }
    }
    // Ranks are doubles: 1024 halves about 50 times before two neighbours are adjacent (issue 14, item 12).
    expect(renumberedAt).toBeGreaterThanOrEqual(40);
    const r = await changes(p.id, seq);
    expect(r.reset).toBe(true);
    expect(r.items).toEqual([]);
    const ranks = (await fullRead(p.id)).map((t) => t.rank);
    for (let i = 1; i < ranks.length; i++) expect(ranks[i] - ranks[i - 1]).toBeGreaterThan(0);
  });

  it('WS-172 reset is true when since is ahead of seq', async () => {
    const p = await h.team();
    const { seq } = await changes(p.id);
    const r = await changes(p.id, seq + 1);
    expect(r.reset).toBe(true);
    expect(r.items).toEqual([]);
  });

  it('WS-173 WS-174 every write to tasks, goals, check-ins, views or settings takes the next number', async () => {
    const p = await h.team();
    const t = await h.task(p.id);
    const steps: [string, () => Promise<unknown>][] = [
      ['task create', () => h.task(p.id)],
      ['task edit', () => w.edit(p.id, t, 'Edited')],
      ['status', () => w.status(p.id, t, 'in_progress')],
      ['move', () => w.move(p.id, t, { status_id: 'todo' })],
      ['archive', () => w.archive(p.id, t)],
      ['unarchive', () => w.unarchive(p.id, t)],
      ['goal', () => w.goal(p.id)],
      ['view', () => w.view(p.id, 'Numbered')],
      ['check-in day', () => w.settings(p.id, 4)],
    ];
    for (const [what, step] of steps) {
      const before = await h.seq(p.id);
      await step();
      expect(await h.seq(p.id), what).toBe(before + 1);
    }
  });

  it('WS-175 WS-176 a no-op view edit and a same-order reorder take no number', async () => {
    const p = await h.team();
    const v = (await w.view(p.id, 'Same')) as { id: string; version: number; name: string };
    const before = await h.seq(p.id);
    await w.viewEdit(p.id, v, 'Same');
    expect(await h.seq(p.id)).toBe(before);
    const views = (await h.call('GET', `/v1/projects/${p.id}/views`, VIEWER)).data as { id: string }[];
    const same = await h.call('PUT', `/v1/projects/${p.id}/views/order`, OWNER, {
      data: { view_ids: views.map((x) => x.id) },
    });
    expect(same.status).toBe(200);
    expect(await h.seq(p.id)).toBe(before);
  });
});

/** A small seeded generator, so a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a following client', () => {
  it('WS-177 a client following /changes from seq 0 through 1,000 mixed writes ends with exactly the task set of a fresh full read', async () => {
    const p = await h.team();
    const rand = prng(20261123);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)] as T;

    // The client: seq, then a full load, then merges.
    let seq = (await changes(p.id, undefined)).seq;
    let known = new Map((await fullRead(p.id)).map((t) => [t.id, t]));
    let resets = 0;
    const follow = async () => {
      const r = await changes(p.id, seq);
      if (r.reset) {
        resets++;
        seq = r.seq;
        known = new Map((await fullRead(p.id)).map((t) => [t.id, t]));
        return;
      }
      for (const t of r.items) known.set(t.id, t);
      seq = r.seq;
    };

    const goals: string[] = [];
    const views: { id: string; version: number }[] = [];
    const current = async (id: string) =>
      (await h.call('GET', `/v1/projects/${p.id}/items/${id}`, VIEWER)).data as Task;
    let ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await h.task(p.id)).id);

    for (let n = 0; n < 1000; n++) {
      const roll = rand();
      const id = pick(ids);
      if (roll < 0.12) {
        ids.push((await h.task(p.id, { status_id: pick(['triage', 'todo', 'in_progress']) })).id);
      } else if (roll < 0.42) {
        // Moves into the gap between two neighbours (renumbering when it runs out) or to another status.
        const list = [...(await fullRead(p.id))].filter((t) => !t.archived && t.id !== id);
        const t = await current(id);
        if (t.archived) {
          await w.unarchive(p.id, t);
        } else if (list.length >= 2 && rand() < 0.7) {
          // Half of these squeeze into the bottom gap (new tasks go to the top), which runs out of
          // room now and then and renumbers the project.
          const at = rand() < 0.5 ? list.length - 2 : Math.floor(rand() * (list.length - 1));
          await w.move(p.id, t, { after_id: list[at]?.id, before_id: list[at + 1]?.id });
        } else {
          await w.move(p.id, t, { status_id: pick(['backlog', 'todo', 'in_progress', 'in_review', 'done']) });
        }
      } else if (roll < 0.65) {
        const t = await current(id);
        if (t.archived) await w.unarchive(p.id, t);
        else await w.edit(p.id, t, `Edit ${n}`);
      } else if (roll < 0.75) {
        const t = await current(id);
        if (t.archived) await w.unarchive(p.id, t);
        else await w.archive(p.id, t);
      } else if (roll < 0.85) {
        if (goals.length < 3) goals.push(((await w.goal(p.id)) as { id: string }).id);
        else await w.checkin(p.id, pick(goals));
      } else if (roll < 0.95) {
        if (views.length < 3) views.push(await w.view(p.id, `View ${n}`));
        else {
          const v = pick(views);
          const edited = (await w.viewEdit(p.id, v, `View ${n}`)) as { id: string; version: number };
          views[views.indexOf(v)] = edited;
        }
      } else {
        const t = await current(id);
        if (!t.archived) await w.status(p.id, t, pick(['todo', 'in_progress', 'done']));
        else await w.unarchive(p.id, t);
      }
      // The client looks in now and then, not after every write.
      if (rand() < 0.2) await follow();
      ids = [...new Set(ids)];
    }
    await follow();
    const fresh = await fullRead(p.id);
    const mine = [...known.values()].sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id));
    expect(mine).toEqual(fresh);
    expect(seq).toBe(await h.seq(p.id));
    // The run exercised both paths: merges and at least one reload.
    expect(resets).toBeGreaterThan(0);
  }, 240_000);
});
