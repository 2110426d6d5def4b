import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyMeeting } from '../src/schemas/my-meetings.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER, viaToken } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: '2026-11-23T15:00:00Z' });
});
afterAll(async () => h.close_());

const mine = async (as: Parameters<Harness['call']>[2], from: string, to: string) => {
  const r = await h.call('GET', `/v1/me/meetings?from=${from}&to=${to}`, as);
  h.expectStatus('me/meetings', r, 200);
  return r.data as MyMeeting[];
};

async function meeting(at: string, data: Record<string, unknown>, as = EDITOR) {
  h.setNow(at);
  const r = await h.call('POST', '/v1/meetings', as, { data: { source: 'zoom', ...data } });
  h.expectStatus('meeting', r, 201);
  return (r.data as { id: string }).id;
}

describe('GET /v1/me/meetings (issue 20: what briefs and coaching read on a person behalf)', () => {
  it('20 AGT-261 lists the meetings the caller took part in on New York days from..to, with duration, their speaker names and decisions counted', async () => {
    const p = await h.team();
    // 2026-11-23 00:30 in New York is 05:30Z; 2026-11-22 23:30 New York is 2026-11-23 04:30Z.
    const sync = await meeting('2026-11-23T15:00:00Z', {
      title: 'Weekly sync',
      project_id: p.id,
      participants: [VIEWER, 'Bo'],
      transcript: [
        { speaker: 'Speaker 1', text: 'Morning all', start_ms: 0 },
        { speaker: 'Bo', text: 'Hi', start_ms: 5_000 },
        { speaker: VIEWER, text: 'Shall we start?', start_ms: 1_800_000 },
      ],
    });
    const assign = await h.call('POST', `/v1/meetings/${sync}/speakers/assign`, EDITOR, {
      data: { label: 'Speaker 1', name: 'Vi', principal_id: fid(VIEWER) },
    });
    h.expectStatus('assign', assign, 200);
    // One decision that day after the meeting opened, one before it, one the next New York day.
    h.setNow('2026-11-23T14:00:00Z');
    h.expectStatus(
      'd0',
      await h.call('POST', `/v1/projects/${p.id}/decisions`, OWNER, { data: { title: 'Before' } }),
      201,
    );
    h.setNow('2026-11-24T04:00:00Z');
    h.expectStatus(
      'd1',
      await h.call('POST', `/v1/projects/${p.id}/decisions`, OWNER, { data: { title: 'Same NY day' } }),
      201,
    );
    h.setNow('2026-11-24T05:30:00Z');
    h.expectStatus(
      'd2',
      await h.call('POST', `/v1/projects/${p.id}/decisions`, OWNER, { data: { title: 'Next day' } }),
      201,
    );

    const late = await meeting('2026-11-23T04:30:00Z', {
      title: 'Late on the 22nd',
      project_id: p.id,
      participants: [VIEWER],
    });
    const other = await meeting('2026-11-23T16:00:00Z', {
      title: 'Not theirs',
      project_id: p.id,
      participants: ['Bo'],
    });

    const rows = await mine(viaToken(VIEWER), '2026-11-23', '2026-11-23');
    expect(rows.map((m) => m.id)).toEqual([sync]);
    expect(rows[0]).toMatchObject({
      title: 'Weekly sync',
      kind: 'meeting',
      project_id: p.id,
      started_at: '2026-11-23T15:00:00.000Z',
      ended_at: null,
      duration_ms: 1_800_000,
      participants: [VIEWER, 'Bo'],
      person_speakers: [VIEWER, 'Vi'].sort(),
      line_count: 3,
      decisions_count: 1,
    });
    expect(rows.map((m) => m.id)).not.toContain(other);
    // The evening of the 22nd in New York is the 23rd in UTC: it belongs to the 22nd.
    expect((await mine(viaToken(VIEWER), '2026-11-22', '2026-11-22')).map((m) => m.id)).toEqual([late]);
    expect((await mine(VIEWER, '2026-11-22', '2026-11-23')).map((m) => m.id)).toEqual([late, sync]);
    // The author took part; an outsider reads none (not a member, not the author).
    expect((await mine(EDITOR, '2026-11-23', '2026-11-23')).map((m) => m.id)).toEqual([sync, other]);
    expect(await mine(OUTSIDER, '2026-11-20', '2026-11-25')).toEqual([]);
  });

  it('20 AGT-261 a meeting that ended counts ended_at - started_at; an unfiled one counts no decisions', async () => {
    h.setNow('2026-11-25T15:00:00Z');
    const r = await h.call('POST', '/v1/meetings', OWNER, {
      data: { source: 'recorder', external_ref: `recorder:SN1:${Date.now()}`, live: true },
    });
    h.expectStatus('live', r, 201);
    const id = (r.data as { id: string }).id;
    h.setNow('2026-11-25T15:45:00Z');
    h.expectStatus('end', await h.call('POST', `/v1/evidence/${id}/end-live`, OWNER, {}), 200);
    const rows = await mine(OWNER, '2026-11-25', '2026-11-25');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, duration_ms: 45 * 60_000, decisions_count: 0, project_id: null });
  });

  it('20 AGT-261 a range with from after to, or longer than 62 days, is 422 invalid_meeting_range', async () => {
    for (const [from, to] of [
      ['2026-11-24', '2026-11-23'],
      ['2026-01-01', '2026-03-04'],
    ]) {
      const r = await h.call('GET', `/v1/me/meetings?from=${from}&to=${to}`, OWNER);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toContain('invalid_meeting_range');
    }
    expect((await h.call('GET', '/v1/me/meetings?from=2026-11-01', OWNER)).status).toBe(422);
    expect((await h.call('GET', '/v1/me/meetings?from=2026-01-01&to=2026-03-03', OWNER)).status).toBe(200);
  });
});
