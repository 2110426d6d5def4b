import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceView } from '../src/schemas/evidence.ts';
import { ADMIN, EDITOR, type Harness, harness, OUTSIDER, OWNER, tag, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-03-02T10:00:00Z' });
});
afterAll(async () => h.close_());

/** A fresh lowercase uuidv7 (version 7, variant 10xx). */
const uuidv7 = () => {
  const r = randomUUID().split('-');
  return `${r[0]}-${r[1]}-7${r[2]?.slice(1)}-a${r[3]?.slice(1)}-${r[4]}`;
};
const recorderRef = (serial = `SN${tag()}`) => ({ ref: `recorder:${serial}:${tag()}`, serial });
const phoneRef = () => `phone:install-${tag()}:${uuidv7()}`;

const open = (data: Record<string, unknown>, as = EDITOR) => h.call('POST', '/v1/meetings', as, { data });
async function opened(data: Record<string, unknown>, as = EDITOR): Promise<EvidenceView> {
  const r = await open(data, as);
  h.expectStatus('meeting', r, 201);
  return r.data as EvidenceView;
}
const read = (id: string, as = EDITOR) => h.call('GET', `/v1/evidence/${id}`, as);

describe('meetings', () => {
  it('19 WS-407 WS-434 POST /v1/meetings opens a meeting, thread, recorder recording or phone recording; GET /v1/evidence reads each', async () => {
    const meeting = await opened({ source: 'zoom', title: 'Weekly sync', external_ref: `zoom:${tag()}` });
    expect(meeting).toMatchObject({
      kind: 'meeting',
      source: 'zoom',
      title: 'Weekly sync',
      transcription_status: 'none',
    });
    const thread = await opened({ source: 'slack', title: 'Refund thread' });
    expect(thread).toMatchObject({ kind: 'thread', source: 'slack' });
    const manual = await opened({ source: 'manual', kind: 'thread' });
    expect(manual.kind).toBe('thread');
    const rec = recorderRef();
    const recorder = await opened({ source: 'recorder', external_ref: rec.ref, device_serial: rec.serial });
    expect(recorder).toMatchObject({ kind: 'recording', source: 'recorder' });
    const phone = await opened({ source: 'phone', external_ref: phoneRef() });
    expect(phone).toMatchObject({ kind: 'recording', source: 'phone' });
    for (const m of [meeting, thread, recorder, phone]) expect((await read(m.id)).status).toBe(200);
  });

  it('19 WS-408 WS-410 the recorder source reads recorder and its external_ref recorder:<serial>:<session_id> is stored as sent', async () => {
    const rec = recorderRef('PLAUD-0042');
    const r = await opened({ source: 'recorder', external_ref: rec.ref, document_id: 'doc-1' });
    expect(r.source).toBe('recorder');
    expect(r.external_ref).toBe(rec.ref);
    // device_serial not sent: taken from the reference.
    expect(r.device_serial).toBe('PLAUD-0042');
    const again = (await read(r.id)).data as EvidenceView;
    expect(again).toMatchObject({ source: 'recorder', external_ref: rec.ref, device_serial: 'PLAUD-0042' });
  });

  it('19 WS-409 WS-411 WS-412 the phone source reads phone, its phone:<install_id>:<uuidv7> is stored as sent, and device_serial is absent', async () => {
    const ref = phoneRef();
    const p = await opened({ source: 'phone', external_ref: ref });
    expect(p.source).toBe('phone');
    expect(p.external_ref).toBe(ref);
    expect('device_serial' in p).toBe(false);
    const again = (await read(p.id)).data as EvidenceView;
    expect(again.external_ref).toBe(ref);
    expect(Object.keys(again)).not.toContain('device_serial');
  });

  it('19 WS-410 WS-411 WS-412 malformed external_refs and a phone device_serial are refused; nothing written', async () => {
    const before = await h.state();
    const bad: Record<string, unknown>[] = [
      { source: 'recorder' },
      { source: 'recorder', external_ref: 'recorder:only-serial' },
      { source: 'recorder', external_ref: 'phone:x:y' },
      { source: 'recorder', external_ref: 'recorder:SN1:s1', device_serial: 'SN2' },
      { source: 'phone', external_ref: `phone:install:${randomUUID().replace(/^(.{14})./, '$14')}` },
      { source: 'phone', external_ref: 'phone:install:not-a-uuid' },
      { source: 'phone', external_ref: phoneRef(), device_serial: 'SN1' },
      { source: 'zoom', external_ref: 'recorder:SN1:s1' },
      { source: 'zoom', device_serial: 'SN1' },
    ];
    for (const data of bad) {
      const r = await open(data);
      expect(r.status, JSON.stringify(data)).toBe(422);
    }
    expect(await h.state()).toEqual(before);
  });

  it('19 WS-413 repeating an external_ref returns the existing record; concurrent repeats make one row', async () => {
    const rec = recorderRef();
    const first = await opened({ source: 'recorder', external_ref: rec.ref });
    const again = await opened({ source: 'recorder', external_ref: rec.ref });
    expect(again.id).toBe(first.id);
    const ref = phoneRef();
    const both = await Promise.all([
      open({ source: 'phone', external_ref: ref }),
      open({ source: 'phone', external_ref: ref }),
      open({ source: 'phone', external_ref: ref }),
    ]);
    const ids = new Set(both.map((r) => (r.data as EvidenceView).id));
    expect(both.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(ids.size).toBe(1);
    const rows = await h.db.selectFrom('evidence').select('id').where('external_ref', 'in', [rec.ref, ref]).execute();
    expect(rows).toHaveLength(2);
  });

  it('19 WS-413 a repeat by someone who cannot read the record is refused and changes nothing', async () => {
    const rec = recorderRef();
    const first = await opened({ source: 'recorder', external_ref: rec.ref, document_id: 'doc-a' });
    const r = await open({ source: 'recorder', external_ref: rec.ref, document_id: 'doc-b' }, OUTSIDER);
    expect(r.status).toBe(409);
    expect(((await read(first.id)).data as EvidenceView).document_id).toBe('doc-a');
    // A project viewer reads the record through a repeat, but may not repoint it or add to it.
    const p = await h.team();
    const ref = `zoom:${tag()}`;
    const filed = await opened({ source: 'zoom', external_ref: ref, project_id: p.id });
    const same = await open({ source: 'zoom', external_ref: ref }, VIEWER);
    expect(same.status).toBe(201);
    expect((same.data as EvidenceView).id).toBe(filed.id);
    const before = await h.state();
    expect((await open({ source: 'zoom', external_ref: ref, document_id: 'doc-x' }, VIEWER)).status).toBe(403);
    expect((await open({ source: 'zoom', external_ref: ref, participants: ['Eve'] }, VIEWER)).status).toBe(403);
    expect(await h.state()).toEqual(before);
  });

  it('19 WS-414 a new document_id on a repeated external_ref repoints the record', async () => {
    const ref = phoneRef();
    const first = await opened({ source: 'phone', external_ref: ref, live: true });
    expect(first.document_id).toBeNull();
    const repointed = await opened({ source: 'phone', external_ref: ref, document_id: 'doc-2' });
    expect(repointed.id).toBe(first.id);
    expect(repointed.document_id).toBe('doc-2');
    const again = await opened({ source: 'phone', external_ref: ref, document_id: 'doc-3' });
    expect(again.document_id).toBe('doc-3');
    expect(((await read(first.id)).data as EvidenceView).document_id).toBe('doc-3');
  });

  it('19 WS-415 WS-418 live: true opens a recording whose transcription_status reads live', async () => {
    const rec = recorderRef();
    const r = await opened({ source: 'recorder', external_ref: rec.ref, live: true });
    expect(r.live).toBe(true);
    expect(r.transcription_status).toBe('live');
    expect(((await read(r.id)).data as EvidenceView).transcription_status).toBe('live');
  });

  it('19 WS-416 live_slices on the closing call is stored as sent', async () => {
    const ref = phoneRef();
    const live = await opened({ source: 'phone', external_ref: ref, live: true });
    expect(live.live_slices).toBeNull();
    const closed = await opened({ source: 'phone', external_ref: ref, document_id: 'doc-final', live_slices: 37 });
    expect(closed.id).toBe(live.id);
    expect(closed.live_slices).toBe(37);
    const after = (await read(live.id)).data as EvidenceView;
    expect(after).toMatchObject({ live_slices: 37, document_id: 'doc-final' });
    expect(after.transcription_status).not.toBe('live');
  });

  it('19 WS-417 a transcript with no lines deletes the meeting (evidence.deleted; 404 afterwards)', async () => {
    const m = await opened({ source: 'teams', external_ref: `teams:${tag()}`, participants: ['Ana'] });
    const r = await open({ source: 'teams', external_ref: m.external_ref, transcript: [] });
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ id: m.id, deleted: true });
    expect((await read(m.id)).status).toBe(404);
    expect((await read(m.id, ADMIN)).status).toBe(404);
    const ev = (await h.events('evidence.deleted')).filter((e) => e.payload.data.evidenceId === m.id);
    expect(ev).toHaveLength(1);
    expect(ev[0]?.payload.data).toEqual({
      evidenceId: m.id,
      projectId: null,
      kind: 'meeting',
      source: 'teams',
      reason: 'no_lines',
      actor: expect.any(String),
    });
    // Opened with an empty transcript: answered deleted, nothing remains.
    const fresh = await open({ source: 'manual', transcript: [] });
    expect(fresh.data).toMatchObject({ deleted: true });
    expect((await read((fresh.data as EvidenceView).id)).status).toBe(404);
    // With lines, the meeting is kept and the lines are its transcript.
    const kept = await opened({ source: 'manual', transcript: [{ speaker: 'Ana', text: 'Hello' }] });
    expect(kept).toMatchObject({ transcription_status: 'transcribed', line_count: 1 });
  });

  it('19 WS-418 transcription_status reads no_speech once a live record ends with no lines', async () => {
    const r = await opened({ source: 'phone', external_ref: phoneRef(), live: true });
    expect(r.transcription_status).toBe('live');
    const ended = await h.call('POST', `/v1/evidence/${r.id}/end-live`, EDITOR, {});
    expect(ended.status).toBe(200);
    expect(((await read(r.id)).data as EvidenceView).transcription_status).toBe('no_speech');
  });

  it('19 WS-407 a meeting filed on a project needs an editor; viewers are refused and nothing is written', async () => {
    const p = await h.team();
    const m = await opened({ source: 'google_meet', project_id: p.id, title: 'Kickoff' });
    expect(m.project_id).toBe(p.id);
    expect((await read(m.id, VIEWER)).status).toBe(200);
    expect((await read(m.id, OWNER)).status).toBe(200);
    const before = await h.count('evidence');
    expect((await open({ source: 'zoom', project_id: p.id }, VIEWER)).status).toBe(403);
    expect((await open({ source: 'webex' })).status).toBe(422);
    expect(await h.count('evidence')).toBe(before);
  });
});
