import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@platform/kit';
import { injectJson } from '@platform/kit/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { agentsAuthenticator, callerPolicy } from '../src/auth.ts';
import { httpBroker } from '../src/clients/broker.ts';
import { mailDomainOf } from '../src/start.ts';
import {
  type AgentData,
  EDITOR,
  fid,
  type Harness,
  harness,
  OWNER,
  SERVICE_TOKEN,
  STRANGER,
  tag,
  VIEWER,
} from './harness.ts';

/**
 * Call secrets and on-demand calls (spec 3: POST .../call-secret, POST /v1/agents/on-demand/{slug})
 * against a small fake broker relay speaking the OpenAI chat-completions wire format.
 */

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: { role: string; content: string }[] };
}

/** The broker's relay as the agents service calls it: POST /v1/relay/chat/completions. */
class FakeRelay {
  readonly seen: Seen[] = [];
  failing = false;
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      this.seen.push({ path: req.url ?? '', headers: req.headers, body });
      if (this.failing) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"upstream down"}');
        return;
      }
      const last = body.messages?.at(-1)?.content ?? '';
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: 1,
          model: body.model === 'auto' ? 'fake-model-1' : body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${last}` }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        }),
      );
    });
  });
  url = '';
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

const relay = new FakeRelay();
let h: Harness;
beforeAll(async () => {
  await relay.start();
  h = await harness({
    app: { broker: httpBroker({ baseUrl: relay.url, serviceToken: SERVICE_TOKEN, timeoutMs: 5_000 }) },
  });
});
afterAll(async () => {
  await h.close_();
  await relay.close();
});

const read = async (id: string, as: Parameters<Harness['call']>[2] = OWNER) =>
  (await h.call('GET', `/v1/agents/${id}`, as)).data as AgentData & { call_secret_pending: boolean };

const issue = (id: string, as: Parameters<Harness['call']>[2] = OWNER, key?: string) =>
  h.call('POST', `/v1/agents/${id}/call-secret`, as, undefined, key);

const call = (slug: string, secret: string | null, message = 'hello', as: Parameters<Harness['call']>[2] = null) =>
  h.call(
    'POST',
    `/v1/agents/on-demand/${slug}`,
    as === null
      ? { headers: secret === null ? {} : { 'x-platform-on-demand-secret': secret } }
      : {
          headers: {
            ...(typeof as === 'object' && as && 'headers' in as ? as.headers : {}),
            ...(secret === null ? {} : { 'x-platform-on-demand-secret': secret }),
          },
        },
    { data: { message } },
    null,
  );

/** The gateway's token for a person, with the secret. */
const asGateway = async (email: string) => ({ headers: { 'cf-access-jwt-assertion': await h.gatewayToken(email) } });

/** A persistent on-demand agent, started unless told otherwise, with a fresh secret. */
async function onDemand(o: { start?: boolean } = {}) {
  const a = await h.agent({ run_type: 'on_demand', instructions: 'Be brief.' });
  if (o.start !== false) expect((await h.call('POST', `/v1/agents/${a.id}/start`, OWNER, {})).status).toBe(200);
  const r = await issue(a.id);
  expect(r.status).toBe(201);
  return { agent: a, secret: r.data.secret as string };
}

const eventsOf = async (type: string, id: string) =>
  (await h.events(type)).filter((e) => e.payload.data.agent_id === id).map((e) => e.payload.data);

describe('18 call secret', () => {
  it('18 AGT-187 AGT-050 the call secret is in the answer once; call_secret_pending is then true; a replay answers without it', async () => {
    const a = await h.agent({ run_type: 'on_demand' });
    expect((await read(a.id)).call_secret_pending).toBe(false);
    const key = `secret-${tag()}`;
    const r = await issue(a.id, OWNER, key);
    expect(r.status).toBe(201);
    expect(r.data).toMatchObject({ agent_id: a.id, slug: a.slug, call_secret_pending: true });
    expect(r.data.secret).toMatch(/^ods_[A-Za-z0-9_-]{43}$/);
    expect((await read(a.id)).call_secret_pending).toBe(true);
    const replay = await issue(a.id, OWNER, key);
    expect(replay.status).toBe(201);
    expect(replay.data).toEqual({ agent_id: a.id, slug: a.slug, call_secret_pending: true });
    expect(JSON.stringify(replay.body)).not.toContain(r.data.secret);
    expect(await eventsOf('agent.call_secret_issued', a.id)).toHaveLength(1);
  });

  it('18 AGT-052 AGT-187 only the hash is stored, and no response carries it', async () => {
    const { agent, secret } = await onDemand();
    const hash = createHash('sha256').update(secret).digest('hex');
    const stored = await sql<{ h: string }>`SELECT call_secret_hash AS h FROM agents WHERE id = ${agent.id}`.execute(
      h.db,
    );
    expect(stored.rows[0]?.h).toBe(hash);
    const answers = [
      await h.call('GET', `/v1/agents/${agent.id}`),
      await h.call('GET', '/v1/agents'),
      await h.call('GET', `/v1/agents/by-slug/${agent.slug}`),
      await h.call('GET', `/v1/agents/${agent.id}/runs`),
    ];
    for (const a of answers) {
      expect(JSON.stringify(a.body)).not.toContain(hash);
      expect(JSON.stringify(a.body)).not.toContain(secret);
    }
    expect(JSON.stringify(await h.events())).not.toContain(hash);
    expect(JSON.stringify(await h.events())).not.toContain(secret);
  });

  it('18 AGT-187 a new secret replaces the waiting one: the old one no longer calls', async () => {
    const { agent, secret: old } = await onDemand();
    const fresh = (await issue(agent.id)).data.secret as string;
    expect((await call(agent.slug, old, 'hi', await asGateway(OWNER))).status).toBe(403);
    expect((await call(agent.slug, fresh, 'hi', await asGateway(OWNER))).status).toBe(200);
  });

  it('18 AGT-187 an always-on or ephemeral agent gets no secret: 409 agent_not_on_demand, nothing written', async () => {
    const always = await h.agent();
    const parent = await h.agent({ run_type: 'on_demand' });
    const eph = await h.agent({ lifetime: 'ephemeral', run_type: 'on_demand' }, { service: parent.id });
    const before = await h.state();
    for (const a of [always, eph]) {
      const r = await issue(a.id);
      expect(r.status).toBe(409);
      expect(r.errors?.[0]?.code).toBe('agent_not_on_demand');
    }
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-319 AGT-324 AGT-327 an editor issues a secret; a viewer is 403 insufficient_role, a stranger 404, nothing written', async () => {
    const a = await h.agent({ run_type: 'on_demand' });
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(EDITOR)}`, { role: 'editor' });
    await h.ok('PUT', `/v1/agents/${a.id}/members/${fid(VIEWER)}`, { role: 'viewer' });
    expect((await issue(a.id, EDITOR)).status).toBe(201);
    const before = await h.state();
    const viewer = await issue(a.id, VIEWER);
    expect(viewer.status).toBe(403);
    expect(viewer.errors?.[0]?.code).toBe('insufficient_role');
    const stranger = await issue(a.id, STRANGER);
    expect(stranger.status).toBe(404);
    expect(await h.state()).toEqual(before);
  });
});

describe('18 on-demand call', () => {
  it('18 AGT-188 AGT-051 AGT-192 with the gateway session and the secret the call answers the broker’s reply, records a run and starts nothing', async () => {
    const { agent, secret } = await onDemand();
    const before = await read(agent.id);
    const seen = relay.seen.length;
    const r = await call(agent.slug, secret, 'What is due today?', await asGateway(STRANGER));
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ reply: 'echo: What is due today?', run_id: expect.any(String) });
    // One turn through the broker's relay, billed to the agent's mailbox, with the service token.
    const sent = relay.seen.slice(seen);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.path).toBe('/v1/relay/chat/completions');
    expect(sent[0]?.headers['x-platform-service-token']).toBe(SERVICE_TOKEN);
    expect(sent[0]?.headers['x-platform-on-behalf-of']).toBe(agent.email);
    expect(sent[0]?.body).toEqual({
      model: 'auto',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is due today?' },
      ],
    });
    const after = await read(agent.id);
    expect(after.call_secret_pending).toBe(false);
    // No pod: nothing the reconciler acts on changed (AGT-192).
    expect([after.desired_state, after.generation, after.observed_generation]).toEqual([
      before.desired_state,
      before.generation,
      before.observed_generation,
    ]);
    const runs = (await h.call('GET', `/v1/agents/${agent.id}/runs`)).data as Record<string, unknown>[];
    expect(runs).toEqual([
      expect.objectContaining({
        id: r.data.run_id,
        reason: 'on_demand',
        outcome: 'completed',
        turns: 1,
        model: 'fake-model-1',
        inbox_item_id: null,
        summary: null,
      }),
    ]);
    const called = await eventsOf('agent.called', agent.id);
    expect(called).toEqual([expect.objectContaining({ run_id: r.data.run_id, reason: 'on_demand' })]);
    expect(JSON.stringify(called)).not.toContain('What is due today?');
    expect(await eventsOf('agent.started', agent.id)).toHaveLength(1);
  });

  it('18 AGT-191 the secret is consumed on success: a second call with it is 403 on_demand_secret_invalid, the agent not called', async () => {
    const { agent, secret } = await onDemand();
    expect((await call(agent.slug, secret, 'one', await asGateway(OWNER))).status).toBe(200);
    const seen = relay.seen.length;
    const before = await h.state();
    const again = await call(agent.slug, secret, 'two', await asGateway(OWNER));
    expect(again.status).toBe(403);
    expect(again.errors?.[0]?.code).toBe('on_demand_secret_invalid');
    expect(relay.seen.length).toBe(seen);
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-191 10 concurrent calls with one secret: exactly one succeeds, the others are 403', async () => {
    const { agent, secret } = await onDemand();
    const gw = await asGateway(OWNER);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(agent.slug, secret, `c${i}`, gw)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(403)]);
    expect(
      answers.filter((r) => r.status === 403).every((r) => r.errors?.[0]?.code === 'on_demand_secret_invalid'),
    ).toBe(true);
    const runs = (await h.call('GET', `/v1/agents/${agent.id}/runs`)).data as unknown[];
    expect(runs).toHaveLength(1);
    expect(await eventsOf('agent.called', agent.id)).toHaveLength(1);
  });

  it('18 AGT-189 without the access-gateway JWT the call is refused and the secret is not consumed', async () => {
    const { agent, secret } = await onDemand();
    const seen = relay.seen.length;
    const before = await h.state();
    const none = await call(agent.slug, secret);
    expect(none.status).toBe(401);
    expect(none.errors?.[0]?.code).toBe('unauthenticated');
    // The service token acting for a person is not the person's gateway session.
    const service = await call(agent.slug, secret, 'hi', {
      headers: { 'x-platform-service-token': SERVICE_TOKEN, 'x-platform-on-behalf-of': OWNER },
    });
    expect(service.status).toBe(401);
    expect(service.errors?.[0]?.code).toBe('gateway_session_required');
    const bare = await call(agent.slug, secret, 'hi', { headers: { 'x-platform-service-token': SERVICE_TOKEN } });
    expect(bare.status).toBe(403);
    // A gateway token of another application is not this one's session.
    const other = await call(agent.slug, secret, 'hi', {
      headers: { 'cf-access-jwt-assertion': await h.gatewayToken(OWNER, 'another-app') },
    });
    expect(other.status).toBe(401);
    expect(relay.seen.length).toBe(seen);
    expect(await h.state()).toEqual(before);
    expect((await read(agent.id)).call_secret_pending).toBe(true);
    expect((await call(agent.slug, secret, 'hi', await asGateway(OWNER))).status).toBe(200);
  });

  it('18 AGT-190 without the secret, or with a wrong one, the call is 403 on_demand_secret_invalid and the agent is not called', async () => {
    const { agent, secret } = await onDemand();
    const gw = await asGateway(OWNER);
    const seen = relay.seen.length;
    const before = await h.state();
    for (const s of [null, '', 'ods_wrong', `${secret}x`]) {
      const r = await call(agent.slug, s, 'hi', gw);
      expect(r.status).toBe(403);
      expect(r.errors?.[0]?.code).toBe('on_demand_secret_invalid');
    }
    expect(relay.seen.length).toBe(seen);
    expect(await h.state()).toEqual(before);
  });

  it('18 AGT-193 AGT-194 start makes an on-demand agent accept calls; stop turns it off (409, the secret kept)', async () => {
    const { agent, secret } = await onDemand({ start: false });
    const gw = await asGateway(OWNER);
    const before = await h.state();
    const stopped = await call(agent.slug, secret, 'hi', gw);
    expect(stopped.status).toBe(409);
    expect(stopped.errors?.[0]?.code).toBe('agent_not_accepting_calls');
    expect(await h.state()).toEqual(before);
    expect((await h.call('POST', `/v1/agents/${agent.id}/start`, OWNER, {})).status).toBe(200);
    expect((await call(agent.slug, secret, 'hi', gw)).status).toBe(200);

    const next = (await issue(agent.id)).data.secret as string;
    expect((await h.call('POST', `/v1/agents/${agent.id}/stop`, OWNER, {})).status).toBe(200);
    const seen = relay.seen.length;
    const off = await call(agent.slug, next, 'hi', gw);
    expect(off.status).toBe(409);
    expect(off.errors?.[0]?.code).toBe('agent_not_accepting_calls');
    expect(relay.seen.length).toBe(seen);
    expect((await read(agent.id)).call_secret_pending).toBe(true);
  });

  it('18 AGT-188 an always-on agent holding a secret takes no call: 409 agent_not_on_demand', async () => {
    const { agent, secret } = await onDemand();
    await sql`UPDATE agents SET run_type = 'always_on' WHERE id = ${agent.id}`.execute(h.db);
    const r = await call(agent.slug, secret, 'hi', await asGateway(OWNER));
    expect(r.status).toBe(409);
    expect(r.errors?.[0]?.code).toBe('agent_not_on_demand');
  });

  it('18 AGT-188 an unknown slug is 404 agent_not_found', async () => {
    const r = await call(`nobody-${tag()}`, 'ods_x', 'hi', await asGateway(OWNER));
    expect(r.status).toBe(404);
    expect(r.errors?.[0]?.code).toBe('agent_not_found');
  });

  it('18 AGT-188 a broker that does not answer is 502 broker_unavailable; nothing is consumed or recorded', async () => {
    const { agent, secret } = await onDemand();
    const before = await h.state();
    relay.failing = true;
    try {
      const r = await call(agent.slug, secret, 'hi', await asGateway(OWNER));
      expect(r.status).toBe(502);
      expect(r.errors?.[0]?.code).toBe('broker_unavailable');
    } finally {
      relay.failing = false;
    }
    expect(await h.state()).toEqual(before);
    expect((await read(agent.id)).call_secret_pending).toBe(true);
    expect((await call(agent.slug, secret, 'hi', await asGateway(OWNER))).status).toBe(200);
  });

  it('18 AGT-188 without a broker configured the call is 503 broker_not_configured, the secret kept', async () => {
    // The same service on the same database, built without a broker (AGENTS_BROKER_URL unset).
    const bare = await buildApp({
      database: h.database,
      authenticator: agentsAuthenticator(h.config),
      callers: callerPolicy(h.config),
      mailDomain: mailDomainOf(h.config),
      clock: () => h.now(),
      logLevel: 'silent',
    });
    try {
      const { agent, secret } = await onDemand();
      const before = await h.state();
      const r = await injectJson(bare as App, 'POST', `/v1/agents/on-demand/${agent.slug}`, {
        headers: { 'x-dev-principal': OWNER, 'x-platform-on-demand-secret': secret },
        body: { data: { message: 'hi' } },
      });
      expect(r.status).toBe(503);
      expect(r.errors?.[0]?.code).toBe('broker_not_configured');
      expect(await h.state()).toEqual(before);
      expect((await read(agent.id)).call_secret_pending).toBe(true);
    } finally {
      await bare.close();
    }
  });
});
