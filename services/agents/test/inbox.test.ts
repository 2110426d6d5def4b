import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainInbox } from '../src/store/inbox.ts';
import { ADMIN, type AgentData, EDITOR, fid, type Harness, harness, OWNER, STRANGER, VIEWER } from './harness.ts';

/**
 * The harness's routes for wakes (spec 3): GET .../inbox hands each waiting wake out once, POST
 * .../runs records a completed wake, GET .../runs lists the history newest first.
 */

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

type Item = { id: string; reason: string; ref: string | null; queued_at: string; drained_at: string | null };
type Run = { id: string; inbox_item_id: string | null; reason: string; started_at: string; outcome: string };

const HARNESS = { service: null } as const;
const wake = (id: string, reason: string, ref?: string) =>
  h.call('POST', `/v1/agents/${id}/wake`, HARNESS, { data: { reason, ...(ref ? { ref } : {}) } }, null);
const drain = (id: string, as: Parameters<Harness['call']>[2] = HARNESS, limit?: number) =>
  h.call('GET', `/v1/agents/${id}/inbox${limit ? `?limit=${limit}` : ''}`, as);

async function shared(): Promise<AgentData> {
  const a = await h.agent();
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
  await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
  return a;
}

const run = (over: Record<string, unknown> = {}) => ({
  reason: 'comms',
  started_at: '2026-03-02T11:00:00Z',
  finished_at: '2026-03-02T11:01:00Z',
  outcome: 'completed',
  turns: 3,
  model: 'gpt-test',
  summary: 'Answered one message',
  ...over,
});

describe('18 inbox drain', () => {
  it('18 AGT-195 AGT-315 the harness’s drain with the service token returns the waiting wakes, oldest first, and marks them drained', async () => {
    const a = await h.agent();
    for (const ref of ['m1', 'm2', 'm3']) expect((await wake(a.id, 'comms', ref)).status).toBe(202);
    const r = await drain(a.id);
    expect(r.status).toBe(200);
    const items = r.data as Item[];
    expect(items.map((i) => i.ref)).toEqual(['m1', 'm2', 'm3']);
    expect(items.every((i) => i.drained_at === h.now().toISOString() && i.reason === 'comms')).toBe(true);
  });

  it('18 AGT-195 a drain hands an item out once: the next drain answers only wakes queued since', async () => {
    const a = await h.agent();
    await wake(a.id, 'dream', 'night-1');
    expect(((await drain(a.id)).data as Item[]).map((i) => i.ref)).toEqual(['night-1']);
    expect((await drain(a.id)).data).toEqual([]);
    await wake(a.id, 'harvest', 'batch-7');
    expect(((await drain(a.id)).data as Item[]).map((i) => i.ref)).toEqual(['batch-7']);
    // Drained items are kept, with drained_at: a run can still name them.
    const kept = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM agent_inbox WHERE agent_id = ${a.id} AND drained_at IS NOT NULL`.execute(h.db);
    expect(kept.rows[0]?.n).toBe(2);
  });

  it('18 AGT-195 limit bounds one drain; the rest wait for the next, in order', async () => {
    const a = await h.agent();
    for (let i = 1; i <= 5; i++) await wake(a.id, 'comms', `c${i}`);
    expect(((await drain(a.id, HARNESS, 2)).data as Item[]).map((i) => i.ref)).toEqual(['c1', 'c2']);
    expect(((await drain(a.id, HARNESS, 2)).data as Item[]).map((i) => i.ref)).toEqual(['c3', 'c4']);
    expect(((await drain(a.id, HARNESS, 2)).data as Item[]).map((i) => i.ref)).toEqual(['c5']);
    expect((await drain(a.id, HARNESS, 101)).status).toBe(422);
  });

  it('18 AGT-195 two concurrent drains never share an item, and together hand out every wake once', async () => {
    const a = await h.agent();
    for (let i = 0; i < 40; i++) await wake(a.id, 'comms', `w${i}`);
    const handed: string[] = [];
    for (let round = 0; round < 10 && handed.length < 40; round++) {
      const pair = await Promise.all([drain(a.id, HARNESS, 7), drain(a.id, HARNESS, 7)]);
      for (const r of pair) handed.push(...(r.data as Item[]).map((i) => i.id));
    }
    expect(handed).toHaveLength(40);
    expect(new Set(handed).size).toBe(40);
  });

  it('18 AGT-195 the claim itself: concurrent claims in separate transactions split the waiting wakes', async () => {
    const a = await h.agent();
    for (let i = 0; i < 20; i++) await wake(a.id, 'comms', `t${i}`);
    const claims = await Promise.all(
      Array.from({ length: 4 }, () =>
        h.db.transaction().execute((trx) => drainInbox(trx, a.id, 20, new Date('2026-03-02T12:00:00Z'))),
      ),
    );
    const ids = claims.flat().map((r) => r.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('18 AGT-195 AGT-316 the harness drains its own inbox with X-Platform-Agent-Id; naming another agent it has no role on is 404', async () => {
    const a = await h.agent();
    const other = await h.agent({}, STRANGER);
    await wake(a.id, 'comms', 'own');
    await wake(other.id, 'comms', 'theirs');
    expect(((await drain(a.id, { service: a.id })).data as Item[]).map((i) => i.ref)).toEqual(['own']);
    expect((await drain(a.id, { service: a.id })).data).toEqual([]);
    const refused = await drain(other.id, { service: a.id });
    expect(refused.status).toBe(404);
    expect(((await drain(other.id, { service: other.id })).data as Item[]).map((i) => i.ref)).toEqual(['theirs']);
  });

  it('18 AGT-195 AGT-327 a drain of an agent that does not exist is 404 agent_not_found, for the service token too', async () => {
    for (const as of [HARNESS, OWNER] as const) {
      const r = await drain(randomUUID(), as);
      expect(r.status).toBe(404);
      expect(r.errors?.[0]?.code).toBe('agent_not_found');
    }
    const empty = await h.agent();
    expect((await drain(empty.id)).data).toEqual([]);
  });

  it('18 AGT-319 AGT-324 AGT-327 an editor drains; a viewer is 403 insufficient_role, a stranger 404, an admin without a role 403; nothing handed out', async () => {
    const a = await shared();
    await wake(a.id, 'comms', 'kept');
    for (const [as, status, code] of [
      [VIEWER, 403, 'insufficient_role'],
      [STRANGER, 404, 'agent_not_found'],
      [ADMIN, 403, 'insufficient_role'],
    ] as const) {
      const r = await drain(a.id, as);
      expect(r.status).toBe(status);
      expect(r.errors?.[0]?.code).toBe(code);
    }
    expect(((await drain(a.id, EDITOR)).data as Item[]).map((i) => i.ref)).toEqual(['kept']);
  });
});

describe('18 runs', () => {
  it('18 AGT-196 AGT-197 AGT-315 a run the harness posts for a drained wake appears in the history with the wake’s reason', async () => {
    const a = await h.agent();
    await wake(a.id, 'harvest', 'h1');
    const [item] = (await drain(a.id)).data as Item[];
    const posted = await h.call(
      'POST',
      `/v1/agents/${a.id}/runs`,
      { service: a.id },
      {
        data: run({ inbox_item_id: item?.id, reason: undefined }),
      },
    );
    expect(posted.status).toBe(201);
    expect(posted.data).toMatchObject({
      agent_id: a.id,
      inbox_item_id: item?.id,
      reason: 'harvest',
      outcome: 'completed',
      turns: 3,
      model: 'gpt-test',
      summary: 'Answered one message',
      recorded_by: `agent:${a.id}`,
      started_at: '2026-03-02T11:00:00.000Z',
      finished_at: '2026-03-02T11:01:00.000Z',
    });
    const list = await h.call('GET', `/v1/agents/${a.id}/runs`, OWNER);
    expect(list.status).toBe(200);
    expect(list.data).toEqual([posted.data]);
    const events = (await h.events('agent.run_recorded')).filter((e) => e.payload.data.agent_id === a.id);
    expect(events.map((e) => e.payload.data)).toEqual([
      expect.objectContaining({ run_id: posted.data.id, inbox_item_id: item?.id, reason: 'harvest' }),
    ]);
    expect(JSON.stringify(events)).not.toContain('Answered one message');
  });

  it('18 AGT-197 the history is newest first and paginated by cursor', async () => {
    const a = await h.agent();
    const starts = ['2026-03-01T08:00:00Z', '2026-03-01T10:00:00Z', '2026-03-01T09:00:00Z', '2026-03-01T11:00:00Z'];
    for (const s of starts) {
      const r = await h.call('POST', `/v1/agents/${a.id}/runs`, HARNESS, {
        data: run({ started_at: s, finished_at: s, reason: 'dream' }),
      });
      expect(r.status).toBe(201);
    }
    const page1 = await h.call('GET', `/v1/agents/${a.id}/runs?limit=3`, OWNER);
    expect((page1.data as Run[]).map((r) => r.started_at)).toEqual([
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T10:00:00.000Z',
      '2026-03-01T09:00:00.000Z',
    ]);
    const next = page1.meta.pagination.nextCursor as string;
    expect(next).toEqual(expect.any(String));
    const page2 = await h.call('GET', `/v1/agents/${a.id}/runs?limit=3&after=${next}`, OWNER);
    expect((page2.data as Run[]).map((r) => r.started_at)).toEqual(['2026-03-01T08:00:00.000Z']);
    expect(page2.meta.pagination.nextCursor).toBeNull();
    expect((await h.call('GET', `/v1/agents/${a.id}/runs?after=nonsense`, OWNER)).status).toBe(422);
  });

  it('18 AGT-196 a wake has one run: a second run for it is 409 run_already_recorded, nothing written', async () => {
    const a = await h.agent();
    await wake(a.id, 'comms', 'once');
    const [item] = (await drain(a.id)).data as Item[];
    expect(
      (await h.call('POST', `/v1/agents/${a.id}/runs`, HARNESS, { data: run({ inbox_item_id: item?.id }) })).status,
    ).toBe(201);
    const before = await h.state();
    const again = await h.call('POST', `/v1/agents/${a.id}/runs`, HARNESS, { data: run({ inbox_item_id: item?.id }) });
    expect(again.status).toBe(409);
    expect(again.errors?.[0]?.code).toBe('run_already_recorded');
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-196 a run naming another agent’s wake, a wrong reason, no reason or an end before its start is 422, nothing written', async () => {
    const a = await h.agent();
    const other = await h.agent();
    await wake(other.id, 'comms', 'theirs');
    const [theirs] = (await drain(other.id)).data as Item[];
    await wake(a.id, 'dream', 'mine');
    const [mine] = (await drain(a.id)).data as Item[];
    const before = await h.state();
    for (const [data, code] of [
      [run({ inbox_item_id: theirs?.id }), 'inbox_item_not_found'],
      [run({ inbox_item_id: randomUUID() }), 'inbox_item_not_found'],
      [run({ inbox_item_id: mine?.id, reason: 'comms' }), 'run_reason_invalid'],
      [run({ reason: undefined }), 'run_reason_invalid'],
      [run({ finished_at: '2026-03-02T10:00:00Z' }), 'run_times_invalid'],
      [run({ outcome: 'exploded' }), 'validation_failed'],
      [run({ turns: -1 }), 'validation_failed'],
    ] as const) {
      const r = await h.call('POST', `/v1/agents/${a.id}/runs`, HARNESS, { data });
      expect(r.status, JSON.stringify(data)).toBe(422);
      expect(r.errors?.[0]?.code).toBe(code);
    }
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-197 AGT-324 AGT-327 a viewer reads the runs but may not record one (403 insufficient_role); a stranger gets 404', async () => {
    const a = await shared();
    expect((await h.call('POST', `/v1/agents/${a.id}/runs`, EDITOR, { data: run() })).status).toBe(201);
    expect((await h.call('GET', `/v1/agents/${a.id}/runs`, VIEWER)).data).toHaveLength(1);
    const before = await h.state();
    const refused = await h.call('POST', `/v1/agents/${a.id}/runs`, VIEWER, { data: run() });
    expect(refused.status).toBe(403);
    expect(refused.errors?.[0]?.code).toBe('insufficient_role');
    expect(await h.state()).toEqual(before);
    const hidden = await h.call('GET', `/v1/agents/${a.id}/runs`, STRANGER);
    expect(hidden.status).toBe(404);
    expect(hidden.errors?.[0]?.code).toBe('agent_not_found');
  });
});
