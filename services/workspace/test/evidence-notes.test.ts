import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceView, Transcript } from '../src/schemas/evidence.ts';
import { ADMIN, EDITOR, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-03-02T10:00:00Z' });
});
afterAll(async () => h.close_());

async function note(data: Record<string, unknown> = {}, as = EDITOR): Promise<EvidenceView> {
  const r = await h.call('POST', '/v1/notes', as, { data: { body: 'Call the bank about the refund', ...data } });
  h.expectStatus('note', r, 201);
  return r.data as EvidenceView;
}
const patch = (id: string, data: Record<string, unknown>, as = EDITOR) =>
  h.call('PATCH', `/v1/notes/${id}`, as, { data });

describe('notes', () => {
  it('19 WS-403 POST /v1/notes writes a note with no project', async () => {
    const n = await note({ title: '  Refund  ' });
    expect(n).toMatchObject({
      kind: 'note',
      source: 'note',
      project_id: null,
      title: 'Refund',
      body: 'Call the bank about the refund',
      transcription_status: 'none',
      archived: false,
    });
    const read = await h.call('GET', `/v1/evidence/${n.id}`, EDITOR);
    expect(read.status).toBe(200);
    expect((read.data as EvidenceView).id).toBe(n.id);
  });

  it('19 WS-403 a note may be filed on a project the caller edits; a viewer is refused and nothing is written', async () => {
    const p = await h.team();
    const filed = await note({ project_id: p.id });
    expect(filed.project_id).toBe(p.id);
    const before = await h.count('evidence');
    const r = await h.call('POST', '/v1/notes', VIEWER, { data: { body: 'x', project_id: p.id } });
    expect(r.status).toBe(403);
    const blank = await h.call('POST', '/v1/notes', EDITOR, { data: { body: '   ' } });
    expect(blank.status).toBe(422);
    expect(await h.count('evidence')).toBe(before);
  });

  it('19 WS-404 PATCH edits and archives your own note', async () => {
    const n = await note();
    const edited = await patch(n.id, { body: 'Call the bank on Monday', title: 'Bank' });
    expect(edited.status).toBe(200);
    expect(edited.data).toMatchObject({ body: 'Call the bank on Monday', title: 'Bank', archived: false });
    const archived = await patch(n.id, { archived: true });
    expect(archived.status).toBe(200);
    expect(archived.data).toMatchObject({ archived: true, body: 'Call the bank on Monday' });
    expect((archived.data as EvidenceView).archived_at).not.toBeNull();
    const restored = await patch(n.id, { archived: false });
    expect(restored.data).toMatchObject({ archived: false, archived_at: null });
  });

  it('19 WS-404 turning a note off company knowledge publishes evidence.knowledge_changed (ids only)', async () => {
    const n = await note();
    const r = await patch(n.id, { contributes_to_knowledge: false });
    expect(r.status).toBe(200);
    const ev = (await h.events('evidence.knowledge_changed')).filter((e) => e.payload.data.evidenceId === n.id);
    expect(ev).toHaveLength(1);
    expect(ev[0]?.payload.data).toEqual({
      evidenceId: n.id,
      projectId: null,
      contributesToKnowledge: false,
      actor: expect.any(String),
    });
  });

  it("19 WS-405 another person's note cannot be edited or archived; the note is unchanged", async () => {
    const p = await h.team();
    const n = await note({ project_id: p.id }, EDITOR);
    const before = await h.state();
    // A project member who can read it: 403 not_note_author; a platform admin too.
    for (const as of [OWNER, VIEWER, ADMIN]) {
      const edit = await patch(n.id, { body: 'rewritten' }, as);
      expect(edit.status).toBe(403);
      expect(edit.body).toMatchObject({ payload: { errors: [{ code: 'not_note_author' }] } });
      const archive = await patch(n.id, { archived: true }, as);
      expect(archive.status).toBe(403);
    }
    // Someone who cannot read it: 404.
    expect((await patch(n.id, { archived: true }, OUTSIDER)).status).toBe(404);
    expect(await h.state()).toEqual(before);
    const read = await h.call('GET', `/v1/evidence/${n.id}`, EDITOR);
    expect(read.data).toMatchObject({ body: 'Call the bank about the refund', archived: false });
  });

  it("19 WS-406 a note's body is its transcript", async () => {
    const body = 'First line\nSecond line\nThird line';
    const n = await note({ body });
    const r = await h.call('GET', `/v1/evidence/${n.id}/transcript`, EDITOR);
    expect(r.status).toBe(200);
    const t = r.data as Transcript;
    expect(t.markdown).toBe(body);
    expect(t.format).toBe('markdown');
    expect(t.truncated).toBeUndefined();
    const short = (await h.call('GET', `/v1/evidence/${n.id}/transcript?format=markdown&max_lines=2`, EDITOR))
      .data as Transcript;
    expect(short.markdown).toBe('First line\nSecond line');
    expect(short.truncated).toEqual({ from_line: 3, to_line: 3, count: 1 });
  });

  it('19 WS-434 who reads evidence: the author, members of its project, platform admins; others 404', async () => {
    const p = await h.team();
    const unfiled = await note({}, EDITOR);
    const filed = await note({ project_id: p.id }, EDITOR);
    expect((await h.call('GET', `/v1/evidence/${unfiled.id}`, OWNER)).status).toBe(404);
    expect((await h.call('GET', `/v1/evidence/${unfiled.id}`, ADMIN)).status).toBe(200);
    expect((await h.call('GET', `/v1/evidence/${filed.id}`, VIEWER)).status).toBe(200);
    expect((await h.call('GET', `/v1/evidence/${filed.id}`, OUTSIDER)).status).toBe(404);
    expect((await h.call('GET', `/v1/evidence/${filed.id}/transcript`, OUTSIDER)).status).toBe(404);
  });
});
