import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fid, type Harness, harness, STRANGER, VIEWER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const HARNESS = { service: null } as const;
const url = (id: string) => `/v1/agents/${id}/research-checkpoint`;
const read = async (id: string) => (await h.call('GET', url(id), HARNESS)).data;

describe('research checkpoint', () => {
  it('18 AGT-216 version 0 before any write; a write with the current version answers 2xx and GET shows it', async () => {
    const a = await h.agent();
    expect(await read(a.id)).toEqual({ agent_id: a.id, scan_id: null, position: null, version: 0, updated_at: null });
    const first = await h.ok('POST', url(a.id), { scan_id: 'scan-1', position: 10, version: 0 }, 200, HARNESS);
    expect(first).toMatchObject({ scan_id: 'scan-1', position: 10, version: 1 });
    expect(await read(a.id)).toMatchObject({ scan_id: 'scan-1', position: 10, version: 1 });
    await h.ok('POST', url(a.id), { scan_id: 'scan-1', position: 25, version: 1 }, 200, { service: a.id });
    expect(await read(a.id)).toMatchObject({ scan_id: 'scan-1', position: 25, version: 2 });
    // A new scan starts anywhere.
    await h.ok('POST', url(a.id), { scan_id: 'scan-2', position: 0, version: 2 }, 200, HARNESS);
    expect(await read(a.id)).toMatchObject({ scan_id: 'scan-2', position: 0, version: 3 });
  });

  it('18 AGT-217 a stale version is 409 checkpoint_stale and nothing is written', async () => {
    const a = await h.agent();
    await h.ok('POST', url(a.id), { scan_id: 's', position: 5, version: 0 }, 200, HARNESS);
    await h.ok('POST', url(a.id), { scan_id: 's', position: 6, version: 1 }, 200, HARNESS);
    const before = await h.state();
    for (const version of [0, 1, 7]) {
      const r = await h.call('POST', url(a.id), HARNESS, { data: { scan_id: 's', position: 9, version } });
      expect(r.status).toBe(409);
      expect(r.body.payload.errors[0].code).toBe('checkpoint_stale');
    }
    expect(await h.state()).toEqual(before);
    expect(await read(a.id)).toMatchObject({ position: 6, version: 2 });
  });

  it('18 AGT-218 moving backward within a scan is 409 checkpoint_backward and nothing is written', async () => {
    const a = await h.agent();
    await h.ok('POST', url(a.id), { scan_id: 's', position: 50, version: 0 }, 200, HARNESS);
    const before = await h.state();
    const r = await h.call('POST', url(a.id), HARNESS, { data: { scan_id: 's', position: 49, version: 1 } });
    expect(r.status).toBe(409);
    expect(r.body.payload.errors[0].code).toBe('checkpoint_backward');
    expect(await h.state()).toEqual(before);
    expect(await read(a.id)).toMatchObject({ scan_id: 's', position: 50, version: 1 });
    // Staying in place is not backward.
    await h.ok('POST', url(a.id), { scan_id: 's', position: 50, version: 1 }, 200, HARNESS);
  });

  it('18 AGT-216 AGT-217 two writers on one version: exactly one wins, the other is 409 checkpoint_stale', async () => {
    const a = await h.agent();
    await h.ok('POST', url(a.id), { scan_id: 's', position: 1, version: 0 }, 200, HARNESS);
    for (const version of [1, 2]) {
      const [x, y] = await Promise.all([
        h.call('POST', url(a.id), HARNESS, { data: { scan_id: 's', position: 10 * version, version } }),
        h.call('POST', url(a.id), { service: a.id }, { data: { scan_id: 's', position: 10 * version + 1, version } }),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 409]);
      const loser = x.status === 409 ? x : y;
      expect(loser.body.payload.errors[0].code).toBe('checkpoint_stale');
      expect((await read(a.id)).version).toBe(version + 1);
    }
    // Two first writes race on the insert the same way.
    const b = await h.agent();
    const [p, q] = await Promise.all([
      h.call('POST', url(b.id), HARNESS, { data: { scan_id: 'p', position: 1, version: 0 } }),
      h.call('POST', url(b.id), HARNESS, { data: { scan_id: 'q', position: 2, version: 0 } }),
    ]);
    expect([p.status, q.status].sort()).toEqual([200, 409]);
    expect((await read(b.id)).version).toBe(1);
  });

  it('18 AGT-215 a POST without Idempotency-Key is 400 and nothing is written; a retried key replays', async () => {
    const a = await h.agent();
    const before = await h.state();
    const r = await h.call('POST', url(a.id), HARNESS, { data: { scan_id: 's', position: 1, version: 0 } }, null);
    expect(r.status).toBe(400);
    expect(r.body.payload.errors[0].code).toBe('idempotency_key_required');
    expect(await h.state()).toEqual(before);
    const key = `ckpt-${a.id}`;
    const once = await h.call('POST', url(a.id), HARNESS, { data: { scan_id: 's', position: 1, version: 0 } }, key);
    const again = await h.call('POST', url(a.id), HARNESS, { data: { scan_id: 's', position: 1, version: 0 } }, key);
    expect(once.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.data).toEqual(once.data);
    expect((await read(a.id)).version).toBe(1);
  });

  it('18 AGT-327 a caller without access gets 404; a viewer reads and may not write', async () => {
    const a = await h.agent();
    await h.db
      .insertInto('agent_members')
      .values({ agent_id: a.id, principal_fid: fid(VIEWER), role: 'viewer', added_at: h.now() })
      .execute();
    expect((await h.call('GET', url(a.id), STRANGER)).status).toBe(404);
    expect((await h.call('GET', url(a.id), VIEWER)).status).toBe(200);
    const before = await h.state();
    const r = await h.call('POST', url(a.id), VIEWER, { data: { scan_id: 's', position: 1, version: 0 } });
    expect(r.status).toBe(403);
    expect(
      (await h.call('POST', url(a.id), STRANGER, { data: { scan_id: 's', position: 1, version: 0 } })).status,
    ).toBe(404);
    expect(await h.state()).toEqual(before);
  });
});
