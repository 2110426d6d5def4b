import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, STRANGER } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close_());

const HARNESS = { service: null } as const;

describe('thoughts and the workspace conversation', () => {
  it('18 AGT-037 with memory_model auto the cycle’s memory work runs on the agent’s own model; a named one is kept', async () => {
    const own = await h.agent({ model: 'gpt-4o-mini', memory_model: 'auto' });
    const t1 = await h.call('GET', `/v1/agents/${own.id}/thoughts`, HARNESS);
    expect(t1.data.memory_model).toBe('gpt-4o-mini');
    const named = await h.agent({ model: 'gpt-4o-mini', memory_model: 'claude-3-5-haiku' });
    const t2 = await h.call('GET', `/v1/agents/${named.id}/thoughts`, HARNESS);
    expect(t2.data.memory_model).toBe('claude-3-5-haiku');
  });

  it('18 AGT-219 thoughts assemble pinned memories, recent ones, the checkpoint and the last runs', async () => {
    const a = await h.agent();
    const empty = await h.call('GET', `/v1/agents/${a.id}/thoughts`, HARNESS);
    expect(empty.status).toBe(200);
    expect(empty.data).toMatchObject({ core: [], recent: [], runs: [], checkpoint: { version: 0 } });
    expect(empty.data.block).toContain('## Core memories');
    await h.ok('POST', `/v1/agents/${a.id}/memories`, { content: 'Always copy the property manager' }, 201);
    await h.ok('POST', `/v1/agents/${a.id}/memories`, { content: 'Boiler serviced in May' }, 201, HARNESS);
    await h.ok(
      'POST',
      `/v1/agents/${a.id}/research-checkpoint`,
      { scan_id: 'leases', position: 40, version: 0 },
      200,
      HARNESS,
    );
    const runId = randomUUID();
    await h.db
      .insertInto('agent_runs' as never)
      .values({
        id: runId,
        agent_id: a.id,
        reason: 'dream',
        started_at: h.now(),
        finished_at: h.now(),
        outcome: 'completed',
        turns: 3,
        summary: 'Reviewed three leases',
        recorded_by: 'service:test',
        created_at: h.now(),
      } as never)
      .execute();
    const r = await h.call('GET', `/v1/agents/${a.id}/thoughts`, HARNESS);
    expect(r.data.core.map((m: { content: string }) => m.content)).toEqual(['Always copy the property manager']);
    expect(r.data.recent.map((m: { content: string }) => m.content)).toEqual(['Boiler serviced in May']);
    expect(r.data.checkpoint).toMatchObject({ scan_id: 'leases', position: 40, version: 1 });
    expect(r.data.runs).toMatchObject([{ id: runId, reason: 'dream', summary: 'Reviewed three leases' }]);
    const block: string = r.data.block;
    expect(block.indexOf('Always copy the property manager')).toBeLessThan(block.indexOf('Boiler serviced in May'));
    expect(block).toContain('scan leases at position 40 (version 1)');
    expect(block).toContain('Reviewed three leases');
    expect((await h.call('GET', `/v1/agents/${a.id}/thoughts`, STRANGER)).status).toBe(404);
  });

  it('18 AGT-049 AGT-220 AGT-047 the harness records its conversation; the answer carries contributes_to_knowledge', async () => {
    const a = await h.agent({ contributes_to_knowledge: true });
    const r = await h.ok('POST', `/v1/agents/${a.id}/workspace-conversation`, { conversation_id: 'conv-123' }, 200, {
      service: a.id,
    });
    expect(r).toEqual({ agent_id: a.id, workspace_conversation_id: 'conv-123', contributes_to_knowledge: true });
    expect((await h.call('GET', `/v1/agents/${a.id}`)).data.workspace_conversation_id).toBe('conv-123');
    const b = await h.agent();
    const rb = await h.ok(
      'POST',
      `/v1/agents/${b.id}/workspace-conversation`,
      { conversation_id: 'conv-9' },
      200,
      HARNESS,
    );
    expect(rb.contributes_to_knowledge).toBe(false);
    const before = await h.state();
    const refused = await h.call('POST', `/v1/agents/${b.id}/workspace-conversation`, STRANGER, {
      data: { conversation_id: 'conv-x' },
    });
    expect(refused.status).toBe(404);
    expect(await h.state()).toEqual(before);
    expect((await h.call('GET', `/v1/agents/${b.id}`)).data.workspace_conversation_id).toBe('conv-9');
  });
});
