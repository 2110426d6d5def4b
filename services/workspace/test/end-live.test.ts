import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceView, Transcript } from '../src/schemas/evidence.ts';
import { ADMIN, EDITOR, type Harness, harness, OWNER, tag } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-03-02T10:00:00Z' });
});
afterAll(async () => h.close_());

async function live(data: Record<string, unknown> = {}, as = EDITOR): Promise<EvidenceView> {
  const r = await h.call('POST', '/v1/meetings', as, {
    data: { source: 'recorder', external_ref: `recorder:SN${tag()}:${tag()}`, live: true, ...data },
  });
  h.expectStatus('live recording', r, 201);
  return r.data as EvidenceView;
}
const end = (id: string, as = EDITOR) => h.call('POST', `/v1/evidence/${id}/end-live`, as, {});
const read = async (id: string) => (await h.call('GET', `/v1/evidence/${id}`, EDITOR)).data as EvidenceView;
async function append(id: string, lines: { speaker: string; text: string }[]) {
  h.expectStatus('append', await h.call('POST', `/v1/meetings/${id}/utterances`, EDITOR, { data: { lines } }), 201);
}

describe('end-live', () => {
  it('19 WS-435 end-live ends a live record: transcription_status is no longer live', async () => {
    const r = await live();
    const ended = await end(r.id);
    expect(ended.status).toBe(200);
    const after = await read(r.id);
    expect(after.transcription_status).not.toBe('live');
    expect(after.ended_at).toBe('2026-03-02T10:00:00.000Z');
  });

  it('19 WS-436 a platform admin may end any live record, lines or not', async () => {
    const p = await h.team();
    const r = await live({ project_id: p.id });
    await append(r.id, [{ speaker: 'Speaker 1', text: 'Testing' }]);
    const ended = await end(r.id, ADMIN);
    expect(ended.status).toBe(200);
    expect((await read(r.id)).transcription_status).toBe('transcribed');
    const unfiled = await live();
    expect((await end(unfiled.id, ADMIN)).status).toBe(200);
  });

  it('19 WS-437 the author may end a live record only while it has no lines; others are refused', async () => {
    const p = await h.team();
    const r = await live({ project_id: p.id });
    await append(r.id, [{ speaker: 'Speaker 1', text: 'Hello' }]);
    const before = await h.state();
    const refused = await end(r.id, EDITOR);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ payload: { errors: [{ code: 'end_live_refused' }] } });
    // A project owner who is not the author is refused too.
    expect((await end(r.id, OWNER)).status).toBe(403);
    expect(await h.state()).toEqual(before);
    expect((await read(r.id)).transcription_status).toBe('live');
    // Without lines, the author ends it.
    const empty = await live({ project_id: p.id });
    expect((await end(empty.id, EDITOR)).status).toBe(200);
  });

  it('19 WS-438 on end-live the lines written become the transcript', async () => {
    const r = await live();
    await append(r.id, [
      { speaker: 'Speaker 1', text: 'The quote goes out Monday' },
      { speaker: 'Speaker 2', text: 'I will check the totals' },
    ]);
    expect((await end(r.id, ADMIN)).status).toBe(200);
    const after = await read(r.id);
    expect(after).toMatchObject({ transcription_status: 'transcribed', line_count: 2 });
    const t = (await h.call('GET', `/v1/evidence/${r.id}/transcript`, EDITOR)).data as Transcript;
    expect(t.markdown.split('\n').slice(2)).toEqual([
      'Speaker 1: The quote goes out Monday',
      'Speaker 2: I will check the totals',
    ]);
  });

  it('19 WS-439 on end-live with no lines the record is no_speech', async () => {
    const r = await live();
    const ended = await end(r.id);
    expect((ended.data as EvidenceView).transcription_status).toBe('no_speech');
    expect((await read(r.id)).transcription_status).toBe('no_speech');
  });

  it('19 WS-440 end-live on a record that is not live is 409 not_live', async () => {
    const r = await live();
    expect((await end(r.id)).status).toBe(200);
    const again = await end(r.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ payload: { errors: [{ code: 'not_live' }] } });
    const never = (await h.call('POST', '/v1/meetings', EDITOR, { data: { source: 'zoom' } })).data as EvidenceView;
    expect((await end(never.id, ADMIN)).status).toBe(409);
    const note = (await h.call('POST', '/v1/notes', EDITOR, { data: { body: 'n' } })).data as EvidenceView;
    expect((await end(note.id)).status).toBe(409);
  });
});
