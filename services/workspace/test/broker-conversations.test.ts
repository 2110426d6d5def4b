import { afterAll, beforeAll, expect, it } from 'vitest';
import { WorkspaceConversations } from '../../broker/src/relay/conversation-saver.ts';
import type { ConversationSaver } from '../../broker/src/relay/ports.ts';
import { tokenFor } from '../../broker/test/credentials-helpers.ts';
import { type RelayHarness, relayHarness } from '../../broker/test/relay-setup.ts';
import type { Conversation, Turn } from '../src/schemas/conversations.ts';
import { fid, type Harness, harness, SERVICE_TOKEN, tag } from './harness.ts';

/**
 * The broker's saved conversations against a real workspace (spec 3, "Saved conversations"): a
 * relay call with an API credential, through the broker in front of its fake provider, is saved
 * by the broker's own saver over HTTP, with the shared service token on behalf of the owner, and
 * reads back as turns of an unfiled conversation of that owner.
 */
const MODEL = 'gpt-4.1-mini';
let ws: Harness;
let rh: RelayHarness;
let saver: WorkspaceConversations;

beforeAll(async () => {
  ws = await harness();
  await ws.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ws.app.server.address() as { port: number };
  // The broker builds its saver on its own database, which exists once its app does.
  const switchable: ConversationSaver = { save: (r) => saver.save(r), settled: () => saver.settled() };
  rh = await relayHarness({ conversations: switchable });
  saver = new WorkspaceConversations({
    db: rh.db,
    workspaceUrl: `http://127.0.0.1:${port}`,
    serviceToken: SERVICE_TOKEN,
    log: rh.app.log,
    retries: 0,
  });
});
afterAll(async () => {
  await saver?.settled();
  await rh?.close();
  await ws?.close_();
});

it('16 WS-347 WS-358 a relay call through the broker shows up as turns of an unfiled conversation in the workspace', async () => {
  const owner = `relay-${tag()}@broker.test`;
  const { token } = await tokenFor(rh, owner);
  const question = `What is the lease term for unit ${tag()}?`;
  const r = await rh.post(
    '/v1/relay/chat/completions',
    { model: MODEL, messages: [{ role: 'user', content: question }] },
    { authorization: `Bearer ${token}` },
  );
  expect(r.status).toBe(200);
  const reply = r.json.choices[0].message.content as string;
  await saver.settled();

  const list = await ws.call('GET', '/v1/conversations?filed=false', owner);
  expect(list.status).toBe(200);
  expect(list.data).toHaveLength(1);
  const c = list.data[0] as Conversation;
  expect(c).toMatchObject({
    title: `${MODEL} via the model broker`,
    status: 'active',
    contributes_to_knowledge: true,
    created_by: fid(owner),
    turn_count: 2,
    utterance_count: 2,
  });
  expect('project_id' in c).toBe(false);
  const turns = (await ws.call('GET', `/v1/conversations/${c.id}/turns`, owner)).data as Turn[];
  expect(turns.map((t) => [t.seq, t.turn_kind, t.author, t.text])).toEqual([
    [1, 'utterance', owner, question],
    [2, 'utterance', `agent:${MODEL}`, reply],
  ]);
  expect(turns[1]?.extra).toMatchObject({ model: MODEL });
  expect(turns.every((t) => t.written_by === fid(owner))).toBe(true);

  // The next call of the same thread appends to the same conversation (the broker's keys, once each).
  const followUp = `And the renewal option ${tag()}?`;
  const again = await rh.post(
    '/v1/relay/chat/completions',
    {
      model: MODEL,
      messages: [
        { role: 'user', content: question },
        { role: 'assistant', content: reply },
        { role: 'user', content: followUp },
      ],
    },
    { authorization: `Bearer ${token}` },
  );
  expect(again.status).toBe(200);
  await saver.settled();
  const after = (await ws.call('GET', `/v1/conversations/${c.id}/turns`, owner)).data as Turn[];
  expect(after.map((t) => t.text)).toEqual([question, reply, followUp, again.json.choices[0].message.content]);
  expect((await ws.call('GET', '/v1/conversations?filed=false', owner)).data).toHaveLength(1);
  // Nobody else sees it.
  expect((await ws.call('GET', `/v1/conversations/${c.id}`, `other-${tag()}@broker.test`)).status).toBe(404);
});
