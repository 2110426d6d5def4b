/**
 * Who a relay call is billed to, budgets, routing rewrites and the saved-conversation hand-off:
 * the relay with a test budget gate, a test router and a recording conversation saver.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_CATALOG, type CatalogModel } from '../src/domain/catalog.ts';
import { identityFid, serviceIdentityEmail } from '../src/tokens.ts';
import { fid, tag } from './harness.ts';
import {
  codes,
  type RecordingSaver,
  type RelayHarness,
  relayHarness,
  SERVICE_HEADERS,
  type TestBudgets,
  type TestRouter,
} from './relay-setup.ts';

let h: RelayHarness;
let budgets: TestBudgets;
let router: TestRouter;
let saver: RecordingSaver;
beforeAll(async () => {
  h = await relayHarness();
  budgets = h.budgets as TestBudgets;
  router = h.router as TestRouter;
  saver = h.conversations as RecordingSaver;
});
afterAll(() => h.close());

const person = () => `staff-${tag()}@broker.test`;
const model = (wireId: string): CatalogModel => {
  const m = BUILT_IN_CATALOG.models.find((x) => x.wire_id === wireId);
  if (!m) throw new Error(wireId);
  return m;
};
const rowsOf = async (actorFid: string) => (await h.usageRows()).filter((r) => r.actor_fid === actorFid);
const lastRequest = () => h.fake.requests[h.fake.requests.length - 1];
const chatBody = (wireId: string, extra: object = {}) => ({
  model: wireId,
  messages: [{ role: 'user', content: 'route me' }],
  ...extra,
});

/** A credential token as POST /v1/oauth/token would issue it. */
async function credentialToken(email: string, kind: 'personal' | 'service', owner = email) {
  const signer = h.signer;
  if (!signer) throw new Error('no signer');
  const clientId = `cl_${tag()}`;
  const sub = kind === 'service' ? identityFid(serviceIdentityEmail(clientId)) : fid(email);
  const identity = kind === 'service' ? serviceIdentityEmail(clientId) : email;
  const t = await signer.sign({ email: identity, sub, client_id: clientId, kind, owner_email: owner }, h.now());
  return { token: t.access_token, clientId, identity, sub };
}

describe('budgets', () => {
  it('BRK-089 BRK-122 over budget is 402 before any upstream call and writes no usage row', async () => {
    const me = person();
    budgets.over.add(me);
    const before = h.fake.requests.length;
    const routed = router.requests.length;
    const r = await h.post('/v1/relay/chat/completions', chatBody('gpt-4.1'), { 'x-dev-principal': me });
    expect(r.status).toBe(402);
    expect(codes(r)).toEqual(['over_budget']);
    expect(h.fake.requests.length).toBe(before);
    expect(router.requests.length).toBe(routed);
    expect(await rowsOf(fid(me))).toEqual([]);
    const speech = await h.post('/v1/relay/speech', { input: 'no money' }, { 'x-dev-principal': me });
    expect(speech.status).toBe(402);
    expect(h.fake.requests.length).toBe(before);
    expect(budgets.checks.at(-1)).toEqual({ fid: fid(me), email: me });
  });

  it('BRK-089 a call’s cost is handed to the budget gate for the caller', async () => {
    const me = person();
    await h.post(
      '/v1/relay/chat/completions',
      chatBody('gpt-4.1', { fake: { usage: { input_tokens: 1000, output_tokens: 0 } } }),
      {
        'x-dev-principal': me,
      },
    );
    expect(budgets.spends.filter((s) => s.fid === fid(me))).toEqual([{ fid: fid(me), micros: 2000 }]);
  });
});

describe('routing', () => {
  it('BRK-113 BRK-015 a rule rewrites the model; the row keeps what was asked and what was used, with the savings', async () => {
    const me = person();
    router.rules.set('gpt-4o', model('gpt-4o-mini'));
    try {
      const body = chatBody('gpt-4o', { fake: { usage: { input_tokens: 1000, output_tokens: 100 } } });
      const r = await h.post('/v1/relay/chat/completions', body, { 'x-dev-principal': me });
      expect(r.status).toBe(200);
      expect(r.json.model).toBe('gpt-4o-mini');
      expect(lastRequest().json).toEqual({ ...body, model: 'gpt-4o-mini' });
      const [row] = await rowsOf(fid(me));
      expect(row).toMatchObject({ model: 'gpt-4o-mini', requested_model: 'gpt-4o' });
      // gpt-4o: 1000 × 2.5 + 100 × 10 = 3500; gpt-4o-mini: 1000 × 0.15 + 100 × 0.6 = 210; saved 3290.
      expect(row.cost_micros).toBe(210);
      expect(row.routing_savings_micros).toBe(3290);
      const decisions = await h.db
        .selectFrom('routing_decisions')
        .selectAll()
        .where('actor_fid', '=', fid(me))
        .execute();
      expect(decisions).toHaveLength(1);
      expect(decisions[0]).toMatchObject({
        outcome: 'rule',
        requested_model: 'gpt-4o',
        model: 'gpt-4o-mini',
        rule_id: 'test-rule',
        savings_micros: 3290,
        provider: 'openai',
      });
    } finally {
      router.rules.delete('gpt-4o');
    }
  });

  it('BRK-114 BRK-015 automatic routing grading lower sends the lower model (streamed too)', async () => {
    const me = person();
    router.graded.set('claude-opus-4-1', model('claude-haiku-4-5'));
    try {
      const r = await h.post(
        '/v1/relay/messages',
        { model: 'claude-opus-4-1', max_tokens: 20, messages: [{ role: 'user', content: 'easy one' }], stream: true },
        { 'x-dev-principal': me },
      );
      expect(r.status).toBe(200);
      expect(lastRequest().json.model).toBe('claude-haiku-4-5');
      expect(r.text).toContain('"model":"claude-haiku-4-5"');
      const [row] = await rowsOf(fid(me));
      expect(row).toMatchObject({
        model: 'claude-haiku-4-5',
        requested_model: 'claude-opus-4-1',
        request_kind: 'messages',
      });
      expect(row.routing_savings_micros).toBeGreaterThan(0);
    } finally {
      router.graded.delete('claude-opus-4-1');
    }
  });

  it('BRK-115 BRK-016 with routing off for the caller the upstream receives the caller’s model even when a rule matches', async () => {
    const me = person();
    router.rules.set('gpt-4.1', model('gpt-4.1-nano'));
    router.off.add(me);
    try {
      const body = chatBody('gpt-4.1');
      const r = await h.post('/v1/relay/chat/completions', body, { 'x-dev-principal': me });
      expect(r.status).toBe(200);
      expect(lastRequest().body.toString()).toBe(JSON.stringify(body));
      const [row] = await rowsOf(fid(me));
      expect(row).toMatchObject({ model: 'gpt-4.1', requested_model: null, routing_savings_micros: 0 });
      const decisions = await h.db
        .selectFrom('routing_decisions')
        .selectAll()
        .where('actor_fid', '=', fid(me))
        .execute();
      expect(decisions.map((d) => [d.outcome, d.model, d.requested_model])).toEqual([['off', 'gpt-4.1', 'gpt-4.1']]);
    } finally {
      router.rules.delete('gpt-4.1');
      router.off.delete(me);
    }
  });

  it('BRK-110 speech is never routed', async () => {
    const asked = router.requests.length;
    const r = await h.post('/v1/relay/speech', { input: 'not routed' }, { 'x-dev-principal': person() });
    expect(r.status).toBe(200);
    expect(router.requests.length).toBe(asked);
  });
});

describe('who is billed', () => {
  it('BRK-180 BRK-188 the service token with X-Platform-On-Behalf-Of bills the named mailbox', async () => {
    const mailbox = `agent-${tag()}@agents.test`;
    const r = await h.post('/v1/relay/chat/completions', chatBody('gpt-4.1'), {
      ...SERVICE_HEADERS,
      'x-platform-on-behalf-of': mailbox,
    });
    expect(r.status).toBe(200);
    const rows = await rowsOf(identityFid(mailbox));
    expect(rows).toHaveLength(1);
    expect(rows[0].actor_fid).toBe(identityFid(mailbox));
  });

  it('BRK-180 the service token alone may relay, billed to the platform service', async () => {
    const before = (await rowsOf('service:platform')).length;
    const r = await h.post('/v1/relay/responses', { model: 'gpt-4.1', input: 'from the platform' }, SERVICE_HEADERS);
    expect(r.status).toBe(200);
    expect((await rowsOf('service:platform')).length).toBe(before + 1);
  });

  it('BRK-169 BRK-170 BRK-189 a personal credential bills the person, stores no credential, and needs no conversation headers', async () => {
    const me = person();
    const { token, clientId } = await credentialToken(me, 'personal');
    const client = new OpenAI({ baseURL: `${h.url}/v1/relay`, apiKey: token, maxRetries: 0 });
    const c = await client.chat.completions.create({
      model: 'gpt-4.1-nano',
      messages: [{ role: 'user', content: 'billed to me' }],
    });
    expect(c.choices[0].message.content).toBe('gpt-4.1-nano heard: billed to me');
    const [row] = await rowsOf(fid(me));
    expect(row.actor_fid).toBe(fid(me));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(clientId);
    expect(Object.keys(row).filter((k) => /client|credential/.test(k))).toEqual([]);
    // The provider never sees the broker credential.
    expect(lastRequest().headers.authorization).not.toContain(token);
    const saved = saver.saved.at(-1);
    expect(saved).toMatchObject({
      api: 'chat',
      provider: 'openai',
      model: 'gpt-4.1-nano',
      replyText: 'gpt-4.1-nano heard: billed to me',
      knowledge: true,
      conversationId: undefined,
      request: { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'billed to me' }] },
    });
    expect(saved?.principal.credential?.client_id).toBe(clientId);
  });

  it('BRK-189 a service credential’s streamed responses call hands its text, response id and conversation headers to the saver', async () => {
    const owner = person();
    const { token, identity, sub } = await credentialToken(owner, 'service');
    const r = await h.post(
      '/v1/relay/responses',
      { model: 'gpt-4.1', input: 'remember this', stream: true },
      { authorization: `Bearer ${token}`, 'x-platform-conversation-id': 'conv-42', 'x-platform-knowledge': 'off' },
    );
    expect(r.status).toBe(200);
    const [row] = await rowsOf(sub);
    expect(row.actor_fid).toBe(sub);
    const saved = saver.saved.at(-1);
    expect(saved).toMatchObject({
      api: 'responses',
      model: 'gpt-4.1',
      replyText: 'gpt-4.1 heard: remember this',
      conversationId: 'conv-42',
      knowledge: false,
    });
    expect(saved?.responseId).toMatch(/^resp_/);
    expect(saved?.principal.email).toBe(identity);
  });

  it('BRK-189 a conversation id over 200 characters is 422 and goes nowhere', async () => {
    const { token } = await credentialToken(person(), 'personal');
    const before = h.fake.requests.length;
    const r = await h.post('/v1/relay/chat/completions', chatBody('gpt-4.1'), {
      authorization: `Bearer ${token}`,
      'x-platform-conversation-id': 'c'.repeat(201),
    });
    expect(r.status).toBe(422);
    expect(r.json.payload.errors[0].field).toBe('headers/x-platform-conversation-id');
    expect(h.fake.requests.length).toBe(before);
  });

  it('BRK-127 BRK-129 calls through the service token or a session are not handed to the conversation saver', async () => {
    const before = saver.saved.length;
    await h.post('/v1/relay/chat/completions', chatBody('gpt-4.1'), {
      ...SERVICE_HEADERS,
      'x-platform-on-behalf-of': 'a@agents.test',
    });
    await h.post('/v1/relay/chat/completions', chatBody('gpt-4.1'), { 'x-dev-principal': person() });
    expect(saver.saved.length).toBe(before);
  });
});

describe('when the row is written', () => {
  it('BRK-121 no usage row exists while the provider is still answering; it exists once the reply is returned', async () => {
    const me = person();
    const r = await fetch(`${h.url}/v1/relay/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dev-principal': me },
      body: JSON.stringify({ ...chatBody('gpt-4.1'), stream: true, fake: { chunks: 6, delay_ms: 30 } }),
    });
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect(await rowsOf(fid(me))).toEqual([]);
    while (!(await reader.read()).done) {
      // read the rest of the stream
    }
    expect(await rowsOf(fid(me))).toHaveLength(1);
  });
});
