import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/routes/index.ts';
import type { AppendedLines, EvidenceView, Participants, Transcript, Utterance } from '../src/schemas/evidence.ts';
import { EDITOR, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-03-02T10:00:00Z' });
});
afterAll(async () => h.close_());

async function meeting(data: Record<string, unknown> = {}, as = EDITOR): Promise<EvidenceView> {
  const r = await h.call('POST', '/v1/meetings', as, { data: { source: 'zoom', ...data } });
  h.expectStatus('meeting', r, 201);
  return r.data as EvidenceView;
}
const post = (id: string, lines: Record<string, unknown>[], as = EDITOR) =>
  h.call('POST', `/v1/meetings/${id}/utterances`, as, { data: { lines } });
async function append(id: string, lines: Record<string, unknown>[], as = EDITOR): Promise<AppendedLines> {
  const r = await post(id, lines, as);
  h.expectStatus('append', r, 201);
  return r.data as AppendedLines;
}
const lines = (n: number, from = 1, speaker = 'Speaker 1') =>
  Array.from({ length: n }, (_, i) => ({ speaker, text: `line ${from + i}` }));

interface Page {
  data: Utterance[];
  meta: { pagination: { nextCursor: string | null; limit: number } };
}
const page = async (id: string, q = '', as = EDITOR): Promise<Page> => {
  const r = await h.call('GET', `/v1/meetings/${id}/utterances${q}`, as);
  h.expectStatus('page', r, 200);
  return (r.body as unknown as { payload: Page }).payload;
};
const transcript = async (id: string, q = ''): Promise<Transcript> => {
  const r = await h.call('GET', `/v1/evidence/${id}/transcript${q}`, EDITOR);
  h.expectStatus('transcript', r, 200);
  return r.data as Transcript;
};

describe('utterances', () => {
  it('19 WS-425 POST …/utterances appends lines (speaker and text) at the end', async () => {
    const m = await meeting();
    const a = await append(m.id, [
      { speaker: 'Ana', text: 'Hello', start_ms: 0 },
      { speaker: 'Ben', text: 'Hi Ana', start_ms: 1200 },
    ]);
    expect(a).toMatchObject({ first_seq: 1, last_seq: 2, line_count: 2 });
    const b = await append(m.id, [{ speaker: 'Ana', text: 'Shall we start?' }]);
    expect(b).toMatchObject({ first_seq: 3, last_seq: 3, line_count: 3 });
    const p = await page(m.id);
    expect(p.data.map((l) => [l.seq, l.speaker, l.text, l.start_ms])).toEqual([
      [1, 'Ana', 'Hello', 0],
      [2, 'Ben', 'Hi Ana', 1200],
      [3, 'Ana', 'Shall we start?', null],
    ]);
    expect(((await h.call('GET', `/v1/evidence/${m.id}`, EDITOR)).data as EvidenceView).transcription_status).toBe(
      'transcribed',
    );
  });

  it('19 WS-425 bad lines, notes, viewers and outsiders are refused; nothing written', async () => {
    const p = await h.team();
    const m = await meeting({ project_id: p.id });
    const note = (await h.call('POST', '/v1/notes', EDITOR, { data: { body: 'n' } })).data as EvidenceView;
    const before = await h.state();
    expect((await post(m.id, [{ speaker: ' ', text: 'x' }])).status).toBe(422);
    expect((await post(m.id, [{ speaker: 'a', text: '' }])).status).toBe(422);
    expect((await post(m.id, [])).status).toBe(422);
    expect((await post(m.id, lines(201))).status).toBe(422);
    expect((await post(note.id, lines(1))).status).toBe(409);
    expect((await post(m.id, lines(1), VIEWER)).status).toBe(403);
    expect((await post(m.id, lines(1), OUTSIDER)).status).toBe(404);
    expect(await h.state()).toEqual(before);
    // The project's owner writes to it.
    expect((await post(m.id, lines(1), OWNER)).status).toBe(201);
  });

  it('19 WS-426 utterances are append-only: no route edits or deletes a line, and the table refuses it', async () => {
    const routes = ROUTES.map((r) => `${r.method} ${r.url}`).filter((r) => r.includes('/utterances'));
    expect(routes.sort()).toEqual([
      'GET /v1/meetings/:evidenceId/utterances',
      'POST /v1/meetings/:evidenceId/utterances',
    ]);
    const m = await meeting();
    await append(m.id, lines(2));
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      const r = await h.call(method, `/v1/meetings/${m.id}/utterances`, EDITOR, { data: {} });
      expect(r.status).toBe(404);
    }
    await expect(
      h.db.updateTable('evidence_utterances').set({ text: 'changed' }).where('evidence_id', '=', m.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(h.db.deleteFrom('evidence_utterances').where('evidence_id', '=', m.id).execute()).rejects.toThrow(
      /append-only/,
    );
    expect((await page(m.id)).data.map((l) => l.text)).toEqual(['line 1', 'line 2']);
  });

  it('19 WS-427 GET …/utterances is cursor paged with at most 200 lines a page', async () => {
    const m = await meeting();
    await append(m.id, lines(200, 1));
    await append(m.id, lines(200, 201));
    await append(m.id, lines(50, 401));
    const first = await page(m.id, '?limit=200');
    expect(first.data).toHaveLength(200);
    expect(first.meta.pagination.nextCursor).toEqual(expect.any(String));
    const seen = [...first.data];
    let cursor = first.meta.pagination.nextCursor;
    while (cursor) {
      const next = await page(m.id, `?limit=200&after=${cursor}`);
      expect(next.data.length).toBeLessThanOrEqual(200);
      seen.push(...next.data);
      cursor = next.meta.pagination.nextCursor;
    }
    expect(seen.map((l) => l.seq)).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
    // The default page is 100; more than 200 is refused; a forged cursor is refused.
    expect((await page(m.id)).data).toHaveLength(100);
    expect((await h.call('GET', `/v1/meetings/${m.id}/utterances?limit=201`, EDITOR)).status).toBe(422);
    expect((await h.call('GET', `/v1/meetings/${m.id}/utterances?after=nope`, EDITOR)).status).toBe(422);
    // The last page has no next cursor.
    const last = await page(m.id, `?limit=200&after=${Buffer.from('[400]').toString('base64url')}`);
    expect(last.data).toHaveLength(50);
    expect(last.meta.pagination.nextCursor).toBeNull();
  });

  it('19 WS-432 POST …/participants adds late joiners to the transcript participants', async () => {
    const m = await meeting({ participants: ['Ana', 'Ben'] });
    await append(m.id, [{ speaker: 'Ana', text: 'Welcome' }]);
    const r = await h.call('POST', `/v1/meetings/${m.id}/participants`, EDITOR, { data: { names: ['Cleo', 'Ana'] } });
    expect(r.status).toBe(200);
    expect(r.data as Participants).toEqual({
      evidence_id: m.id,
      participants: ['Ana', 'Ben', 'Cleo'],
      added: ['Cleo'],
    });
    const t = await transcript(m.id);
    expect(t.participants).toEqual(['Ana', 'Ben', 'Cleo']);
    expect(t.markdown.split('\n')[0]).toBe('Participants: Ana, Ben, Cleo');
    expect((await h.call('POST', `/v1/meetings/${m.id}/participants`, VIEWER, { data: { names: ['X'] } })).status).toBe(
      404,
    );
  });

  it('19 WS-433 speakers/assign names an unlabeled speaker for this meeting only', async () => {
    const m1 = await meeting();
    const m2 = await meeting();
    for (const m of [m1, m2]) {
      await append(m.id, [
        { speaker: 'Speaker 1', text: 'We ship on Friday' },
        { speaker: 'Speaker 2', text: 'Agreed' },
      ]);
    }
    const r = await h.call('POST', `/v1/meetings/${m1.id}/speakers/assign`, EDITOR, {
      data: { label: 'Speaker 1', name: 'Dana Ortiz', principal_id: 'c0ffee00-0000-4000-8000-000000000001' },
    });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ label: 'Speaker 1', name: 'Dana Ortiz' });
    const one = await page(m1.id);
    expect(one.data.map((l) => [l.speaker, l.speaker_label])).toEqual([
      ['Dana Ortiz', 'Speaker 1'],
      ['Speaker 2', 'Speaker 2'],
    ]);
    expect((await transcript(m1.id)).markdown).toContain('Dana Ortiz: We ship on Friday');
    // The other meeting is unchanged.
    expect((await page(m2.id)).data.map((l) => l.speaker)).toEqual(['Speaker 1', 'Speaker 2']);
    expect((await transcript(m2.id)).markdown).toContain('Speaker 1: We ship on Friday');
    const ev = (await h.events('evidence.speaker_attributed')).filter((e) => e.payload.data.evidenceId === m1.id);
    expect(ev).toHaveLength(1);
    expect(JSON.stringify(ev[0]?.payload)).not.toContain('Dana');
    // A label no line has is refused, nothing written.
    const before = await h.state();
    const bad = await h.call('POST', `/v1/meetings/${m1.id}/speakers/assign`, EDITOR, {
      data: { label: 'Speaker 9', name: 'X' },
    });
    expect(bad.status).toBe(422);
    expect(await h.state()).toEqual(before);
  });
});
