import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Turn } from '../src/schemas/conversations.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, REDACTION_KEY, tag, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const start = async (as: string = EDITOR, projectId?: string): Promise<Conversation> => {
  const url = projectId ? `/v1/projects/${projectId}/conversations` : '/v1/conversations';
  const r = await h.call('POST', url, as, { data: { title: `Chat ${tag()}` } });
  h.expectStatus('start conversation', r, 201);
  return r.data as Conversation;
};
const turnsUrl = (id: string) => `/v1/conversations/${id}/turns`;
const append = (id: string, data: Record<string, unknown>, as: string = EDITOR, key?: string) =>
  h.call('POST', turnsUrl(id), as, { data }, key);
const say = async (id: string, text: string, as: string = EDITOR): Promise<Turn> => {
  const r = await append(id, { text }, as);
  h.expectStatus('turn', r, 201);
  return r.data as Turn;
};
const read = async (id: string, as: string = EDITOR): Promise<Conversation> =>
  (await h.call('GET', `/v1/conversations/${id}`, as)).data;
const allTurns = async (id: string, as: string = EDITOR): Promise<Turn[]> =>
  (await h.call('GET', `${turnsUrl(id)}?limit=500`, as)).data;

describe('appending turns', () => {
  it('16 WS-358 turns are append-only: each POST adds a turn after the last one', async () => {
    const c = await start();
    const a = await say(c.id, 'First');
    const b = await say(c.id, 'Second');
    const lookup = await append(c.id, { text: 'looked up the lease', turn_kind: 'lookup' });
    expect([a.seq, b.seq, lookup.data.seq]).toEqual([1, 2, 3]);
    expect((await allTurns(c.id)).map((t) => [t.seq, t.text])).toEqual([
      [1, 'First'],
      [2, 'Second'],
      [3, 'looked up the lease'],
    ]);
    expect((await read(c.id)).last_seq).toBe(3);
  });

  it('16 WS-358 no route rewrites or deletes a turn, and the database refuses it too', async () => {
    const c = await start();
    await say(c.id, 'Kept as said');
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      const r = await h.call(method, `${turnsUrl(c.id)}/1`, EDITOR, { data: { text: 'rewritten' } });
      expect(r.status).toBe(404);
    }
    const r = await h.call('DELETE', turnsUrl(c.id), EDITOR);
    expect(r.status).toBe(404);
    await expect(
      sql`UPDATE conversation_turns SET text = 'rewritten' WHERE conversation_id = ${c.id}`.execute(h.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM conversation_turns WHERE conversation_id = ${c.id}`.execute(h.db)).rejects.toThrow(
      /append-only/,
    );
    expect((await allTurns(c.id)).map((t) => t.text)).toEqual(['Kept as said']);
  });

  it('16 WS-360 a turn carries seq, turn_kind and extra (and author, text, who wrote it)', async () => {
    const c = await start();
    const r = await append(c.id, {
      text: 'Hello',
      author: 'agent:gpt-4.1-mini',
      extra: { model: 'gpt-4.1-mini', provider: 'openai' },
    });
    expect(r.status).toBe(201);
    expect(r.data).toEqual({
      conversation_id: c.id,
      seq: 1,
      turn_kind: 'utterance',
      author: 'agent:gpt-4.1-mini',
      text: 'Hello',
      redacted: false,
      extra: { model: 'gpt-4.1-mini', provider: 'openai' },
      written_by: fid(EDITOR),
      created_at: h.now().toISOString(),
    });
    const plain = await say(c.id, 'No extra');
    expect(plain).toMatchObject({ seq: 2, turn_kind: 'utterance', extra: {}, author: fid(EDITOR) });
    for (const t of await allTurns(c.id)) {
      expect(Object.keys(t)).toEqual(expect.arrayContaining(['seq', 'turn_kind', 'extra']));
    }
    const [event] = (await h.events('conversation.turn_appended')).filter(
      (e) => e.payload.data.conversationId === c.id,
    );
    expect(event?.payload.data).toEqual({
      conversationId: c.id,
      projectId: null,
      seq: 1,
      turnKind: 'utterance',
      actor: fid(EDITOR),
    });
    expect(JSON.stringify(event?.payload)).not.toContain('Hello');
  });

  it('16 WS-361 turn_kind is utterance, lookup, output or system; anything else is 422 and nothing written', async () => {
    const c = await start();
    for (const kind of ['utterance', 'lookup', 'output', 'system']) {
      expect((await append(c.id, { text: kind, turn_kind: kind })).data.turn_kind).toBe(kind);
    }
    const before = await h.state();
    for (const bad of ['speech', 'tool', '', 'UTTERANCE']) {
      const r = await append(c.id, { text: 'x', turn_kind: bad });
      expect(r.status).toBe(422);
      expect(r.errors[0]?.code).toBe('validation_failed');
    }
    const big = await append(c.id, { text: 'x', extra: { blob: 'y'.repeat(40_000) } });
    expect(big.status).toBe(422);
    expect(big.errors[0]?.code).toBe('extra_too_large');
    const notObject = await append(c.id, { text: 'x', extra: ['a'] });
    expect(notObject.status).toBe(422);
    expect(await h.state()).toEqual(before);
    expect((await allTurns(c.id)).map((t) => t.turn_kind)).toEqual(['utterance', 'lookup', 'output', 'system']);
  });

  it('16 WS-362 turn_count and utterance_count count utterances only', async () => {
    const c = await start();
    await say(c.id, 'One');
    expect(await read(c.id)).toMatchObject({ turn_count: 1, utterance_count: 1 });
    for (const kind of ['lookup', 'output', 'system']) {
      h.expectStatus(kind, await append(c.id, { text: kind, turn_kind: kind }), 201);
      expect(await read(c.id)).toMatchObject({ turn_count: 1, utterance_count: 1 });
    }
    await say(c.id, 'Two');
    expect(await read(c.id)).toMatchObject({ turn_count: 2, utterance_count: 2, last_seq: 5 });
  });

  it('16 WS-357 appending a turn to an archived conversation is refused: 409, no turn written', async () => {
    const c = await start();
    await say(c.id, 'Before archiving');
    h.expectStatus(
      'archive',
      await h.call('PATCH', `/v1/conversations/${c.id}`, EDITOR, { data: { status: 'archived' } }),
      200,
    );
    const before = await h.state();
    const r = await append(c.id, { text: 'After archiving' });
    expect(r.status).toBe(409);
    expect(r.errors[0]?.code).toBe('conversation_archived');
    expect(await h.state()).toEqual(before);
    expect((await allTurns(c.id)).map((t) => t.text)).toEqual(['Before archiving']);
    // Set active again, it takes turns.
    await h.call('PATCH', `/v1/conversations/${c.id}`, EDITOR, { data: { status: 'active' } });
    expect((await append(c.id, { text: 'Back' })).status).toBe(201);
  });

  it('16 WS-358 who may append: the starter of an unfiled one; editors of a filed one; an archived project refuses', async () => {
    const mine = await start(EDITOR);
    const p = await h.team();
    const filed = await start(EDITOR, p.id);
    const before = await h.state();
    expect((await append(mine.id, { text: 'x' }, OWNER)).status).toBe(404);
    expect((await append(filed.id, { text: 'x' }, VIEWER)).status).toBe(403);
    const hidden = await append(filed.id, { text: 'x' }, OUTSIDER);
    expect(hidden.status).toBe(404);
    expect(hidden.errors[0]?.code).toBe('conversation_not_found');
    expect(await h.state()).toEqual(before);
    expect((await append(filed.id, { text: 'x' }, OWNER)).status).toBe(201);
    const archive = await h.call('POST', `/v1/projects/${p.id}/status`, OWNER, { data: { action: 'archive' } });
    h.expectStatus('archive project', archive, 200);
    const r = await append(filed.id, { text: 'y' }, EDITOR);
    expect(r.status).toBe(409);
    expect(r.errors[0]?.code).toBe('project_archived');
  });

  it('16 WS-358 a retried append with the same Idempotency-Key writes one turn', async () => {
    const c = await start();
    const key = randomUUID();
    const first = await append(c.id, { text: 'Only once' }, EDITOR, key);
    const again = await append(c.id, { text: 'Only once' }, EDITOR, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
    expect((await allTurns(c.id)).map((t) => t.text)).toEqual(['Only once']);
    expect(await read(c.id)).toMatchObject({ turn_count: 1, last_seq: 1 });
    // Concurrent retries with one key: still one turn.
    const key2 = randomUUID();
    const both = await Promise.all([1, 2, 3].map(() => append(c.id, { text: 'Raced' }, EDITOR, key2)));
    expect(both.map((r) => r.status)).toEqual([201, 201, 201]);
    expect((await allTurns(c.id)).map((t) => t.text)).toEqual(['Only once', 'Raced']);
    // The same key with another body is 409 and writes nothing.
    const reused = await append(c.id, { text: 'Something else' }, EDITOR, key);
    expect(reused.status).toBe(409);
    expect(reused.errors[0]?.code).toBe('idempotency_key_reused');
  });

  it('16 WS-358 concurrent appends get distinct consecutive seqs', async () => {
    const c = await start();
    const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => append(c.id, { text: `t${i}` })));
    expect(rs.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(rs.map((r) => r.data.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await read(c.id)).turn_count).toBe(8);
  });
});

describe('reading turns', () => {
  it('16 WS-359 turns are cursor paged: GET .../turns returns a cursor to the next page', async () => {
    const c = await start();
    for (let i = 1; i <= 5; i++) await say(c.id, `t${i}`);
    const first = await h.call('GET', `${turnsUrl(c.id)}?limit=2`, EDITOR);
    expect(first.status).toBe(200);
    expect(first.data.map((t: Turn) => t.seq)).toEqual([1, 2]);
    expect(first.meta.pagination).toMatchObject({ mode: 'cursor', limit: 2 });
    const cursor = first.meta.pagination.nextCursor as string;
    expect(typeof cursor).toBe('string');
    const second = await h.call('GET', `${turnsUrl(c.id)}?limit=2&after=${cursor}`, EDITOR);
    expect(second.data.map((t: Turn) => t.seq)).toEqual([3, 4]);
    const third = await h.call('GET', `${turnsUrl(c.id)}?limit=2&after=${second.meta.pagination.nextCursor}`, EDITOR);
    expect(third.data.map((t: Turn) => t.seq)).toEqual([5]);
    expect(third.meta.pagination.nextCursor).toBeNull();
    // A turn appended later shows up after the last cursor: pages end where new turns arrive.
    await say(c.id, 't6');
    const more = await h.call('GET', `${turnsUrl(c.id)}?limit=2&after=${second.meta.pagination.nextCursor}`, EDITOR);
    expect(more.data.map((t: Turn) => t.seq)).toEqual([5, 6]);
    for (const bad of ['not-a-cursor', Buffer.from('["x"]').toString('base64url')]) {
      const r = await h.call('GET', `${turnsUrl(c.id)}?after=${bad}`, EDITOR);
      expect(r.status).toBe(422);
      expect(r.errors[0]?.code).toBe('invalid_cursor');
    }
    expect((await h.call('GET', `${turnsUrl(c.id)}?limit=501`, EDITOR)).status).toBe(422);
    expect((await h.call('GET', turnsUrl(c.id), OWNER)).status).toBe(404);
  });
});

describe('redactions', () => {
  const redact = (id: string, seq: number, as: string, reason = 'Personal data') =>
    h.call('POST', `${turnsUrl(id)}/${seq}/redaction`, as, { data: { reason } });
  const approve = (requestId: string, as: string = OWNER, key: string = REDACTION_KEY) =>
    h.call('POST', `/v1/redactions/${requestId}/approve`, as, { data: { approval_key: key } });

  it('16 WS-372 POST .../turns/{seq}/redaction requests destruction; GET /v1/projects/{id}/redactions lists it', async () => {
    const p = await h.team();
    const c = await start(EDITOR, p.id);
    await say(c.id, 'My phone is 555-0100');
    const r = await redact(c.id, 1, VIEWER);
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({
      conversation_id: c.id,
      project_id: p.id,
      seq: 1,
      reason: 'Personal data',
      status: 'pending',
      requested_by: fid(VIEWER),
      approved_at: null,
    });
    // Asked again while pending: the same request.
    const again = await redact(c.id, 1, EDITOR);
    expect(again.data.id).toBe(r.data.id);
    const listed = await h.call('GET', `/v1/projects/${p.id}/redactions`, OWNER);
    expect(listed.status).toBe(200);
    expect(listed.data).toEqual([r.data]);
    expect(listed.meta.pagination.totalItems).toBe(1);
    expect((await h.call('GET', `/v1/projects/${p.id}/redactions?status=approved`, OWNER)).data).toEqual([]);
    expect((await h.call('GET', `/v1/projects/${p.id}/redactions`, EDITOR)).status).toBe(403);
    // The turn is untouched until approval.
    expect((await allTurns(c.id))[0]?.text).toBe('My phone is 555-0100');
    const missing = await redact(c.id, 9, EDITOR);
    expect(missing.status).toBe(404);
    expect(missing.errors[0]?.code).toBe('turn_not_found');
    expect((await redact(c.id, 1, OUTSIDER)).status).toBe(404);
  });

  it('16 WS-373 POST /v1/redactions/{id}/approve destroys the turn’s text', async () => {
    const p = await h.team();
    const c = await start(EDITOR, p.id);
    const key = randomUUID();
    const said = await append(c.id, { text: 'Account 12345678' }, EDITOR, key);
    await say(c.id, 'Unrelated');
    const request = (await redact(c.id, 1, EDITOR)).data;
    // Only an owner approves, and only with the key.
    const before = await h.state();
    expect((await approve(request.id, EDITOR)).status).toBe(403);
    const wrong = await approve(request.id, OWNER, 'not-the-key');
    expect(wrong.status).toBe(403);
    expect(wrong.errors[0]?.code).toBe('invalid_approval_key');
    expect(await h.state()).toEqual(before);
    const r = await approve(request.id);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ id: request.id, status: 'approved', approved_by: fid(OWNER) });
    const turns = await allTurns(c.id);
    expect(turns[0]).toMatchObject({ seq: 1, text: null, redacted: true, author: fid(EDITOR) });
    expect(turns[1]).toMatchObject({ seq: 2, text: 'Unrelated', redacted: false });
    const stored = await sql<{ text: string | null }>`
      SELECT text FROM conversation_turns WHERE conversation_id = ${c.id} AND seq = 1`.execute(h.db);
    expect(stored.rows[0]?.text).toBeNull();
    // A replay of the original append no longer brings the text back.
    const replay = await append(c.id, { text: 'Account 12345678' }, EDITOR, key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toMatchObject({ seq: said.data.seq, text: null, redacted: true });
    const dump = await sql<{ response: unknown }>`SELECT response FROM idempotency_keys`.execute(h.db);
    expect(JSON.stringify(dump.rows)).not.toContain('Account 12345678');
    const [event] = (await h.events('conversation.turn_redacted')).filter(
      (e) => e.payload.data.conversationId === c.id,
    );
    expect(event?.payload.data).toMatchObject({ redactionId: request.id, seq: 1 });
    // Approved once; again is 409; a new request on the redacted turn is 409.
    expect((await approve(request.id)).errors[0]?.code).toBe('redaction_decided');
    expect((await redact(c.id, 1, EDITOR)).errors[0]?.code).toBe('turn_redacted');
  });

  it('16 WS-373 the starter of an unfiled conversation approves its redactions', async () => {
    const c = await start(VIEWER);
    await say(c.id, 'Secret note', VIEWER);
    const request = (await redact(c.id, 1, VIEWER)).data;
    expect('project_id' in request).toBe(false);
    expect((await approve(request.id, OWNER)).status).toBe(404);
    const r = await approve(request.id, VIEWER);
    expect(r.status).toBe(200);
    expect((await allTurns(c.id, VIEWER))[0]?.text).toBeNull();
  });
});
