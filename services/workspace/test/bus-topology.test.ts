import { randomUUID } from 'node:crypto';
import { type Bus, type BusMessage, consumersOf, emit, OutboxPublisher, topicsOf } from '@platform/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_INTELLIGENCE_ACK_WAIT_MS, WORKSPACE_TOPOLOGY } from '../src/bus-topology.ts';
import { events } from '../src/events.ts';
import { natsUrl, testBus, waitFor } from './bus-fixture.ts';
import { type Harness, harness } from './harness.ts';

const subscribersOf = (domain: keyof typeof WORKSPACE_TOPOLOGY.domains) =>
  Object.keys(WORKSPACE_TOPOLOGY.domains[domain]).sort();

let h: Harness;
let bus: Bus;
beforeAll(async () => {
  h = await harness();
  ({ bus } = await testBus());
  await bus.declare?.(WORKSPACE_TOPOLOGY);
});
afterAll(async () => {
  await bus.close();
  await h.close_();
});

describe('the workspace bus topology', () => {
  it('19 WS-582 WS-583 WS-584 WS-585 WS-586 WS-587 WS-588 the workspace declares its topics and subscribers exactly as the spec table', () => {
    expect(WORKSPACE_TOPOLOGY.service).toBe('workspace');
    expect(Object.keys(WORKSPACE_TOPOLOGY.domains).sort()).toEqual(
      ['conversation', 'evidence', 'fact', 'file', 'notification', 'project'].sort(),
    );
    expect(subscribersOf('project')).toEqual(['audit', 'intelligence', 'notification']);
    expect(subscribersOf('conversation')).toEqual(['audit', 'intelligence', 'listener']);
    expect(subscribersOf('evidence')).toEqual(['audit', 'intelligence']);
    expect(subscribersOf('fact')).toEqual(['audit', 'intelligence']);
    expect(subscribersOf('file')).toEqual(['audit']);
    expect(subscribersOf('notification')).toEqual(['audit']);
    // Every event the workspace declares falls in a declared domain (else it would have no topic).
    for (const type of Object.keys(events.events)) {
      expect(Object.keys(WORKSPACE_TOPOLOGY.domains)).toContain(type.split('.')[0]);
    }
  });

  it('19 WS-582 WS-589 WS-590 the declared consumers on the bus: <domain>_<subscriber>, one minute each, five on conversation_intelligence, and knowledge_workspace on the intelligence knowledge queue', async () => {
    const declared = consumersOf(WORKSPACE_TOPOLOGY).map((c) => [c.name, c.filter, c.ackWaitMs]);
    const onBus = ((await bus.describe?.()) ?? []).map((c) => [c.name, c.filter, c.ackWaitMs]);
    const byName = (a: unknown[], b: unknown[]) => `${a[1]}${a[0]}`.localeCompare(`${b[1]}${b[0]}`);
    expect(onBus.sort(byName)).toEqual(declared.sort(byName));
    expect(onBus.sort(byName)).toEqual(
      [
        ['project_notification', 'workspace.project.>', 60_000],
        ['project_intelligence', 'workspace.project.>', 60_000],
        ['project_audit', 'workspace.project.>', 60_000],
        ['conversation_listener', 'workspace.conversation.>', 60_000],
        ['conversation_intelligence', 'workspace.conversation.>', 300_000],
        ['conversation_audit', 'workspace.conversation.>', 60_000],
        ['evidence_intelligence', 'workspace.evidence.>', 60_000],
        ['evidence_audit', 'workspace.evidence.>', 60_000],
        ['fact_intelligence', 'workspace.fact.>', 60_000],
        ['fact_audit', 'workspace.fact.>', 60_000],
        ['file_audit', 'workspace.file.>', 60_000],
        ['notification_audit', 'workspace.notification.>', 60_000],
        ['knowledge_workspace', 'intelligence.knowledge.>', 60_000],
      ].sort(byName),
    );
    expect(CONVERSATION_INTELLIGENCE_ACK_WAIT_MS).toBe(5 * 60_000);
    // Topics: one per domain with a restricted one beside it, and the knowledge queue it reads.
    expect(topicsOf(WORKSPACE_TOPOLOGY).map((t) => t.subjects[0])).toEqual([
      ...Object.keys(WORKSPACE_TOPOLOGY.domains).flatMap((d) => [`workspace.${d}.>`, `restricted.workspace.${d}.>`]),
      'intelligence.knowledge.>',
    ]);
  });

  it(`19 WS-589 a nak redelivers the message to the same consumer (${natsUrl ? 'JetStream' : 'in-process bus'})`, async () => {
    const tag = randomUUID();
    const seen: BusMessage[] = [];
    let attempts = 0;
    const stop = await bus.subscribe('workspace.conversation.>', 'conversation_listener', (m) => {
      if ((m.data as { data: { tag?: string } }).data.tag !== tag) return;
      attempts++;
      if (attempts === 1) throw new Error('not now: nak');
      seen.push(m);
    });
    await emit(h.db, 'workspace', [{ type: 'conversation.test_ping', data: { tag } }]);
    await new OutboxPublisher(h.db, bus, { pollMs: 1_000 }).drain();
    await waitFor(() => (seen.length === 1 ? true : undefined), 'redelivery after a nak');
    expect(attempts).toBe(2);
    expect(seen[0].subject).toBe('workspace.conversation.test_ping');
    await stop();
  });

  it('19 WS-591 a personal-data event goes only to the restricted topic: no core consumer receives it', async () => {
    const tag = randomUUID();
    const core: BusMessage[] = [];
    const restricted: BusMessage[] = [];
    const mine = (m: BusMessage) => JSON.stringify(m.data).includes(tag);
    const stopCore = await bus.subscribe('workspace.conversation.>', 'conversation_audit', (m) => {
      if (mine(m)) core.push(m);
    });
    const stopRestricted = await bus.subscribe('restricted.workspace.conversation.>', `r_${tag.slice(0, 8)}`, (m) => {
      if (mine(m)) restricted.push(m);
    });
    await emit(h.db, 'workspace', [
      { type: 'conversation.test_public', data: { tag } },
      { type: 'conversation.test_personal', data: { tag, name: 'Ada Lovelace' }, restricted: true },
    ]);
    await new OutboxPublisher(h.db, bus, { pollMs: 1_000 }).drain();
    await waitFor(() => (core.length === 1 && restricted.length === 1 ? true : undefined), 'both topics');
    expect(core.map((m) => m.subject)).toEqual(['workspace.conversation.test_public']);
    expect(JSON.stringify(core)).not.toContain('Ada Lovelace');
    expect(restricted.map((m) => m.subject)).toEqual(['restricted.workspace.conversation.test_personal']);
    await stopCore();
    await stopRestricted();
  });
});
