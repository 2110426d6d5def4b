import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRecorder } from '../src/clients/recorder.ts';
import { type RecorderPartner, startRecorderPartner } from './fakes/recorder-partner.ts';
import { EDITOR, fid, type Harness, harness, OUTSIDER, OWNER, VIEWER } from './harness.ts';

/**
 * The recorder partner routes (WS-448…WS-459) against the fake partner at HTTP, speaking the
 * contract of docs/decisions.md through the real client; and a workspace without the recorder
 * settings (503). Uploaded recordings are evidence rows of source recorder or phone.
 */
const SECRET = 'partner-secret-do-not-leak-7f3a';
let h: Harness;
let bare: Harness;
let partner: RecorderPartner;

beforeAll(async () => {
  partner = await startRecorderPartner({ secret: SECRET, now: () => h.now() });
  h = await harness({ app: { recorder: new HttpRecorder({ baseUrl: partner.url, partnerSecret: SECRET }) } });
  bare = await harness();
});
afterAll(async () => {
  await h?.close_();
  await bare?.close_();
  await partner?.close();
});

const mint = (as: string, on: Harness = h) => on.call('POST', '/v1/recorder/user-token', as, {});
const adoption = async (query = '', as = VIEWER) => {
  const r = await h.call('GET', `/v1/recorder/adoption${query}`, as);
  h.expectStatus('adoption', r, 200);
  return r;
};
const rowOf = (r: { data: unknown }, email: string) =>
  (r.data as { person_id: string; sign_in_days: number; uploaded_recordings: number }[]).find(
    (x) => x.person_id === fid(email),
  );

/** A recording opened by `email` at `at` (evidence as the meetings route writes it: source recorder or phone). */
async function recording(email: string, at: string, source: 'recorder' | 'phone' | 'zoom' = 'recorder') {
  const id = randomUUID();
  await h.db
    .insertInto('evidence')
    .values({
      id,
      kind: source === 'zoom' ? 'meeting' : 'recording',
      source,
      external_ref: `${source === 'phone' ? 'phone:install-1' : 'recorder:SN1'}:${id}`,
      device_serial: source === 'recorder' ? 'SN1' : null,
      author: fid(email),
      title: 'Board meeting with the secret figures',
      created_at: at,
      updated_at: at,
    })
    .execute();
}

describe('recorder user tokens', () => {
  it('19 WS-448 user-token mints an hour-long recorder token for the signed-in person', async () => {
    h.setNow('2025-03-03T10:00:00Z');
    const r = await mint(EDITOR);
    h.expectStatus('mint', r, 201);
    expect(r.data).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      expires_at: '2025-03-03T11:00:00.000Z',
      person_id: fid(EDITOR),
    });
    // The partner minted it for this person, for one hour.
    const minted = partner.state.tokens.get(r.data.token);
    expect(minted?.userId).toBe(fid(EDITOR));
    expect(minted?.expiresAt.toISOString()).toBe('2025-03-03T11:00:00.000Z');
    expect(partner.state.calls.at(-1)?.body).toEqual({ expires_in: 3600 });
  });

  it('19 WS-449 the partner credential stays in the service: sent to the partner, never in the answer', async () => {
    h.setNow('2025-03-03T10:05:00Z');
    const key = randomUUID();
    const r = await h.call('POST', '/v1/recorder/user-token', OWNER, {}, key);
    h.expectStatus('mint', r, 201);
    expect(partner.state.calls.at(-1)?.authorization).toBe(`Bearer ${SECRET}`);
    expect(JSON.stringify(r.body)).not.toContain(SECRET);
    expect(JSON.stringify(r.headers)).not.toContain(SECRET);
    // A replay answers from the stored response, which never held the token either.
    const replay = await h.call('POST', '/v1/recorder/user-token', OWNER, {}, key);
    expect(replay.status).toBe(201);
    expect(replay.data.token).toBeUndefined();
    expect(JSON.stringify(replay.body)).not.toContain(SECRET);
    const stored = await h.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(JSON.stringify(stored)).not.toContain(r.data.token);
  });

  it('19 WS-450 WS-451 a mint is a sign-in on its UTC day, once per person per day', async () => {
    const who = 'signin-a@ws.test';
    h.setNow('2025-04-10T08:00:00Z');
    const first = await mint(who);
    expect(first.data).toMatchObject({ sign_in_day: '2025-04-10', first_sign_in_today: true });
    const window = '?since=2025-04-01&until=2025-05-01';
    expect(rowOf(await adoption(window), who)).toEqual({
      person_id: fid(who),
      sign_in_days: 1,
      uploaded_recordings: 0,
    });
    // A second and third mint the same UTC day add nothing.
    h.setNow('2025-04-10T23:59:59Z');
    const again = await mint(who);
    expect(again.data).toMatchObject({ sign_in_day: '2025-04-10', first_sign_in_today: false });
    await mint(who);
    expect(rowOf(await adoption(window), who)?.sign_in_days).toBe(1);
    expect(
      await h.db.selectFrom('recorder_sign_ins').where('person_id', '=', fid(who)).selectAll().execute(),
    ).toHaveLength(1);
    // The next UTC day is another sign-in day.
    h.setNow('2025-04-11T00:00:00Z');
    expect((await mint(who)).data.first_sign_in_today).toBe(true);
    expect(rowOf(await adoption(window), who)?.sign_in_days).toBe(2);
  });

  it('19 WS-450 a failed mint is no sign-in: 502 and nothing written', async () => {
    const who = 'signin-fail@ws.test';
    h.setNow('2025-04-12T09:00:00Z');
    partner.state.mode = 'fail';
    try {
      const before = await h.state();
      const r = await mint(who);
      expect([r.status, r.errors[0].code]).toEqual([502, 'recorder_unavailable']);
      expect(await h.state()).toEqual(before);
    } finally {
      partner.state.mode = 'ok';
    }
  });

  it('19 WS-452 user-token without a configured recorder service is 503, nothing written', async () => {
    const before = await bare.state();
    const r = await mint(EDITOR, bare);
    expect([r.status, r.errors[0].code]).toEqual([503, 'recorder_not_configured']);
    expect(await bare.state()).toEqual(before);
  });
});

describe('recorder devices', () => {
  it('19 WS-458 devices registers a serial to the signed-in person; it reads as theirs', async () => {
    h.setNow('2025-03-04T09:00:00Z');
    const r = await h.call('POST', '/v1/recorder/devices', EDITOR, { data: { serial: ' PLD-88812 ' } });
    h.expectStatus('device', r, 201);
    expect(r.data).toEqual({ serial: 'PLD-88812', person_id: fid(EDITOR), registered_at: '2025-03-04T09:00:00.000Z' });
    expect(partner.state.devices.get('PLD-88812')?.userId).toBe(fid(EDITOR));
    const row = await h.db
      .selectFrom('recorder_devices')
      .selectAll()
      .where('serial', '=', 'PLD-88812')
      .executeTakeFirst();
    expect(row?.person_id).toBe(fid(EDITOR));
    // Registering it again is theirs already: 200, the same registration.
    const again = await h.call('POST', '/v1/recorder/devices', EDITOR, { data: { serial: 'PLD-88812' } });
    expect([again.status, again.data.registered_at]).toEqual([200, '2025-03-04T09:00:00.000Z']);
  });

  it("19 WS-458 another person's serial is 409 device_taken; a bad serial 422; nothing written", async () => {
    await h.call('POST', '/v1/recorder/devices', OWNER, { data: { serial: 'PLD-1000' } });
    const before = await h.state();
    const taken = await h.call('POST', '/v1/recorder/devices', VIEWER, { data: { serial: 'PLD-1000' } });
    expect([taken.status, taken.errors[0].code]).toEqual([409, 'device_taken']);
    // The partner refuses one it holds for someone else too.
    partner.state.devices.set('PLD-2000', { userId: 'someone-else', boundAt: '2025-01-01T00:00:00Z' });
    const elsewhere = await h.call('POST', '/v1/recorder/devices', VIEWER, { data: { serial: 'PLD-2000' } });
    expect([elsewhere.status, elsewhere.errors[0].code]).toEqual([409, 'device_taken']);
    const bad = await h.call('POST', '/v1/recorder/devices', VIEWER, { data: { serial: 'no spaces allowed' } });
    expect([bad.status, bad.errors[0].code]).toEqual([422, 'invalid_serial']);
    expect(await h.state()).toEqual(before);
  });

  it('19 WS-459 devices without a configured recorder service is 503, nothing written', async () => {
    const before = await bare.state();
    const r = await bare.call('POST', '/v1/recorder/devices', EDITOR, { data: { serial: 'PLD-3000' } });
    expect([r.status, r.errors[0].code]).toEqual([503, 'recorder_not_configured']);
    expect(await bare.state()).toEqual(before);
  });
});

describe('recorder adoption', () => {
  const A = 'adopt-a@ws.test';
  const B = 'adopt-b@ws.test';
  const window = '?since=2025-05-01T00:00:00Z&until=2025-05-08T00:00:00Z';

  beforeAll(async () => {
    for (const [who, at] of [
      [A, '2025-05-01T00:00:00Z'],
      [A, '2025-05-03T12:00:00Z'],
      [A, '2025-05-08T00:00:00Z'],
      [B, '2025-04-30T23:59:59Z'],
    ] as const) {
      h.setNow(at);
      h.expectStatus('mint', await mint(who), 201);
    }
    await recording(A, '2025-05-02T10:00:00Z', 'recorder');
    await recording(A, '2025-05-07T23:59:59Z', 'phone');
    await recording(A, '2025-05-04T10:00:00Z', 'zoom');
    await recording(B, '2025-05-01T00:00:00Z', 'phone');
    await recording(B, '2025-05-08T00:00:00Z', 'recorder');
  });

  it('19 WS-453 adoption reports per person sign-in days and uploaded recordings', async () => {
    const r = await adoption(window);
    expect(rowOf(r, A)).toEqual({ person_id: fid(A), sign_in_days: 2, uploaded_recordings: 2 });
    expect(rowOf(r, B)).toEqual({ person_id: fid(B), sign_in_days: 0, uploaded_recordings: 1 });
    expect(r.meta.pagination).toMatchObject({ mode: 'page', page: 1 });
  });

  it('19 WS-454 the window is half-open: since is included, until is excluded', async () => {
    // A's sign-in at exactly since counts, the one at exactly until does not; B's recording at since
    // counts, the one at until does not, and B's sign-in a second before since does not.
    const r = await adoption(window);
    expect(rowOf(r, A)?.sign_in_days).toBe(2);
    expect(rowOf(r, B)).toMatchObject({ sign_in_days: 0, uploaded_recordings: 1 });
    // Moving until one millisecond later takes the rows at the old until in.
    const wider = await adoption('?since=2025-05-01T00:00:00Z&until=2025-05-08T00:00:00.001Z');
    expect(rowOf(wider, A)?.sign_in_days).toBe(3);
    expect(rowOf(wider, B)?.uploaded_recordings).toBe(2);
    const bad = await h.call('GET', `/v1/recorder/adoption?since=2025-05-08&until=2025-05-01`, VIEWER);
    expect([bad.status, bad.errors[0].code]).toEqual([422, 'invalid_adoption_window']);
  });

  it('19 WS-455 without since/until the window is the last thirty days', async () => {
    const who = 'adopt-default@ws.test';
    h.setNow('2025-07-01T00:00:00Z'); // 30 days before 2025-07-31
    await mint(who);
    h.setNow('2025-06-30T23:59:59Z'); // just outside
    await recording(who, '2025-06-30T23:59:59Z', 'phone');
    await recording(who, '2025-07-15T09:00:00Z', 'recorder');
    h.setNow('2025-07-20T09:00:00Z');
    await mint(who);
    h.setNow('2025-07-31T00:00:00Z');
    expect(rowOf(await adoption(), who)).toEqual({ person_id: fid(who), sign_in_days: 2, uploaded_recordings: 1 });
    h.setNow('2025-07-31T00:00:01Z');
    expect(rowOf(await adoption(), who)).toEqual({ person_id: fid(who), sign_in_days: 1, uploaded_recordings: 1 });
  });

  it('19 WS-456 any signed-in caller may read adoption (not an admin, no membership)', async () => {
    const r = await h.call('GET', `/v1/recorder/adoption${window}`, OUTSIDER);
    expect(r.status).toBe(200);
    expect(rowOf(r, A)?.sign_in_days).toBe(2);
    const anonymous = await h.call('GET', `/v1/recorder/adoption${window}`, null);
    expect(anonymous.status).toBe(401);
  });

  it('19 WS-457 adoption returns counts only: no recording content, title or transcript', async () => {
    const r = await adoption(window);
    for (const row of r.data as Record<string, unknown>[]) {
      expect(Object.keys(row).sort()).toEqual(['person_id', 'sign_in_days', 'uploaded_recordings']);
    }
    expect(JSON.stringify(r.body)).not.toContain('secret figures');
    expect(JSON.stringify(r.body)).not.toContain('recorder:');
  });
});
