import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../src/schemas/conversations.ts';
import { ADMIN, EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, tag, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const start = async (as: string, data: Record<string, unknown> = {}): Promise<Conversation> => {
  const r = await h.call('POST', '/v1/conversations', as, { data: { title: `Chat ${tag()}`, ...data } });
  h.expectStatus('start conversation', r, 201);
  return r.data as Conversation;
};
const read = (id: string, as: string) => h.call('GET', `/v1/conversations/${id}`, as);
const patch = (id: string, as: string, data: Record<string, unknown>) =>
  h.call('PATCH', `/v1/conversations/${id}`, as, { data });
const ids = (r: { data: { id: string }[] }) => r.data.map((c) => c.id);

describe('starting and filing conversations', () => {
  it('16 WS-347 anyone signed in may start a conversation without a project: 201, no project_id', async () => {
    const someone = `someone-${tag()}@ws.test`;
    const r = await h.call('POST', '/v1/conversations', someone, {
      data: { title: 'Lease questions', contributes_to_knowledge: false },
    });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      title: 'Lease questions',
      status: 'active',
      contributes_to_knowledge: false,
      created_by: fid(someone),
      turn_count: 0,
      utterance_count: 0,
    });
    expect('project_id' in r.data).toBe(false);
    const [event] = (await h.events('conversation.started')).filter((e) => e.payload.data.conversationId === r.data.id);
    expect(event?.payload.data).toEqual({
      conversationId: r.data.id,
      projectId: null,
      contributesToKnowledge: false,
      actor: fid(someone),
    });
    // No body fields at all: a default title, feeding knowledge.
    const bare = await h.call('POST', '/v1/conversations', someone, { data: {} });
    expect(bare.status).toBe(201);
    expect(bare.data).toMatchObject({ title: 'New conversation', contributes_to_knowledge: true });
  });

  it('16 WS-348 project_id is absent until the conversation is filed, then reads the project', async () => {
    const c = await start(OWNER);
    const before = await read(c.id, OWNER);
    expect(before.status).toBe(200);
    expect(Object.keys(before.data)).not.toContain('project_id');
    const p = await h.team();
    const moved = await h.call('POST', `/v1/conversations/${c.id}/move`, OWNER, { data: { project_id: p.id } });
    expect(moved.status).toBe(200);
    expect(moved.data.project_id).toBe(p.id);
    expect((await read(c.id, OWNER)).data.project_id).toBe(p.id);
  });

  it('16 WS-349 filing onto a project on create needs editor there: 403 for a viewer, nothing written', async () => {
    const p = await h.team();
    const before = await h.state();
    for (const url of ['/v1/conversations', `/v1/projects/${p.id}/conversations`]) {
      const data = url === '/v1/conversations' ? { title: 'Filed', project_id: p.id } : { title: 'Filed' };
      const r = await h.call('POST', url, VIEWER, { data });
      expect(r.status).toBe(403);
      expect(r.errors[0]?.code).toBe('forbidden');
    }
    // Someone who cannot see the project: 404, nothing written either.
    const hidden = await h.call('POST', '/v1/conversations', OUTSIDER, { data: { project_id: p.id } });
    expect(hidden.status).toBe(404);
    expect(hidden.errors[0]?.code).toBe('project_not_found');
    expect(await h.state()).toEqual(before);
    // An editor files it.
    const ok = await h.call('POST', '/v1/conversations', EDITOR, { data: { title: 'Filed', project_id: p.id } });
    expect(ok.status).toBe(201);
    expect(ok.data.project_id).toBe(p.id);
  });

  it('16 WS-351 GET and POST /v1/projects/{id}/conversations list and start the project conversations', async () => {
    const p = await h.team();
    const created = await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: { name: 'Kickoff' } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ project_id: p.id, title: 'Kickoff', created_by: fid(EDITOR) });
    await start(EDITOR); // unfiled: not the project's
    const listed = await h.call('GET', `/v1/projects/${p.id}/conversations`, VIEWER);
    expect(listed.status).toBe(200);
    expect(ids(listed)).toEqual([created.data.id]);
    expect(listed.meta.pagination).toMatchObject({ mode: 'page', page: 1, totalItems: 1 });
    expect((await h.call('GET', `/v1/projects/${p.id}/conversations`, OUTSIDER)).status).toBe(404);
  });

  it('16 WS-350 status=active hides archived conversations', async () => {
    const p = await h.team();
    const kept = (await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: {} })).data;
    const archived = (await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: {} })).data;
    expect((await patch(archived.id, EDITOR, { status: 'archived' })).status).toBe(200);
    const active = await h.call('GET', `/v1/projects/${p.id}/conversations?status=active`, VIEWER);
    expect(ids(active)).toEqual([kept.id]);
    const mine = await h.call('GET', '/v1/conversations?status=active', EDITOR);
    expect(ids(mine)).toContain(kept.id);
    expect(ids(mine)).not.toContain(archived.id);
  });
});

describe('reading and changing a conversation', () => {
  it('16 WS-352 PATCH renames a conversation: the new name reads back', async () => {
    const c = await start(OWNER, { title: 'Draft' });
    const r = await patch(c.id, OWNER, { title: '  Budget review  ' });
    expect(r.status).toBe(200);
    expect(r.data.title).toBe('Budget review');
    expect((await read(c.id, OWNER)).data.title).toBe('Budget review');
    // name is the same field under its other spelling.
    expect((await patch(c.id, OWNER, { name: 'Budget review, v2' })).data.title).toBe('Budget review, v2');
    const [event] = (await h.events('conversation.updated')).filter((e) => e.payload.data.conversationId === c.id);
    expect(event?.payload.data.changedFields).toEqual(['title']);
    // Refusals write nothing.
    const before = await h.state();
    const blank = await patch(c.id, OWNER, { title: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.errors[0]?.code).toBe('invalid_conversation_title');
    expect((await patch(c.id, OWNER, { title: 'A', name: 'B' })).status).toBe(422);
    expect(await h.state()).toEqual(before);
  });

  it('16 WS-353 PATCH sets status active or archived: status reads the value sent', async () => {
    const c = await start(OWNER);
    expect((await patch(c.id, OWNER, { status: 'archived' })).data.status).toBe('archived');
    expect((await read(c.id, OWNER)).data.status).toBe('archived');
    expect((await patch(c.id, OWNER, { status: 'active' })).data.status).toBe('active');
    expect((await read(c.id, OWNER)).data.status).toBe('active');
    const bad = await patch(c.id, OWNER, { status: 'deleted' });
    expect(bad.status).toBe(422);
    expect(bad.errors[0]?.code).toBe('validation_failed');
  });

  it('16 WS-354 PATCH sets contributes_to_knowledge: the value reads back', async () => {
    const c = await start(OWNER);
    expect(c.contributes_to_knowledge).toBe(true);
    expect((await patch(c.id, OWNER, { contributes_to_knowledge: false })).data.contributes_to_knowledge).toBe(false);
    expect((await read(c.id, OWNER)).data.contributes_to_knowledge).toBe(false);
    // The same value again is no change: no event.
    const before = (await h.events('conversation.updated')).length;
    expect((await patch(c.id, OWNER, { contributes_to_knowledge: false })).status).toBe(200);
    expect((await h.events('conversation.updated')).length).toBe(before);
  });

  it('16 WS-355 an archived conversation stays readable by id', async () => {
    const p = await h.team();
    const c = (await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: {} })).data;
    await patch(c.id, EDITOR, { status: 'archived' });
    for (const who of [EDITOR, VIEWER, OWNER]) {
      const r = await read(c.id, who);
      expect(r.status).toBe(200);
      expect(r.data.status).toBe('archived');
    }
  });

  it('16 WS-356 an archived conversation stays in the review console (the lists without status=active)', async () => {
    const p = await h.team();
    const c = (await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: {} })).data;
    await patch(c.id, EDITOR, { status: 'archived' });
    const all = await h.call('GET', `/v1/projects/${p.id}/conversations`, OWNER);
    expect(all.data).toEqual([expect.objectContaining({ id: c.id, status: 'archived' })]);
    const archived = await h.call('GET', `/v1/projects/${p.id}/conversations?status=archived`, OWNER);
    expect(ids(archived)).toEqual([c.id]);
    expect(ids(await h.call('GET', '/v1/conversations?status=archived', EDITOR))).toContain(c.id);
  });

  it('16 WS-348 an unfiled conversation is its starter’s alone: anyone else gets 404', async () => {
    const c = await start(EDITOR);
    for (const who of [OWNER, ADMIN, OUTSIDER]) {
      const r = await read(c.id, who);
      expect(r.status).toBe(404);
      expect(r.errors[0]?.code).toBe('conversation_not_found');
    }
    expect((await patch(c.id, OWNER, { title: 'Mine now' })).status).toBe(404);
    expect(ids(await h.call('GET', '/v1/conversations?filed=false', OWNER))).not.toContain(c.id);
    expect(ids(await h.call('GET', '/v1/conversations?filed=false', EDITOR))).toContain(c.id);
  });

  it('16 WS-351 a filed conversation: viewers read it, only editors change it; an admin reads without membership', async () => {
    const p = await h.team();
    const c = (await h.call('POST', `/v1/projects/${p.id}/conversations`, EDITOR, { data: {} })).data;
    expect((await read(c.id, ADMIN)).status).toBe(200);
    expect(ids(await h.call('GET', '/v1/conversations', ADMIN))).toContain(c.id);
    const before = await h.state();
    const r = await patch(c.id, VIEWER, { title: 'Viewer edit' });
    expect(r.status).toBe(403);
    expect((await patch(c.id, ADMIN, { title: 'Admin edit' })).status).toBe(403);
    expect(await h.state()).toEqual(before);
  });
});

describe('moving a conversation', () => {
  it('16 WS-363 POST .../move reparents the conversation with its files: both read the new project', async () => {
    const c = await start(EDITOR);
    const doc = crypto.randomUUID();
    const saved = await h.call('POST', `/v1/conversations/${c.id}/turns`, EDITOR, {
      data: { text: 'Saved plan.pdf', turn_kind: 'output', extra: { document_id: doc, filename: 'plan.pdf' } },
    });
    h.expectStatus('output turn', saved, 201);
    const first = await h.team();
    const second = await h.team();
    const filed = await h.call('POST', `/v1/conversations/${c.id}/move`, EDITOR, { data: { project_id: first.id } });
    expect(filed.data.project_id).toBe(first.id);
    const moved = await h.call('POST', `/v1/conversations/${c.id}/move`, EDITOR, { data: { project_id: second.id } });
    expect(moved.status).toBe(200);
    expect(moved.data.project_id).toBe(second.id);
    const files = await h.call('GET', `/v1/conversations/${c.id}/files`, EDITOR);
    expect(files.data).toEqual([expect.objectContaining({ document_id: doc, project_id: second.id })]);
    expect(ids(await h.call('GET', `/v1/projects/${second.id}/conversations`, VIEWER))).toEqual([c.id]);
    expect(ids(await h.call('GET', `/v1/projects/${first.id}/conversations`, VIEWER))).toEqual([]);
    const events = (await h.events('conversation.moved')).filter((e) => e.payload.data.conversationId === c.id);
    expect(events.map((e) => [e.payload.data.fromProjectId, e.payload.data.projectId, e.payload.data.files])).toEqual([
      [null, first.id, 1],
      [first.id, second.id, 1],
    ]);
  });

  it('16 WS-363 a move needs editor on the target: 403 for a viewer there, nothing written', async () => {
    const c = await start(VIEWER);
    const p = await h.team();
    const before = await h.state();
    const r = await h.call('POST', `/v1/conversations/${c.id}/move`, VIEWER, { data: { project_id: p.id } });
    expect(r.status).toBe(403);
    const hidden = await h.call('POST', `/v1/conversations/${c.id}/move`, OUTSIDER, { data: { project_id: p.id } });
    expect(hidden.status).toBe(404);
    expect(await h.state()).toEqual(before);
    expect('project_id' in (await read(c.id, VIEWER)).data).toBe(false);
  });
});

describe('files', () => {
  it('16 WS-371 GET .../files lists the documents attached, including one saved before filing', async () => {
    const c = await start(EDITOR);
    const before = crypto.randomUUID();
    await h.call('POST', `/v1/conversations/${c.id}/turns`, EDITOR, {
      data: {
        text: 'Saved draft',
        turn_kind: 'output',
        extra: { document_id: before, filename: 'draft.docx', content_type: 'application/msword', size_bytes: 1200 },
      },
    });
    const unfiled = await h.call('GET', `/v1/conversations/${c.id}/files`, EDITOR);
    expect(unfiled.status).toBe(200);
    expect(unfiled.data).toEqual([
      expect.objectContaining({ document_id: before, filename: 'draft.docx', size_bytes: 1200, turn_seq: 1 }),
    ]);
    expect('project_id' in unfiled.data[0]).toBe(false);
    const p = await h.team();
    await h.call('POST', `/v1/conversations/${c.id}/move`, EDITOR, { data: { project_id: p.id } });
    const after = crypto.randomUUID();
    await h.call('POST', `/v1/conversations/${c.id}/turns`, EDITOR, {
      data: { text: 'Saved final', turn_kind: 'output', extra: { document_id: after, filename: 'final.pdf' } },
    });
    // An output turn naming no document attaches nothing; an utterance never does.
    await h.call('POST', `/v1/conversations/${c.id}/turns`, EDITOR, { data: { text: 'x', turn_kind: 'output' } });
    await h.call('POST', `/v1/conversations/${c.id}/turns`, EDITOR, {
      data: { text: 'y', extra: { document_id: crypto.randomUUID() } },
    });
    const filed = await h.call('GET', `/v1/conversations/${c.id}/files`, VIEWER);
    expect(filed.data.map((f: { document_id: string }) => f.document_id)).toEqual([before, after]);
    expect(filed.data.every((f: { project_id: string }) => f.project_id === p.id)).toBe(true);
    expect(filed.meta.pagination.totalItems).toBe(2);
    expect((await h.call('GET', `/v1/conversations/${c.id}/files`, OUTSIDER)).status).toBe(404);
  });
});

describe('usage', () => {
  it('16 WS-369 GET /v1/conversations/usage counts conversations created or with a turn in the window, from the tables', async () => {
    // Far from the other tests' clock, so only these rows fall in the windows.
    const mk = async (at: string) => {
      h.setNow(at);
      const r = await h.call('POST', '/v1/conversations', OWNER, { data: {} });
      h.expectStatus('conversation', r, 201);
      return r.data.id as string;
    };
    const turn = async (id: string, at: string, turn_kind = 'utterance') => {
      h.setNow(at);
      const r = await h.call('POST', `/v1/conversations/${id}/turns`, OWNER, { data: { text: 't', turn_kind } });
      h.expectStatus('turn', r, 201);
    };
    try {
      const old = await mk('2030-02-01T10:00:00Z'); // created before the window; a turn inside it
      await turn(old, '2030-03-02T10:00:00Z');
      const inside = await mk('2030-03-03T10:00:00Z'); // created inside, turns inside
      await turn(inside, '2030-03-03T11:00:00Z');
      await turn(inside, '2030-03-03T12:00:00Z', 'system');
      await mk('2030-03-04T10:00:00Z'); // created inside, no turn
      const later = await mk('2030-03-20T10:00:00Z'); // after the window
      await turn(later, '2030-03-20T11:00:00Z');
      const r = await h.call('GET', '/v1/conversations/usage?from=2030-03-01T00:00:00Z&to=2030-03-10T00:00:00Z', ADMIN);
      expect(r.status).toBe(200);
      expect(r.data).toEqual({
        from: '2030-03-01T00:00:00.000Z',
        to: '2030-03-10T00:00:00.000Z',
        conversations: 3,
        created: 2,
        with_turns: 2,
        turns: 3,
        utterances: 2,
      });
      const bad = await h.call(
        'GET',
        '/v1/conversations/usage?from=2030-03-10T00:00:00Z&to=2030-03-01T00:00:00Z',
        ADMIN,
      );
      expect(bad.status).toBe(422);
      expect(bad.errors[0]?.code).toBe('invalid_window');
      // Default window: the 30 days up to now (the first conversation was created before it, its turn inside).
      h.setNow('2030-03-21T00:00:00Z');
      expect((await h.call('GET', '/v1/conversations/usage', ADMIN)).data).toMatchObject({
        from: '2030-02-19T00:00:00.000Z',
        conversations: 4,
        created: 3,
        with_turns: 3,
      });
    } finally {
      h.setNow('2025-06-16T15:00:00Z');
    }
  });

  it('16 WS-370 GET /v1/conversations/usage is for platform admins only: 403 for anyone else', async () => {
    for (const who of [OWNER, EDITOR, OUTSIDER]) {
      const r = await h.call('GET', '/v1/conversations/usage', who);
      expect(r.status).toBe(403);
      expect(r.errors[0]?.code).toBe('forbidden');
    }
    expect((await h.call('GET', '/v1/conversations/usage', null)).status).toBe(401);
    expect((await h.call('GET', '/v1/conversations/usage', ADMIN)).status).toBe(200);
  });
});
