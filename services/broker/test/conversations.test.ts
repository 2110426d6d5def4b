import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceConversations } from '../src/relay/conversation-saver.ts';
import type { ConversationSaver } from '../src/relay/ports.ts';
import { identityFid } from '../src/tokens.ts';
import { mint, testGateway, tokenFor } from './credentials-helpers.ts';
import { type FakeConversation, type FakeWorkspace, startFakeWorkspace } from './fakes/workspace.ts';
import { fid, tag } from './harness.ts';
import { type Posted, type RelayHarness, relayHarness } from './relay-setup.ts';

/**
 * Spec 3, Saved conversations: API-credential relay calls, through the relay, saved by the real
 * saver into a fake workspace. The app's saver is a switch, so each test can stand the saver it
 * needs (workspace set, unset or failing) in the relay's path.
 */
const WORKSPACE_TOKEN = 'workspace-service-token';
const MODEL = 'gpt-4.1-mini';

let rh: RelayHarness;
let ws: FakeWorkspace;
let gateway: Awaited<ReturnType<typeof testGateway>>;
let saver: WorkspaceConversations;
const warnings: { obj: unknown; msg: unknown }[] = [];
/** Every message text a test sent or got back: none may be in the broker's database. */
const texts = new Set<string>();

const switchable: ConversationSaver = {
  save: (reply) => saver.save(reply),
  settled: () => saver.settled(),
};

const logger = (): FastifyBaseLogger =>
  Object.assign(Object.create(rh.app.log), {
    warn: (obj: unknown, msg: unknown) => warnings.push({ obj, msg }),
  }) as FastifyBaseLogger;

const saverAt = (workspaceUrl: string | undefined) =>
  new WorkspaceConversations({
    db: rh.db,
    workspaceUrl,
    serviceToken: WORKSPACE_TOKEN,
    log: logger(),
    retries: 0,
  });

let owner: string;
let token: string;
let clientId: string;

beforeAll(async () => {
  gateway = await testGateway();
  ws = await startFakeWorkspace(WORKSPACE_TOKEN);
  rh = await relayHarness({ conversations: switchable, authenticators: [gateway.authenticator] });
  owner = `conv-${tag()}@broker.test`;
  ({ token, client_id: clientId } = await tokenFor(rh, owner));
});
afterAll(async () => {
  await saver?.settled();
  await rh.close();
  await ws.close();
});
beforeEach(() => {
  saver = saverAt(ws.url);
});

/** A unique word, so each test's conversation is its own. */
const word = (w: string) => {
  const t = `${w}-${tag()}`;
  texts.add(t);
  return t;
};

type Message = { role: string; content: unknown };

async function chat(messages: Message[], headers: Record<string, string> = {}, as = token): Promise<Posted> {
  const r = await rh.post(
    '/v1/relay/chat/completions',
    { model: MODEL, messages },
    { authorization: `Bearer ${as}`, ...headers },
  );
  if (r.status !== 200) throw new Error(`relay: ${r.status} ${r.text}`);
  texts.add(r.json.choices[0].message.content);
  await saver.settled();
  return r;
}

const replyOf = (r: Posted): string => r.json.choices[0].message.content;

async function responses(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Posted> {
  const r = await rh.post(
    '/v1/relay/responses',
    { model: MODEL, ...body },
    { authorization: `Bearer ${token}`, ...headers },
  );
  if (r.status !== 200) throw new Error(`relay: ${r.status} ${r.text}`);
  texts.add(r.json.output[0].content[0].text);
  await saver.settled();
  return r;
}

const holding = (text: string): FakeConversation => {
  const c = ws.withText(text);
  if (!c) throw new Error(`no workspace conversation holds ${text}`);
  return c;
};
const turnTexts = (c: FakeConversation) => c.turns.map((t) => t.text);
const user = (content: unknown): Message => ({ role: 'user', content });
const assistant = (content: unknown): Message => ({ role: 'assistant', content });

describe('what is saved, and for whom', () => {
  it('BRK-126 BRK-130 BRK-142 BRK-143 BRK-144 BRK-189 an API-credential call is saved after the reply: one turn per message, the reply by agent:<model>', async () => {
    const q = word('hello');
    // Neither X-Platform-Conversation-Id nor X-Platform-Knowledge: the call answers normally.
    const r = await chat([user(q)]);
    expect(r.status).toBe(200);
    const c = holding(q);
    expect(c.owner).toBe(owner);
    expect(c.turns).toEqual([
      { seq: 1, author: owner, text: q, turn_kind: 'utterance', extra: {} },
      {
        seq: 2,
        author: `agent:${MODEL}`,
        text: replyOf(r),
        turn_kind: 'utterance',
        extra: { model: MODEL, provider: 'openai' },
      },
    ]);
    // Every workspace request was the service token acting for the owner, with a key and {data}.
    for (const req of ws.requests.filter((x) => x.body?.data?.text === q || x.path === '/v1/conversations')) {
      expect(req.headers['x-platform-service-token']).toBe(WORKSPACE_TOKEN);
      expect(typeof req.headers['idempotency-key']).toBe('string');
    }
  });

  it("BRK-131 a service credential's conversation belongs to <client_id>@service.broker", async () => {
    const service = await tokenFor(rh, owner, { name: 'bot', kind: 'service' });
    const q = word('service');
    await chat([user(q)], {}, service.token);
    const c = holding(q);
    expect(c.owner).toBe(`${service.client_id}@service.broker`);
    expect(c.turns[0]?.author).toBe(`${service.client_id}@service.broker`);
  });

  it('BRK-132 BRK-133 the conversation is unfiled and feeds knowledge', async () => {
    const q = word('unfiled');
    await chat([user(q)]);
    const c = holding(q);
    expect(c.project_id).toBeNull();
    expect(c.sent).not.toHaveProperty('project_id');
    expect(c.contributes_to_knowledge).toBe(true);
    expect(c.sent.contributes_to_knowledge).toBe(true);
  });

  it('BRK-134 X-Platform-Knowledge: off keeps the conversation out of knowledge', async () => {
    const q = word('private');
    await chat([user(q)], { 'x-platform-knowledge': 'off' });
    expect(holding(q).contributes_to_knowledge).toBe(false);
  });

  it('BRK-141 only user and assistant text is saved: system, tool and image content is not', async () => {
    const sys = word('system');
    const toolOut = word('toolresult');
    const q1 = word('look');
    const q2 = word('then');
    const r = await chat([
      { role: 'system', content: sys },
      user([
        { type: 'text', text: q1 },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ]),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      } as Message,
      { role: 'tool', content: toolOut, tool_call_id: 'call_1' } as Message,
      user(q2),
    ]);
    const c = holding(q1);
    expect(turnTexts(c)).toEqual([q1, q2, replyOf(r)]);
    // The fake provider's reply echoes the prompt, so only the request's turns are searched.
    const fromRequest = JSON.stringify(c.turns.slice(0, -1));
    expect(fromRequest).not.toContain(sys);
    expect(fromRequest).not.toContain(toolOut);
    expect(fromRequest).not.toContain('base64');
  });

  it('BRK-141 on the messages API the system prompt and tool results are not saved', async () => {
    const sys = word('anthropic-system');
    const q = word('claude');
    const r = await rh.post(
      '/v1/relay/messages',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        system: sys,
        messages: [
          user([{ type: 'tool_result', tool_use_id: 't1', content: 'tool text' }]),
          user([{ type: 'text', text: q }]),
        ],
      },
      { authorization: `Bearer ${token}` },
    );
    expect(r.status).toBe(200);
    await saver.settled();
    const c = holding(q);
    expect(turnTexts(c)).toEqual([q, r.json.content[0].text]);
    texts.add(r.json.content[0].text);
    expect(c.turns[1]?.extra).toEqual({ model: 'claude-sonnet-4-5', provider: 'anthropic' });
  });
});

describe('billing of credential calls', () => {
  it("BRK-169 BRK-170 a personal credential's call is billed to the person and its usage row names no credential", async () => {
    await chat([user(word('billed'))]);
    const rows = await rh.usageRows();
    const row = rows.at(-1) as Record<string, unknown>;
    expect(row.actor_fid).toBe(fid(owner));
    for (const r of rows) expect(Object.keys(r).filter((k) => /client|credential/.test(k))).toEqual([]);
    expect(JSON.stringify(rows)).not.toContain(clientId);
  });

  it("BRK-170 a service credential's call is billed to its own identity, not to the credential", async () => {
    const service = await tokenFor(rh, owner, { name: 'billing bot', kind: 'service' });
    await chat([user(word('service-billed'))], {}, service.token);
    const rows = await rh.usageRows();
    expect(rows.at(-1)?.actor_fid).toBe(identityFid(`${service.client_id}@service.broker`));
    expect(JSON.stringify(rows)).not.toContain(`"${service.client_id}"`);
  });
});

describe('which conversation a call goes to', () => {
  it('BRK-135 X-Platform-Conversation-Id names the conversation, whatever else the request carries', async () => {
    const key = `thread-${tag()}`;
    const first = word('first');
    await chat([user(first)], { 'x-platform-conversation-id': key });
    // Another conversation, with a response id the next call names.
    const other = word('other');
    const elsewhere = await responses({ input: other });
    const second = word('second');
    await responses(
      { input: second, previous_response_id: elsewhere.json.id, conversation: 'conv_elsewhere' },
      { 'x-platform-conversation-id': key },
    );
    const c = holding(first);
    expect(turnTexts(c)).toContain(second);
    expect(turnTexts(holding(other))).not.toContain(second);
  });

  it('BRK-136 a 200-character X-Platform-Conversation-Id is used as sent', async () => {
    const key = `${tag()}${'k'.repeat(192)}`;
    expect(key).toHaveLength(200);
    const a = word('long-a');
    const b = word('long-b');
    await chat([user(a)], { 'x-platform-conversation-id': key });
    await chat([user(b)], { 'x-platform-conversation-id': key });
    expect(turnTexts(holding(a))).toContain(b);
    const row = await rh.db
      .selectFrom('broker_conversations')
      .select(['client_key', 'workspace_conversation_id'])
      .where('client_key', '=', key)
      .executeTakeFirst();
    expect(row).toEqual({ client_key: key, workspace_conversation_id: holding(a).id });
  });

  it('BRK-135 a full history sent again under the same id adds only the new messages', async () => {
    const key = `history-${tag()}`;
    const q1 = word('h1');
    const r1 = await chat([user(q1)], { 'x-platform-conversation-id': key });
    const q2 = word('h2');
    const r2 = await chat([user(q1), assistant(replyOf(r1)), user(q2)], { 'x-platform-conversation-id': key });
    expect(turnTexts(holding(q1))).toEqual([q1, replyOf(r1), q2, replyOf(r2)]);
  });

  it("BRK-137 without the header, previous_response_id continues the previous response's conversation", async () => {
    const q1 = word('resp1');
    const r1 = await responses({ input: q1 });
    const q2 = word('resp2');
    const r2 = await responses({ input: [{ role: 'user', content: q2 }], previous_response_id: r1.json.id });
    expect(turnTexts(holding(q1))).toEqual([
      q1,
      r1.json.output[0].content[0].text,
      q2,
      r2.json.output[0].content[0].text,
    ]);
  });

  it('BRK-138 without the header or previous_response_id, conversation on a responses call names it', async () => {
    const conv = `conv_${tag()}`;
    const q1 = word('named1');
    await responses({ input: q1, conversation: conv });
    const q2 = word('named2');
    await responses({ input: q2, conversation: { id: conv } });
    const q3 = word('named3');
    await responses({ input: q3, conversation: `conv_${tag()}` });
    expect(turnTexts(holding(q1))).toContain(q2);
    expect(turnTexts(holding(q1))).not.toContain(q3);
  });

  it('BRK-139 without 1-3, the conversation whose previous call ended with the longest earlier list gets only the new messages', async () => {
    const a1 = word('a1');
    const shortCall = await chat([user(a1)]);
    const ra1 = replyOf(shortCall);
    const b2 = word('b2');
    // Another conversation that ended with a longer list starting the same way.
    const longCall = await chat([user(a1), assistant(ra1), user(b2)], {
      'x-platform-conversation-id': `long-${tag()}`,
    });
    const rb2 = replyOf(longCall);
    const shortConv = holding(ra1);
    const longConv = holding(b2);
    expect(longConv.id).not.toBe(shortConv.id);

    const c3 = word('c3');
    const r3 = await chat([user(a1), assistant(ra1), user(b2), assistant(rb2), user(c3)]);
    expect(turnTexts(holding(c3))).toEqual([a1, ra1, b2, rb2, c3, replyOf(r3)]);
    expect(holding(c3).id).toBe(longConv.id);

    const d3 = word('d3');
    const r4 = await chat([user(a1), assistant(ra1), user(d3)]);
    expect(holding(d3).id).toBe(shortConv.id);
    expect(turnTexts(holding(d3))).toEqual([a1, ra1, d3, replyOf(r4)]);
  });

  it('BRK-140 a call matching none of 1-4 starts a new conversation', async () => {
    const before = ws.conversations.length;
    const x = word('fresh');
    await chat([user(x)]);
    const y = word('fresh');
    await chat([user(word('unrelated')), assistant('never said'), user(y)]);
    expect(ws.conversations.length).toBe(before + 2);
    expect(holding(x).id).not.toBe(holding(y).id);
    expect(turnTexts(holding(y))).toHaveLength(4);
  });
});

describe('who is not saved', () => {
  const relayAs = (headers: Record<string, string>, q: string) =>
    rh.post('/v1/relay/chat/completions', { model: MODEL, messages: [user(q)] }, headers);

  const nothingSaved = async (headers: Record<string, string>) => {
    const requests = ws.requests.length;
    const rows = await rh.count('broker_conversations');
    const q = word('unsaved');
    const r = await relayAs(headers, q);
    expect(r.status).toBe(200);
    await saver.settled();
    expect(ws.requests.length).toBe(requests);
    expect(ws.withText(q)).toBeUndefined();
    expect(await rh.count('broker_conversations')).toBe(rows);
  };

  it('BRK-127 relay calls from agents (the service token on behalf of a mailbox) are not saved', async () => {
    await nothingSaved({
      'x-platform-service-token': 'test-service-token',
      'x-platform-on-behalf-of': `agent-${tag()}@agents.test`,
    });
  });

  it('BRK-128 relay calls from briefs (the service token) are not saved', async () => {
    await nothingSaved({ 'x-platform-service-token': 'test-service-token', 'x-platform-on-behalf-of': owner });
    await nothingSaved({ 'x-platform-service-token': 'test-service-token' });
  });

  it('BRK-129 relay calls from browser sessions (gateway or dev header) are not saved', async () => {
    await nothingSaved((await gateway.session(owner)).headers);
    await nothingSaved({ 'x-dev-principal': owner });
  });
});

describe('best effort', () => {
  it('BRK-145 a failing workspace leaves the reply unchanged and logs a warning', async () => {
    const q = word('failing');
    const body = { model: MODEL, messages: [user(q)] };
    const direct = await fetch(`${rh.fake.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer provider-test-key' },
      body: JSON.stringify(body),
    });
    const expected = await direct.text();
    ws.failNext(503, 10);
    const r = await rh.post('/v1/relay/chat/completions', body, { authorization: `Bearer ${token}` });
    await saver.settled();
    ws.failNext(503, 0);
    expect(r.status).toBe(200);
    expect(r.text).toBe(expected);
    expect(ws.withText(q)).toBeUndefined();
    expect(warnings.at(-1)?.msg).toBe('relay call not saved as a workspace conversation');
    expect(JSON.stringify(warnings.at(-1)?.obj)).not.toContain(q);
  });

  it('BRK-145 an unreachable workspace never throws from save()', async () => {
    const listening = await startFakeWorkspace(WORKSPACE_TOKEN);
    const gone = listening.url;
    await listening.close();
    saver = saverAt(gone);
    const q = word('unreachable');
    const r = await rh.post(
      '/v1/relay/chat/completions',
      { model: MODEL, messages: [user(q)] },
      { authorization: `Bearer ${token}` },
    );
    expect(r.status).toBe(200);
    await saver.settled();
    expect(warnings.at(-1)?.msg).toBe('relay call not saved as a workspace conversation');
  });

  it('BRK-146 saving is skipped when the workspace address is unset: no attempt, no rows', async () => {
    saver = saverAt(undefined);
    const requests = ws.requests.length;
    const rows = await rh.count('broker_conversations');
    const links = await rh.count('broker_conversation_links');
    const r = await chat([user(word('nowhere'))], { 'x-platform-conversation-id': `off-${tag()}` });
    expect(r.status).toBe(200);
    expect(ws.requests.length).toBe(requests);
    expect(await rh.count('broker_conversations')).toBe(rows);
    expect(await rh.count('broker_conversation_links')).toBe(links);
  });

  it('BRK-147 the broker keeps only links: no message text in any of its tables', async () => {
    await mint(rh, owner, { name: 'unrelated' });
    expect(texts.size).toBeGreaterThan(20);
    expect(await rh.count('broker_conversation_links')).toBeGreaterThan(0);
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`.execute(rh.db);
    expect(tables.rows.map((t) => t.table_name)).toContain('broker_conversations');
    let dump = '';
    for (const { table_name } of tables.rows) {
      const rows = await sql`SELECT * FROM ${sql.table(table_name)}`.execute(rh.db);
      dump += JSON.stringify(rows.rows);
    }
    for (const t of texts) expect(dump).not.toContain(t);
  });
});
